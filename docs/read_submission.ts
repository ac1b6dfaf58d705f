/**
 * A hardware submission on disk: a folder with a fixed layout, as MLPerf's submissions have one
 * per system, so that anyone can add a row to the hardware table (`docs/hardware.md`) and a checker
 * (`./check_submission.ts`) can refuse a malformed one. Committed submissions live under
 * `docs/hardware/<name>/`; `deno task submit` (`./write_submission.ts`) writes them.
 *
 * - `results.jsonl`: the hardware suite's records as the bench wrote them, reduced
 *   (`./reduce_records.ts`, snapshots dropped too: a row needs the timings, not the pictures);
 * - `system.json`: a {@link SubmissionSystem}: the machine, the adapter and its driver, the
 *   harness commit, the dates, the suite's scale and the records' SHA-256.
 *
 * @module
 */
import { type CaseRecord, readResults, type SkippedLine } from "../core/result.ts";
import { fileURLToPath } from "node:url";
import type { RunInfo } from "./reduce_records.ts";

/** The files of a submission folder. */
export const SUBMISSION_FILES = { records: "results.jsonl", system: "system.json" } as const;

/** Where committed submissions are, relative to the repository's root. */
export const SUBMISSIONS_DIR = "docs/hardware/";

/** What `system.json` says: the run's {@link RunInfo} and what a hardware row adds. */
export interface SubmissionSystem extends RunInfo {
  /** The suite the records ran (always `hardware`). */
  suite: string;
  /** The adapter's driver as the submitter gave or `deno task submit` found it. */
  driver: string;
  /** Per figure of the suite, particle-steps per second (`core/hardware/figure_rates.ts`). */
  rates: Record<string, number | null>;
}

/** A submission as read: its folder, its system, its records and its lines that fail the schema. */
export interface Submission {
  dir: string;
  system: SubmissionSystem;
  /** The text of `results.jsonl` as committed (its SHA-256 is `system.recordsSha256`). */
  text: string;
  records: CaseRecord[];
  skipped: SkippedLine[];
}

/** A folder that is not a submission at all (a file missing, `system.json` not JSON). */
export class SubmissionReadError extends Error {
  override name = "SubmissionReadError";
}

/** The text of `file` of the submission in `dir`; a missing file is a {@link SubmissionReadError}. */
function readPart(dir: string, file: string): string {
  try {
    return Deno.readTextFileSync(`${dir}/${file}`);
  } catch (e) {
    throw new SubmissionReadError(
      `${dir}: no readable ${file} (${(e as Error).message}); a submission folder holds ` +
        `${Object.values(SUBMISSION_FILES).join(" and ")}: write one with deno task submit`,
    );
  }
}

/**
 * The submission in folder `dir`. Its records are read tolerantly (a line that fails the schema is
 * in `skipped`, for the checker to name); a missing file or a `system.json` that is not a JSON
 * object throws a {@link SubmissionReadError}.
 */
export function readSubmission(dir: string): Submission {
  const text = readPart(dir, SUBMISSION_FILES.records);
  let system: unknown;
  try {
    system = JSON.parse(readPart(dir, SUBMISSION_FILES.system));
  } catch (e) {
    if (e instanceof SubmissionReadError) throw e;
    throw new SubmissionReadError(
      `${dir}/${SUBMISSION_FILES.system} is not JSON (${(e as Error).message}); write the ` +
        "submission again with deno task submit",
    );
  }
  if (typeof system !== "object" || system === null || Array.isArray(system)) {
    throw new SubmissionReadError(
      `${dir}/${SUBMISSION_FILES.system} is not a JSON object; write it again with deno task submit`,
    );
  }
  const { records, skipped } = readResults(text);
  return { dir, system: system as SubmissionSystem, text, records, skipped };
}

/** The folders of the committed submissions under `root`, sorted by name. */
export function submissionDirs(root: URL): string[] {
  const dir = new URL(SUBMISSIONS_DIR, root);
  try {
    return [...Deno.readDirSync(dir)].filter((e) => e.isDirectory).map((e) => e.name).sort()
      .map((name) => fileURLToPath(new URL(name, dir)));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
}
