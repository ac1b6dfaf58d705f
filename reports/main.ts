/**
 * `deno run -A reports/main.ts <results.jsonl…> [options]`: writes the HTML report of one result
 * file, or the comparison of several, optionally its tables as Markdown, CSV or LaTeX files beside
 * it (`--format`), and optionally exports the snapshots as PLY or VTK frames. `--help` lists the
 * options. A line of a result file that is torn or malformed is skipped with a warning naming
 * it (`mergesplit report: results.jsonl line 7 skipped: not JSON (a torn write?)`), and the
 * report shows the other cases. Each file is written whole or not at all; a page, table or frame
 * that mergesplit did not write is never replaced, and `--export-dir` is checked before the report
 * is written. `--fail-on-regression` judges a new run against a base (`./regression_gate.ts`).
 * Exit status: 0 done, 1 a failure while writing or a regression found, 2 bad arguments,
 * unreadable or empty result files, an output path that cannot be written or that holds files of
 * someone else.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { EXPORT_FORMATS, type ExportFormat, exportPlan, exportSnapshots } from "./tables/export.ts";
import type { CaseRecord } from "../core/result.ts";
import { ignoreOutputErrors } from "../core/io/ignore_output_errors.ts";
import { carriesMark, ForeignFilesError, FRAME_MARK, refuseForeign } from "./page/foreign_files.ts";
import { parsePublishFormats } from "./tables/table_writers.ts";
import { findRegressions } from "./regression_gate.ts";
import {
  readResultsFile,
  repeatedLabel,
  repeatedLabelMessage,
  ReportOutputError,
  ResultsFileError,
  writeReport,
} from "./page/write_report.ts";

export { writeReport } from "./page/write_report.ts";

/** The usage text. */
export const USAGE = `usage: deno run -A reports/main.ts <results.jsonl>... [options]

Writes one self-contained HTML report of the given result files (several files: a comparison of
their timings, with each file's speed-up over the first).

  --out <file>          output file (default: report.html beside the first results file,
                        comparison.html for several)
  --format <md|csv|tex> also write the tables beside the report: table1, claims, matrix,
                        fracture and fluid (where a case has a breakable solid or a fluid),
                        table1-paper (a Table I scene under merge-split) and (for several files)
                        comparison, as .md (GitHub Markdown), .csv (RFC 4180) or .tex (a LaTeX
                        tabular); repeatable or a comma list (md,csv,tex)
  --merge               read the files as one run (the parts of a --shard i/n run, or runs
                        appended apart) instead of comparing them; names the cases of the
                        run's list that are missing or duplicated
  --cdn                 load chart.js and three.js from a CDN instead of inlining them
  --title <text>        page title
  --label <text>        label of a results file in the report (repeat once per file, in order;
                        default: the file's folder name)
  --export <ply|vtk>    also write every snapshot frame as ASCII PLY or legacy VTK files
  --export-dir <dir>    where the frames go (default: export-<format>/ beside the first file)
  --fail-on-regression  with two files (base, new): exit 1 naming each case and metric that
                        regressed in the new one (step time, leak, split energy error; each
                        with a direction and threshold: reports/regression_gate.ts)
  -h, --help            this text

Files are written whole or not at all; a page, table or frame that mergesplit did not write is
never replaced.

Exit status: 0 done, 1 a failure while writing or (--fail-on-regression) a regression, 2 bad
arguments, unreadable or empty result files, or an output path that cannot be created or written
or holds files mergesplit did not write.`;

