/**
 * The `Handler` plug-in interface: a collision handler (merge-split, or a baseline) hooks into a
 * step at fixed points and never sees a system. The engine calls, per stage: `encodeBegin`
 * (merge-split groups colliding pairs and merges them into DOFs; without it every particle is its
 * own DOF), `encodeBeforeForces` (what the systems' forces read: Akinci's boundary density), the
 * systems' forces, `encodeForces` (penalty and SPH-based forces into
 * `state.handlerForce`), the systems' integration and the coupling, `encodeEnd` (merge-split
 * splits the DOFs into particle velocities; without it each particle takes its DOF's velocity);
 * after the last stage `encodeEndOfStep` (impulses).
 *
 * @module
 */
import type { GroupingRecord, SplitRecord } from "../../core/result.ts";
import type { ParamSchema, ParamValues } from "../../core/params.ts";
import type { Scene } from "../../core/scene/scene.ts";
import type { ParticleState } from "../state/particle_state.ts";
import type { CollisionOutputs } from "../state/collision_detection.ts";
import type { GridGeometry } from "../state/neighbor_grid.ts";
import type { HandlerStatistics } from "../state/handler_statistics.ts";

/** What a handler is built from. */
export interface HandlerContext {
  device: GPUDevice;
  scene: Scene;
  /** Its parameters, resolved against its schema (scene values and command-line overrides). */
  params: ParamValues;
  state: ParticleState;
  /** Collision detection's outputs of the step (pairs, marked pairs, contacts). */
  collisions: CollisionOutputs;
  /** Slots per particle of the pair and contact lists. */
  maxPerParticle: number;
  grid: { geometry: GridGeometry; cellStart: GPUBuffer; sorted: GPUBuffer };
  /**
   * The loop budget of its one-workgroup kernels (`gpu/runtime/local_solve.ts`): undefined, the
   * device's; null, a GPU's plan on any device (its dispatch counts, e.g. on a software adapter).
   */
  localBudget?: number | null;
  /** `EngineOptions.oneWorkgroupGrouping`: merge-split's index-order grouping in one workgroup where it can. */
  oneWorkgroupGrouping?: boolean;
}

/** A handler built for one scene. */
export interface GpuHandler {
  readonly id: string;
  /** Integration stages per step: 2 for merge-split's two-stage integration (§5.1). */
  readonly stages: 1 | 2;
  /**
   * The statistics it keeps on the GPU, when it keeps any (`gpu/state/handler_statistics.ts`; its
   * own folder names them): the metrics sample the words it names for a row's handler columns,
   * the engine reads them back by name. Merge-split: its conservation errors and meta-particle
   * counts. Destroyed by the handler.
   */
  readonly stats?: HandlerStatistics;
  /**
   * What the handler adds to a record's `gpu` section, from its statistics read back at the end
   * of a run (merge-split: its grouping, `GroupingRecord`, and splits, `SplitRecord`); nothing when absent.
   */
  report?(
    stats: Readonly<Record<string, number>>,
  ): { grouping?: GroupingRecord; splits?: SplitRecord };
  /**
   * Before each step's passes, on its command encoder: per-step parameters (e.g. the step index),
   * written so that steps sharing a submit each see their own (`gpu/runtime/step_param_ring.ts`:
   * copies, no dispatch).
   */
  prepareStep?(step: number, encoder: GPUCommandEncoder): void;
  /**
   * Decides on the GPU whether `stage` runs: encodes the decision into `pass` and returns the
   * flag (an `array<u32>` and the word; nonzero runs the stage), or nothing when the stage always
   * runs. The engine then gates every dispatch of the stage on it (`gpu/runtime/dispatch_gate.ts`)
   * with no host sync. The flag's buffer and word must be the same every step. Merge-split: stage 2
   * runs only when a marked pair approaches after stage 1 (§5.1); otherwise it would repeat
   * stage 1 bit for bit.
   */
  encodeStageFlag?(
    pass: GPUComputePassEncoder,
    stage: 1 | 2,
  ): { buffer: GPUBuffer; word: number } | undefined;
  /** Builds the DOF map of `stage` into `pass`; absent: every particle its own DOF. */
  encodeBegin?(pass: GPUComputePassEncoder, stage: 1 | 2): void;
  /**
   * Before the systems' forces of each stage: writes what they read from the handler, i.e.
   * `state.buffers.boundaryDensity` (the boundary term of the SPH density, Akinci et al. 2012,
   * Eq. 6).
   */
  encodeBeforeForces?(encoder: GPUCommandEncoder): void;
  /** Adds its per-particle forces into `state.buffers.handlerForce` (already cleared). */
  encodeForces?(encoder: GPUCommandEncoder): void;
  /** Particle velocities of `stage` into `state.buffers.velOut`; absent: the DOF's velocity. */
  encodeEnd?(pass: GPUComputePassEncoder, stage: 1 | 2): void;
  /** Rewrites `velOut` after the last stage (e.g. impulses). */
  encodeEndOfStep?(encoder: GPUCommandEncoder): void;
  destroy(): void;
}

/** A registered handler: what it is, its parameters and how to build it. */
export interface HandlerEntry {
  /** String id, e.g. `merge-split`, `penalty-weak`. */
  id: string;
  description: string;
  /** Its parameters (values in `scene.handlers[id]`, overridable by `--param id.name=value`). */
  params: ParamSchema;
  /**
   * Run only when named by its exact id (`--handler penalty`), never through `*`, a glob or a
   * suite: a handler family at explicit parameter values (`--param`, `--sweep`), beside its named
   * levels.
   */
  explicitOnly?: boolean;
  /**
   * Why it cannot run on `scene` even where the scene lists it or `*` (e.g. a fluid coupling on a
   * scene without an SPH fluid), or nothing when it can. A suite skips such a case; the engine
   * refuses it with this reason.
   */
  notApplicable?(scene: Scene): string | undefined;
  /** The neighbour radius its kernels need from the grid (m), if any. */
  neighborRadius?(params: ParamValues, scene: Scene): number;
  /** Checks across its parameters; throw a `ParamError` naming `field` and the parameter. */
  checkParams?(params: ParamValues, field: string): void;
  create(ctx: HandlerContext): GpuHandler;
}
