/**
 * Grouping of colliding pairs into meta-particles on the GPU (paper §5.2), in parallel: rounds of
 * pairwise merging gated by indirect dispatches (with the n_min/n_max limit), or connected
 * components (without), then member lists ascending. Bit for bit the reference
 * `core/grouping.ts` `groupCollisions`, whose header says how it reads §5.2. Kernels:
 * `grouping.wgsl`.
 *
 * Only the active particles (those with a partner this stage) take part in the rounds. Up to
 * {@link SMALL_LIMIT} particles the whole grouping runs in one workgroup and one dispatch. Up to
 * the local limit ({@link defaultLocalLimit}) the rounds run in workgroup dispatches that each go on from where
 * the previous one's loop budget ran short (llvmpipe stops an invocation's loops after 65,535
 * iterations in all), as many as `maxRounds` rounds of the costliest kind need. Beyond, one such
 * dispatch (for at most local-limit active particles), then `maxRounds` dispatched rounds gated by
 * indirect dispatches (zero workgroups once nothing merges or the workgroup finished). Dispatches
 * per stage: 8 + 2 scans plus the rounds' (with a limit), 9 + 2 scans without; a scan takes
 * `2·levels − 1` (`gpu/runtime/prefix_scan.ts`). None of it grows with the particle count beyond
 * the scans' levels, and no invocation loops over more than its particle's pairs, its group's
 * members or its loop budget.
 *
 * @module
 */
import { GROUPING_MAX_ROUNDS, ROUND_SALT } from "../../../core/grouping.ts";
import { defineStruct, type StructLayout } from "../../runtime/struct_layout.ts";
import {
  type BindingEntry,
  bindKernel,
  createKernel,
  dispatch,
  type Kernel,
} from "../../runtime/kernel.ts";
import { PrefixScan } from "../../runtime/prefix_scan.ts";
import { handlerStatsConstants } from "../../state/particle_state.ts";
import { LOCAL_BUDGET } from "../../runtime/local_solve.ts";
import { onFallbackAdapter } from "../../runtime/device.ts";

/** WGSL source of the grouping kernels. */
export const GROUPING_WGSL: string = Deno.readTextFileSync(
  new URL("./grouping.wgsl", import.meta.url),
);

/** Layout of `GroupingParams` in `grouping.wgsl`. */
export const GROUPING_PARAMS: StructLayout = defineStruct("GroupingParams", [
  ["count", "u32"],
  ["maxPerParticle", "u32"],
  ["stage", "u32"],
  ["seed", "u32"],
  ["step", "u32"],
  ["nMin", "u32"],
  ["nMax", "u32"],
]);

/**
 * Most active particles (those with a partner) whose rounds may run inside one workgroup (which
 * hands the rounds over to dispatched ones when its invocations' loop budget runs short); the
 * default on a device is {@link defaultLocalLimit}.
 */
export const LOCAL_LIMIT = 65536;

/**
 * The local limit of grouping on `device`: {@link LOCAL_LIMIT} on a fallback (CPU) adapter, 16,384
 * otherwise. Up to the limit the rounds run in workgroup dispatches only; past it the host also
 * encodes `maxRounds` dispatched rounds of 5 dispatches each, gated to zero workgroups when the
 * workgroup finished them. On llvmpipe such a dispatch costs about 25 µs even then (fig11 at
 * `medium`, 37K particles: merging 25.2 ms/step with 16,384, 6.9 with 65,536, the same groups);
 * on a GPU, where dispatches are cheap and one workgroup is a sliver of the device, a lower limit
 * keeps large contact sets on the parallel rounds. The choice never changes a result.
 */
export function defaultLocalLimit(device: GPUDevice): number {
  return onFallbackAdapter(device) ? LOCAL_LIMIT : 16384;
}

/**
 * Particles up to which the whole grouping (with a limit) runs in one workgroup and one dispatch
 * (`group_small`): the same steps, separated by barriers instead of dispatches.
 */
