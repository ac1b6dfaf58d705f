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
export * from "./grouping/collision_rules.ts";
export * from "./grouping/grouping.ts";
export * from "./grouping/index_order_grouping.ts";
export * from "./grouping/grouping_census.ts";
export * from "./merge_orders.ts";
export * from "./merge_order.ts";
export * from "./rng.ts";
export * from "./baselines.ts";
export * from "./result.ts";
export * from "./reference/peridynamics_reference.ts";
export * from "./reference/flip_reference.ts";
export * from "./flip_density_correction.ts";
export * from "./martin_moyce.ts";
export * from "./reference/velocity_projection_reference.ts";
export * from "./reference/akinci_reference.ts";
export * from "./scene/solid_shape.ts";
export * from "./setups.ts";
