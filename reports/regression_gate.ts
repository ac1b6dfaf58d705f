/**
 * The regression gate of `deno task report base.jsonl new.jsonl --fail-on-regression`: per case
 * that both runs have (matched by their whole identity, `./case_key.ts` `caseKey`, and timed by
 * the same clock, as the comparison matches them: `./sections/comparison.ts`), each metric
 * of {@link REGRESSION_METRICS} is judged in its direction against its threshold, and a case is a
 * regression only where the worsening is beyond the threshold for sure:
 *
 * - the step time (`timings.phases.total`): on the 95% bootstrap interval of the speed-up
 *   base / new (`./sections/speedup.ts`, from the per-step samples), regressed when even the
 *   interval's fast end is more than {@link TIME_SLOWDOWN} slower, so that the noise of a busy
 *   machine, which widens the interval, does not raise a false alarm;
 * - the leak (`passThroughFraction`) and the split energy error (`energyError`): one value per run,
 *   the same for the same code (a case's state is reproducible bit for bit), regressed when it
 *   grows by more than its threshold.
 *
 * @module
 */
import type { CaseRecord } from "../core/result.ts";
import { caseKey, caseLabel, latestCases } from "./case_key.ts";
import { speedup } from "./sections/speedup.ts";
import { timingClock } from "./sections/comparison.ts";

/** A step time regresses when it is at least this much slower (10 %), for sure. */
export const TIME_SLOWDOWN = 0.1;

/** How a metric is read and when it regressed. */
export interface RegressionMetric {
  id: "time" | "leak" | "energy-error";
  /** What worsens: `up` (a larger value is worse). */
  direction: "up";
  /** The threshold, in words, for messages and the docs. */
  threshold: string;
  /** Why the pair (base, new) of a case regressed on this metric, or null. */
  judge(base: CaseRecord, next: CaseRecord): string | null;
}

/** A summary metric's value, or null. */
function summary(r: CaseRecord, field: string): number | null {
  const v = r.metrics?.summary[field];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** A judge of summary `field` that regressed when it grows by more than `by` (absolute). */
function growsBy(field: string, by: number): RegressionMetric["judge"] {
  return (base, next) => {
    const a = summary(base, field), b = summary(next, field);
    if (a === null || b === null || b - a <= by) return null;
    return `${field} ${a.toPrecision(3)} → ${b.toPrecision(3)} (+${
      (b - a).toPrecision(3)
    }, > ${by})`;
  };
}

/** Every metric the gate judges. */
export const REGRESSION_METRICS: readonly RegressionMetric[] = [
  {
    id: "time",
    direction: "up",
    threshold: `the 95% interval of base / new below 1 / ${1 + TIME_SLOWDOWN}`,
    judge(base, next) {
      const a = base.timings?.phases.total, b = next.timings?.phases.total;
      const s = a && b ? speedup(a, b) : null;
      if (!s?.ci95 || s.ci95[1] >= 1 / (1 + TIME_SLOWDOWN)) return null;
      return `step time ${a!.median.toPrecision(3)} → ${b!.median.toPrecision(3)} ms ` +
        `(speed-up ${s.value.toFixed(3)}, 95% interval [${s.ci95[0].toFixed(3)}, ` +
        `${s.ci95[1].toFixed(3)}] (${s.method}), below 1 / ${1 + TIME_SLOWDOWN})`;
    },
  },
  {
    id: "leak",
    direction: "up",
    threshold: "passThroughFraction up by more than 0.01",
    judge: growsBy("passThroughFraction", 0.01),
  },
  {
    id: "energy-error",
    direction: "up",
    threshold: "energyError up by more than 0.01",
    judge: growsBy("energyError", 0.01),
  },
];

/** One regression: the case, the metric and why. */
export interface Regression {
  case: string;
  metric: RegressionMetric["id"];
  detail: string;
}

/** The regressions of `next` against `base`, over the cases both have, in `base`'s order. */
export function findRegressions(
  base: readonly CaseRecord[],
  next: readonly CaseRecord[],
): Regression[] {
  const nextByKey = new Map(latestCases(next).map((r) => [caseKey(r), r]));
  return latestCases(base).flatMap((a) => {
    const b = nextByKey.get(caseKey(a));
    if (!b || timingClock(b) !== timingClock(a)) return []; // not the same case timed alike
    const name = caseLabel(a, { withScale: true });
    return REGRESSION_METRICS.flatMap((m) => {
      const detail = m.judge(a, b);
      return detail === null ? [] : [{ case: name, metric: m.id, detail }];
    });
  });
}
