/**
 * Helpers of the one-workgroup CG solves (`solve_local` of `cg.wgsl`; `local_solve.wgsl`, a prelude
 * after `workgroup_sum.wgsl`): one dispatch runs many CG iterations
 * with workgroup barriers, bit for bit the dispatched kernels' result, within llvmpipe's loop cap.
 *
 * @module
 */
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
 * Iterations one local dispatch surely takes: `(budget − setup) / perIteration` (loop iterations
 * of the busiest invocation, worst case), or 0 when fewer than `least` fit (default 2: a cost that
 * is exact, like a pressure grid's, gains nothing from one iteration per dispatch; the dispatched kernels are
 * then the better path).
 */
export function iterationsPerDispatch(
  perIteration: number,
  options: { setup: number; budget?: number; least?: number },
): number {
  const budget = options.budget ?? LOCAL_BUDGET;
  const fits = Math.floor((budget - options.setup) / Math.max(1, perIteration));
  return fits >= (options.least ?? 2) ? fits : 0;
}
