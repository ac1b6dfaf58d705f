/**
 * Grouping of colliding pairs into meta-particles on the GPU (paper §5.2), by one of two methods
 * (`core/grouping/index_order_grouping.ts` `GROUPING_METHODS`), each bit for bit its reference:
 * - `index-order`, the paper's pass (`groupIndexOrder`): up to the bound of
 *   {@link indexOrderSmall} one workgroup, one of whose invocations runs the pass over all the
 *   particles (2 dispatches); beyond it connected components, each one's members ascending, one
 *   invocation per component running the pass (9 dispatches and one scan).
 * - `compact`, rounds of pairwise merging (`groupCollisions`, whose header says how it reads §5.2):
 *   without a limit the connected components (5 dispatches and one scan); with one, up to
 *   {@link SMALL_LIMIT} particles the whole grouping in one workgroup (2 dispatches), up to the
 *   local limit ({@link defaultLocalLimit}) the rounds in workgroup dispatches that each go on
 *   from where the previous one's loop budget ran short (llvmpipe stops an invocation's loops
 *   after 65,535 iterations in all), beyond that the connected components and each one's rounds
 *   on their own (`comp_rounds`: an invocation for up to {@link compSerialMax} members, a
 *   workgroup beyond; 9 dispatches and one scan; on a fallback adapter a component whose rounds
 *   would pass the loop budget stops after its last whole round, counted as
 *   `groupingIncomplete`).
 * {@link groupingPlan} lists what a stage dispatches; scans take at most 5 (2 levels). The census of
 * the stage's groups (`core/grouping/grouping_census.ts`), a measurement, is taken on the way
 * (`members_fill`, `io_recount` and `io_place`, or the one-workgroup kernels): no dispatch of its
 * own.
 *
 * Every kernel binds at most 8 storage buffers (WebGPU's guaranteed
 * `maxStorageBuffersPerShaderStage`): each entry point's layout holds only the bindings it uses
 * ({@link GROUPING_BINDINGS}), and the grouping's own scratch is two buffers,
 * {@link workAWords} and {@link workBWords} words (the active flags live in work B).
 *
 * @module
 */
import { GROUPING_MAX_ROUNDS, ROUND_SALT } from "../../../core/grouping/grouping.ts";
import type { MergeOrder } from "../../../core/merge_orders.ts";
import type { GroupingMethod } from "../../../core/grouping/index_order_grouping.ts";
import { defineStruct, type StructLayout } from "../../runtime/struct_layout.ts";
import {
  type BindingEntry,
  bindKernel,
  createKernel,
  dispatch,
  dispatchesEncoded,
  type Kernel,
} from "../../runtime/kernel.ts";
import { PrefixScan, scanDispatches } from "../../runtime/prefix_scan.ts";
import { LOCAL_BUDGET } from "../../runtime/local_solve.ts";
import { onFallbackAdapter } from "../../runtime/device.ts";
import { StepParamRing } from "../../runtime/step_param_ring.ts";
import { KIND_BITS } from "../../state/particle_state.ts";
import { MERGE_SPLIT_STATS } from "./merge_split_stats.ts";
import groupingWgsl from "./grouping.wgsl" with { type: "text" };

/** WGSL source of the grouping kernels. */
export const GROUPING_WGSL: string = groupingWgsl;

