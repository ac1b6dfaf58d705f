/**
 * What a claim is: a testable finding of the paper with the records it reads and its outcome
 * (`claims.ts` lists them; `timing_claims.ts` holds §6.3's).
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";

/** Outcome of a claim on a set of records. */
export type ClaimStatus = "reproduced" | "not reproduced" | "not run";

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
  /** Evaluates the claim on the records of one scale (the last record of a case wins). */
  evaluate(records: readonly CaseRecord[]): ClaimResult;
}
