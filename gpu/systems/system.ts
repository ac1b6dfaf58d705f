/**
 * The `System` plug-in interface: a simulation system (mass-spring cloth, SPH, later
 * peridynamics and FLIP) integrates the particles of the bodies it owns, on DOFs, with its own
 * integrator. It never sees a handler or another system: the engine gives it the shared particle
 * state, the neighbour grid and its slice of the coupling's part buffers (the mass and handler
 * forces of its part of every DOF in, its velocity out), and the coupling merges the K results
 * (Eqs. 17–19).
 *
 * @module
 */
import type { ParamSchema, ParamValues } from "../../core/params.ts";
import type { CaseRecord } from "../../core/result.ts";
import type { Scene } from "../../core/scene/scene.ts";
import type { ParticleSet } from "../../core/scene/scene_builder.ts";
import type { GridGeometry } from "../state/neighbor_grid.ts";
import type { ParticleState } from "../state/particle_state.ts";
import type { PartSlice } from "../state/part_slice.ts";

/**
 * Statistics of an implicit solve (the last one, and per stage over the run): the result record's
 * `solvers` entry (`core/result.ts`), defined once.
 */
export type SolverStats = NonNullable<CaseRecord["solvers"]>[string];

/** What a system is built from. */
export interface SystemContext {
  device: GPUDevice;
  scene: Scene;
  /** Its parameters, resolved against its schema. */
  params: ParamValues;
  particles: ParticleSet;
  /** Its index s among the scene's systems (the value of `state.system` for its particles). */
  index: number;
  /** Per particle: 1 when this system integrates it. */
  owned: Uint32Array;
  state: ParticleState;
  /** The neighbour grid: geometry, `cellStart`, `sorted` (gpu/README.md). */
  grid: { geometry: GridGeometry; cellStart: GPUBuffer; sorted: GPUBuffer };
  /** Its part of every DOF (`gpu/state/part_slice.ts`). */
  part: PartSlice;
  /**
   * The loop budget of its one-workgroup solves (`gpu/runtime/local_solve.ts`): undefined, the
   * device's (`deviceLoopBudget`); null, none (a GPU's plan, e.g. counted on a software adapter).
   */
  localBudget?: number | null;
}

/** A system built for one scene: the engine calls these at fixed points of every stage. */
export interface GpuSystem {
  readonly id: string;
  /**
   * Per-particle forces that depend on the DOF state at the start of the stage (e.g. SPH density
   * and pressure), before the handler's forces. May encode nothing.
   */
  encodeForces(encoder: GPUCommandEncoder): void;
  /**
   * Integrates its part of every DOF with `part.mass > 0`: writes the new velocity into
   * `part.vel` (positions are updated by the coupling from the synchronised velocity). `stage` is
   * the stage of the two-stage integration (§5.1; 1 when the handler has one): an implicit system
   * may start stage 2's solve from stage 1's solution.
   */
  encodeIntegrate(encoder: GPUCommandEncoder, options?: { stage: 1 | 2 }): void;
  /**
   * After the step's write-back, on the particle positions (e.g. bond breaking). May be absent.
   */
  encodeEndOfStep?(encoder: GPUCommandEncoder): void;
  /** Statistics of its last implicit solve (implicit systems only; one readback). */
  readSolverStats?(): Promise<SolverStats>;
  destroy(): void;
}

/** A registered system: what it is, its parameters and how to build it. */
export interface SystemEntry {
  /** String id, e.g. `mass-spring`; a body names it in `system`, or is claimed by its kind. */
  id: string;
  description: string;
  /** `explicit`, `implicit` or `semi-implicit`. */
  integrator: "explicit" | "implicit" | "semi-implicit";
  /** Body kinds it integrates when a body names no system. */
  bodyKinds: readonly string[];
  /** Its parameters (values in `scene.systems[id]`). */
  params: ParamSchema;
  /** Whether particles of one of its bodies collide with each other (bonded pairs never do). */
  selfCollision: boolean;
  /** The neighbour radius its kernels need from the grid (m); the cell is at least this. */
  neighborRadius?(params: ParamValues, scene: Scene): number;
  /** Checks of its parameters against the scene; throw a `ParamError` naming the field. */
  checkScene?(params: ParamValues, scene: Scene): void;
  create(ctx: SystemContext): GpuSystem;
}