/** A loop budget that never runs out (a GPU caps no loop). */
const UNCAPPED = 0xffffffff;

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
 * Most particles whose compact rounds may all run inside one workgroup (past it each connected
 * component's run in a workgroup of their own); the default on a device is
 * {@link defaultLocalLimit}.
 */
export const LOCAL_LIMIT = 65536;

/**
 * The local limit of grouping on `device`: {@link LOCAL_LIMIT} on a fallback (CPU) adapter, 16,384
 * otherwise. Up to the limit the rounds of every component run in one workgroup (`rounds_local`:
 * one dispatch after the active list); past it the connected components are found first and each
 * one's rounds run on their own (`comp_rounds`: four more dispatches, but the components in
 * parallel). On a GPU one workgroup is a sliver of the device, so a lower limit spreads large
 * contact sets over many; on a fallback adapter (a few CPU threads) the one workgroup keeps up. The
 * choice never changes a result within the loop budget.
 */
export function defaultLocalLimit(device: GPUDevice): number {
  return onFallbackAdapter(device) ? LOCAL_LIMIT : GPU_LOCAL_LIMIT;
}

/** A GPU's local limit ({@link defaultLocalLimit}). */
const GPU_LOCAL_LIMIT = 16384;

/**
 * Particles up to which the whole grouping (with a limit) runs in one workgroup, in two
 * dispatches (`group_small`, `members_small`): the same steps, separated by barriers instead of
 * dispatches.
 */
export const SMALL_LIMIT = 3072;

/**
 * Words of the grouping's work A buffer for N particles: group size, limit, best priority and
 * best neighbour (N each), then the control words (`grouping.wgsl` regions, `CTRL_WORDS`).
 */
export function workAWords(n: number): number {
  return 4 * n + CTRL_WORDS;
}

/** Control words at the end of work A (`grouping.wgsl` `CTRL_WORDS`: a test holds them equal). */
export const CTRL_WORDS = 8;

/**
 * Words of the grouping's work B buffer for N particles: the active flags (N + 1), then merge
 * targets, fill cursors, unordered members and the active list (N each; the index-order pass
 * keeps its queue and its component lists in the last two). The index-order pass has one more
 * buffer, its lower-partner links, N·K words: the size of the pair lists, which fit a binding. With work A, 9N + 7 words in two buffers, each bound
 * whole: 5N + 1 words stay under the 128 MiB `maxStorageBufferBindingSize` up to 6.7M particles
 * (Table I's largest scene, fig8-bowl at `paper`, has 6.51M: 124.2 MiB).
 */
export function workBWords(n: number): number {
  return 5 * n + 1;
}

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
  /** Merge-split's statistics (`merge_split_stats.ts`): the grouping's counts. */
  stats: GPUBuffer;
  /** `array<u32>` body-kind bits per particle (`KIND_BITS`): the sheet members of a group. */
  kind: GPUBuffer;
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
  | "membersSmall"
  | "init"
  | "activeList"
  | "roundsLocal"
  | "compFill"
  | "roundsComp"
  | "ccHook"
  | "count"
  | "fill"
  | "rank"
  | "ioFlattenCount"
  | "ioAlloc"
  | "ioFill"
  | "ioCompRank"
  | "ioFlood"
  | "ioRecount"
  | "ioPlace"
  | "ioSmall"
  | "ioMembersSmall";

const ENTRY: Record<Name, string> = {
  small: "group_small",
  membersSmall: "members_small",
  init: "group_init",
  activeList: "active_list",
  roundsLocal: "rounds_local",
  compFill: "comp_fill",
  roundsComp: "comp_rounds",
  ccHook: "cc_hook",
  count: "members_count",
  fill: "members_fill",
  rank: "members_rank",
  ioFlattenCount: "io_flatten_count",
  ioAlloc: "io_alloc",
  ioFill: "io_fill",
  ioCompRank: "io_comp_rank",
  ioFlood: "io_flood",
  ioRecount: "io_recount",
  ioPlace: "io_place",
  ioSmall: "io_small",
  ioMembersSmall: "io_members_small",
};

/** The entry points of `grouping.wgsl` that `method` builds and runs. */
export function groupingEntryPoints(method: GroupingMethod): string[] {
  return methodKernels(method).map((name) => ENTRY[name]);
}

/** The kernels a method runs on any of its paths (the others are not built). */
function methodKernels(method: GroupingMethod): Name[] {
  const plans = [true, false].flatMap((limited) =>
    [true, false].flatMap((small) =>
      [true, false].map((local) =>
        groupingPlan({ method, limited, small, local, localDispatches: 1 })
      )
    )
  );
  const names = new Set<Name>();
  for (const step of plans.flat()) if (step !== "scan") names.add(step);
  return [...names];
}

/** Binding numbers of `grouping.wgsl` (group 0); 0 is the `GroupingParams` uniform. */
const B = {
  params: 0,
  pairCount: 1,
  pairs: 2,
  markedCount: 3,
  marked: 4,
  dof: 5,
  workA: 6,
  workB: 7,
  memberStart: 8,
  memberList: 9,
  stats: 10,
  links: 12,
  kind: 13,
  floodArgs: 14,
} as const;

/** The read-only storage bindings of `grouping.wgsl`; the others but 0 are read-write. */
const READ_ONLY: ReadonlySet<number> = new Set([
  B.pairCount,
  B.pairs,
  B.markedCount,
  B.marked,
  B.kind,
]);

const PAIRS = [B.pairCount, B.pairs, B.markedCount, B.marked] as const;
const ROUND = [...PAIRS, B.dof, B.workA, B.workB] as const;

/**
 * The storage bindings each entry point of `grouping.wgsl` uses (its layout: those and the
 * uniform): at most 8 each.
 */
export const GROUPING_BINDINGS: Readonly<Record<string, readonly number[]>> = {
  group_small: [...ROUND, B.stats],
  members_small: [B.dof, B.workB, B.memberStart, B.memberList, B.stats, B.kind],
  group_init: [
    B.pairCount,
    B.markedCount,
    B.marked,
    B.dof,
    B.workA,
    B.workB,
    B.memberStart,
    B.stats,
  ],
  active_list: [...PAIRS, B.workA, B.workB],
  rounds_local: [...ROUND, B.stats],
  comp_fill: [B.dof, B.workA, B.workB, B.memberStart],
  comp_rounds: [...ROUND, B.stats],
  cc_hook: [...PAIRS, B.dof, B.workA],
  members_count: [B.dof, B.memberStart],
  members_fill: [...PAIRS, B.dof, B.workB, B.memberStart, B.stats],
  members_rank: [B.dof, B.workB, B.memberStart, B.memberList, B.stats, B.kind],
  io_flatten_count: [B.dof, B.workA, B.memberStart],
  io_alloc: [B.dof, B.workA, B.workB, B.memberStart],
  io_fill: [B.dof, B.workA, B.workB],
  io_comp_rank: [B.dof, B.workA, B.workB, B.floodArgs],
  io_flood: [...PAIRS, B.dof, B.workA, B.workB, B.links],
  io_recount: [...PAIRS, B.dof, B.workA, B.memberStart, B.stats],
  io_place: [B.workA, B.workB, B.memberStart, B.memberList, B.stats, B.kind],
  io_small: [...PAIRS, B.workA, B.workB, B.stats, B.links],
  io_members_small: [B.dof, B.workA, B.workB, B.memberStart, B.memberList, B.stats, B.kind],
};

/** The explicit layout of an entry point: the uniform, then its storage bindings ascending. */
function layoutOf(entryPoint: string): BindingEntry[] {
  const storage = [...GROUPING_BINDINGS[entryPoint]].sort((a, b) => a - b);
  return [
    [B.params, "uniform"],
    ...storage.map((b): BindingEntry => [b, READ_ONLY.has(b) ? "read-only-storage" : "storage"]),
  ];
}

/**
 * One step of a stage's grouping: a kernel over the particles (or, for `small`, `membersSmall`
 * and `roundsLocal`, one workgroup; for `roundsComp`, a workgroup per component), or the member
 * starts' scan.
 */
export type GroupingStep = Name | "scan";

/**
 * Workgroups of `comp_rounds` for N particles: an invocation for each component of up to
 * {@link compSerialMax} members (at most ⌊N/2⌋ components), up to WebGPU's 65,535 workgroups (then
 * each invocation takes several in turn); the same workgroups take the larger components in turn.
 */
export function compWorkgroups(n: number): number {
  return Math.max(1, Math.min(Math.ceil(Math.floor(n / 2) / 256), 65535));
}

/**
 * The largest component whose compact rounds one invocation runs (`comp_rounds`; larger ones take
 * a workgroup): 32, or fewer where `maxRounds` rounds over 32 members with K = `maxPerParticle`
 * partners each would pass the loop `budget` (at least 2).
 */
export function compSerialMax(o: { maxPerParticle: number; maxRounds: number; budget: number }) {
  const perMember = 2 * (1 + o.maxPerParticle) + 2;
  const fits = Math.floor((o.budget / Math.max(1, o.maxRounds) - 8) / perMember);
  return Math.max(2, Math.min(COMP_SERIAL_MAX, fits));
}

/** The most members of a component one invocation takes ({@link compSerialMax}). */
const COMP_SERIAL_MAX = 32;

/** The kernels dispatched as one workgroup. */
const ONE_WORKGROUP: ReadonlySet<Name> = new Set([
  "small",
  "membersSmall",
  "roundsLocal",
  "ioSmall",
  "ioMembersSmall",
]);

/**
 * The steps of one stage's grouping, in order: what `GroupingKernels.encode` dispatches, so their
 * count is known without a device (see {@link groupingDispatches}).
 */
export function groupingPlan(o: {
  method: GroupingMethod;
  /** Whether a size limit applies (n_max finite). */
  limited: boolean;
  /**
   * Whether the whole grouping runs in one workgroup: compact with a limit
   * ({@link roundsShape}), index order with or without one ({@link indexOrderSmall}).
   */
  small: boolean;
  /**
   * Whether the particle count is within the local limit (the rounds in one workgroup, else a
   * workgroup per component).
   */
  local: boolean;
  /** Workgroup dispatches of the rounds (`rounds_local`) within the local limit. */
  localDispatches: number;
}): GroupingStep[] {
  const members: GroupingStep[] = ["scan", "fill", "rank"];
  if (o.method === "index-order") {
    if (o.small) return ["ioSmall", "ioMembersSmall"];
    return [
      "init",
      "ccHook",
      "ioFlattenCount",
      "ioAlloc",
      "ioFill",
      "ioCompRank",
      "ioFlood",
      "ioRecount",
      "scan",
      "ioPlace",
    ];
  }
  if (!o.limited) return ["init", "ccHook", "ioFlattenCount", ...members];
  if (o.small) return ["small", "membersSmall"];
  const rounds: GroupingStep[] = o.local
    ? ["activeList", ...Array<GroupingStep>(o.localDispatches).fill("roundsLocal")]
    : ["ccHook", "ioFlattenCount", "ioAlloc", "compFill", "roundsComp"];
  return ["init", ...rounds, "count", ...members];
}

/**
 * How the compact grouping's rounds run for N = `count` particles: in the one-workgroup grouping
 * (`small`: N ≤ {@link SMALL_LIMIT} and every round fits one invocation's loop `budget` whatever
 * the pairs), else in `localDispatches` workgroup dispatches, enough for `maxRounds` rounds of the
 * costliest kind (⌈N/256⌉ particles per invocation, each with at most K partners: its pair and
 * marked lists split one list of K contacts; two pair phases and two others per round), up to
 * `localLimit` (past it a workgroup per component). Handing over between workgroup dispatches
 * never changes a result, and each dispatch measures its own rounds against the budget.
 */
export function roundsShape(o: {
  count: number;
  maxPerParticle: number;
  maxRounds: number;
  localLimit: number;
  budget: number;
}): { small: boolean; localDispatches: number } {
  const perRound = Math.ceil(o.count / 256) * (2 * (1 + o.maxPerParticle) + 2) + 8;
  const perDispatch = Math.max(1, Math.floor(o.budget / perRound));
  return {
    small: o.count <= Math.min(SMALL_LIMIT, o.localLimit) &&
      perRound * (o.maxRounds + 1) <= o.budget,
    localDispatches: Math.max(1, Math.ceil(o.maxRounds / perDispatch)),
  };
}

/**
 * Loop iterations of the invocation of `io_small` that runs the index-order pass over N = `count`
 * particles, whatever the pairs (each particle's pair and marked slots together at most K =
 * `maxPerParticle`, so E ≤ N·K partners in all, though one particle may be the higher partner of
 * any number): its share of the workgroup's loops over the particles (clearing them, with stage
 * 2's marked slots, and the census's pairs: ⌈N/256⌉ particles of K slots each), then the pass,
 * whose loops over slots take 4 an iteration (`IO_UNROLL`) and count one more for each entry:
 * the lower-partner lists (2N + N·⌈K/4⌉), the starts (N), the queue (2N: its pops, and one
 * entry per group), each member's lower partners (⌈E/4⌉ + 2N) and higher ones (N·⌈K/4⌉ + N).
 */
export function indexOrderLoops(o: { count: number; maxPerParticle: number }): number {
  const n = o.count;
  const k = o.maxPerParticle;
  const perSlots = Math.ceil(k / 4);
  const shared = 2 * Math.ceil(n / 256) * (1 + k);
  const pass = 8 * n + 2 * n * perSlots + Math.ceil((n * k) / 4);
  return shared + pass + 8;
}

/**
 * Whether the index-order grouping of N = `count` particles can run in one workgroup (`io_small`,
 * `io_members_small`: 2 dispatches; GroupingKernels' `small: true`): N ≤ {@link SMALL_LIMIT} and,
 * on an adapter with a loop cap, {@link indexOrderFits} (llvmpipe's budget, `LOCAL_BUDGET`
 * 60,000, and K = 16: N ≤ 2,979). It is not the default anywhere: one invocation walks every
 * particle, its lists' atomics one after another, and at `small` under the paper's setup on
 * lavapipe a stage's merging took 2.9–3.3 ms per step in fig4-fluid-cloth (2,161 particles) and
 * 7.7–9.0 in fig9-flip-cloth (2,964) against the dispatched pass's 1.5–1.6 and 3.6–3.8 (two runs
 * of 200 steps each, the same state), fewer dispatches but more time; on a GPU it is unmeasured.
 */
export function indexOrderSmall(
  o: { count: number; maxPerParticle: number; budget: number },
): boolean {
  return o.count <= SMALL_LIMIT && (o.budget === UNCAPPED || indexOrderFits(o));
}

/**
 * Whether the one-workgroup index-order grouping of N = `count` particles loops within one
 * invocation's loop `budget` whatever the pairs: the invocation that runs the pass
 * ({@link indexOrderLoops}), and those of `io_members_small` (their share of the particles in
 * six loops, a rank over one group of up to N members, the scan's 8 steps).
 */
export function indexOrderFits(
  o: { count: number; maxPerParticle: number; budget: number },
): boolean {
  const members = Math.ceil(o.count / 256) * (o.count + 6) + 16;
  return indexOrderLoops(o) <= o.budget && members <= o.budget;
}

/**
 * Dispatches of a plan: the scan's `2·levels + 1` for `scanDispatches` of the member starts
 * (N + 1 elements), one per other step.
 */
export function groupingDispatches(plan: readonly GroupingStep[], scanDispatches: number): number {
  return plan.reduce((sum, step) => sum + (step === "scan" ? scanDispatches : 1), 0);
}

/** Options of {@link GroupingKernels}. */
export interface GroupingKernelsOptions {
  count: number;
  maxPerParticle: number;
  buffers: GroupingBuffers;
  maxRounds?: number;
  workgroupSize?: number;
  /** Most active particles whose rounds run in one workgroup (default {@link defaultLocalLimit}). */
  localLimit?: number;
  /**
   * Loop iterations an invocation of the workgroup may spend before it hands the rounds over,
   * and the bound of the one-workgroup index-order pass ({@link indexOrderSmall}) (default
   * `LOCAL_BUDGET`, 60,000, under llvmpipe's 65,535, on a fallback adapter, none on a GPU;
   * smaller in tests; null: a GPU's plan on any device, its local limit and no cap, for counting).
   */
  localBudget?: number | null;
  /**
   * Whether the whole grouping runs in one workgroup (default: compact with a limit per
   * {@link roundsShape}; index order never, {@link indexOrderSmall} says why and where it can).
   */
  small?: boolean;
  /**
   * Without `small`: take the one-workgroup index-order pass wherever {@link indexOrderSmall}
   * allows (`EngineOptions.oneWorkgroupGrouping`: to measure whether it pays on a device).
   */
  preferSmall?: boolean;
  /** The grouping (default `compact`): `index-order` is the paper's pass, exact. */
  method?: GroupingMethod;
  /**
   * The merge order (`core/merge_orders.ts`; default `colliding-pairs`): with the index-order
   * pass, `colliding-pairs` lists each group's members in the order they joined and the partner
   * each joined through (grouping.wgsl JOINED); `index-com`, and the compact grouping always,
   * ascending.
   */
  mergeOrder?: MergeOrder;
  /**
   * Loop iterations of the index-order pass per component (default: `LOCAL_BUDGET` on a
   * fallback adapter, unlimited on a GPU; smaller in tests).
   */
  floodBudget?: number;
}

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
  /** The grouping method: `compact` rounds or the paper's `index-order` pass. */
  readonly method: GroupingMethod;
  /** Whether members are listed in the order they joined, with their partners (JOINED). */
  readonly joined: boolean;
  #params: [GPUBuffer, GPUBuffer];
  /** io_flood's indirect workgroups per stage. */
  #floodArgs: [GPUBuffer, GPUBuffer];
  #ring: StepParamRing;
  #own: GPUBuffer[] = [];
  #scan: PrefixScan;
  #k: Record<Name, Kernel>;
  /** Bind groups by stage and kernel. */
  #bind: [Record<Name, GPUBindGroup>, Record<Name, GPUBindGroup>];
  #limited = true;
  /** Whether the whole grouping runs in one workgroup. */
  #small: boolean;
  /** rounds_local dispatches encoded when every particle may be taken by the workgroup. */
  #localDispatches: number;

  /**
   * @param device the GPU device
   * @param options.count particles N; options.maxPerParticle K of the pair lists
   */
  constructor(device: GPUDevice, options: GroupingKernelsOptions) {
    const n = this.count = options.count;
    this.device = device;
    this.method = options.method ?? "compact";
    this.joined = this.method === "index-order" &&
      (options.mergeOrder ?? "colliding-pairs") === "colliding-pairs";
    this.maxRounds = options.maxRounds ?? GROUPING_MAX_ROUNDS;
    if (!Number.isInteger(this.maxRounds) || this.maxRounds < 0) {
      throw new RangeError(`grouping: maxRounds must be an integer >= 0, got ${this.maxRounds}`);
    }
    this.workgroupSize = options.workgroupSize ?? 64;
    const gpuPlan = options.localBudget === null;
    this.localLimit = options.localLimit ??
      (gpuPlan ? GPU_LOCAL_LIMIT : defaultLocalLimit(device));
    // on a GPU no loop is capped: the rounds never hand over between workgroup dispatches
    const budget = gpuPlan
      ? UNCAPPED
      : options.localBudget ?? (onFallbackAdapter(device) ? LOCAL_BUDGET : UNCAPPED);
    const shape = roundsShape({
      count: n,
      maxPerParticle: options.maxPerParticle,
      maxRounds: this.maxRounds,
      localLimit: this.localLimit,
      budget,
    });
    const k = options.maxPerParticle;
    // the one-workgroup index-order pass only where asked for (indexOrderSmall says why)
    this.#small = options.small ??
      (this.method === "index-order"
        ? (options.preferSmall ?? false) && indexOrderSmall({ count: n, maxPerParticle: k, budget })
        : shape.small);
    if (
      this.method === "index-order" && this.#small && budget !== UNCAPPED &&
      !indexOrderFits({ count: n, maxPerParticle: k, budget })
    ) {
      throw new RangeError(
        `grouping: the one-workgroup index-order pass cannot take ${n} particles with ` +
          `${k} partners each within its loop budget; leave options.small unset`,
      );
    }
    this.#localDispatches = shape.localDispatches;
    if (
      !Number.isInteger(this.localLimit) || this.localLimit < 0 || this.localLimit > LOCAL_LIMIT
    ) {
      throw new RangeError(
        `grouping: localLimit must be an integer in [0, ${LOCAL_LIMIT}], got ${this.localLimit}`,
      );
    }
    const maxPerParticle = this.#maxPerParticle = options.maxPerParticle;
    const work = this.#createBuffers(maxPerParticle);
    this.#params = work.params;
    this.#floodArgs = work.floodArgs;
    this.#ring = new StepParamRing(device, {
      label: "grouping params",
      targets: work.params,
      bytes: GROUPING_PARAMS.size,
    });
    const b = options.buffers;
    this.#scan = new PrefixScan(device, {
      label: "grouping member starts",
      data: b.memberStart,
      n: n + 1,
      maxLevels: 2,
    });
    const names = methodKernels(this.method);
    this.#k = this.#createKernels(names, {
      budget,
      floodBudget: options.floodBudget ?? (gpuPlan ? UNCAPPED : undefined),
    });
    // one map of every buffer by binding serves all the entry points (each binds what it uses)
    const resources = (s: 0 | 1) =>
      new Map<number, GPUBuffer>([
        [B.params, this.#params[s]],
        [B.pairCount, b.pairCount],
        [B.pairs, b.pairs],
        [B.markedCount, b.markedCount],
        [B.marked, b.marked],
        [B.dof, b.dof],
        [B.workA, work.workA],
        [B.workB, work.workB],
        [B.memberStart, b.memberStart],
        [B.memberList, b.memberList],
        [B.stats, b.stats],
        [B.kind, b.kind],
        ...(work.links ? [[B.links, work.links] as [number, GPUBuffer]] : []),
        [B.floodArgs, work.floodArgs[s]],
      ]);
    const stage = (s: 0 | 1) =>
      Object.fromEntries(
        names.map((name) => [
          name,
          bindKernel(device, this.#k[name], resources(s), {
            label: `merge-split grouping ${ENTRY[name]} stage ${s + 1} bind group`,
          }),
        ]),
      ) as Record<Name, GPUBindGroup>;
    this.#bind = [stage(0), stage(1)];
  }

  /**
   * Creates the grouping's own buffers: each stage's parameters, the two work arrays, and (index
   * order) the lower-partner links.
   */
  #createBuffers(maxPerParticle: number): {
    params: [GPUBuffer, GPUBuffer];
    workA: GPUBuffer;
    workB: GPUBuffer;
    links: GPUBuffer | undefined;
    floodArgs: [GPUBuffer, GPUBuffer];
  } {
    const n = this.count;
    const buffer = (label: string, size: number, usage: number) => {
      const b = this.device.createBuffer({ label, size: Math.max(16, size), usage });
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
    const stageParams: [GPUBuffer, GPUBuffer] = [params(1), params(2)];
    const workA = buffer("grouping work A (size, limit, proposals, control)", 4 * workAWords(n), S);
    const workB = buffer(
      "grouping work B (active flags, merges, cursors, members, active list)",
      4 * workBWords(n),
      S,
    );
    // the active flags are work B's first N + 1 words
    // index order: pair slot -> next slot of the same particle's list of lower partners
    const links = this.method === "index-order"
      ? buffer("grouping index-order lower-partner links", 4 * n * maxPerParticle, S)
      : undefined;
    // io_flood's workgroups per stage, written by io_comp_rank (a gated stage zeroes its own)
    const floodArgs = (stage: number) =>
      buffer(`grouping io_flood workgroups stage ${stage}`, 12, S | GPUBufferUsage.INDIRECT);
    return { params: stageParams, workA, workB, links, floodArgs: [floodArgs(1), floodArgs(2)] };
  }

  /** Creates the pipelines of the method's entry points, with the rounds' loop budgets. */
  #createKernels(
    names: readonly Name[],
    { budget, floodBudget }: { budget: number; floodBudget: number | undefined },
  ): Record<Name, Kernel> {
    const device = this.device;
    const constants = {
      WG: this.workgroupSize,
      ROUND_SALT,
      MAX_ROUNDS: this.maxRounds,
      LOCAL_LIMIT: this.localLimit,
      LOCAL_BUDGET: budget,
      IO_BUDGET: floodBudget ?? (onFallbackAdapter(device) ? LOCAL_BUDGET : UNCAPPED),
      COMP_SERIAL_MAX: compSerialMax({
        maxPerParticle: this.#maxPerParticle,
        maxRounds: this.maxRounds,
        budget,
      }),
      FLAG_CLOTH: KIND_BITS.sheet,
      JOINED: this.joined ? 1 : 0,
      SKIP_WITHOUT_PAIRS: this.method === "index-order" ? 1 : 0,
      ...MERGE_SPLIT_STATS.constantsFor(GROUPING_WGSL),
    };
    return Object.fromEntries(
      names.map((name) => [
        name,
        createKernel(device, {
          label: `merge-split grouping ${ENTRY[name]}`,
          code: GROUPING_WGSL,
          entryPoint: ENTRY[name],
          bindings: layoutOf(ENTRY[name]),
          constants,
        }),
      ]),
    ) as Record<Name, Kernel>;
  }

  #maxPerParticle: number;

  /**
   * Sets the parameters of both stages for the step encoded next on `encoder` (through a
   * {@link StepParamRing}: steps that share a submit each see their own seed and step); without
   * an encoder, for the next submit (a copy submitted at once).
   */
  setParams(p: GroupingStepParams, encoder?: GPUCommandEncoder): void {
    this.#limited = p.nMax !== Infinity;
    const pack = (stage: number) =>
      GROUPING_PARAMS.pack({
        count: this.count,
        maxPerParticle: this.#maxPerParticle,
        stage,
        seed: p.seed >>> 0,
        step: p.step >>> 0,
        nMin: this.#limited ? p.nMin : 0,
        nMax: this.#limited ? p.nMax : 0,
      });
    this.#ring.write([pack(1), pack(2)], encoder);
  }

  /**
   * Dispatches the grouping of each stage encoded when last encoded: what
   * `--param merge-split.grouping` costs in launches.
   */
  readonly dispatchesPerStage: [number, number] = [0, 0];

  /**
   * Encodes the grouping of `stage` into `pass` (`dof`, `memberStart`, `memberList`), with the
   * census of its groups into the statistics (`core/grouping/grouping_census.ts`).
   */
  encode(pass: GPUComputePassEncoder, options: { stage: 1 | 2 }): void {
    const s = options.stage - 1 as 0 | 1;
    const before = dispatchesEncoded();
    this.#encodeGrouping(pass, s);
    this.dispatchesPerStage[s] = dispatchesEncoded() - before;
  }

  /** Dispatches of the member starts' scan (N + 1 elements, at most 2 levels). */
  get scanDispatches(): number {
    return scanDispatches(this.count + 1, this.#scan.itemsPerInvocation, this.#scan.workgroupSize);
  }

  /** The plan of one stage with the present parameters ({@link groupingPlan}). */
  get plan(): GroupingStep[] {
    return groupingPlan({
      method: this.method,
      limited: this.#limited,
      small: this.#small,
      local: this.count <= this.localLimit,
      localDispatches: this.#localDispatches,
    });
  }

  #encodeGrouping(pass: GPUComputePassEncoder, s: 0 | 1): void {
    const bind = this.#bind[s];
    const k = this.#k;
    for (const step of this.plan) {
      if (step === "scan") {
        this.#scan.encode(pass);
      } else if (step === "ioFlood") {
        // a component each, as many as io_comp_rank found: a step with few contacts costs little
        dispatch(pass, k[step], {
          bindGroup: bind[step],
          indirect: this.#floodArgs[s],
          indirectOffset: 0,
          rewritten: true,
        });
      } else if (step === "roundsComp") {
        dispatch(pass, k[step], { bindGroup: bind[step], workgroups: compWorkgroups(this.count) });
      } else if (ONE_WORKGROUP.has(step)) {
        dispatch(pass, k[step], { bindGroup: bind[step], workgroups: 1 });
      } else {
        dispatch(pass, k[step], {
          bindGroup: bind[step],
          invocations: this.count,
          workgroupSize: this.workgroupSize,
        });
      }
    }
  }

  /** Frees the grouping's own buffers. */
  destroy(): void {
    for (const b of this.#own) b.destroy();
    this.#ring.destroy();
    this.#scan.destroy();
  }
}
