/**
 * The part every implicit spring-network system shares (mass-spring cloth, peridynamics): the
 * {@link ImplicitSprings} solver over the springs whose two ends the system owns, bound to the
 * shared DOF map and to the system's part of every DOF, stepping by backward Euler in
 * `encodeIntegrate`. A system adds what is its own (e.g. bond breaking) around it.
 *
 * @module
 */
import { ImplicitSprings } from "./implicit_springs.ts";
import { paperDefault } from "../../../core/setups.ts";
import type { GpuSystem, SystemContext } from "../system.ts";

/**
 * The `warmStart` parameter every implicit spring-network system declares: 1 starts stage 2's CG
 * from stage 1's solution, 0 (default, the paper's setup) solves it cold, as the paper's tests did
 * (§6.3: "This
 * additional overhead can be reduced by using the result of the first integration step as the
 * initial guess for the second integration step, an optimization that is not included in our
 * tests").
 */
export const WARM_START_PARAM = {
  description:
    "stage 2's CG starts from stage 1's solution (1) or cold (0, the paper's tests, §6.3)",
  min: 0,
  max: 1,
  integer: true,
  default: paperDefault("system", "peridynamics", "warmStart"),
} as const;

/** The solver of a spring-network system and the `GpuSystem` that steps it. */
export function implicitSpringSystem(
  ctx: SystemContext,
  options: { id: string },
): { solver: ImplicitSprings; system: GpuSystem } {
  const all = ctx.particles.springs;
  const springs = all.select((k) => Boolean(ctx.owned[all.i[k]] && ctx.owned[all.j[k]]));
  const solver = new ImplicitSprings(ctx.device, {
    particleCount: ctx.state.count,
    springs,
    cloth: ctx.owned,
    maxIterations: ctx.params.cgIterations,
    tolerance: ctx.params.cgTolerance,
    drag: ctx.params.drag,
    localBudget: ctx.localBudget,
    label: `${options.id} ${ctx.index}`,
  });
  const b = ctx.state.buffers;
  const bindings = solver.bind({
    dof: b.dof,
    offset: b.offset,
    dofX: b.dofX,
    dofV: b.dofV,
    dofM: ctx.part.mass,
    extForce: ctx.part.force,
    memberStart: b.memberStart,
    memberList: b.memberList,
    dofVOut: ctx.part.vel,
    pinned: b.pinned,
  });
  const { dt, gravity } = ctx.scene;
  const warmStart = ctx.params.warmStart !== 0;
  return {
    solver,
    system: {
      id: options.id,
      encodeForces() {},
      encodeIntegrate: (encoder, o) =>
        solver.encodeStep(encoder, { bindings, dt, gravity, stage: o?.stage, warmStart }),
      readSolverStats: async () => ({
        ...await solver.readSolverStats(),
        warmStart,
        method: "Jacobi-PCG, linearised backward Euler (rᵀz relative to the cold r₀ᵀz₀)",
        tolerance: solver.tolerance,
        maxIterations: solver.maxIterations,
      }),
      destroy: () => solver.destroy(),
    },
  };
}
