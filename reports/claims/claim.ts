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

/** One testable finding of the paper. */
export interface Claim {
  /** Short id: `a`, `b`, … */
  id: string;
  /** The finding, in words. */
  text: string;
  /** Where the paper shows it (figure or section). */
  paper: string;
  /** Evaluates the claim on the records of one scale (the last record of a case wins). */
  evaluate(records: readonly CaseRecord[]): ClaimResult;
}
