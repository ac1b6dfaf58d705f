/**
 * Merging-and-splitting on the GPU (paper §3–§5): grouping with size limits (§5.2), merging
 * (Eqs. 1–5) into the DOF map of `gpu/README.md`, member offsets (Eqs. 6–7), the stage-2 marking
 * of the two-stage integration (§5.1), and splitting (Eqs. 8–16, 20) in the reverse order of
 * merging. The f64 references are `core/grouping/grouping.ts` and `core/merge_split.ts`.
 *
 * Grouping runs in parallel (`grouping.ts`: rounds of pairwise merging within the size limits,
 * or connected components without them); merging and splitting run one invocation per group. Handlers that merge nothing use the identity DOF map of
 * `gpu/state/particle_state.ts`, so every handler feeds the systems through the same DOF map.
 *
 * No kernel binds more than 8 storage buffers (WebGPU's guaranteed
 * `maxStorageBuffersPerShaderStage`): merging folds each group into its level data and the DOF's
 * X, and hands its V and M over in the root's slot to `merge_dofs`, which writes them and every
 * member's offset; the split reads the group's range from the root's other slot and the member's
 * split direction from its level data, so it binds neither the member starts nor the velocities
 * (`merge_split.wgsl`). The copies are exact.
 *
 * Per stage: the grouping, 2 merging dispatches, 1 splitting; before stage 2, one that flags the
 * approaching marked pairs (the flag stage 1's merging clears).
 *
 * @module
 */
import { defineStruct, type StructLayout } from "../../runtime/struct_layout.ts";
import { StepParamRing } from "../../runtime/step_param_ring.ts";
import {
  type BindingEntry,
  type BindingResources,
  bindKernel,
  createKernel,
  dispatch,
  type Kernel,
} from "../../runtime/kernel.ts";
import { type GroupingBuffers, GroupingKernels } from "./grouping.ts";
import type { GroupingMethod } from "../../../core/grouping/index_order_grouping.ts";
import type { MergeOrder } from "../../../core/merge_orders.ts";
import { MERGE_SPLIT_STATS } from "./merge_split_stats.ts";
import mergeSplitWgsl from "./merge_split.wgsl" with { type: "text" };

/** WGSL source of the merge/split kernels. */
export const MERGE_SPLIT_WGSL: string = mergeSplitWgsl;

/** Layout of `MergeSplitParams` in `merge_split.wgsl`. */
export const MERGE_SPLIT_PARAMS: StructLayout = defineStruct("MergeSplitParams", [
  ["count", "u32"],
  ["maxPerParticle", "u32"],
  ["stage", "u32"],
  ["alpha", "f32"],
  ["beta", "f32"],
]);

/** The buffers the kernels read and write (owned by the engine), the grouping's included. */
export interface MergeSplitBuffers extends GroupingBuffers {
  pos: GPUBuffer;
  vel: GPUBuffer;
  mass: GPUBuffer;
  offset: GPUBuffer;
  dofX: GPUBuffer;
  dofV: GPUBuffer;
  dofM: GPUBuffer;
  /** N vec4f of per-level merge data: n_k and ΔE_k (see the WGSL header). */
  level: GPUBuffer;
  /** N vec4f of per-level merge data: the meta (V, M) merged with each member. */
  levelParent: GPUBuffer;
  /** `array<f32>` per DOF: ΔĒk of the synchronisation (Eq. 19), read by the split (Eq. 20). */
  syncEnergy: GPUBuffer;
  velOut: GPUBuffer;
}

/** Parameters of one step. */
export interface MergeSplitStepParams {
  count: number;
  seed: number;
  step: number;
  alpha: number;
  beta: number;
  nMin: number;
  nMax: number;
}

type KernelName = "merge" | "dofs" | "mark" | "split";

/** Particles above which a member range, handed to the split as f32, would not be exact. */
const MAX_CAPACITY = 2 ** 24;

/**
 * The merge-split pipelines. Each layout holds only the bindings its entry point uses: at most 8
 * storage buffers (WebGPU's guaranteed maxStorageBuffersPerShaderStage); merging hands the DOF and
 * the group's range over in the root's level slots (merge_split.wgsl) to stay within them.
 */
