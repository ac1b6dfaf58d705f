/**
 * Keeping a run going when its terminal output cannot be written: with stdout or stderr on a full
 * disk (`>/dev/full`), a broken pipe or a closed terminal, Deno's `console` methods throw, and a
 * progress line or the summary would end a bench run whose cases are fine. The command lines
 * (`cli.ts`, `bench/main.ts`, `reports/main.ts`) wrap `console` with {@link ignoreOutputErrors} at
 * their start: a line that cannot be written is dropped, the work goes on, and the exit status
 * still says how the work went.
 *
 * @module
 */

/** The `console` methods that write a line. */
const WRITERS = ["log", "error", "warn", "info", "debug"] as const;

/** A console-like target whose writing methods {@link ignoreOutputErrors} wraps. */
export type ConsoleWriters = Pick<Console, (typeof WRITERS)[number]>;

/**
 * Wraps the writing methods of `target` (default `console`) so that an error while writing (a
 * full or closed stdout or stderr) is ignored instead of thrown. Wrapping twice is harmless.
 */
export function ignoreOutputErrors(target: ConsoleWriters = console): void {
  for (const name of WRITERS) {
    const write = target[name].bind(target);
    target[name] = (...args: unknown[]) => {
      try {
        write(...args);
      } catch {
        // the output channel is gone or full: the line is lost, the work is not
      }
    };
  }
}

/**
 * Runs `write` (a write to stdout or stderr) and ignores its failure, as {@link ignoreOutputErrors}
 * does for `console`: for code that writes to `Deno.stderr` itself (the progress bar).
 */
export function writeIgnoringErrors(write: () => unknown): void {
  try {
    write();
  } catch {
    // the output channel is gone or full: the line is lost, the work is not
  }
}
