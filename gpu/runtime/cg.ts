/**
 * One preconditioned conjugate-gradient loop (`cg.wgsl`, a prelude after `workgroup_sum.wgsl` and
 * `local_solve.wgsl`) for the implicit systems: the owner's WGSL supplies the operator A p and the
 * vector updates as hooks; this module holds the scalars of the solve, the constants that place
 * them, the encoded iteration loop and the statistics read from the scalars.
 *
 * @module
 */
import type { DispatchSize } from "./kernel.ts";
import { LOCAL_SOLVE_WGSL } from "./local_solve.ts";
import { WORKGROUP_SUM_WGSL } from "./workgroup_sum.ts";
import cgWgsl from "./cg.wgsl" with { type: "text" };

/**
 * WGSL of the CG loop with its preludes (`workgroup_sum.wgsl`, `local_solve.wgsl`, `cg.wgsl`):
 * put it before the owner's kernels.
 */
export const CG_WGSL: string = [
  WORKGROUP_SUM_WGSL,
  LOCAL_SOLVE_WGSL,
  cgWgsl,
].join("\n");

/**
 * Scalars of the CG state buffer (`array<f32>`; WGSL `S_*`): the reference of the convergence
 * test (r₀ᵀz₀ or bᵀb, −1 until the first gate), its measure at the last gate (rᵀz or rᵀr), rᵀz in
 * use and after the update, pᵀAp, done, iterations run, and solve_local's position in the loop.
 */
export const CG_SCALARS = {
  REF: 0,
  RES: 1,
  RZ: 2,
  RZNEW: 3,
  PAP: 4,
  DONE: 5,
  ITER: 6,
  LOOP: 7,
} as const;

/** Where the per-workgroup partial sums start in the state buffer (after the scalars). */
export const CG_PARTIALS = 8;

/** Entry points of `cg.wgsl`, each bound by the owner's binding table. */
export type CgKernel =
  | "gate"
  | "gate_final"
  | "pap_finish"
  | "apply_a"
  | "update_x"
  | "update_p"
  | "update_x_fused"
  | "update_p_fused"
  | "solve_local";

/**
 * Pipelines an owner adds where its loop takes the gate pending after the init kernel or a warm
 * start ({@link encodeCgIterations} `gate`): `apply_a_gate`, apply_a with `APPLY_A_GATE` (the
 * fused loop's first iteration, or an owner's A x of a warm start). Each is an entry point of `cg.wgsl` built with `override`
 * constants ({@link CG_GATE_KERNELS}), so an owner that does not use them has no pipeline to build.
 */
export type CgGateKernel = "apply_a_gate";

/** The entry point of each {@link CgGateKernel} and its `override` constants (after {@link cgConstants}). */
export const CG_GATE_KERNELS: Readonly<
  Record<CgGateKernel, { entryPoint: CgKernel; constants: Readonly<Record<string, number>> }>
> = {
  apply_a_gate: { entryPoint: "apply_a", constants: { APPLY_A_GATE: 1 } },
};

/**
 * How a CG kernel is dispatched: one workgroup, the gate's indirect triple 0 or 1, or directly
 * one invocation per slot (`slots`: the owner's per-slot dispatch, the same workgroups as triple
 * 0 before convergence).
 */
export type CgDispatch = "one" | "indirect" | "indirect1" | "slots";

/**
 * Solves of at most this many workgroups per per-slot kernel (partial sums of one dot product)
 * run the fused loop (three dispatches per iteration): each workgroup of update_x_fused and
 * update_p_fused reads every partial sum, so the totals cost chunks² reads a dispatch, about 1M
 * here; larger solves keep the five-kernel loop, whose one-workgroup totals read each once.
 */
export const FUSED_MAX_CHUNKS = 1024;

/** What the CG kernels dispatch with, in the five-kernel loop (`one`: a single workgroup). */
const LOOP_DISPATCH = {
  gate: "one",
  gate_final: "one",
  pap_finish: "indirect1",
  apply_a: "indirect",
  update_x: "indirect",
  update_p: "indirect",
} as const satisfies Partial<Record<CgKernel, CgDispatch>>;