function createMergeSplitKernels(
  device: GPUDevice,
  wg: number,
  capacity: number,
): Record<KernelName, Kernel> {
  const code = MERGE_SPLIT_WGSL;
  // the partners of the member list start at word `capacity` (the grouping's N)
  const constants = { WG: wg, PARTNERS_AT: capacity, ...MERGE_SPLIT_STATS.constantsFor(code) };
  const R = "read-only-storage" as const;
  const W = "storage" as const;
  const U = "uniform" as const;
  const kernel = (entryPoint: string, bindings: BindingEntry[]) =>
    createKernel(device, {
      label: `merge-split ${entryPoint}`,
      code,
      entryPoint,
      bindings,
      constants,
    });
  return {
    merge: kernel("merge_groups", [U, R, R, R, R, R, W, W, W]),
    dofs: kernel("merge_dofs", [U, R, R, R, R, W, W, W, W]),
    mark: kernel("mark_approaching", [U, R, R, R, W, W, W]),
    split: kernel("split_groups", [U, R, R, R, R, R, R, W, W]),
  };
}

/** Pipelines and bind groups of merging-and-splitting for one set of engine buffers. */
export class MergeSplitKernels {
  readonly device: GPUDevice;
  readonly capacity: number;
  readonly maxPerParticle: number;
  readonly workgroupSize: number;
  /**
   * `array<u32>`: [0] the marked pairs that approach after stage 1 this step, cleared by stage 1's
   * {@link MergeSplitKernels.encodeMerge} and counted by
   * {@link MergeSplitKernels.encodeStage2Flag}: the flag that gates stage 2 (nonzero: it runs).
   */
  readonly stage2Flag: GPUBuffer;
  #params: [GPUBuffer, GPUBuffer];
  #ring: StepParamRing;
  /** The grouping kernels (its method and dispatches per stage are read for the records). */
  readonly grouping: GroupingKernels;
  #k: Record<KernelName, Kernel>;
  #bg: Record<string, GPUBindGroup> = {};