const OPTIONS = {
  out: { type: "string" },
  format: { type: "string", multiple: true },
  cdn: { type: "boolean" },
  merge: { type: "boolean" },
  title: { type: "string" },
  label: { type: "string", multiple: true },
  export: { type: "string" },
  "export-dir": { type: "string" },
  "fail-on-regression": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** The valid options, as `--name` (for error messages). */
export const VALID_OPTIONS: readonly string[] = Object.keys(OPTIONS).map((k) => `--${k}`);

class UsageError extends Error {}

/** An export checked before the report is written: its records, format and folder. */
interface PlannedExport {
  records: CaseRecord[];
  format: ExportFormat;
  dir: string;
}

/**
 * Checks `--export`'s folder before anything is written: it must be a folder or a path one can
 * be created at, and the frames must not replace files mergesplit did not write. Throws a
 * {@link UsageError} or a {@link ForeignFilesError}.
 */
function plannedExport(
  files: readonly string[],
  { format, dir }: { format: ExportFormat; dir: string },
): PlannedExport {
  const blocked = notAFolderOnTheWay(dir);
  if (blocked !== undefined) {
    throw new UsageError(
      `--export-dir ${dir}: ${blocked} is not a folder; give a folder for the frames`,
    );
  }
  const records = files.flatMap((f) => readResultsFile(f).records);
  const targets = exportPlan(records, { format, dir }).flatMap((c) => [c.folder, ...c.files]);
  refuseForeign(targets.filter((t) => !isFolder(t)), carriesMark(FRAME_MARK), {
    what: "the export",
    option: "--export-dir",
  });
  return { records, format, dir };
}

/** Whether `path` is a folder (not following a link). */
function isFolder(path: string): boolean {
  try {
    return Deno.lstatSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** The first path on the way to `dir` (itself or an ancestor) that exists but is not a folder. */
function notAFolderOnTheWay(dir: string): string | undefined {
  for (let p = resolve(dir);; p = dirname(p)) {
    try {
      return Deno.statSync(p).isDirectory ? undefined : p;
    } catch {
      if (p === dirname(p)) return undefined;
    }
  }
}

/** Writes the planned export's frames; returns the exit status (1: no case has snapshots). */
function writeExport({ records, format, dir }: PlannedExport): number {
  const { files: written, cases } = exportSnapshots(records, { format, dir });
  if (!cases) {
    console.error(
      "mergesplit report: no case has snapshots, nothing exported; run the bench with a version that records snapshots",
    );
    return 1;
  }
  console.log(`exported ${written.length} ${format} frames of ${cases} case(s) to ${dir}`);
  return 0;
}

/** The regression gate on `base` and `next` (`./regression_gate.ts`): 1 naming each, else 0. */
function gate(base: string, next: string): number {
  const found = findRegressions(readResultsFile(base).records, readResultsFile(next).records);
  for (const r of found) {
    console.error(`mergesplit report: regression: ${r.case}: ${r.metric}: ${r.detail}`);
  }
  if (found.length === 0) console.log(`mergesplit report: no regression of ${next} on ${base}`);
  return found.length ? 1 : 0;
}

/** Runs the command line `args`; returns the exit status. */
export function main(args: readonly string[]): number {
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args: [...args],
        options: OPTIONS,
        allowPositionals: true,
        strict: true,
      });
    } catch (e) {
      throw new UsageError(`${(e as Error).message}; valid options: ${VALID_OPTIONS.join(", ")}`);
    }
    const { values, positionals: files } = parsed;
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    if (!files.length) {
      throw new UsageError("no results file given; pass one or more results.jsonl paths");
    }
    const format = values.export;
    if (format !== undefined && !EXPORT_FORMATS.includes(format as ExportFormat)) {
      throw new UsageError(`--export ${format}: must be one of ${EXPORT_FORMATS.join(", ")}`);
    }
    if (values["export-dir"] !== undefined && format === undefined) {
      throw new UsageError("--export-dir needs --export ply|vtk");
    }
    if (values.merge && values.label && values.label.length !== 1) {
      throw new UsageError(`${values.label.length} --label for --merge; give one --label`);
    }
    if (!values.merge && values.label && values.label.length !== files.length) {
      throw new UsageError(
        `${values.label.length} --label for ${files.length} file(s); give one --label per file`,
      );
    }
    if (values["fail-on-regression"] && (files.length !== 2 || values.merge)) {
      throw new UsageError(
        `--fail-on-regression compares two files, a base and a new run; got ${files.length}` +
          (values.merge ? " with --merge" : ""),
      );
    }
    const labelTwice = repeatedLabel(values.label ?? []);
    if (labelTwice !== undefined) throw new UsageError(repeatedLabelMessage(labelTwice));
    let formats;
    try {
      formats = parsePublishFormats(values.format ?? []);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const exporting = format === undefined ? undefined : plannedExport(files, {
      format: format as ExportFormat,
      dir: values["export-dir"] ?? join(dirname(files[0]), `export-${format}`),
    });
    const { path, bytes, tables, skipped, coverage } = writeReport(files, {
      out: values.out,
      cdn: values.cdn,
      title: values.title,
      labels: values.label,
      formats,
      merge: values.merge,
    });
    for (const warning of skipped) console.error(`mergesplit report: ${warning}`);
    for (const line of coverage) {
      (line.endsWith(", complete") ? console.log : console.error)(`mergesplit report: ${line}`);
    }
    console.log(`wrote ${path} (${(bytes / 1024).toFixed(0)} KiB)`);
    if (tables.length) console.log(`wrote ${tables.join(", ")}`);
    const exported = exporting ? writeExport(exporting) : 0;
    return values["fail-on-regression"] ? Math.max(exported, gate(files[0], files[1])) : exported;
  } catch (e) {
    if (
      e instanceof UsageError || e instanceof ResultsFileError ||
      e instanceof ReportOutputError || e instanceof ForeignFilesError
    ) {
      console.error(`mergesplit report: ${e.message}`);
      if (e instanceof UsageError) console.error("run with --help for the options");
      return 2;
    }
    console.error(`mergesplit report: ${(e as Error).message}`);
    return 1;
  }
}

if (import.meta.main) {
  ignoreOutputErrors(); // a full or closed stdout/stderr loses lines, never the report
  Deno.exit(main(Deno.args));
}
