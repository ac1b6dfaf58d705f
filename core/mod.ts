/**
 * `core/`: pure TypeScript, f64 math of particle merging-and-splitting (Truong et al., IEEE TVCG
 * 2021) and the model the systems share (`core/model/`: springs, bonds, SPH kernels and
 * parameters, the FLIP grid). Depends on nothing. The f64 references of `core/reference/` are the
 * tests' oracles, imported by path, not part of this surface.
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
export * from "./flip_density_correction.ts";
export * from "./martin_moyce.ts";
export * from "./scene/solid_shape.ts";
export * from "./model/spring.ts";
export * from "./model/spring_table.ts";
export * from "./model/column_builder.ts";
export * from "./model/cloth_springs.ts";
export * from "./model/dof_flags.ts";
export {
  bondDamping,
  type BondDampingOptions,
  type BondMaterial,
  type Bonds,
  bondSpringTable,
  bondStiffness,
  buildBonds,
  type BuildBondsOptions,
  HORIZON_TOLERANCE,
} from "./model/peridynamic_bonds.ts";
export type { PerBody } from "./model/peridynamic_inputs.ts";
export * from "./model/peridynamic_constants.ts";
export * from "./model/sph_kernels.ts";
export * from "./model/sph_params.ts";
export * from "./model/sph_walls.ts";
export * from "./model/akinci_params.ts";
export {
  AXIS_KEYS,
  CELL_AIR,
  CELL_FLUID,
  CELL_SOLID,
  cellCenter,
  cellCoords,
  cellCount,
  cellId,
  cellOfPoint,
  FACE_FLUID,
  FACE_INACTIVE,
  FACE_SOLID,
  FACE_WALL,
  type FaceArrays,
  faceCoords,
  faceCounts,
  faceDims,
  faceId,
  facePosition,
  FLIP_MAX_CELLS,
  type FlipAxis,
  type FlipGrid,
  flipGrid,
  type OccupiedReading,
  uFaceId,
  type Vec3Like,
  vFaceId,
  wFaceId,
} from "./model/flip_grid.ts";
export * from "./setups.ts";
