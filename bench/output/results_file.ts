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
  /** Writes all of `data` at the end of `file` (opened in append mode), or throws. */
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
    return fileEndsTorn(file, file.statSync().size);
  } finally {
    file.close();
  }
}

/** Whether the open `file` of `size` bytes is non-empty and its last byte is not a newline. */
function fileEndsTorn(file: Deno.FsFile, size: number): boolean {
  if (size === 0) return false;
  file.seekSync(size - 1, Deno.SeekMode.Start);
  const last = new Uint8Array(1);
  return file.readSync(last) === 1 && last[0] !== 0x0a;
}

/**
 * Takes an exclusive lock of `file` (released when it is closed), where its file system supports
 * locks; without one the append mode alone keeps each single write whole.
 */
function lockIfSupported(file: Deno.FsFile): void {
  try {
    file.lockSync(true);
  } catch {
    // a file system without flock (some network mounts): append mode still appends each write
  }
}

/**
 * Appends `line` (one JSON record ending in a newline) to `path`, creating it; starts a new line
 * first when the file ends torn. Safe beside other processes appending to the same file (two runs
 * with `--append`, shards sharing a folder): the file is opened in append mode and held under an
 * exclusive lock (`flock`) while its end is checked and the line written, so lines never
 * interleave or overwrite one another. On a failed write the file is cut back to its length before
 * the call (where the file allows it) and a {@link ResultsWriteError} is thrown; `what` names the
 * case in its message.
 */
export function appendResultLine(
  path: string,
  line: string,
  options: { what: string; writer?: ResultsWriter },
): void {
  const writer = options.writer ?? plainWriter;
  let file: Deno.FsFile | undefined;
  let size = 0;
  try {
    file = Deno.openSync(path, { read: true, append: true, create: true });
    lockIfSupported(file);
    size = file.statSync().size;
    const data = new TextEncoder().encode((fileEndsTorn(file, size) ? "\n" : "") + line);
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
