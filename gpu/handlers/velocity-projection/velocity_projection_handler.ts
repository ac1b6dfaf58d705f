/**
 * The `velocity-projection` handler: the fluid–solid penetration prevention of Gao et al. 2018
 * (FLIP and shape matching, §5.2, Eqs. 19–20) at the end of the step, on the contacts found at its
 * start (Rules 1–2 re-tested with the velocities after integration): a fluid particle loses its
 * approaching normal velocity relative to each cloth or solid particle it hits (Eq. 19, the mean
 * over its contacts) and that particle receives the equal and opposite momentum (Eq. 20). No
 * parameters, no position correction; fluid–fluid and solid–solid pairs are left alone, so on a
 * scene without fluid it changes nothing.
 *
 * @module
 */
import type { HandlerContext, HandlerEntry } from "../handler.ts";
import { VelocityProjection } from "./velocity_projection.ts";

/** The `velocity-projection` handler entry. */
export const VELOCITY_PROJECTION_HANDLER: HandlerEntry = {
  id: "velocity-projection",
  description: "Fluid–solid velocity projection (Gao et al. 2018, Eqs. 19–20), momentum to the " +
    "solid, no position correction",
  params: {},
  create(ctx: HandlerContext) {
    const n = ctx.state.count;
    const k = new VelocityProjection(ctx.device, {
      capacity: n,
      maxPerParticle: ctx.maxPerParticle,
      label: "velocity projection",
    });
    const b = ctx.state.buffers;
    const bind = k.bind({
      pos: b.pos,
      vel: b.velTmp,
      mass: b.mass,
      kind: b.kind,
      contacts: ctx.collisions.contacts,
      contactCount: ctx.collisions.contactCount,
      velOut: b.velOut,
    });
    return {
      id: "velocity-projection",
      stages: 1,
      encodeEndOfStep(encoder) {
        encoder.copyBufferToBuffer(b.velOut, 0, b.velTmp, 0, 16 * n);
        k.encode(encoder, bind);
      },
      destroy: () => k.destroy(),
    };
  },
};
