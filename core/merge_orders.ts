/**
 * The orders in which merge-split merges the members of a group (§3: "we recursively merge these
 * particles into larger meta-particles"; §5.2: "we merge colliding particle pairs recursively"),
 * declared once: the engine's (`--param merge-split.mergeOrder=…`) and the merge-order probe's
 * (`core/merge_order.ts`, which says what each reading does).
 *
 * @module
 */

/**
 * The merge orders the engine runs: `colliding-pairs` (the paper's setup: each member in the order
 * it joined its group, merged through the partner it collides with, n of Eq. 5 from those two
 * particles), `index-com` (ascending index, n from the centre of the meta merged so far).
 */
export const MERGE_ORDERS = ["colliding-pairs", "index-com"] as const;

/** One of {@link MERGE_ORDERS}. */
export type MergeOrder = typeof MERGE_ORDERS[number];

/**
 * The readings the merge-order probe compares: the engine's and `pair-union` (the group's
 * colliding pairs in order, each joining the two metas its particles are in), whose meta–meta
 * merges the GPU's left fold over the members does not run.
 */
export const MERGE_READINGS = [...MERGE_ORDERS, "pair-union"] as const;

/** One of {@link MERGE_READINGS}. */
export type MergeReading = typeof MERGE_READINGS[number];
