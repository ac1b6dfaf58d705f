/**
 * Merging-and-splitting on the GPU (paper §3–§5): grouping with size limits (§5.2), merging
 * (Eqs. 1–5) into the DOF map of `gpu/README.md`, member offsets (Eqs. 6–7), the stage-2 marking
 * of the two-stage integration (§5.1), and splitting (Eqs. 8–16, 20) in the reverse order of
 * merging. The f64 references are `core/grouping.ts` and `core/merge_split.ts`.
 *
 * Grouping runs in one GPU invocation (a union–find over the pairs in lexicographic order, as
 * the paper's "merging in the order of particle indices" prescribes); merging and splitting run
 * one invocation per group. Handlers that merge nothing use the identity DOF map of
 * `gpu/state/particle_state.ts`, so every handler feeds the systems through the same DOF map.
 *
 * @module
 */
import { defineStruct, type StructLayout } from "../../runtime/struct_layout.ts";
import { bindKernel, createKernel, dispatch, type Kernel } from "../../runtime/kernel.ts";
import { HANDLER_STATS, HANDLER_STATS_CONSTANTS } from "../../state/particle_state.ts";

/** WGSL source of the merge/split kernels. */
export const MERGE_SPLIT_WGSL: string = Deno.readTextFileSync(
  new URL("./merge_split.wgsl", import.meta.url),
);

/** Layout of `MergeSplitParams` in `merge_split.wgsl`. */
export const MERGE_SPLIT_PARAMS: StructLayout = defineStruct("MergeSplitParams", [
  ["count", "u32"],
  ["maxPerParticle", "u32"],
  ["stage", "u32"],
  ["seed", "u32"],
  ["step", "u32"],
  ["nMin", "u32"],
  ["nMax", "u32"],
  ["alpha", "f32"],
  ["beta", "f32"],
]);

/** Indices into the `stats` buffer (u32 each): the shared handler statistics. */
export const STATS: typeof HANDLER_STATS = HANDLER_STATS;

