/**
 * The parameters of the `impulse` handler, defined once: the restitution e, 0.5 unless a scene or
 * `--param impulse.restitution=…` gives another.
 *
 * @module
 */
import type { ParamSchema } from "../params.ts";

/** The impulse handler's parameter schema. */
export const IMPULSE_SCHEMA = {
  restitution: { description: "restitution coefficient e", min: 0, max: 1, default: 0.5 },
} as const satisfies ParamSchema;
