/**
 * The `peridynamics` system: bond-based peridynamic brittle solids (Silling 2000; Silling & Askari
 * 2005; the paper's reference [1], Levine et al. 2014). Every particle is bonded to the particles
 * of its body within the horizon δ (`core/scene/scene_builder.ts`); a bond is a Hookean spring of
 * stiffness c·β·V_i·V_j/|ξ| with the micromodulus c = 18K/(πδ⁴) (`core/model/peridynamic_bonds.ts`),
 * so the system integrates its bodies implicitly with the shared spring-network solver
 * ({@link ImplicitSprings}: linearised backward Euler, matrix-free CG on the GPU). At the end of
 * every step a bond stretched past s0 = √(5G0/(9Kδ)) breaks irreversibly ({@link SpringBreaking})
 * and its two particles may collide from then on. With Silling & Askari's (2005) compression term
 * (`compression` α, 0.25 by default as in their examples), each particle's critical stretch is s0 −
 * α·s_min, s_min the smallest stretch of its intact bonds, and a bond breaks past the smaller of
 * its two ends': a particle in compression takes more stretch to break.
 *
 * A cloth body that names this system (`"system": "peridynamics"`) is integrated in the same
 * implicit solve, as the paper does for Fig. 3 ("within the same implicit integration system used
 * for peridynamics"); its springs never break.
 *
 * @module
 */
import {
  implicitSpringSystem,
  WARM_START_PARAM,
} from "../spring-network/implicit_spring_system.ts";
import { SILLING_ASKARI_ALPHA, SpringBreaking } from "./spring_breaking.ts";
import { BOND_BROKEN_BIT } from "../../state/bond_flags.ts";
import type { SystemContext, SystemEntry } from "../system.ts";

/** The `peridynamics` system entry. */
export const PERIDYNAMICS_SYSTEM: SystemEntry = {
  id: "peridynamics",
  description:
    "Bond-based peridynamic brittle solids, implicit (backward Euler on bonds as springs, CG), bonds break past s0",
  integrator: "implicit",
  bodyKinds: ["solid"],
  selfCollision: true,
  params: {
    cgIterations: { description: "CG iterations encoded per solve", min: 1, integer: true },
    cgTolerance: { description: "relative residual at which CG stops", gt: 0, max: 1 },
    drag: { description: "linear drag c (1/s), −c·m·v, integrated implicitly", min: 0, default: 0 },
    warmStart: WARM_START_PARAM,
    compression: {
      description:
        "Silling & Askari's α: a particle's critical stretch is s0 − α·s_min (s_min its bonds' smallest stretch); 0 breaks past s0 alone",
      min: 0,
      default: SILLING_ASKARI_ALPHA,
    },
  },
  create(ctx: SystemContext) {
    const { solver, system } = implicitSpringSystem(ctx, { id: "peridynamics" });
    const b = ctx.state.buffers;
    const breaking = new SpringBreaking(ctx.device, {
      springs: solver,
      pos: b.pos,
      bondStart: b.bondStart,
      bondList: b.bondList,
      brokenBit: BOND_BROKEN_BIT,
      compression: ctx.params.compression,
      label: `peridynamics ${ctx.index} breaking`,
    });
    return {
      ...system,
      encodeEndOfStep: (encoder) => breaking.encode(encoder),
      destroy() {
        breaking.destroy();
        system.destroy();
      },
    };
  },
};
