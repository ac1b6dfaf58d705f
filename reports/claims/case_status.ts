/**
 * What a case's record says about how it ended, for the claims and the report's views: usable
 * (finished `ok` with metrics, not exploded), unstable (the one definition every handler faces,
 * merge-split as the baselines: recorded unstable, exploded, gained energy, or flung a particle
 * past the speed-spike bar), and "works" (usable, stable, leaking at most the leak threshold). The
 * thresholds are the claims' (`reports/claims/claims.ts` `CLAIM_THRESHOLDS`, docs/claims.md's
 * table).
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

/**
 * The speed spike of the one definition of instability: a particle flung (`flungSpeedRatio`: at
 * least half of its speed gained from forces other than gravity within one sample interval, so
 * free fall never counts; docs/metrics.md) faster than this × the reference speed (itself 1.2× the
 * fastest impact of the scene).
 */
export const SPEED_SPIKE_RATIO = 2;

/**
 * The summary field the speed spike reads: a claim that judges stability on a record without it
 * (made before it was measured) is "not run" (`lacking` in `claim_records.ts`).
 */
export const SPIKE_FIELD = "flungSpeedRatio";

/**
 * Whether a record is of a catalogue scene as the harness builds it (`sceneSource` `catalog`;
 * absent in records made before it was kept, which ran the catalogue alone): the only records the
 * claims judge. A scene file's case is a user scene, shown in the report but never judged as the
 * paper's scene, whatever id the file gives it.
 */
export function fromCatalog(r: Pick<CaseRecord, "sceneSource">): boolean {
  return (r.sceneSource ?? "catalog") === "catalog";
}

/** A summary metric as a number (booleans and missing values give NaN). */
export function summaryMetric(record: CaseRecord, name: string): number {
  const v = record.metrics?.summary[name];
  return typeof v === "number" ? v : NaN;
}

/**
 * Why a record shows instability by the one definition every handler faces, or null: recorded
 * unstable (the runner stopped it), exploded (NaN, Inf or a particle past 10× the reference
 * speed), gained energy (more than {@link ENERGY_GAIN_MAX}), or flung a particle faster than
 * {@link SPEED_SPIKE_RATIO} × the reference speed ({@link SPIKE_FIELD}).
 */
export function instability(r: CaseRecord): string | null {
  if (r.status === "unstable") return "unstable";
  if (r.metrics?.summary.exploded === true) return "exploded";
  const gain = summaryMetric(r, "energyRatio");
  if (gain > 1 + ENERGY_GAIN_MAX) return `energy ratio ${gain.toPrecision(3)}`;
  const flung = summaryMetric(r, SPIKE_FIELD);
  if (flung > SPEED_SPIKE_RATIO) return `a particle flung at ${flung.toPrecision(3)}× v_ref`;
  return null;
}

/** Whether a record shows instability ({@link instability}). */
export function unstable(r: CaseRecord): boolean {
  return instability(r) !== null;
}

/**
 * The earlier definition (before every handler faced one definition of instability), kept for the earlier claims: recorded unstable,
 * exploded, or gained energy, without the speed spike.
 */
export function unstableByEnergy(r: CaseRecord): boolean {
  return r.status === "unstable" || r.metrics?.summary.exploded === true ||
    summaryMetric(r, "energyRatio") > 1 + ENERGY_GAIN_MAX;
}

/** Whether a case ran to its end with metrics, `ok` or `unstable`: instability is an outcome. */
export function finished(r: CaseRecord | undefined): r is CaseRecord {
  return r !== undefined && !!r.metrics && (r.status === "ok" || r.status === "unstable");
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
