/**
 * `scenes/`: every paper scene as data, at scales `tiny`, `small`, `medium` and `paper`.
 *
 * @module
 */
export * from "./catalog.ts";
export * from "./dam_break.ts";
export * from "./fluid_on_cloth.ts";
export * from "./fluid_on_wall.ts";
export * from "./cloth_tori.ts";
export * from "./dam_break_wall.ts";
export * from "./bowl_on_water.ts";
export * from "./sph_water.ts";
