/**
 * The `penalty-*` handlers: a penalty force k·(r1 + r2 − d)·n̂ between overlapping particles of
 * different bodies (or non-bonded particles of one self-colliding body), at three stiffness
 * levels an order of magnitude apart that the scene derives from one physical rule.
 *
 * @module
 */
import { PENALTY_SCHEMA, type PenaltyLevel } from "../../../core/handler_schemas/penalty_schema.ts";
import type { HandlerContext, HandlerEntry } from "../handler.ts";
import { PenaltyForce } from "./penalty_force.ts";

/**
 * The penalty handler at one level (`PENALTY_LEVELS`: `weak`, `medium`, `strong`), or without a
 * level: the family `penalty`, run only by its exact id at explicit stiffnesses (`--param`,
 * `--sweep`; the scene's `handlers.penalty` gives its default, `PENALTY_FAMILY_LEVEL`'s).
 */
export function penaltyHandler(level?: PenaltyLevel): HandlerEntry {
  const id = level ? `penalty-${level}` : "penalty";
  return {
    id,
    description: `Penalty force k·(r1 + r2 − d)·n̂ between overlapping particles, ${
      level ?? "at an explicit stiffness"
    }`,
    explicitOnly: !level,
    params: PENALTY_SCHEMA,
    create(ctx: HandlerContext) {
      const k = new PenaltyForce(ctx.device, {
        capacity: ctx.state.count,
        maxPerParticle: ctx.maxPerParticle,
        stiffness: ctx.params.stiffness,
        label: id,
      });
      const b = ctx.state.buffers;
      const bind = k.bind({
        pos: b.pos,
        vel: b.vel,
        contacts: ctx.collisions.contacts,
        contactCount: ctx.collisions.contactCount,
        force: b.handlerForce,
      });
      return {
        id,
        stages: 1,
        encodeForces: (encoder) => k.encode(encoder, bind),
        destroy: () => k.destroy(),
      };
    },
  };
}
