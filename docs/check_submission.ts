/**
 * `deno task check-submission <dir>`: refuses a hardware submission (`./read_submission.ts`) that
 * would put a row in the hardware table that is not comparable with the others, as MLPerf's
 * checker refuses a malformed or mismatched submission. It refuses, naming each reason:
 *
 * - records that fail the schema (`core/result.ts`'s check: the line and the field), or that
 *   changed after `deno task submit` (their SHA-256 is not `system.json`'s), or a `system.json`
 *   that says other than its records (machine, adapter, commits, dates, scales) or names no
 *   driver;
 * - anything but the hardware suite's whole case list (`core/hardware/hardware_suite.ts`): each of
 *   its figures' cases once, from the catalogue, at its steps, at one of its scales, one run (one
 *   case list), each finished `ok`;
 * - a case not under the paper's setup (another setup, coupling, a sweep, or a handler parameter
 *   the paper's setup sets given another value);
 * - records of a dirty tree, of several commits or of none (`./reduce_records.ts`
 *   `provenanceProblem`), or of several adapters.
 *
 * Exit status: 0 accepted, 1 refused (each reason on a line), 2 when the folder is no submission
 * (a file missing, `system.json` not JSON) or the arguments are wrong.
 *
 * @module
 */
import { adapterName, type CaseRecord } from "../core/result.ts";
import { PAPER_COUPLING, PAPER_SETUP } from "../core/setups.ts";
import {
  HARDWARE_FIGURES,
  HARDWARE_SCALES,
  HARDWARE_STEPS,
} from "../core/hardware/hardware_suite.ts";
import { provenanceProblem, recordsDigest, runInfo } from "./reduce_records.ts";
import { readSubmission, type Submission, SubmissionReadError } from "./read_submission.ts";

const caseName = (r: Pick<CaseRecord, "scene" | "handler">) => `${r.scene} × ${r.handler}`;

/** The schema's and the digest's problems: lines that fail the check, records edited after. */
function recordProblems(s: Submission): string[] {
  const out = s.skipped.map((k) => `results.jsonl line ${k.line} fails the schema: ${k.reason}`);
  if (s.system.recordsSha256 !== recordsDigest(s.text)) {
    out.push(
      "results.jsonl changed after it was submitted (its SHA-256 is not system.json's " +
        "recordsSha256): submit the bench's results again",
    );
  }
  return out;
}

/** The fields of `system.json` that the records give, which must say what the records say. */
const FROM_RECORDS = [
  "date",
  "machine",
  "adapter",
  "commits",
  "scales",
  "setups",
  "cases",
] as const;

/** Whether `system.json` is a hardware submission's and says what its records say. */
function systemProblems(s: Submission): string[] {
  const out: string[] = [];
  if (s.system.suite !== "hardware") {
    out.push(`system.json's suite is ${s.system.suite}, not hardware`);
  }
  if (typeof s.system.driver !== "string" || !s.system.driver) {
    out.push("system.json names no driver: submit again with --driver <text>");
  }
  const expected = runInfo("", "", s.records);
  for (const field of FROM_RECORDS) {
    if (JSON.stringify(s.system[field]) !== JSON.stringify(expected[field])) {
      out.push(
        `system.json's ${field} is not what the records say (${
          JSON.stringify(expected[field])
        }): ` +
          "submit the bench's results again",
      );
    }
  }
  return out;
}

/** Whether the records are the hardware suite's whole case list, once each, of one run. */
function caseListProblems(records: readonly CaseRecord[]): string[] {
  const out: string[] = [];
  const wanted = HARDWARE_FIGURES.map(caseName);
  const seen = records.map(caseName);
  for (const w of wanted) {
    const n = seen.filter((s) => s === w).length;
    if (n !== 1) out.push(`case ${w} is there ${n} times; the hardware suite runs it once`);
  }
  for (const s of new Set(seen)) {
    if (!wanted.includes(s)) out.push(`case ${s} is not one of the hardware suite's`);
  }
  const scales = new Set(records.map((r) => r.scale));
  const allowed: string[] = Object.values(HARDWARE_SCALES);
  if (scales.size !== 1 || !allowed.includes([...scales][0])) {
    out.push(
      `its cases ran at ${[...scales].join(", ") || "no scale"}; a submission runs all of them ` +
        `at one of ${allowed.join(", ")}`,
    );
  }
  const lists = new Set(records.map((r) => r.case?.list ?? "none"));
  if (lists.size > 1) {
    out.push(`its records are of ${lists.size} runs (case lists); submit one run`);
  }
  return out;
}

/** Each case's own problems: steps, source, outcome and the paper's setup. */
function caseProblems(r: CaseRecord): string[] {
  const out: string[] = [];
  const name = caseName(r);
  if (r.steps !== HARDWARE_STEPS) out.push(`${name} ran ${r.steps} steps, not ${HARDWARE_STEPS}`);
  if (r.sceneSource !== "catalog") out.push(`${name} ran a scene file, ${r.sceneSource}`);
  if (r.status !== "ok") out.push(`${name} finished ${r.status}, not ok: ${r.error ?? ""}`);
  if ((r.setup ?? "none") !== PAPER_SETUP.id) {
    out.push(`${name} ran under setup ${r.setup ?? "none recorded"}, not the paper's`);
  }
  if ((r.coupling ?? PAPER_COUPLING) !== PAPER_COUPLING) {
    out.push(`${name} ran with coupling ${r.coupling}, not the paper's ${PAPER_COUPLING}`);
  }
  if (r.sweep) out.push(`${name} is a case of a sweep (${JSON.stringify(r.sweep)})`);
  for (const [p, v] of Object.entries(PAPER_SETUP.handlerParams?.[r.handler] ?? {})) {
    if (r.handlerParams[p] !== v) {
      out.push(`${name} ran ${r.handler}.${p} = ${r.handlerParams[p]}, the paper's is ${v}`);
    }
  }
  return out;
}

/** Whether the records come from one clean commit on one adapter. */
function provenanceProblems(records: readonly CaseRecord[]): string[] {
  const out: string[] = [];
  const problem = provenanceProblem(runInfo("", "", records).commits);
  if (problem) out.push(`${problem}; run the suite from a clean checkout of one commit`);
  const adapters = new Set(records.map(adapterName));
  if (adapters.size > 1) out.push(`its records name ${adapters.size} adapters: ${[...adapters]}`);
  return out;
}

/** Every reason to refuse submission `s` (empty: accepted). */
export function submissionProblems(s: Submission): string[] {
  return [
    ...recordProblems(s),
    ...systemProblems(s),
    ...caseListProblems(s.records),
    ...s.records.flatMap(caseProblems),
    ...provenanceProblems(s.records),
  ];
}

/** The task's entry point; returns the exit status (0 accepted, 1 refused, 2 no submission). */
export function main(args: readonly string[]): number {
  if (args.length !== 1 || args[0].startsWith("-")) {
    console.error("usage: deno task check-submission <submission folder>");
    return 2;
  }
  let s: Submission;
  try {
    s = readSubmission(args[0]);
  } catch (e) {
    if (!(e instanceof SubmissionReadError)) throw e;
    console.error(`check-submission: ${e.message}`);
    return 2;
  }
  const problems = submissionProblems(s);
  for (const p of problems) console.error(`check-submission: ${args[0]}: refused: ${p}`);
  if (problems.length === 0) console.log(`check-submission: ${args[0]}: accepted`);
  return problems.length === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(main(Deno.args));
