/**
 * Writing a whole file all or nothing: the bytes go to a temporary file in the target's folder,
 * which is flushed to disk and then renamed over the target. A reader sees the previous file or
 * the new one, never a file cut off mid-write; a write that fails (a full disk, a read-only
 * folder, a file size limit) removes the temporary file, leaves the previous file as it was and
 * throws. Reports, tables, exports, web builds, docs pages and screenshots are written through it;
 * appending a line to a results file (`bench/output/results_file.ts`) is not a whole-file write and
 * does not use it.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";

/** Writes `bytes` to the new file `path` (its temporary name) and flushes it; throws on failure. */
export type TempWriter = (path: string, bytes: Uint8Array) => void;

/** Options of {@link writeFileAtomic}. */
export interface WriteFileAtomicOptions {
  /** Writes the temporary file (default {@link writeTempFile}; tests inject a failing one). */
  writeTemp?: TempWriter;
}

/**
 * The temporary name beside `path` that {@link writeFileAtomic} writes first: hidden, and unique
 * to this process and call, so two writers of one target never share it.
 */
export function tempPathFor(path: string): string {
  const suffix = `${Deno.pid}.${crypto.randomUUID().slice(0, 8)}`;
  return join(dirname(path), `.${basename(path)}.${suffix}.tmp`);
}

/**
 * Creates `path` (a name of {@link tempPathFor}, unique to the call), writes all of `bytes` to it
 * and flushes it to disk, so that the rename never publishes a file the disk does not hold.
 */
export function writeTempFile(path: string, bytes: Uint8Array): void {
  const file = Deno.createSync(path);
  try {
    for (let done = 0; done < bytes.length;) done += file.writeSync(bytes.subarray(done));
    file.syncSync();
  } finally {
    file.close();
  }
}

/**
 * Writes `data` (text as UTF-8, or bytes) to `path` whole or not at all: to a temporary file in
 * the same folder, then renamed over `path`. On failure the temporary file is removed, `path` is
 * left as it was and the error of the failed step is thrown.
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): void {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const temp = tempPathFor(path);
  try {
    (options.writeTemp ?? writeTempFile)(temp, bytes);
    Deno.renameSync(temp, path);
  } catch (e) {
    removeQuietly(temp);
    throw e;
  }
}

/** Removes `path` if it is there; a failure to remove it is not an error of the write. */
function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // absent (never created), or its folder is gone: nothing left behind either way
  }
}
