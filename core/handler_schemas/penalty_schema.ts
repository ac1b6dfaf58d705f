/**
 * The parameters of the `penalty-*` handlers, defined once: the stiffness k and its levels.
 * A level is a multiple of the scene's reference stiffness k_ref = m·v²/(2r)² (the stiffness that
 * stops one particle arriving at the impact speed within one diameter; `scenes/baseline_handlers.ts`
 * computes k_ref from the scene): weak/medium/strong = 1/10/100·k_ref, decades apart as the
 * paper's levels, fixed before any run. The family `penalty` (explicit stiffnesses, `--param`,
 * `--sweep`) defaults to the medium level.
 *
 * @module
 */
import type { ParamSchema } from "../params.ts";

/** The penalty handlers' parameter schema (every level and the family share it). */
export const PENALTY_SCHEMA = {
  stiffness: { description: "penalty stiffness k (N/m)", gt: 0 },
} as const satisfies ParamSchema;

/** The stiffness of each level of `penalty-<level>`, in units of k_ref, in report order. */
export const PENALTY_LEVELS = { weak: 1, medium: 10, strong: 100 } as const;

/** A level of the penalty handlers. */
export type PenaltyLevel = keyof typeof PENALTY_LEVELS;

/** The level whose stiffness the family `penalty` runs at unless given. */
export const PENALTY_FAMILY_LEVEL: PenaltyLevel = "medium";
