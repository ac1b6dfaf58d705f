/**
 * Writes the HTML report of one or more `results.jsonl` files: reads them through
 * `core/result.ts`'s tolerant `readResults` (a torn or malformed line is skipped, reported by its
 * line number, and the other cases are kept), renders them with {@link renderReport} and writes one file, and with `formats`
 * the report's tables as Markdown, CSV or LaTeX files beside it (`table1.md`, `claims.csv`, …;
 * reports/tables/publish_tables.ts), which the page links to. The bench calls it at the end of a run
 * (`reports/out/<timestamp>/report.html`); `reports/main.ts` is its command line. Every file is
 * written whole or not at all (`core/io/write_file_atomic.ts`: a full disk leaves the earlier
 * report as it was), a page or table that mergesplit did not write is never replaced
 * (`reports/page/foreign_files.ts`), and a results file without a case is refused.
 *
 * @module
 */
import { caseCoverage, coverageLines } from "../sections/case_coverage.ts";
import { mergeRefusal, mixedCommits } from "../merge_parts.ts";
import { basename, dirname, join } from "node:path";
import { type CaseRecord, type ReadResults, skippedLineWarning } from "../../core/result.ts";
import { readResultsFile as readResultsLimited } from "../../core/io/read_results_file.ts";
import { InputLimitError } from "../../core/io/read_text_limited.ts";
import { compareInputs } from "../sections/comparison.ts";
import { publishTables } from "../tables/publish_tables.ts";
import { type PublishedFile, renderReport } from "./report.ts";
import { type PublishFormat, TABLE_WRITERS } from "../tables/table_writers.ts";
import { writeFileAtomic } from "../../core/io/write_file_atomic.ts";
import { besideReport, carriesMark, refuseForeign, REPORT_MARK } from "./foreign_files.ts";

/** A results file that cannot be read or parsed (the message names the file and the fix). */
export class ResultsFileError extends Error {
  override name = "ResultsFileError";
}

/**
 * The report's output (its folder or one of its files) cannot be created or written; the message
 * names the path and the system's error.
 */
export class ReportOutputError extends Error {
  override name = "ReportOutputError";
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
  /** Also write the tables in these formats, beside the HTML file (default none). */
  formats?: readonly PublishFormat[];
  /**
   * Read the files as one run (the parts of a `--shard i/n` run, or runs appended apart) instead
   * of comparing them: one input, labelled `labels[0]` or "merged (N files)".
   */
  merge?: boolean;
}

/**
 * Runs `write` (a file system operation on `path`, which is `what`); turns its error into a
 * {@link ReportOutputError} naming both.
 */
function writing<T>(write: () => T, { path, what }: { path: string; what: string }): T {
  try {
    return write();
  } catch (e) {
    throw new ReportOutputError(
      `cannot write ${what} ${path}: ${
        (e as Error).message
      }; pass --out a path in a folder that can be created and written`,
    );
  }
}

/**
 * Reads one results file tolerantly, streamed line by line (`core/io/read_results_file.ts`): its
 * valid records, and the lines left out (torn, not JSON, a malformed record, a line past the
 * limit; `core/result.ts` `readResults`). Throws a {@link ResultsFileError} naming the file when
 * it cannot be read or is not a regular file (`/dev/zero`).
 */
export function readResultsFile(file: string): ReadResults {
  try {
    return readResultsLimited(file);
  } catch (e) {
    const why = e instanceof InputLimitError
      ? `results file ${file} ${(e as Error).message}`
      : `cannot read results file ${file}: ${(e as Error).message}`;
    throw new ResultsFileError(
      `${why}; pass the path of a results.jsonl written by \`deno task bench\``,
    );
  }
}

/** Default labels: each file's folder name, or its path where folder names repeat. */
export function defaultLabels(files: readonly string[]): string[] {
  const names = files.map((f) => basename(dirname(f)) || f);
  return names.map((n, k) => (names.indexOf(n) === names.lastIndexOf(n) ? n : files[k]));
}

/** The first label that `labels` holds twice, or undefined when each is different. */
export function repeatedLabel(labels: readonly string[]): string | undefined {
  return labels.find((l, k) => labels.indexOf(l) !== k);
}

/** The refusal of a label given twice: a report's columns must be told apart. */
export function repeatedLabelMessage(label: string): string {
  return `the label "${label}" is given twice; give each results file a label of its own`;
}

/**
 * Throws a {@link ResultsFileError} when `file` holds no case (empty, or every line skipped): a
 * report of nothing would look like a report of a run.
 */
function refuseEmpty(file: string, read: ReadResults): void {
  if (read.records.length) return;
  const why = read.skipped.length
    ? `none of its ${read.skipped.length} line(s) is a valid record`
    : "it is empty";
  throw new ResultsFileError(
    `results file ${file} holds no case (${why}); pass a results.jsonl the bench wrote cases to`,
  );
}

