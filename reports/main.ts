/**
 * `deno run -A reports/main.ts <results.jsonl…> [options]`: writes the HTML report of one result
 * file, or the comparison of several, optionally its tables as Markdown, CSV or LaTeX files beside
 * it (`--format`), and optionally exports the snapshots as PLY or VTK frames. `--help` lists the
 * options. A line of a result file that is torn or malformed is skipped with a warning naming
 * it (`mergesplit report: results.jsonl line 7 skipped: not JSON (a torn write?)`), and the
 * report shows the other cases. Exit status: 0 done, 1 a failure while writing, 2 bad arguments,
 * unreadable result files or an output path that cannot be written.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { EXPORT_FORMATS, type ExportFormat, exportSnapshots } from "./tables/export.ts";
import { parsePublishFormats } from "./tables/table_writers.ts";
import {
  readResultsFile,
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
  -h, --help            this text

Exit status: 0 done, 1 a failure while writing, 2 bad arguments, unreadable result files or an
output path that cannot be created or written.`;

const OPTIONS = {
  out: { type: "string" },
  format: { type: "string", multiple: true },
  cdn: { type: "boolean" },
  merge: { type: "boolean" },
  title: { type: "string" },
  label: { type: "string", multiple: true },
  export: { type: "string" },
  "export-dir": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** The valid options, as `--name` (for error messages). */
export const VALID_OPTIONS: readonly string[] = Object.keys(OPTIONS).map((k) => `--${k}`);

class UsageError extends Error {}

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
    let formats;
    try {
      formats = parsePublishFormats(values.format ?? []);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
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
    if (format !== undefined) {
      const dir = values["export-dir"] ?? join(dirname(files[0]), `export-${format}`);
      const records = files.flatMap((f) => readResultsFile(f).records);
      const { files: written, cases } = exportSnapshots(records, {
        format: format as ExportFormat,
        dir,
      });
      if (!cases) {
        console.error(
          "mergesplit report: no case has snapshots, nothing exported; run the bench with a version that records snapshots",
        );
        return 1;
      }
      console.log(`exported ${written.length} ${format} frames of ${cases} case(s) to ${dir}`);
    }
    return 0;
  } catch (e) {
    if (
      e instanceof UsageError || e instanceof ResultsFileError || e instanceof ReportOutputError
    ) {
      console.error(`mergesplit report: ${e.message}`);
      if (e instanceof UsageError) console.error("run with --help for the options");
      return 2;
    }
    console.error(`mergesplit report: ${(e as Error).message}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(main(Deno.args));
