/**
 * The `mass-spring` system: single-layer cloth (and any body built of springs) integrated
 * implicitly, one linearised backward-Euler step per stage solved by matrix-free CG on the GPU
 * ({@link ImplicitSprings}). It integrates its part of every DOF: the mass and the handler forces the
 * coupling gives it, its springs on its members, gravity and drag.
 *
 * @module
 */
import type { SystemContext, SystemEntry } from "../system.ts";
import { ImplicitSprings } from "../../runtime/implicit_springs.ts";

/** The `mass-spring` system entry. */
export const MASS_SPRING_SYSTEM: SystemEntry = {
  id: "mass-spring",
  description: "Mass-spring cloth, implicit (backward Euler, matrix-free Jacobi-PCG on the GPU)",
  integrator: "implicit",
  bodyKinds: ["cloth"],
  selfCollision: true,
  params: {
    cgIterations: { description: "CG iterations encoded per solve", min: 1, integer: true },
    cgTolerance: { description: "relative residual at which CG stops", gt: 0, max: 1 },
    drag: { description: "linear drag c (1/s), −c·m·v, integrated implicitly", min: 0 },
  },
  create(ctx: SystemContext) {
    const n = ctx.state.count;
    const springs = ctx.particles.springs.filter((s) => ctx.owned[s.i] && ctx.owned[s.j]);
    const cloth = new ImplicitSprings(ctx.device, {
      particleCount: n,
      springs,
      cloth: ctx.owned,
      maxIterations: ctx.params.cgIterations,
      tolerance: ctx.params.cgTolerance,
      drag: ctx.params.drag,
      label: `mass-spring ${ctx.index}`,
    });
    const b = ctx.state.buffers;
    const bindings = cloth.bind({
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
    return {
      id: "mass-spring",
      encodeForces() {},
      encodeIntegrate: (encoder) => cloth.encodeStep(encoder, { bindings, dt, gravity }),
      readSolverStats: () => cloth.readSolverStats(),
      destroy: () => cloth.destroy(),
    };
  },
};