/**
 * The dispatch size of a CG kernel dispatched `how` (`slots` is the owner's: it throws): one
 * workgroup, or the indirect arguments the gate writes into `args` (triple 0 for the per-slot
 * kernels, triple 1 for the one-workgroup pap_finish; zero workgroups once converged).
 */
export function cgDispatchSize(how: Exclude<CgDispatch, "slots">, args: GPUBuffer): DispatchSize {
  return how === "one"
    ? { workgroups: 1 }
    : { indirect: args, indirectOffset: how === "indirect" ? 0 : 12, rewritten: true };
}

/**
 * The loop a solve runs: `local` (solve_local, `localIterations` > 0), `fused` (three direct
 * dispatches per iteration: at most {@link FUSED_MAX_CHUNKS} chunks) or `dispatched` (five, the
 * gate's indirect arguments).
 */
export type CgLoop = "local" | "fused" | "dispatched";

/**
 * The loop of a solve of `chunks` workgroups per per-slot kernel (see {@link CgLoop});
 * `fused: false` keeps the five-kernel loop at any size (tests compare the loops).
 */
export function cgLoop(
  options: { chunks: number; localIterations: number; fused?: boolean },
): CgLoop {
  if (options.localIterations > 0) return "local";
  return options.fused !== false && options.chunks <= FUSED_MAX_CHUNKS ? "fused" : "dispatched";
}

/**
 * Whether a solve running `loop` uses `kernel` (its owner builds only those pipelines; a
 * {@link CgGateKernel} only where its loop takes the gate).
 */
export function cgKernelUsed(kernel: CgKernel | CgGateKernel, loop: CgLoop): boolean {
  if (kernel === "solve_local") return loop === "local";
  if (kernel === "update_x_fused" || kernel === "update_p_fused" || kernel === "apply_a_gate") {
    return loop === "fused";
  }
  return true;
}

/**
 * How the per-slot kernels an owner runs around the loop (a warm start's) are dispatched: with
 * the gate's indirect arguments, or directly where the loop takes no indirect dispatch.
 */
export function cgSlotDispatch(loop: CgLoop): "indirect" | "slots" {
  return loop === "dispatched" ? "indirect" : "slots";
}

/** The layout of one solve's state buffer. */
export interface CgLayout {
  /** Workgroups of a per-slot kernel (partial sums of one dot product). */
  chunks: number;
  /** Workgroup size of the CG kernels (`SUM_WORKGROUP_SIZE`). */
  workgroupSize: number;
  /** Test convergence on rᵀr against bᵀb (true) or on rᵀz against r₀ᵀz₀ (false). */
  residualNorm: boolean;
  /** Whether `solve_local` runs (its per-slot terms follow the partial sums). */
  local: boolean;
}

/** Residual ranges of the partial sums: rᵀz, and rᵀr where the test is on ‖r‖. */
function residualRanges(layout: CgLayout): number {
  return layout.residualNorm ? 2 : 1;
}

/**
 * Floats of the CG state buffer: scalars, partial sums (the residual ranges, then pᵀAp), and
 * `solve_local`'s per-slot terms.
 */
export function cgStateFloats(layout: CgLayout): number {
  const ranges = residualRanges(layout);
  const terms = layout.local ? ranges * layout.chunks * layout.workgroupSize : 0;
  return CG_PARTIALS + (ranges + 1) * layout.chunks + terms;
}

/** The `override` constants of `cg.wgsl` for a layout. */
export function cgConstants(layout: CgLayout): Record<string, number> {
  const ranges = residualRanges(layout);
  return {
    ...Object.fromEntries(Object.entries(CG_SCALARS).map(([k, v]) => [`S_${k}`, v])),
    PARTIALS: CG_PARTIALS,
    PAP_RANGE: ranges,
    SLOTS: CG_PARTIALS + (ranges + 1) * layout.chunks,
    CG_RESIDUAL_NORM: layout.residualNorm ? 1 : 0,
    SUM_WORKGROUP_SIZE: layout.workgroupSize,
  };
}