export const SMALL_LIMIT = 3072;

/** The buffers grouping reads and writes (owned by the engine). */
export interface GroupingBuffers {
  pairCount: GPUBuffer;
  pairs: GPUBuffer;
  markedCount: GPUBuffer;
  marked: GPUBuffer;
  /** Output: each particle's group root (its lowest index). */
  dof: GPUBuffer;
  /** Output: N + 1 entries, CSR starts of the member lists by root. */
  memberStart: GPUBuffer;
  /** Output: N entries, members ascending within each group. */
  memberList: GPUBuffer;
  stats: GPUBuffer;
}

/** Parameters of one step. */
export interface GroupingStepParams {
  seed: number;
  step: number;
  nMin: number;
  nMax: number;
}

type Name =
  | "small"
  | "init"
  | "activeMark"
  | "activeCompact"
  | "roundsLocal"
  | "gate"
  | "propose"
  | "pick"
  | "handshake"
  | "relabel"
  | "ccHook"
  | "ccFlatten"
  | "count"
  | "fill"
  | "rank";

const ENTRY: Record<Name, string> = {
  small: "group_small",
  init: "group_init",
  activeMark: "active_mark",
  activeCompact: "active_compact",
  roundsLocal: "rounds_local",
  gate: "round_gate",
  propose: "round_propose",
  pick: "round_pick",
  handshake: "round_handshake",
  relabel: "round_relabel",
  ccHook: "cc_hook",
  ccFlatten: "cc_flatten",
  count: "members_count",
  fill: "members_fill",
  rank: "members_rank",
};

/** Pipelines, scratch and bind groups of the grouping for one set of engine buffers. */
export class GroupingKernels {
  readonly device: GPUDevice;
  /** Particles N. */
  readonly count: number;
  /** Rounds of pairwise merging encoded per stage (with a limit). */
  readonly maxRounds: number;
  readonly workgroupSize: number;
  /** Most active particles whose rounds run in one workgroup. */
  readonly localLimit: number;
  #params: [GPUBuffer, GPUBuffer];
  #args: [GPUBuffer, GPUBuffer];
  #own: GPUBuffer[] = [];
  #scan: PrefixScan;
  #activeScan: PrefixScan;
  #k: Record<Name, Kernel>;
  #main: [GPUBindGroup, GPUBindGroup];
  /** gate bind groups by [stage][args written]. */
  #gate: [[GPUBindGroup, GPUBindGroup], [GPUBindGroup, GPUBindGroup]];
  #limited = true;
  /** Whether the whole grouping (with a limit) runs in one workgroup. */
  #small: boolean;
  /** rounds_local dispatches encoded when every particle may be taken by the workgroup. */
  #localDispatches: number;

