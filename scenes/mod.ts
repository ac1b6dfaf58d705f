/**
 * `scenes/`: every paper scene as data, at scales `tiny`, `small`, `medium` and `paper`.
 *
 * @module
 */
export * from "./catalog.ts";
export * from "./dam_break.ts";
export * from "./fluid_on_cloth.ts";
export * from "./fluid_on_wall.ts";
