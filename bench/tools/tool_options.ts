/**
 * The options the diagnostic tools (`deno task leaks`, `deno task hotspots`) share, read in the
 * bench's one number grammar (`core/option_text.ts`), and their exit on a bad value: one line on
 * stderr and status 2, as the bench does, never a stack trace.
 *
 * @module
 */
import { OptionValueError, readOptionNumber } from "../../core/option_text.ts";
import { MAX_STEPS } from "../limits.ts";

/** `--seed`: a decimal integer in [0, 2³²), as a scene's seed. */
export function readSeed(text: string): number {
  return readOptionNumber("seed", text, { integer: true, min: 0, max: 0xffffffff });
}

/** `--steps`: a decimal integer from 1 to the bench's limit. */
export function readSteps(text: string): number {
  return readOptionNumber("steps", text, { integer: true, min: 1, max: MAX_STEPS });
}

/**
 * Runs a tool's `main` on `args`; a refused option value (an {@link OptionValueError}) or an
 * unknown scene or option (the RangeError and TypeError of the catalogue and `parseArgs`) is one
 * line on stderr and status 2.
 */
export async function mainOrUsageError(
  main: (args: string[]) => Promise<number>,
  args: readonly string[],
): Promise<number> {
  try {
    return await main([...args]);
  } catch (e) {
    const usage = e instanceof OptionValueError || e instanceof RangeError ||
      (e instanceof TypeError && "code" in e && String(e.code).startsWith("ERR_PARSE_ARGS"));
    if (!usage) throw e;
    console.error((e as Error).message.replace(/\s*\n\s*/g, " "));
    return 2;
  }
}