/** A table file the report writes beside itself: where, its text, and the page's link to it. */
interface PlannedTable {
  at: string;
  text: string;
  published: PublishedFile;
}

/** The table files of `inputs` in `formats`, in the folder `parent`; written by the caller. */
function plannedTables(
  inputs: Parameters<typeof publishTables>[0],
  comparison: ReturnType<typeof compareInputs> | null,
  { parent, formats }: { parent: string; formats: readonly PublishFormat[] },
): PlannedTable[] {
  if (!formats.length) return [];
  return publishTables(inputs, { comparison }).flatMap((table) =>
    formats.map((format) => {
      const href = `${table.name}.${format}`;
      const text = TABLE_WRITERS[format](table);
      return { at: join(parent, href), text, published: { table: table.name, format, href } };
    })
  );
}

/**
 * Renders the report of `files` and writes it, with the tables in `options.formats` beside it;
 * returns its path, its size in bytes, the paths of the tables written, the inputs it read (label
 * and records, one per file or one merged) and a warning per line of a file that was skipped (`<file> line 7 skipped: not JSON (a torn write?)`; the report names
 * them too). Throws a {@link ResultsFileError} for a missing file or one without a case, a
 * {@link ReportOutputError} when the output folder or a file cannot be written (the earlier file
 * left as it was), a `ForeignFilesError` when a target exists that mergesplit did not write, and a
 * `RangeError` when no file is given or the labels do not match the files or repeat.
 */
export function writeReport(
  files: readonly string[],
  options: WriteReportOptions = {},
): {
  path: string;
  bytes: number;
  tables: string[];
  skipped: string[];
  coverage: string[];
  inputs: { label: string; records: CaseRecord[] }[];
} {
  if (!files.length) throw new RangeError("writeReport: no results file given");
  const labels = options.labels ?? defaultLabels(files);
  if (options.merge && options.labels && options.labels.length !== 1) {
    throw new RangeError(
      `writeReport: ${options.labels.length} label(s) for a merged report; give one label`,
    );
  }
  if (!options.merge && labels.length !== files.length) {
    throw new RangeError(
      `writeReport: ${labels.length} label(s) for ${files.length} file(s); give one label per file`,
    );
  }
  const repeated = repeatedLabel(labels);
  if (repeated !== undefined) {
    throw new RangeError(`writeReport: ${repeatedLabelMessage(repeated)}`);
  }
  const read = files.map((f) => readResultsFile(f));
  files.forEach((f, k) => refuseEmpty(f, read[k]));
  const parts = files.map((file, k) => ({ file, records: read[k].records }));
  const refusal = options.merge ? mergeRefusal(parts) : null;
  if (refusal) throw new ResultsFileError(refusal);
  const commits = options.merge ? mixedCommits(parts) : null;
  const each = files.map((f, k) => ({
    label: labels[k],
    records: read[k].records,
    skipped: read[k].skipped.map((s) => skippedLineWarning(f, s)),
  }));
  const inputs = (options.merge
    ? [{
      label: options.labels?.[0] ??
        (files.length > 1 ? `merged (${files.length} files)` : labels[0]),
      records: each.flatMap((i) => i.records),
      skipped: each.flatMap((i) => i.skipped),
    }]
    : each).map((i) => ({
      ...i,
      coverage: [...coverageLines(caseCoverage(i.records)), ...(commits ? [commits] : [])],
    }));
  const path = options.out ??
    join(dirname(files[0]), inputs.length > 1 ? "comparison.html" : "report.html");
  const parent = dirname(path);
  writing(() => Deno.mkdirSync(parent, { recursive: true }), {
    path: parent,
    what: "the report's folder",
  });
  const comparison = inputs.length > 1 ? compareInputs(inputs) : null;
  const planned = plannedTables(inputs, comparison, { parent, formats: options.formats ?? [] });
  refuseForeign([path], carriesMark(REPORT_MARK), { what: "the report", option: "--out" });
  refuseForeign(planned.map((t) => t.at), besideReport, { what: "the tables", option: "--out" });
  for (const t of planned) {
    writing(() => writeFileAtomic(t.at, t.text), { path: t.at, what: "the table" });
  }
  const html = renderReport(inputs, {
    cdn: options.cdn,
    title: options.title,
    comparison,
    published: planned.map((t) => t.published),
  });
  const bytes = new TextEncoder().encode(html);
  writing(() => writeFileAtomic(path, bytes), { path, what: "the report" });
  return {
    path,
    bytes: bytes.length,
    tables: planned.map((t) => t.at),
    skipped: inputs.flatMap((i) => i.skipped),
    coverage: inputs.flatMap((i) => i.coverage),
    inputs: inputs.map(({ label, records }) => ({ label, records })),
  };
}
