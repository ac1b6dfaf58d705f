/**
 * Reading an input file with a byte limit, so that a wrong path (`/dev/zero`, a FIFO, a
 * many-gigabyte file) ends in one clear error instead of growing memory until the process dies:
 * only regular files are read, a whole file at most `maxBytes` long ({@link readTextLimited}, for
 * scene files), and a file of lines streamed line by line with each line at most `maxLineBytes`
 * long ({@link readLinesLimited}, for results files: a large file is fine, one absurd line is
 * reported and skipped). Scene files (`bench/cases/suite.ts`), `--verify` (`bench/verify.ts`) and the
 * report (`reports/page/write_report.ts`) read through it.
 *
 * @module
 */

/** Most bytes of a scene file: a scene is a few kilobytes of JSON (16 MiB). */
export const MAX_SCENE_FILE_BYTES = 16 * 2 ** 20;

/**
 * Most bytes of one line of a results file (128 MiB): a record with its snapshots and metrics
 * series is a few megabytes; a longer line is skipped and named.
 */
export const MAX_RESULT_LINE_BYTES = 128 * 2 ** 20;

/** An input that is not a regular file, or a file past its byte limit; the message says which. */
export class InputLimitError extends Error {
  override name = "InputLimitError";
}

/** `1.5 MiB`: a byte count for messages. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = bytes / 1024;
  let k = 0;
  while (v >= 1024 && k < units.length - 1) {
    v /= 1024;
    k++;
  }
  return `${Number(v.toFixed(1))} ${units[k]}`;
}

/** What kind of file `info` is, for the message refusing it. */
function fileKind(info: Deno.FileInfo): string {
  if (info.isDirectory) return "a directory";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isFifo) return "a FIFO (named pipe)";
  if (info.isSocket) return "a socket";
  return "not a regular file";
}

/**
 * Opens `path` for reading when it is a regular file (symbolic links followed); throws an
 * {@link InputLimitError} naming what it is otherwise, and the file system's error when it cannot
 * be opened. Checked before opening (opening a FIFO waits for a writer) and again on the opened
 * file, so a file swapped in between is caught too.
 */
function openRegular(path: string): Deno.FsFile {
  const refuse = (info: Deno.FileInfo) => {
    if (info.isFile) return;
    throw new InputLimitError(`is ${fileKind(info)}, not a regular file`);
  };
  refuse(Deno.statSync(path)); // before opening: opening a FIFO waits for a writer
  const file = Deno.openSync(path, { read: true });
  try {
    refuse(file.statSync());
  } catch (e) {
    file.close();
    throw e;
  }
  return file;
}

/**
 * The text of the regular file `path`, at most `maxBytes` long. Throws an
 * {@link InputLimitError} for a file that is not regular or is longer (the message gives both
 * sizes), and the file system's error when it cannot be read.
 */
export function readTextLimited(path: string, maxBytes: number): string {
  const file = openRegular(path);
  try {
    const buf = new Uint8Array(Math.min(maxBytes, file.statSync().size) + 1);
    let n = 0;
    while (n < buf.length) {
      const got = file.readSync(buf.subarray(n));
      if (got === null) break;
      n += got;
    }
    if (n > maxBytes) {
      throw new InputLimitError(
        `is longer than the limit of ${formatBytes(maxBytes)} (${
          formatBytes(Math.max(n, file.statSync().size))
        })`,
      );
    }
    return new TextDecoder().decode(buf.subarray(0, n));
  } finally {
    file.close();
  }
}

/** One line of {@link readLinesLimited}: its text, or, past the limit, only its length. */
export type LimitedLine =
  | { line: number; text: string }
  | { line: number; text: null; bytes: number };

/** The bytes of `parts` joined and decoded as UTF-8. */
function decodeParts(parts: Uint8Array[]): string {
  if (parts.length === 1) return new TextDecoder().decode(parts[0]);
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return new TextDecoder().decode(all);
}

/**
 * Streams the lines of the regular file `path` (1-based numbers, `\n` endings, the last line
 * without one included), holding at most `maxLineBytes` of a line: a longer line is yielded with
 * `text: null` and its length in bytes, and its bytes are dropped as they are read. Throws an
 * {@link InputLimitError} for a file that is not regular, and the file system's error when it
 * cannot be read.
 */
export function* readLinesLimited(
  path: string,
  maxLineBytes: number,
  chunkBytes = 1 << 20,
): Generator<LimitedLine> {
  const file = openRegular(path);
  try {
    const buf = new Uint8Array(chunkBytes);
    let parts: Uint8Array[] = [];
    let bytes = 0;
    let line = 1;
    const finish = (): LimitedLine => {
      const done: LimitedLine = bytes > maxLineBytes
        ? { line, text: null, bytes }
        : { line, text: decodeParts(parts) };
      parts = [];
      bytes = 0;
      line++;
      return done;
    };
    const keep = (piece: Uint8Array) => {
      bytes += piece.length;
      if (bytes <= maxLineBytes) parts.push(piece.slice());
      else parts = [];
    };
    for (let got = file.readSync(buf); got !== null; got = file.readSync(buf)) {
      let from = 0;
      for (let nl = buf.indexOf(10, from); nl !== -1 && nl < got; nl = buf.indexOf(10, from)) {
        keep(buf.subarray(from, nl));
        yield finish();
        from = nl + 1;
      }
      keep(buf.subarray(from, got));
    }
    if (bytes > 0) yield finish();
  } finally {
    file.close();
  }
}