  /**
   * @param device the GPU device
   * @param options.count particles N; options.maxPerParticle K of the pair lists
   */
  constructor(
    device: GPUDevice,
    options: {
      count: number;
      maxPerParticle: number;
      buffers: GroupingBuffers;
      maxRounds?: number;
      workgroupSize?: number;
      /** Most active particles whose rounds run in one workgroup (default {@link defaultLocalLimit}). */
      localLimit?: number;
      /**
       * Loop iterations an invocation of the workgroup may spend before it hands the rounds over
       * (default `LOCAL_BUDGET`, 60,000, under llvmpipe's 65,535; smaller in tests).
       */
      localBudget?: number;
      /** Whether the whole grouping runs in one workgroup (default: when N ≤ SMALL_LIMIT). */
      small?: boolean;
    },
  ) {
    const n = this.count = options.count;
    this.device = device;
    this.maxRounds = options.maxRounds ?? GROUPING_MAX_ROUNDS;
    if (!Number.isInteger(this.maxRounds) || this.maxRounds < 0) {
      throw new RangeError(`grouping: maxRounds must be an integer >= 0, got ${this.maxRounds}`);
    }
    this.workgroupSize = options.workgroupSize ?? 64;
    this.localLimit = options.localLimit ?? defaultLocalLimit(device);
    // one workgroup does it all when its invocations' loops stay within the budget whatever the
    // pairs: ⌈N/256⌉ particles each, up to 2K partners, two pair phases and two others per round
    const perRound = Math.ceil(n / 256) * (2 * (1 + 2 * options.maxPerParticle) + 2) + 8;
    const budget = options.localBudget ?? LOCAL_BUDGET;
    this.#small = options.small ?? (n <= Math.min(SMALL_LIMIT, this.localLimit) &&
      perRound * (this.maxRounds + 1) <= budget);
    const perDispatch = Math.max(1, Math.floor(budget / perRound));
    this.#localDispatches = Math.max(1, Math.ceil(this.maxRounds / perDispatch));
    if (
      !Number.isInteger(this.localLimit) || this.localLimit < 0 || this.localLimit > LOCAL_LIMIT
    ) {
      throw new RangeError(
        `grouping: localLimit must be an integer in [0, ${LOCAL_LIMIT}], got ${this.localLimit}`,
      );
    }
    const maxPerParticle = options.maxPerParticle;
    const buffer = (label: string, size: number, usage: number) => {
      const b = device.createBuffer({ label, size: Math.max(16, size), usage });
      this.#own.push(b);
      return b;
    };
    const S = GPUBufferUsage.STORAGE;
    const params = (stage: number) =>
      buffer(
        `grouping params stage ${stage}`,
        Math.ceil(GROUPING_PARAMS.size / 16) * 16,
        GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      );
    this.#params = [params(1), params(2)];
    const indirect = (name: string) =>
      buffer(`grouping round args ${name}`, 12, S | GPUBufferUsage.INDIRECT);
    this.#args = [indirect("A"), indirect("B")];
    const work = buffer("grouping work A (size, limit, proposals, control)", 4 * (4 * n + 5), S);
    const workB = buffer("grouping work B (merges, cursors, members, active list)", 4 * 4 * n, S);
    const activeFlag = buffer("grouping active flags", 4 * (n + 1), S);
    this.#activeScan = new PrefixScan(device, {
      label: "grouping active numbering",
      data: activeFlag,
      n: n + 1,
    });
    const b = options.buffers;
    this.#scan = new PrefixScan(device, {
      label: "grouping member starts",
      data: b.memberStart,
      n: n + 1,
    });
    const constants = {
      WG: this.workgroupSize,
      ROUND_SALT,
      MAX_ROUNDS: this.maxRounds,
      LOCAL_LIMIT: this.localLimit,
      LOCAL_BUDGET: options.localBudget ?? LOCAL_BUDGET,
      ...handlerStatsConstants(GROUPING_WGSL),
    };
    const R = "read-only-storage" as const;
    const W = "storage" as const;
    const mainLayout: BindingEntry[] = ["uniform", R, R, R, R, W, W, W, W, W, W, [12, W]];
    const gateLayout: BindingEntry[] = [[0, "uniform"], [6, W], [10, W], [11, W]];
    this.#k = Object.fromEntries(
      (Object.keys(ENTRY) as Name[]).map((name) => [
        name,
        createKernel(device, {
          label: `merge-split grouping ${ENTRY[name]}`,
          code: GROUPING_WGSL,
          entryPoint: ENTRY[name],
          bindings: name === "gate" ? gateLayout : mainLayout,
          constants,
        }),
      ]),
    ) as Record<Name, Kernel>;
    const main = (s: 0 | 1) =>
      bindKernel(device, this.#k.init, [
        this.#params[s],
        b.pairCount,
        b.pairs,
        b.markedCount,
        b.marked,
        b.dof,
        work,
        activeFlag,
        b.memberStart,
        b.memberList,
        b.stats,
        workB,
      ], { label: `merge-split grouping stage ${s + 1} bind group` });
    this.#main = [main(0), main(1)];
    const gate = (s: 0 | 1, a: 0 | 1) =>
      bindKernel(
        device,
        this.#k.gate,
        new Map([[0, this.#params[s]], [6, work], [10, b.stats], [11, this.#args[a]]]),
        { label: `merge-split grouping gate stage ${s + 1} args ${"AB"[a]} bind group` },
      );
    this.#gate = [[gate(0, 0), gate(0, 1)], [gate(1, 0), gate(1, 1)]];
    this.#maxPerParticle = maxPerParticle;
  }

  #maxPerParticle: number;

  /** Writes the parameters of both stages for the next submit (queue.writeBuffer). */
  setParams(p: GroupingStepParams): void {
    this.#limited = p.nMax !== Infinity;
    for (const stage of [1, 2]) {
      this.device.queue.writeBuffer(
        this.#params[stage - 1],
        0,
        GROUPING_PARAMS.pack({
          count: this.count,
          maxPerParticle: this.#maxPerParticle,
          stage,
          seed: p.seed >>> 0,
          step: p.step >>> 0,
          nMin: this.#limited ? p.nMin : 0,
          nMax: this.#limited ? p.nMax : 0,
        }),
      );
    }
  }

  /** Encodes the grouping of `stage` into `pass`: `dof`, `memberStart`, `memberList`. */
  encode(pass: GPUComputePassEncoder, options: { stage: 1 | 2 }): void {
    const s = options.stage - 1 as 0 | 1;
    const main = this.#main[s];
    const all = { bindGroup: main, invocations: this.count, workgroupSize: this.workgroupSize };
    const k = this.#k;
    if (this.#limited && this.#small) {
      dispatch(pass, k.small, { bindGroup: main, workgroups: 1 });
      return;
    }
    dispatch(pass, k.init, all);
    dispatch(pass, k.activeMark, all);
    this.#activeScan.encode(pass);
    dispatch(pass, k.activeCompact, all);
    if (this.#limited) {
      // Up to localLimit particles, only workgroup dispatches, each resuming where the last one's
      // loop budget ran short: enough of them for maxRounds rounds of the costliest kind. Beyond,
      // one workgroup dispatch, then the dispatched rounds (for more active particles than it
      // takes, or to go on after it).
      const local = this.count <= this.localLimit ? this.#localDispatches : 1;
      for (let d = 0; d < local; d++) {
        dispatch(pass, k.roundsLocal, { bindGroup: main, workgroups: 1 });
      }
      const rounds = this.count > this.localLimit ? this.maxRounds : 0;
      for (let r = 0; r < rounds; r++) {
        const a = (r % 2) as 0 | 1;
        dispatch(pass, k.gate, { bindGroup: this.#gate[s][a], workgroups: 1 });
        const gated = {
          bindGroup: main,
          indirect: this.#args[a],
          indirectOffset: 0,
          rewritten: true, // by the round gate just before
        };
        dispatch(pass, k.propose, gated);
        dispatch(pass, k.pick, gated);
        dispatch(pass, k.handshake, gated);
        dispatch(pass, k.relabel, gated);
      }
      // records the rounds that merged (HANDLER_STATS.groupingRounds)
      if (rounds) dispatch(pass, k.gate, { bindGroup: this.#gate[s][rounds % 2], workgroups: 1 });
    } else {
      dispatch(pass, k.ccHook, all);
      dispatch(pass, k.ccFlatten, all);
    }
    dispatch(pass, k.count, all);
    this.#scan.encode(pass);
    dispatch(pass, k.fill, all);
    dispatch(pass, k.rank, all);
  }

  /** Frees the grouping's own buffers. */
  destroy(): void {
    for (const b of this.#own) b.destroy();
    this.#scan.destroy();
    this.#activeScan.destroy();
  }
}
