/**
 * The bench's output folder (`--out`), checked before the first case runs: it is created (with its
 * parents) and a probe file is written into it and removed, so that a folder that cannot be
 * created or written (a read-only place, a path under a file, `/proc/…`) is a bad request (exit
 * status 2) rather than an exception after the suite has run.
 *
 * @module
 */
import { dirname, join } from "node:path";

/** The output folder cannot be created or written; the message names it and the system's error. */
export class OutputDirError extends Error {
  override name = "OutputDirError";
}

/** Name of the probe file written into the output folder and removed at once. */
export const PROBE_NAME = ".mergesplit-write-probe";

/** The results file a bench run writes in its output folder. */
export const RESULTS_NAME = "results.jsonl";

/** What kind of thing `info` is, in words (for a results file that is not a file). */
function kindOf(info: Deno.FileInfo): string {
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a FIFO (named pipe)";
  if (info.isSocket) return "a socket";
  if (info.isCharDevice || info.isBlockDevice) return "a device";
  return "not a regular file";
}

/** Whether `path` is a symbolic link (its target may be missing). */
function isLink(path: string): boolean {
  try {
    return Deno.lstatSync(path).isSymlink;
  } catch {
    return false;
  }
}

/**
 * Checks the results file at `path` before any case runs: absent, or a regular file (followed
 * through symbolic links; a link to a missing file is refused) that can be appended to. Returns its size (0 when absent); throws an
 * {@link OutputDirError} naming it and what it is otherwise (a directory, a FIFO, which would hang
 * the run's first write, a device, a file without write permission).
 */
export function probeResultsFile(path: string): number {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound && !isLink(path)) return 0;
    if (e instanceof Deno.errors.NotFound) {
      throw new OutputDirError(
        `the results file ${path} is a symbolic link to a missing file (${
          Deno.readLinkSync(path)
        }); remove it or pass another --out`,
      );
    }
    throw new OutputDirError(
      `cannot read the results file ${path}: ${(e as Error).message}; pass another --out`,
    );
  }
  if (!info.isFile) {
    throw new OutputDirError(
      `the results file ${path} is ${kindOf(info)}; remove it or pass another --out`,
    );
  }
  try {
    Deno.openSync(path, { append: true }).close();
  } catch (e) {
    throw new OutputDirError(
      `cannot append to the results file ${path}: ${(e as Error).message}; pass another --out`,
    );
  }
  return info.size;
}

/** Most suffixes {@link createNewDir} tries after the name itself. */
const MAX_SUFFIX = 1000;

/**
 * Creates a new folder at `path`, or at `path-2`, `path-3`, … when that is taken (by another run
 * started in the same millisecond), its parents first; returns the one created. Each try is one
 * `mkdir`, which fails when the folder exists, so two runs never get the same folder.
 */
export function createNewDir(path: string): string {
  Deno.mkdirSync(dirname(path), { recursive: true });
  for (let k = 1; k <= MAX_SUFFIX; k++) {
    const candidate = k === 1 ? path : `${path}-${k}`;
    try {
      Deno.mkdirSync(candidate);
      return candidate;
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
    }
  }
  throw new Deno.errors.AlreadyExists(`${path} and ${MAX_SUFFIX - 1} suffixed names are taken`);
}

/**
 * Creates the folder `path` (and its parents) if it is missing (with `options.fresh`, a new
 * folder: {@link createNewDir}) and checks that a file can be written in it (writes
 * {@link PROBE_NAME} and removes it), and that its {@link RESULTS_NAME} is absent or a regular
 * file that can be appended to ({@link probeResultsFile}). Returns the folder. Throws an
 * {@link OutputDirError} naming `path` and the system's error when any of this fails, and when the
 * folder already holds a non-empty {@link RESULTS_NAME} of an earlier run and `options.append` is
 * not set (two runs are never mixed in one file unless asked for).
 */
export function prepareOutputDir(
  path: string,
  options: { append?: boolean; fresh?: boolean } = {},
): string {
  if (path.trim() === "") {
    throw new OutputDirError("the output folder is an empty path; pass --out a folder");
  }
  let step = "create";
  try {
    if (options.fresh) path = createNewDir(path);
    else Deno.mkdirSync(path, { recursive: true });
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
  const earlier = probeResultsFile(join(path, RESULTS_NAME));
  if (earlier > 0 && !options.append) {
    throw new OutputDirError(
      `${path} already holds ${RESULTS_NAME} of an earlier run (${
        countLines(join(path, RESULTS_NAME))
      } lines); pass --append to add this run's cases to it, or another --out`,
    );
  }
  return path;
}

/** The non-blank lines of the file at `path`, read in pieces (a results file may be large). */
function countLines(path: string): number {
  const file = Deno.openSync(path, { read: true });
  try {
    const buf = new Uint8Array(1 << 20);
    let lines = 0;
    let blank = true;
    for (let n = file.readSync(buf); n !== null; n = file.readSync(buf)) {
      for (let i = 0; i < n; i++) {
        const b = buf[i];
        if (b === 0x0a) {
          if (!blank) lines++;
          blank = true;
        } else if (b !== 0x20 && b !== 0x09 && b !== 0x0d) blank = false;
      }
    }
    return blank ? lines : lines + 1;
  } finally {
    file.close();
  }
}
