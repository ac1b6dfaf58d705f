/**
 * Helpers of the one-workgroup CG solves (`solve_local` of `cg.wgsl`; `local_solve.wgsl`, a prelude
 * after `workgroup_sum.wgsl`): one dispatch runs many CG iterations
 * with workgroup barriers, bit for bit the dispatched kernels' result, within llvmpipe's loop cap.
 *
 * @module
 */
import { onFallbackAdapter } from "./device.ts";
import localSolveWgsl from "./local_solve.wgsl" with { type: "text" };

/** WGSL of the local-solve helpers (a prelude). */
export const LOCAL_SOLVE_WGSL: string = localSolveWgsl;

/**
 * Loop iterations an invocation of a local solve may spend in one dispatch: llvmpipe stops an
 * invocation's loops after 65,535 iterations in all; the rest is margin.
 */
export const LOCAL_BUDGET = 60000;

/** Loop iterations of one dot product's total over `chunks` partial sums (`total_cost` in WGSL). */
export function totalCost(chunks: number, workgroupSize: number): number {
  const owned = Math.ceil(chunks / workgroupSize);
  return owned * (workgroupSize + 8) + owned + 8;
}

/**
 * The loop budget of a local solve's invocation on `device`: {@link LOCAL_BUDGET} on a fallback
 * (software) adapter, whose llvmpipe and lavapipe stop an invocation's loops after 65,535
 * iterations (SwiftShader does not, but is not told apart from them); `null` on a GPU, which has no
 * such cap.
 */
export function deviceLoopBudget(device: GPUDevice): number | null {
  return onFallbackAdapter(device) ? LOCAL_BUDGET : null;
}

/**
 * Without a loop cap, a solve of at most this many chunks (workgroups of its per-slot kernels)
 * runs in one workgroup, all its iterations in one dispatch: each invocation then walks at most 64
 * slots per kernel of an iteration, about the work of the three dispatches (and their launches) it
 * replaces; larger solves keep the dispatched loops, which spread an iteration over the GPU.
 */
export const UNCAPPED_LOCAL_MAX_CHUNKS = 64;

/**
 * Iterations per local dispatch without a loop cap: every iteration (the u32 maximum, also the
 * value of the WGSL budget overrides then).
 */
export const ALL_ITERATIONS = 0xffff_ffff;

/**
 * Iterations one local dispatch surely takes: `(budget − setup) / perIteration` (loop iterations
 * of the busiest invocation, worst case), or 0 when fewer than `least` fit (default 2: a cost that
 * is exact, like a pressure grid's, gains nothing from one iteration per dispatch; the dispatched
 * kernels are then the better path). With no cap (`budget` null): {@link ALL_ITERATIONS} where
 * the solve has at most {@link UNCAPPED_LOCAL_MAX_CHUNKS} chunks, else what a capped adapter takes
 * ({@link LOCAL_BUDGET}): a GPU never encodes more dispatches than a software adapter.
 */
export function iterationsPerDispatch(
  perIteration: number,
  options: { setup: number; chunks: number; budget?: number | null; least?: number },
): number {
  if (options.budget === null && options.chunks <= UNCAPPED_LOCAL_MAX_CHUNKS) return ALL_ITERATIONS;
  const budget = options.budget ?? LOCAL_BUDGET;
  const fits = Math.floor((budget - options.setup) / Math.max(1, perIteration));
  return fits >= (options.least ?? 2) ? fits : 0;
}

/**
 * The value of a WGSL loop-budget override for `budget` (null: no cap) and the iterations a
 * dispatch takes ({@link iterationsPerDispatch}): unbounded only where one dispatch takes them all.
 */
export function wgslLoopBudget(budget: number | null, iterations: number): number {
  if (iterations === ALL_ITERATIONS) return ALL_ITERATIONS;
  return budget ?? LOCAL_BUDGET;
}