/** The buffers the kernels read and write (owned by the engine). */
export interface MergeSplitBuffers {
  pos: GPUBuffer;
  vel: GPUBuffer;
  mass: GPUBuffer;
  pairCount: GPUBuffer;
  pairs: GPUBuffer;
  markedCount: GPUBuffer;
  marked: GPUBuffer;
  dof: GPUBuffer;
  memberStart: GPUBuffer;
  memberList: GPUBuffer;
  offset: GPUBuffer;
  dofX: GPUBuffer;
  dofV: GPUBuffer;
  dofM: GPUBuffer;
  /** 2N vec4f of per-level merge data (see the WGSL header). */
  level: GPUBuffer;
  /** `array<f32>` per DOF: ΔĒk of the synchronisation (Eq. 19), read by the split (Eq. 20). */
  syncEnergy: GPUBuffer;
  velOut: GPUBuffer;
  stats: GPUBuffer;
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

type KernelName =
  | "groupInit"
  | "groupUnion"
  | "groupClear"
  | "groupRoots"
  | "groupScan"
  | "groupFill"
  | "merge"
  | "offsets"
  | "mark"
  | "split";

/** Particles per invocation of the union loop and of the scan/fill (`merge_split.wgsl`). */
export const UNION_CHUNK = 128;
/** Entries per invocation of the member-list scan and fill. */
export const SCAN_CHUNK = 4096;

/** Pipelines and bind groups of merging-and-splitting for one set of engine buffers. */
export class MergeSplitKernels {
  readonly device: GPUDevice;
  readonly capacity: number;
  readonly maxPerParticle: number;
  readonly workgroupSize: number;
  #params: [GPUBuffer, GPUBuffer];
  #uf: GPUBuffer;
  #ctrl: GPUBuffer;
  #count: GPUBuffer;
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
    },
  ) {
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
    this.#uf = device.createBuffer({
      label: "merge-split union-find scratch",
      size: Math.max(16, 12 * options.capacity),
      usage: GPUBufferUsage.STORAGE,
    });
    this.#ctrl = device.createBuffer({
      label: "merge-split chunk cursors",
      size: 16,
      usage: GPUBufferUsage.STORAGE,
    });
    this.#count = device.createBuffer({
      label: "merge-split member counts",
      size: Math.max(16, 4 * (options.capacity + 1)),
      usage: GPUBufferUsage.STORAGE,
    });
    const code = MERGE_SPLIT_WGSL;
    const constants = {
      WG: this.workgroupSize,
      UNION_CHUNK,
      SCAN_CHUNK,
      ...HANDLER_STATS_CONSTANTS,
    };
    const R = "read-only-storage" as const;
    const W = "storage" as const;
    const U = "uniform" as const;
    this.#k = {
      groupInit: createKernel(device, {
        label: "merge-split group_init",
        code,
        entryPoint: "group_init",
        bindings: [U, R, R, R, R, W, W, W],
        constants,
      }),
      groupUnion: createKernel(device, {
        label: "merge-split group_union",
        code,
        entryPoint: "group_union",
        bindings: [U, R, R, R, R, W, W, W],
        constants,
      }),
      groupClear: createKernel(device, {
        label: "merge-split group_clear",
        code,
        entryPoint: "group_clear",
        bindings: [U, R, W, W],
        constants,
      }),
      groupRoots: createKernel(device, {
        label: "merge-split group_roots",
        code,
        entryPoint: "group_roots",
        bindings: [U, R, W, W],
        constants,
      }),
      groupScan: createKernel(device, {
        label: "merge-split group_scan",
        code,
        entryPoint: "group_scan",
        bindings: [U, R, W, W, W, W, W],
        constants,
      }),
      groupFill: createKernel(device, {
        label: "merge-split group_fill",
        code,
        entryPoint: "group_fill",
        bindings: [U, R, W, W, W, W, W],
        constants,
      }),
      merge: createKernel(device, {
        label: "merge-split merge_groups",
        code,
        entryPoint: "merge_groups",
        bindings: [U, R, R, R, R, R, W, W, W, W],
        constants,
      }),
      offsets: createKernel(device, {
        label: "merge-split member_offsets",
        code,
        entryPoint: "member_offsets",
        bindings: [U, R, R, R, W],
        constants,
      }),
      mark: createKernel(device, {
        label: "merge-split mark_approaching",
        code,
        entryPoint: "mark_approaching",
        bindings: [U, R, R, R, W],
        constants,
      }),
      split: createKernel(device, {
        label: "merge-split split_groups",
        code,
        entryPoint: "split_groups",
        bindings: [U, R, R, R, R, R, R, R, W, W],
        constants,
      }),
    };
    const b = options.buffers;
    for (const s of [0, 1] as const) {
      const P = this.#params[s];
      const union = [
        P,
        b.pairCount,
        b.pairs,
        b.markedCount,
        b.marked,
        this.#uf,
        b.stats,
        this.#ctrl,
      ];
      this.#bg[`groupInit${s}`] = bindKernel(device, this.#k.groupInit, union);
      this.#bg[`groupUnion${s}`] = bindKernel(device, this.#k.groupUnion, union);
      this.#bg[`groupClear${s}`] = bindKernel(device, this.#k.groupClear, [
        P,
        this.#uf,
        b.dof,
        this.#count,
      ]);
      this.#bg[`groupRoots${s}`] = bindKernel(device, this.#k.groupRoots, [
        P,
        this.#uf,
        b.dof,
        this.#count,
      ]);
      const csr = [P, b.dof, this.#count, b.memberStart, b.memberList, this.#ctrl, b.stats];
      this.#bg[`groupScan${s}`] = bindKernel(device, this.#k.groupScan, csr);
      this.#bg[`groupFill${s}`] = bindKernel(device, this.#k.groupFill, csr);
      this.#bg[`merge${s}`] = bindKernel(device, this.#k.merge, [
        P,
        b.pos,
        b.vel,
        b.mass,
        b.memberStart,
        b.memberList,
        b.dofX,
        b.dofV,
        b.dofM,
        b.level,
      ]);
      this.#bg[`offsets${s}`] = bindKernel(device, this.#k.offsets, [
        P,
        b.pos,
        b.dof,
        b.dofX,
        b.offset,
      ]);
      this.#bg[`mark${s}`] = bindKernel(device, this.#k.mark, [
        P,
        b.pos,
        b.velOut,
        b.markedCount,
        b.marked,
      ]);
      this.#bg[`split${s}`] = bindKernel(device, this.#k.split, [
        P,
        b.dofV,
        b.mass,
        b.vel,
        b.level,
        b.memberStart,
        b.memberList,
        b.syncEnergy,
        b.velOut,
        b.stats,
      ]);
    }
  }

  /** Writes the parameters of both stages for the next submit (queue.writeBuffer). */
  setParams(p: MergeSplitStepParams): void {
    if (p.count > this.capacity) {
      throw new RangeError(`count ${p.count} exceeds capacity ${this.capacity}`);
    }
    for (const stage of [1, 2]) {
      const data = MERGE_SPLIT_PARAMS.pack({
        count: p.count,
        maxPerParticle: this.maxPerParticle,
        stage,
        seed: p.seed >>> 0,
        step: p.step >>> 0,
        nMin: p.nMax === Infinity ? 0 : p.nMin,
        nMax: p.nMax === Infinity ? 0 : p.nMax,
        alpha: p.alpha,
        beta: p.beta,
      });
      this.device.queue.writeBuffer(this.#params[stage - 1], 0, data);
    }
  }

  #run(pass: GPUComputePassEncoder, name: KernelName, stage: 1 | 2, n: number, single = false) {
    dispatch(pass, this.#k[name], {
      bindGroup: this.#bg[`${name}${stage - 1}`],
      invocations: single ? 1 : n,
      workgroupSize: single ? 1 : this.workgroupSize,
    });
  }

  /**
   * Grouping: the §5.2 union–find for `stage`: the sequential
   * union loop in chunks of {@link UNION_CHUNK} particles (one invocation per dispatch, the
   * dispatches in order), the roots and counts in parallel, the CSR scan and fill in chunks.
   */
  encodeGroup(
    pass: GPUComputePassEncoder,
    options: { stage: 1 | 2; count: number },
  ): void {
    const { stage, count } = options;
    this.#run(pass, "groupInit", stage, count);
    for (let c = 0; c * UNION_CHUNK < count; c++) this.#run(pass, "groupUnion", stage, count, true);
    this.#run(pass, "groupClear", stage, count + 1);
    this.#run(pass, "groupRoots", stage, count);
    for (let c = 0; c * SCAN_CHUNK < Math.max(1, count); c++) {
      this.#run(pass, "groupScan", stage, count, true);
    }
    for (let c = 0; c * SCAN_CHUNK < count; c++) this.#run(pass, "groupFill", stage, count, true);
  }

  /** Merging (Eqs. 1–5) and member offsets (Eqs. 6–7) into the DOF buffers. */
  encodeMerge(pass: GPUComputePassEncoder, options: { stage: 1 | 2; count: number }): void {
    this.#run(pass, "merge", options.stage, options.count);
    this.#run(pass, "offsets", options.stage, options.count);
  }

  /** Flags marked pairs that approach with the velocities in `velOut` (stage-2 trigger, §5.1). */
  encodeMarkApproaching(pass: GPUComputePassEncoder, options: { count: number }): void {
    this.#run(pass, "mark", 1, options.count);
  }

  /** Splitting (Eqs. 8–16, 20) of every DOF into `velOut`. */
  encodeSplit(pass: GPUComputePassEncoder, options: { stage: 1 | 2; count: number }): void {
    this.#run(pass, "split", options.stage, options.count);
  }

  /** Frees the kernels' own buffers. */
  destroy(): void {
    this.#params.forEach((b) => b.destroy());
    this.#uf.destroy();
    this.#ctrl.destroy();
    this.#count.destroy();
  }
}
