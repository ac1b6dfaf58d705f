/**
 * Statistics of timing samples: median, MAD, a percentile-bootstrap 95% confidence interval of the
 * median (seeded, so a result file repeats), min, max and the arithmetic mean (the paper's Table I
 * gives averages per step over whole runs).
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
 * The `k`-th smallest (from 0) of `a[0..n)`, found in place in linear expected time (Hoare's FIND):
 * afterwards `a[0..k)` ≤ `a[k]` ≤ `a(k..n)`. For finite values; a NaN stops the scans, not the loop.
 */
function selectKth(a: Float64Array, n: number, k: number): number {
  let lo = 0, hi = n - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1];
    let i = lo, j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (pivot < a[j]) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k];
}

/**
 * The median of `a[0..n)` as {@link median} gives it (the same value: the middle element, or the
 * mean of the two middle ones), by selection instead of a sort; reorders `a`.
 */
function medianInPlace(a: Float64Array, n: number): number {
  const m = n >> 1;
  const upper = selectKth(a, n, m);
  if (n % 2) return upper;
  let lower = a[0];
  for (let k = 1; k < m; k++) if (a[k] > lower) lower = a[k];
  return (lower + upper) / 2;
}

/**
 * Percentile-bootstrap confidence interval of the median: `resamples` resamples with
 * replacement drawn with a seeded RNG; returns the (1 − level)/2 and (1 + level)/2 quantiles.
 * Each resample's median is selected, not sorted for (a whole run's 32,725 steps: 2,000 sorts took
 * 17 s per phase on a two-core machine, selection about 1.5 s), with the same values (a −0 and a 0 of a
 * sample may trade places).
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
  const n = xs.length;
  const buf = new Float64Array(n);
  for (let r = 0; r < resamples; r++) {
    for (let k = 0; k < n; k++) buf[k] = xs[rng.int(0, n - 1)];
    meds[r] = medianInPlace(buf, n);
  }
  meds.sort();
  const q = (p: number) => meds[Math.min(resamples - 1, Math.max(0, Math.floor(p * resamples)))];
  return [q((1 - level) / 2), q((1 + level) / 2)];
}

/** The arithmetic mean of `xs` (NaN for an empty sample). */
export function mean(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
}

/**
 * Median, MAD, bootstrap CI, min, max, mean and count of a sample (NaNs and infinities are
 * dropped). Min and max by a loop: a spread of a long run's samples into `Math.min` overflows the
 * stack from about 200,000.
 */
export function summarise(xs: readonly number[], options: { seed?: number } = {}): SampleSummary {
  const v = xs.filter((x) => Number.isFinite(x));
  let min = v.length ? v[0] : NaN, max = min;
  for (const x of v) {
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return {
    median: median(v),
    mad: mad(v),
    ci95: bootstrapMedianCi(v, { seed: options.seed }),
    min,
    max,
    n: v.length,
    mean: mean(v),
  };
}
