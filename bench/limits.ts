/**
 * The bench's limits on what a run may ask for, in a module of their own so that what the browser
 * bundle reaches (scene files, run plans) does not import the command line's parser (`node:util`).
 *
 * @module
 */

/** Most steps of one repetition (`--steps`, or `--duration` over a scene's dt): about a day at 1 ms a step. */
export const MAX_STEPS = 10_000_000;
/** Most seconds of `--timeout` (10 days), well within what a timer can wait (2³¹ − 1 ms). */
export const MAX_TIMEOUT = 864_000;
/** Most repetitions of a case (`--repeat`). */
export const MAX_REPEAT = 100;
