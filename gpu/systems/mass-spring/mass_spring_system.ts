/**
 * The `mass-spring` system: single-layer cloth (and any body built of springs) integrated
 * implicitly, one linearised backward-Euler step per stage solved by matrix-free CG on the GPU
 * ({@link ImplicitSprings}). It integrates its part of every DOF: the mass and the handler forces the
 * coupling gives it, its springs on its members, gravity and drag.
 *
 * @module
 */
import type { SystemContext, SystemEntry } from "../system.ts";
import {
  implicitSpringSystem,
  WARM_START_PARAM,
} from "../spring-network/implicit_spring_system.ts";

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
    warmStart: WARM_START_PARAM,
  },
  create(ctx: SystemContext) {
    return implicitSpringSystem(ctx, { id: "mass-spring" }).system;
  },
};
