/**
 * The timed phases of a step, in step order (GPU timestamps around their compute passes); the
 * Table I phases of the paper are sums of these (`bench/case_metrics.ts`).
 *
 * @module
 */

/** The timed phases of a step. */
export const PHASES = [
  "neighborSearch",
  "collisionDetection",
  "merging1",
  "integration1",
  "splitting1",
  "merging2",
  "integration2",
  "splitting2",
  "endOfStep",
  "metrics",
] as const;

/** A timed phase. */
export type Phase = typeof PHASES[number];