  /**
   * @param device the GPU device
   * @param options.capacity particle capacity N; options.maxPerParticle K of the pair lists
   */
  constructor(
    device: GPUDevice,
    options: {
      capacity: number;
      maxPerParticle: number;
      buffers: MergeSplitBuffers;
      workgroupSize?: number;
      /** Rounds of pairwise merging per stage at most (`core/grouping/grouping.ts`). */
      maxRounds?: number;
      /** Most active particles whose grouping rounds run in one workgroup (`grouping.ts`). */
      localLimit?: number;
      /**
       * Loop budget of that workgroup's invocations (`grouping.ts`; smaller in tests; null: a
       * GPU's plan on any device).
       */
      localBudget?: number | null;
      /** Whether the whole grouping runs in one workgroup (`grouping.ts`; default by N). */
      smallGrouping?: boolean;
      /** The index-order grouping in one workgroup wherever it can (`grouping.ts` `preferSmall`). */
      preferSmallGrouping?: boolean;
      /** The grouping (`grouping.ts`; default `compact`): `index-order` is the paper's pass. */
      grouping?: GroupingMethod;
      /** The merge order (`core/merge_orders.ts`; default `colliding-pairs`, the paper's). */
      mergeOrder?: MergeOrder;
      /** Loop budget of the index-order pass per component (`grouping.ts`; smaller in tests). */
      floodBudget?: number;
    },
  ) {
    if (!(options.capacity < MAX_CAPACITY)) {
      throw new RangeError(
        `merge-split: capacity ${options.capacity} must be below ${MAX_CAPACITY} (member ranges ` +
          "reach the split as f32)",
      );
    }
    this.device = device;
    this.capacity = options.capacity;
    this.maxPerParticle = options.maxPerParticle;
    this.workgroupSize = options.workgroupSize ?? 64;
    const mk = (label: string) =>
      device.createBuffer({
        label,
        size: Math.ceil(MERGE_SPLIT_PARAMS.size / 16) * 16,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      });
    this.#params = [mk("merge-split params stage 1"), mk("merge-split params stage 2")];
    this.#ring = new StepParamRing(device, {
      label: "merge-split params",
      targets: this.#params,
      bytes: MERGE_SPLIT_PARAMS.size,
    });
    const b = options.buffers;
    this.stage2Flag = device.createBuffer({
      label: "merge-split stage-2 flag",
      size: 16,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    });
    this.grouping = new GroupingKernels(device, {
      count: options.capacity,
      maxPerParticle: options.maxPerParticle,
      buffers: b,
      maxRounds: options.maxRounds,
      localLimit: options.localLimit,
      localBudget: options.localBudget,
      small: options.smallGrouping,
      preferSmall: options.preferSmallGrouping,
      method: options.grouping,
      mergeOrder: options.mergeOrder,
      floodBudget: options.floodBudget,
      workgroupSize: this.workgroupSize,
    });
    this.#k = createMergeSplitKernels(device, this.workgroupSize, options.capacity);
    for (const stage of [0, 1] as const) this.#bindStage(stage, b);
  }

  /** The bind groups of stage `s` (0 or 1): its params and the shared buffers `b`. */
  #bindStage(s: 0 | 1, b: MergeSplitBuffers): void {
    const P = this.#params[s];
    const bind = (name: KernelName, resources: BindingResources) => {
      this.#bg[`${name}${s}`] = bindKernel(this.device, this.#k[name], resources, {
        label: `${this.#k[name].label} stage ${s + 1} bind group`,
      });
    };
    bind("merge", [
      P,
      b.pos,
      b.vel,
      b.mass,
      b.memberStart,
      b.memberList,
      b.level,
      b.levelParent,
      b.dofX,
    ]);
    bind("dofs", [
      P,
      b.dof,
      b.pos,
      b.dofX,
      b.levelParent,
      b.dofV,
      b.dofM,
      b.offset,
      this.stage2Flag,
    ]);
    bind("mark", [P, b.pos, b.velOut, b.markedCount, b.marked, this.stage2Flag, b.stats]);
    bind("split", [
      P,
      b.mass,
      b.level,
      b.levelParent,
      b.memberList,
      b.dofV,
      b.syncEnergy,
      b.velOut,
      b.stats,
    ]);
  }

  /**
   * Sets the parameters of both stages, the grouping's included, for the step encoded next on
   * `encoder` (`StepParamRing`: steps that share a submit each see their own); without an
   * encoder, for the next submit.
   */
  setParams(p: MergeSplitStepParams, encoder?: GPUCommandEncoder): void {
    if (p.count > this.capacity) {
      throw new RangeError(`count ${p.count} exceeds capacity ${this.capacity}`);
    }
    const pack = (stage: number) =>
      MERGE_SPLIT_PARAMS.pack({
        count: p.count,
        maxPerParticle: this.maxPerParticle,
        stage,
        alpha: p.alpha,
        beta: p.beta,
      });
    this.#ring.write([pack(1), pack(2)], encoder);
    this.grouping.setParams(p, encoder);
  }

  #run(pass: GPUComputePassEncoder, name: KernelName, stage: 1 | 2, n: number) {
    dispatch(pass, this.#k[name], {
      bindGroup: this.#bg[`${name}${stage - 1}`],
      invocations: n,
      workgroupSize: this.workgroupSize,
    });
  }

  /** Grouping (§5.2) of `stage`: `dof` and the member lists (`grouping.ts`). */
  encodeGroup(pass: GPUComputePassEncoder, options: { stage: 1 | 2 }): void {
    this.grouping.encode(pass, options);
  }

  /**
   * Merging (Eqs. 1–5) and member offsets (Eqs. 6–7) into the DOF buffers: 2 dispatches, per
   * group then per particle. Stage 1's also clears {@link MergeSplitKernels.stage2Flag}.
   */
  encodeMerge(pass: GPUComputePassEncoder, options: { stage: 1 | 2; count: number }): void {
    this.#run(pass, "merge", options.stage, options.count);
    this.#run(pass, "dofs", options.stage, options.count);
  }

  /**
   * Flags the marked pairs that approach with the velocities in `velOut` (the stage-2 pairs,
   * §5.1, Eq. 22) and counts them into {@link MergeSplitKernels.stage2Flag} (cleared by stage 1's
   * merging, or zero on a new buffer); counts the step in statistic `stage2Runs`
   * (`merge_split_stats.ts`) when any approaches: 1 dispatch.
   */
  encodeStage2Flag(pass: GPUComputePassEncoder, options: { count: number }): void {
    this.#run(pass, "mark", 1, options.count);
  }

  /**
   * Splitting (Eqs. 8–16, 20) of every DOF into `velOut`, after the same stage's
   * {@link MergeSplitKernels.encodeMerge}: 1 dispatch.
   */
  encodeSplit(pass: GPUComputePassEncoder, options: { stage: 1 | 2; count: number }): void {
    this.#run(pass, "split", options.stage, options.count);
  }

  /** Frees the kernels' own buffers. */
  destroy(): void {
    this.#params.forEach((b) => b.destroy());
    this.#ring.destroy();
    this.grouping.destroy();
    this.stage2Flag.destroy();
  }
}
