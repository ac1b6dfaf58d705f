/**
 * Writes the HTML report of one or more `results.jsonl` files: reads them through
 * `parseResults`, renders them with {@link renderReport} and writes one file. The bench calls it at
 * the end of a run (`reports/out/<timestamp>/report.html`); `reports/main.ts` is its command line.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { type CaseRecord, parseResults } from "../core/result.ts";
import { renderReport } from "./report.ts";

/** A results file that cannot be read or parsed (the message names the file and the fix). */
export class ResultsFileError extends Error {
  override name = "ResultsFileError";
}

/** Options of {@link writeReport}. */
export interface WriteReportOptions {
  /** Output path; default `report.html` beside the first file (`comparison.html` for several). */
  out?: string;
  /** Reference chart.js and three.js on a CDN instead of inlining them. */
  cdn?: boolean;
  title?: string;
  /** A label per file; default the name of the file's folder (the run's timestamp). */
  labels?: string[];
}

/** Reads and parses one results file; throws a {@link ResultsFileError} naming it. */
export function readResults(file: string): CaseRecord[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (e) {
    throw new ResultsFileError(
      `cannot read results file ${file}: ${
        (e as Error).message
      }; pass the path of a results.jsonl written by \`deno task bench\``,
    );
  }
  try {
    return parseResults(text);
  } catch (e) {
    throw new ResultsFileError(`${file}: ${(e as Error).message}`);
  }
}

/** Default labels: each file's folder name, or its path where folder names repeat. */
export function defaultLabels(files: readonly string[]): string[] {
  const names = files.map((f) => basename(dirname(f)) || f);
  return names.map((n, k) => (names.indexOf(n) === names.lastIndexOf(n) ? n : files[k]));
}

/**
 * Renders the report of `files` and writes it; returns its path and size in bytes. Throws a
 * {@link ResultsFileError} for a missing or malformed file and a `RangeError` when no file is
 * given or the labels do not match the files.
 */
export function writeReport(
  files: readonly string[],
  options: WriteReportOptions = {},
): { path: string; bytes: number } {
  if (!files.length) throw new RangeError("writeReport: no results file given");
  const labels = options.labels ?? defaultLabels(files);
  if (labels.length !== files.length) {
    throw new RangeError(
      `writeReport: ${labels.length} label(s) for ${files.length} file(s); give one label per file`,
    );
  }
  const inputs = files.map((f, k) => ({ label: labels[k], records: readResults(f) }));
  const html = renderReport(inputs, { cdn: options.cdn, title: options.title });
  const path = options.out ??
    join(dirname(files[0]), files.length > 1 ? "comparison.html" : "report.html");
  const parent = dirname(path);
  if (parent) Deno.mkdirSync(parent, { recursive: true });
  const bytes = new TextEncoder().encode(html);
  Deno.writeFileSync(path, bytes);
  return { path, bytes: bytes.length };
}
