/**
 * `core/`: pure TypeScript, f64 reference math of particle merging-and-splitting
 * (Truong et al., IEEE TVCG 2021). Depends on nothing.
 *
 * @module
 */
export * from "./vec3.ts";
export * from "./particle.ts";
export * from "./merge_split.ts";
export * from "./sync_velocity.ts";
export * from "./collision_rules.ts";
export * from "./grouping.ts";
export * from "./index_order_grouping.ts";
export * from "./grouping_census.ts";
export * from "./rng.ts";
export * from "./baselines.ts";
export * from "./result.ts";
export * from "./peridynamics_reference.ts";
export * from "./flip_reference.ts";
export * from "./flip_density_correction.ts";
export * from "./martin_moyce.ts";
export * from "./velocity_projection_reference.ts";
export * from "./akinci_reference.ts";
export * from "./solid_shape.ts";