/** Options of {@link encodeCgIterations}. */
export interface CgIterationOptions {
  /** CG iterations encoded (the cap; those after convergence cost an empty or early-out dispatch). */
  iterations: number;
  /** Iterations one `solve_local` dispatch takes (`local` loop). */
  localIterations: number;
  /** The loop to encode. */
  loop: CgLoop;
  /**
   * Whether the gate after the owner's init kernel or warm start is still to run (default false:
   * the owner dispatched `gate`). `dispatched` encodes it first (its indirect arguments start the
   * loop); `fused` takes it in the first iteration's `apply_a_gate`; `local` in the first
   * `solve_local` dispatch; a gate dispatch where no iteration is encoded.
   */
  gate?: boolean;
  /**
   * Whether the loop ends with the `gate_final` dispatch (default true); false leaves it to the
   * owner's next kernel (`gate_final_in_workgroup` in cg.wgsl), which takes it whatever ran before.
   */
  gateFinal?: boolean;
}

/**
 * Encodes the CG iterations after the first gate, as `loop` runs them: `dispatched`,
 * `iterations` × [apply_a, pap_finish, update_x, gate, update_p], five dispatches each that the
 * gate turns into empty ones once converged; `fused`, × [apply_a, update_x_fused,
 * update_p_fused], three direct dispatches that return at once once converged; the last iteration
 * ends with gate_final instead of its gate and update_p. `local`: as many `solve_local`
 * dispatches as the worst case needs (those after the solve ends return at once). With
 * `options.gate` the first gate is the loop's too (`run` then also gets `apply_a_gate`).
 */
export function encodeCgIterations(
  run: (kernel: CgKernel, how: CgDispatch) => void,
  options: CgIterationOptions & { gate?: false },
): void;
export function encodeCgIterations(
  run: (kernel: CgKernel | CgGateKernel, how: CgDispatch) => void,
  options: CgIterationOptions,
): void;
export function encodeCgIterations(
  run: (kernel: CgKernel, how: CgDispatch) => void,
  options: CgIterationOptions,
): void {
  const { iterations, localIterations, loop } = options;
  const gate = options.gate ?? false;
  // with `gate`, `run` takes the gate kernels too (the second signature)
  const runGate = run as (kernel: CgKernel | CgGateKernel, how: CgDispatch) => void;
  if (gate && (loop === "dispatched" || iterations <= 0)) run("gate", "one");
  if (loop === "local") {
    const dispatches = Math.ceil(iterations / localIterations);
    for (let k = 0; k < dispatches; k++) run("solve_local", "one");
    return;
  }
  const fused = loop === "fused";
  const step = (kernel: keyof typeof LOOP_DISPATCH) =>
    run(kernel, fused && LOOP_DISPATCH[kernel] !== "one" ? "slots" : LOOP_DISPATCH[kernel]);
  for (let k = 0; k < iterations; k++) {
    if (k === 0 && fused && gate) runGate("apply_a_gate", "slots");
    else step("apply_a");
    if (fused) run("update_x_fused", "slots");
    else {
      step("pap_finish");
      step("update_x");
    }
    if (k + 1 >= iterations) {
      if (options.gateFinal ?? true) step("gate_final");
    } else if (fused) run("update_p_fused", "slots");
    else {
      step("gate");
      step("update_p");
    }
  }
}

/** Statistics of a solve, read from its state buffer. */
export interface CgStats {
  /** CG iterations run (each gate that found the solve unconverged). */
  iterations: number;
  /** √(measure / reference) at the last gate: ‖r‖/‖b‖, or √(rᵀz / r₀ᵀz₀). */
  relativeResidual: number;
  /** Whether the tolerance was met (or there was nothing to solve) before the cap. */
  converged: boolean;
}

/** The statistics of the solve whose state buffer is `state`. */
export function cgStats(state: Float32Array): CgStats {
  const ref = state[CG_SCALARS.REF];
  const res = state[CG_SCALARS.RES];
  return {
    iterations: state[CG_SCALARS.ITER],
    relativeResidual: ref > 0 ? Math.sqrt(Math.max(0, res) / ref) : 0,
    converged: state[CG_SCALARS.DONE] !== 0 || !(res > 0),
  };
}
