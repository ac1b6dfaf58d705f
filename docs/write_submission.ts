/**
 * `deno task submit <results.jsonl> [--out <dir>] [--name <name>] [--driver <text>]`: writes a
 * hardware submission (`./read_submission.ts`) from the results of `deno task bench --suite
 * hardware`: the records reduced (`./reduce_records.ts`, no snapshots), and `system.json` with the
 * machine, the adapter, its driver, the harness commit, the dates and the figures; then checks it
 * (`./check_submission.ts`), so the submitter learns at once whether it can be a row of the table.
 * Default folder: `docs/hardware/<name>/`, where `deno task docs` reads it.
 *
 * The driver is `--driver` when given, else what the machine says: the NVIDIA driver's version
 * (`nvidia-smi`) for an NVIDIA adapter, the Mesa package's (`dpkg-query`) for llvmpipe/lavapipe;
 * otherwise `unknown`.
 *
 * Exit status: 0 written and accepted, 1 written but refused (the reasons printed), 2 bad
 * arguments or a results file that cannot be read.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type CaseRecord, parseResults, recordLine } from "../core/result.ts";
import { writeFileAtomic } from "../core/io/write_file_atomic.ts";
import { figureRates } from "../core/hardware/figure_rates.ts";
import { recordsDigest, reduceRecord, REDUCTION_NO_SNAPSHOTS, runInfo } from "./reduce_records.ts";
import {
  readSubmission,
  SUBMISSION_FILES,
  SUBMISSIONS_DIR,
  type SubmissionSystem,
} from "./read_submission.ts";
import { submissionProblems } from "./check_submission.ts";

/** The output of `command args`, trimmed, or null when it cannot run or fails. */
function commandOutput(command: string, args: string[]): string | null {
  try {
    const out = new Deno.Command(command, { args, stdout: "piped", stderr: "null" }).outputSync();
    const text = new TextDecoder().decode(out.stdout).trim();
    return out.success && text ? text : null;
  } catch {
    return null;
  }
}

/** The driver of the adapter of `r`, as far as this machine tells (see the module's header). */
export function probeDriver(r: CaseRecord | undefined): string {
  const a = r?.env?.adapter;
  if (!a) return "unknown";
  if (/nvidia/i.test(`${a.vendor} ${a.description}`) || a.vendor === "4318") {
    const v = commandOutput("nvidia-smi", ["--query-gpu=driver_version", "--format=csv,noheader"]);
    if (v) return `NVIDIA ${v.split("\n")[0]}`;
  }
  if (/llvmpipe/.test(a.description)) {
    const pkg = a.backend === "gl" ? "libgl1-mesa-dri" : "mesa-vulkan-drivers";
    const v = commandOutput("dpkg-query", ["-W", "-f=${Version}", pkg]);
    if (v) return `Mesa ${v} (${pkg})`;
  }
  return "unknown";
}

/** `llvmpipe-llvm-15-0-6-256-bits-vulkan`: a folder name from the records' adapter. */
function defaultName(r: CaseRecord | undefined): string {
  const a = r?.env?.adapter;
  const text = `${a?.description ?? "adapter"} ${a?.backend ?? ""}`;
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "adapter";
}

/** What {@link writeSubmission} takes beside the results file. */
export interface SubmitOptions {
  /** The folder to write (default `docs/hardware/<name>/` under the working directory). */
  out?: string;
  /** The submission's name (default from the adapter). */
  name?: string;
  /** The adapter's driver (default {@link probeDriver}'s). */
  driver?: string;
}

/** Writes the submission of `records` (read from `file`); returns its folder. */
export function writeSubmission(
  file: string,
  records: readonly CaseRecord[],
  options: SubmitOptions = {},
): string {
  const name = options.name ?? defaultName(records[0]);
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(name)) {
    throw new RangeError(`--name: "${name}" must be lower-case letters, digits, '.' and '-'`);
  }
  const dir = options.out ?? `${SUBMISSIONS_DIR}${name}`;
  const reduced = records.map((r) => reduceRecord(r, { snapshots: false }));
  const text = reduced.map(recordLine).join("");
  const command = `deno task submit ${file}`;
  const system: SubmissionSystem = {
    ...runInfo(name, command, reduced, REDUCTION_NO_SNAPSHOTS, recordsDigest(text)),
    suite: "hardware",
    driver: options.driver ?? probeDriver(records[0]),
    rates: figureRates(reduced),
  };
  Deno.mkdirSync(dir, { recursive: true });
  writeFileAtomic(`${dir}/${SUBMISSION_FILES.records}`, text);
  writeFileAtomic(`${dir}/${SUBMISSION_FILES.system}`, `${JSON.stringify(system, null, 2)}\n`);
  return dir;
}

const USAGE =
  "usage: deno task submit <results.jsonl> [--out <dir>] [--name <name>] [--driver <text>]";

/** The task's entry point; returns the exit status (see the module's header). */
export function main(args: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { out: { type: "string" }, name: { type: "string" }, driver: { type: "string" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    console.error(`submit: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (parsed.positionals.length !== 1) {
    console.error(`submit: give one results file\n${USAGE}`);
    return 2;
  }
  const file = parsed.positionals[0];
  let records: CaseRecord[];
  try {
    records = parseResults(Deno.readTextFileSync(file));
    const dir = writeSubmission(file, records, parsed.values);
    const problems = submissionProblems(readSubmission(dir));
    for (const p of problems) console.error(`submit: ${dir}: refused: ${p}`);
    console.log(`submit: wrote ${dir}${problems.length ? "" : " (accepted)"}`);
    return problems.length ? 1 : 0;
  } catch (e) {
    if (
      !(e instanceof SyntaxError || e instanceof RangeError || e instanceof Deno.errors.NotFound)
    ) {
      throw e;
    }
    console.error(`submit: ${file}: ${(e as Error).message}`);
    return 2;
  }
}

if (import.meta.main) Deno.exit(main(Deno.args));
