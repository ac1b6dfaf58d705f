/**
 * Refusing to replace files the harness did not write: before a report, its tables or an export's
 * frames are written, each target that already exists must carry the harness's mark (a report's
 * `<meta name="generator" content="mergesplit …">`, an exported frame's `mergesplit` header line),
 * or the write is refused naming the files, so that `--out` pointed at a user's own page or data
 * never destroys it.
 *
 * @module
 */
import { dirname, join } from "node:path";

/** The mark in the head of every report page the harness writes (`report_page.ts`). */
export const REPORT_MARK = '<meta name="generator" content="mergesplit ';

/** The mark in the header of every frame `--export` writes (`reports/tables/export.ts`). */
export const FRAME_MARK = "mergesplit ";

/** Bytes read from the start of a file when looking for its mark. */
const HEAD_BYTES = 4096;

/** Targets exist that the harness did not write; exit status 2, the message names them. */
export class ForeignFilesError extends Error {
  override name = "ForeignFilesError";
}

/** Whether the first {@link HEAD_BYTES} of the file `path` contain `mark`. */
export function headHas(path: string, mark: string): boolean {
  const file = Deno.openSync(path, { read: true });
  try {
    const head = new Uint8Array(HEAD_BYTES);
    const n = file.readSync(head) ?? 0;
    return new TextDecoder().decode(head.subarray(0, n)).includes(mark);
  } finally {
    file.close();
  }
}

/** Whether something is at `path` (a link counts, even a broken one). */
function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/** A test of a target that exists: whether the harness wrote it. */
export type Ours = (path: string) => boolean;

/** {@link Ours} for a regular file carrying `mark` in its head; anything else is foreign. */
export function carriesMark(mark: string): Ours {
  return (path) => {
    try {
      return Deno.lstatSync(path).isFile && headHas(path, mark);
    } catch {
      return false;
    }
  };
}

/**
 * {@link Ours} for a report's table (`table1.md`, `claims.csv`, which carry no mark of their
 * own): a regular file in a folder that holds a report page carrying {@link REPORT_MARK}.
 */
export function besideReport(path: string): boolean {
  const folder = dirname(path);
  const isReport = carriesMark(REPORT_MARK);
  try {
    if (!Deno.lstatSync(path).isFile) return false;
    return [...Deno.readDirSync(folder)].some((e) =>
      e.isFile && e.name.endsWith(".html") && isReport(join(folder, e.name))
    );
  } catch {
    return false;
  }
}

/** ` (a folder)`, ` (a link)` or ` (not a regular file)` for what is not a plain file; else "". */
function kindNote(path: string): string {
  try {
    const info = Deno.lstatSync(path);
    if (info.isFile) return "";
    return info.isDirectory
      ? " (a folder)"
      : info.isSymlink
      ? " (a link)"
      : " (not a regular file)";
  } catch {
    return "";
  }
}

/** The targets among `paths` that exist and are not {@link Ours}: what a write would destroy. */
export function foreignTargets(paths: readonly string[], ours: Ours): string[] {
  return paths.filter((p) => exists(p) && !ours(p));
}

/**
 * Throws a {@link ForeignFilesError} naming the {@link foreignTargets} of `paths` (at most five,
 * then a count); `what` says what was about to be written, `option` the option choosing where.
 */
export function refuseForeign(
  paths: readonly string[],
  ours: Ours,
  { what, option }: { what: string; option: string },
): void {
  const foreign = foreignTargets(paths, ours);
  if (!foreign.length) return;
  const named = foreign.slice(0, 5).map((p) => `${p}${kindNote(p)}`).join(", ") +
    (foreign.length > 5 ? ` and ${foreign.length - 5} more` : "");
  throw new ForeignFilesError(
    `${what} would replace ${named}, not written by mergesplit; move ${
      foreign.length > 1 ? "them" : "it"
    } away or pass another ${option}`,
  );
}
