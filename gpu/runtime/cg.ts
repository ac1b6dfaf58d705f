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
  | "solve_local";

/** How a CG kernel is dispatched: one workgroup, or the gate's indirect triple 0 or 1. */
export type CgDispatch = "one" | "indirect" | "indirect1";

/** What the CG kernels dispatch with: `gate`, `gate_final`, `solve_local` run as one workgroup. */
export const CG_DISPATCH: Readonly<Record<Exclude<CgKernel, "solve_local">, CgDispatch>> = {
  gate: "one",
  gate_final: "one",
  pap_finish: "indirect1",
  apply_a: "indirect",
  update_x: "indirect",
  update_p: "indirect",
};

/**
 * The dispatch size of a CG kernel dispatched `how`: one workgroup, or the indirect arguments the
 * gate writes into `args` (triple 0 for the per-slot kernels, triple 1 for the one-workgroup
 * pap_finish; zero workgroups once converged).
 */
export function cgDispatchSize(how: CgDispatch, args: GPUBuffer): DispatchSize {
  return how === "one"
    ? { workgroups: 1 }
    : { indirect: args, indirectOffset: how === "indirect" ? 0 : 12, rewritten: true };
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

/** Floats of the CG state buffer: scalars, partial sums, and `solve_local`'s per-slot terms. */
export function cgStateFloats(layout: CgLayout): number {
  const ranges = layout.residualNorm ? 2 : 1;
  const terms = layout.local ? ranges * layout.chunks * layout.workgroupSize : 0;
  return CG_PARTIALS + ranges * layout.chunks + terms;
}

/** The `override` constants of `cg.wgsl` for a layout. */
export function cgConstants(layout: CgLayout): Record<string, number> {
  const ranges = layout.residualNorm ? 2 : 1;
  return {
    ...Object.fromEntries(Object.entries(CG_SCALARS).map(([k, v]) => [`S_${k}`, v])),
    PARTIALS: CG_PARTIALS,
    SLOTS: CG_PARTIALS + ranges * layout.chunks,
    CG_RESIDUAL_NORM: layout.residualNorm ? 1 : 0,
    SUM_WORKGROUP_SIZE: layout.workgroupSize,
  };
}

/**
 * Encodes the CG iterations after the first gate: `iterations` × [apply_a, pap_finish, update_x,
 * gate, update_p] (the last: gate_final, no update_p), five dispatches each that the gate turns
 * into empty ones once converged; or, where `localIterations` > 0, as many `solve_local`
 * dispatches as the worst case needs (those after the solve ends return at once).
 */
export function encodeCgIterations(
  run: (kernel: CgKernel, how: CgDispatch) => void,
  options: { iterations: number; localIterations: number },
): void {
  const { iterations, localIterations } = options;
  if (localIterations > 0) {
    const dispatches = Math.ceil(iterations / localIterations);
    for (let k = 0; k < dispatches; k++) run("solve_local", "one");
    return;
  }
  const step = (kernel: Exclude<CgKernel, "solve_local">) => run(kernel, CG_DISPATCH[kernel]);
  for (let k = 0; k < iterations; k++) {
    step("apply_a");
    step("pap_finish");
    step("update_x");
    if (k + 1 < iterations) {
      step("gate");
      step("update_p");
    } else {
      step("gate_final");
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
