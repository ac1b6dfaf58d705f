/**
 * The `impulse` handler: velocity impulses along n̂ with restitution e at the end of the step,
 * on the contacts found at its start (Rule 2 re-tested with the velocities after integration),
 * no position correction.
 *
 * @module
 */
import { IMPULSE_SCHEMA } from "../../../core/handler_schemas/impulse_schema.ts";
import type { HandlerContext, HandlerEntry } from "../handler.ts";
import { Impulse } from "./impulse.ts";

/** The `impulse` handler entry. */
export const IMPULSE_HANDLER: HandlerEntry = {
  id: "impulse",
  description: "Velocity impulses along n̂ with restitution, no position correction",
  params: IMPULSE_SCHEMA,
  create(ctx: HandlerContext) {
    const n = ctx.state.count;
    const k = new Impulse(ctx.device, {
      capacity: n,
      maxPerParticle: ctx.maxPerParticle,
      restitution: ctx.params.restitution,
      label: "impulse",
    });
    const b = ctx.state.buffers;
    const bind = k.bind({
      pos: b.pos,
      vel: b.velTmp,
      mass: b.mass,
      contacts: ctx.collisions.contacts,
      contactCount: ctx.collisions.contactCount,
      velOut: b.velOut,
    });
    return {
      id: "impulse",
      stages: 1,
      encodeEndOfStep(encoder) {
        encoder.copyBufferToBuffer(b.velOut, 0, b.velTmp, 0, 16 * n);
        k.encode(encoder, bind);
      },
      destroy: () => k.destroy(),
    };
  },
};
