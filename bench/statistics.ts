/**
 * Robust statistics of timing samples: median, MAD, a percentile-bootstrap 95% confidence interval
 * of the median (seeded, so a result file repeats), min and max.
 *
 * @module
 */
import { Rng } from "../core/rng.ts";
import type { SampleSummary } from "../core/result.ts";

export type { SampleSummary } from "../core/result.ts";

/** The median of `xs` (NaN for an empty sample). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Median absolute deviation: median(|x − median(x)|). */
export function mad(xs: readonly number[]): number {
  const m = median(xs);
  return median(xs.map((x) => Math.abs(x - m)));
}

/**
 * Percentile-bootstrap confidence interval of the median: `resamples` resamples with
 * replacement drawn with a seeded RNG; returns the (1 − level)/2 and (1 + level)/2 quantiles.
 */
export function bootstrapMedianCi(
  xs: readonly number[],
  options: { level?: number; resamples?: number; seed?: number } = {},
): [number, number] {
  if (xs.length === 0) return [NaN, NaN];
  if (xs.length === 1) return [xs[0], xs[0]];
  const level = options.level ?? 0.95;
  const resamples = options.resamples ?? 2000;
  const rng = new Rng(options.seed ?? 1);
  const meds = new Float64Array(resamples);
  const buf = new Array<number>(xs.length);
  for (let r = 0; r < resamples; r++) {
    for (let k = 0; k < xs.length; k++) buf[k] = xs[rng.int(0, xs.length - 1)];
    meds[r] = median(buf);
  }
  meds.sort();
  const q = (p: number) => meds[Math.min(resamples - 1, Math.max(0, Math.floor(p * resamples)))];
  return [q((1 - level) / 2), q((1 + level) / 2)];
}

/** Median, MAD, bootstrap CI, min, max of a sample (NaNs are dropped). */
export function summarise(xs: readonly number[], options: { seed?: number } = {}): SampleSummary {
  const v = xs.filter((x) => Number.isFinite(x));
  return {
    median: median(v),
    mad: mad(v),
    ci95: bootstrapMedianCi(v, { seed: options.seed }),
    min: v.length ? Math.min(...v) : NaN,
    max: v.length ? Math.max(...v) : NaN,
    n: v.length,
  };
}
