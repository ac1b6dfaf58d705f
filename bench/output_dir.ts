/**
 * The bench's output folder (`--out`), checked before the first case runs: it is created (with its
 * parents) and a probe file is written into it and removed, so that a folder that cannot be
 * created or written (a read-only place, a path under a file, `/proc/…`) is a bad request (exit
 * status 2) rather than an exception after the suite has run.
 *
 * @module
 */
import { join } from "node:path";

/** The output folder cannot be created or written; the message names it and the system's error. */
export class OutputDirError extends Error {
  override name = "OutputDirError";
}

/** Name of the probe file written into the output folder and removed at once. */
export const PROBE_NAME = ".mergesplit-write-probe";

/** The results file a bench run writes in its output folder. */
export const RESULTS_NAME = "results.jsonl";

/**
 * Creates the folder `path` (and its parents) if it is missing and checks that a file can be
 * written in it (writes {@link PROBE_NAME} and removes it). Throws an {@link OutputDirError}
 * naming `path` and the system's error when either fails, and when the folder already holds a
 * non-empty {@link RESULTS_NAME} of an earlier run and `options.append` is not set (two runs are
 * never mixed in one file unless asked for).
 */
export function prepareOutputDir(path: string, options: { append?: boolean } = {}): void {
  if (path.trim() === "") {
    throw new OutputDirError("the output folder is an empty path; pass --out a folder");
  }
  let earlier = 0;
  try {
    earlier = Deno.statSync(join(path, RESULTS_NAME)).size;
  } catch {
    // no earlier results
  }
  if (earlier > 0 && !options.append) {
    const lines = Deno.readTextFileSync(join(path, RESULTS_NAME)).split("\n").filter((l) =>
      l.trim()
    ).length;
    throw new OutputDirError(
      `${path} already holds ${RESULTS_NAME} of an earlier run (${lines} lines); pass --append ` +
        "to add this run's cases to it, or another --out",
    );
  }
  let step = "create";
  try {
    Deno.mkdirSync(path, { recursive: true });
    step = "write a file in";
    const probe = join(path, `${PROBE_NAME}-${Deno.pid}`);
    Deno.writeTextFileSync(probe, "");
    Deno.removeSync(probe);
  } catch (e) {
    throw new OutputDirError(
      `cannot ${step} the output folder ${path}: ${
        (e as Error).message
      }; pass --out a folder that can be created and written`,
    );
  }
}
