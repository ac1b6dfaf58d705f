/**
 * What a case's record says about how it ended, for the claims and the report's views: usable
 * (finished `ok` with metrics, not exploded), unstable (recorded unstable, exploded or gained
 * energy), and "works" (usable, stable, leaking at most the leak threshold). The thresholds are
 * the claims' (`reports/claims/claims.ts` `CLAIM_THRESHOLDS`, docs/claims.md's table).
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";

/**
 * A baseline "lets fluid through" when its `passThroughFraction` (the most particles through at
 * any sample, over the particles that can cross) exceeds this.
 */
export const LEAK_FRACTION_MIN = 0.005;

/**
 * A case gained energy (instability) when its energy ratio (kinetic + gravity + elastic, end /
 * start) exceeds 1 + this: a passive scene only loses energy to damping, and f32 round-off is
 * orders of magnitude below 5 %.
 */
export const ENERGY_GAIN_MAX = 0.05;

/** A summary metric as a number (booleans and missing values give NaN). */
export function summaryMetric(record: CaseRecord, name: string): number {
  const v = record.metrics?.summary[name];
  return typeof v === "number" ? v : NaN;
}

/** Whether a record shows instability: recorded unstable, exploded, or gained energy. */
export function unstable(r: CaseRecord): boolean {
  return r.status === "unstable" || r.metrics?.summary.exploded === true ||
    summaryMetric(r, "energyRatio") > 1 + ENERGY_GAIN_MAX;
}

/** Whether a record finished `ok` with metrics and did not explode (usable for leak claims). */
export function usable(r: CaseRecord | undefined): r is CaseRecord {
  return r !== undefined && r.status === "ok" && !!r.metrics &&
    r.metrics.summary.exploded !== true;
}

/**
 * Whether a case "works": usable, stable, and leaking at most {@link LEAK_FRACTION_MIN} of the
 * particles that can cross (a record without `passThroughFraction` does not work).
 */
export function caseWorks(r: CaseRecord): boolean {
  return usable(r) && !unstable(r) && summaryMetric(r, "passThroughFraction") <= LEAK_FRACTION_MIN;
}
