/**
 * What a claim is: a testable finding of the paper with the records it reads and its outcome
 * (`claims.ts` lists them; `timing_claims.ts` holds §6.3's).
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";

/**
 * Outcome of a claim on a set of records: besides a verdict or "not run", "too coarse" where the
 * share of a body its thresholds read is too few particles at the records' scale to be read
 * ({@link ClaimResolution}), and "premise not reached" where the run did not reach what the
 * sentence takes for granted ({@link ClaimPremise}): neither is a verdict on the paper.
 */
export type ClaimStatus =
  | "reproduced"
  | "not reproduced"
  | "not run"
  | "too coarse"
  | "premise not reached";

/** The badge class of each status (reports' and docs' tables). */
export const CLAIM_STATUS_BADGE: Readonly<Record<ClaimStatus, string>> = {
  "reproduced": "ok",
  "not reproduced": "bad",
  "not run": "none",
  "too coarse": "none",
  "premise not reached": "none",
};

/**
 * The body a claim's thresholds read a share of, and the smallest such share: where that share of
 * the body is fewer than `RESOLUTION_MIN_PARTICLES` particles at the records' scale, the claim is
 * "too coarse" there (one particle of a 52-particle bowl is 2 % of it: a fragment "of at least
 * 1 %" is then any particle). `claim_resolution.ts` reads the body's particles from the records.
 */
export interface ClaimResolution {
  /** The scenes whose body the thresholds read. */
  scenes: readonly string[];
  /**
   * The body: `crossing` the particles that can cross a sheet (leak fractions), `breakable` the
   * breakable solids (fragment shares), `sheet` the cloth, `fluid` the fluid.
   */
  body: "crossing" | "breakable" | "sheet" | "fluid";
  /** The smallest share of the body a threshold reads (e.g. 0.01: a fragment of ≥ 1 %). */
  share: number;
  /** That threshold, in words ("a fragment of ≥ 1 % of the wall"). */
  threshold: string;
}

/**
 * What a claim's sentence takes for granted, read from the records (e.g. Fig. 11's "a single
 * meta-particle" of "the entire cloth"): `check` returns null where it was reached, else what was
 * measured; the claim is then "premise not reached", whatever its evaluation.
 */
export interface ClaimPremise {
  /** The premise, in words. */
  text: string;
  /** Null where the records reached it; else why not, in words ("not run" results pass through). */
  check(records: readonly CaseRecord[]): string | null;
}

/** What a claim's evaluation found: its status and the measured values, in words. */
export interface ClaimResult {
  status: ClaimStatus;
  measured: string;
}

/** Cases a claim reads: a scene under handlers, at its own parameters or in one sweep. */
export interface ClaimNeed {
  scene: string;
  handlers: readonly string[];
  /** The swept key (`penalty.stiffness`, `scene.dt`): the cases of that sweep, not the scene's own. */
  sweep?: string;
}

/** The sentence of the paper a claim tests, word for word, and where it stands. */
export interface ClaimQuote {
  where: string;
  quote: string;
}

/** One testable finding of the paper. */
export interface Claim {
  /** Short id: `a`, `b`, … */
  id: string;
  /** The finding, in words. */
  text: string;
  /** Where the paper shows it (figure or section). */
  paper: string;
  /**
   * The sentence of the paper it tests, copied word for word (a test finds every one in the
   * paper's text); null for a claim that validates the harness against experiment or physics
   * rather than a sentence (w, w2, x, x2). Where the sentence says less than the claim measures,
   * the quote shows the reader how far the claim goes beyond the paper's words.
   */
  quote: ClaimQuote | null;
  /**
   * The cases it reads: each scene × handler (at the scene's own parameters, or in the sweep of
   * `sweep`'s key). A suite that says it judges the claim runs every one of them (a test holds the
   * suites to it); a claim that reads whatever cases of merge-split a run holds (g) needs none of
   * its own.
   */
  needs: readonly ClaimNeed[];
  /** Where its thresholds read a share of a body: how many particles that share must be. */
  resolution?: ClaimResolution;
  /** What its sentence takes for granted, where a run may not reach it. */
  premise?: ClaimPremise;
  /** Evaluates the claim on the records of one scale (the last record of a case wins). */
  evaluate(records: readonly CaseRecord[]): ClaimResult;
}
