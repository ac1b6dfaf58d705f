/**
 * Appending finished cases to `results.jsonl` so that a crash, a kill or a full disk never costs
 * an earlier case: each case is one line, written by one call at the file's end; a file whose last
 * line was torn (a process killed while writing) gets a newline first, so the next case starts a
 * line of its own and the torn one stays a line that the readers skip and name; a write that
 * fails (no space left, a quota, an I/O error) is undone (the file is cut back to its length
 * before it) and thrown as a {@link ResultsWriteError} naming the file, the case and the system's
 * error.
 *
 * @module
 */

/** A finished case could not be written; the file holds the cases before it, intact. */
export class ResultsWriteError extends Error {
  override name = "ResultsWriteError";
}

/** What {@link appendResultLine} writes with (tests inject failing writers). */
export interface ResultsWriter {
  /** Writes all of `data` at the file's current end, or throws. */
  write(file: Deno.FsFile, data: Uint8Array): void;
}

const plainWriter: ResultsWriter = {
  write(file, data) {
    let done = 0;
    while (done < data.length) done += file.writeSync(data.subarray(done));
  },
};

/** Whether the file at `path` is non-empty and does not end with a newline (a torn last line). */
export function endsTorn(path: string): boolean {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
  try {
    const size = file.statSync().size;
    if (size === 0) return false;
    file.seekSync(size - 1, Deno.SeekMode.Start);
    const last = new Uint8Array(1);
    return file.readSync(last) === 1 && last[0] !== 0x0a;
  } finally {
    file.close();
  }
}

/**
 * Appends `line` (one JSON record ending in a newline) to `path`, creating it; starts a new line
 * first when the file ends torn. On a failed write the file is cut back to its length before the
 * call (where the file allows it) and a {@link ResultsWriteError} is thrown; `what` names the case
 * in its message.
 */
export function appendResultLine(
  path: string,
  line: string,
  options: { what: string; writer?: ResultsWriter },
): void {
  const writer = options.writer ?? plainWriter;
  const data = new TextEncoder().encode((endsTorn(path) ? "\n" : "") + line);
  let file: Deno.FsFile | undefined;
  let size = 0;
  try {
    file = Deno.openSync(path, { write: true, create: true });
    size = file.statSync().size;
    file.seekSync(size, Deno.SeekMode.Start);
    writer.write(file, data);
  } catch (e) {
    let undone = "";
    if (file) {
      try {
        file.truncateSync(size);
      } catch {
        undone = " (it could not be cut back: its last line may be torn, and readers skip it)";
      }
    }
    throw new ResultsWriteError(
      `could not write ${options.what} to ${path}: ${(e as Error).message}; the cases finished ` +
        `before it are in the file${undone}`,
      { cause: e },
    );
  } finally {
    file?.close();
  }
}
