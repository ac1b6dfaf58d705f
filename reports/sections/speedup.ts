/**
 * The speed-up of one machine over another on a phase: the ratio of their median step times,
 * median_first / median_other (above 1: the other machine is faster), with a 95% confidence
 * interval. Where both timings carry their per-step samples the interval is a percentile bootstrap
 * of the ratio of medians (each sample resampled with replacement, independently, from a seeded
 * {@link Rng}, so a report repeats); otherwise it is bounded by the two recorded `ci95` intervals
 * of the medians, [lo_first / hi_other, hi_first / lo_other] (conservative: both at their extremes
 * at once). {@link geometricMean} summarises speed-ups over cases.
 *
 * @module
 */
import { Rng } from "../../core/rng.ts";

/** Resamples of the bootstrap of the ratio of medians. */
export const SPEEDUP_RESAMPLES = 1000;
/** Seed of the bootstrap's random numbers (fixed: the same records give the same interval). */
export const SPEEDUP_SEED = 2021;

/** The timing of one phase on one machine, as a record's `timings.phases[p]` holds it. */
export interface PhaseTimingLike {
  median: number;
  ci95?: readonly [number, number] | readonly number[] | null;
  samples?: readonly number[] | null;
}

/** A speed-up and its 95% confidence interval, with how the interval was obtained. */
export interface Speedup {
  /** median_first / median_other. */
  value: number;
  /** 95% confidence interval [low, high], or null where neither method applies. */
  ci95: [number, number] | null;
  /**
   * `bootstrap` (from the samples), `ci95` (from the two recorded intervals) or `none` (neither:
   * no samples and no usable intervals).
   */
  method: "bootstrap" | "ci95" | "none";
}

const positive = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x) && x > 0;

/** The finite samples, sorted ascending (empty without at least 2 finite samples). */
function sortedSamples(samples: readonly number[] | null | undefined): Float64Array {
  if (!Array.isArray(samples)) return new Float64Array(0);
  const finite = Float64Array.from(samples.filter((x) => Number.isFinite(x)));
  return finite.length >= 2 ? finite.sort() : new Float64Array(0);
}

/**
 * The median of a resample of `sorted` (n draws with replacement from `rng`): the draws are
 * counted per sorted position (in `counts`, n long, reused), and the cumulative counts locate the middle order statistics, so
 * no resample is sorted (O(n) per resample).
 */
function resampledMedian(
  sorted: Float64Array,
  { counts, rng }: { counts: Uint32Array; rng: Rng },
): number {
  const n = sorted.length;
  counts.fill(0);
  for (let k = 0; k < n; k++) counts[Math.floor(rng.nextFloat() * n)]++;
  const lo = (n - 1) >> 1, hi = n >> 1;
  let seen = 0;
  let low = NaN;
  for (let i = 0; i < n; i++) {
    seen += counts[i];
    if (Number.isNaN(low) && seen > lo) low = sorted[i];
    if (seen > hi) return (low + sorted[i]) / 2;
  }
  return low;
}

/**
 * Percentile-bootstrap 95% interval of median(first) / median(other) (both sorted ascending):
 * `resamples` rounds, each drawing `first.length` indices into `first` and then `other.length`
 * indices into `other` from one `Rng(seed)` (index = ⌊u·n⌋ for u = `nextFloat()`); the 2.5% and
 * 97.5% quantiles of the sorted ratios (element ⌊p·resamples⌋).
 */
function bootstrapRatio(
  first: Float64Array,
  other: Float64Array,
  options: { resamples: number; seed: number },
): [number, number] {
  const rng = new Rng(options.seed);
  const ratios = new Float64Array(options.resamples);
  const countsFirst = new Uint32Array(first.length);
  const countsOther = new Uint32Array(other.length);
  for (let r = 0; r < options.resamples; r++) {
    const a = resampledMedian(first, { counts: countsFirst, rng });
    const b = resampledMedian(other, { counts: countsOther, rng });
    ratios[r] = a / b;
  }
  ratios.sort();
  const q = (p: number) =>
    ratios[Math.min(options.resamples - 1, Math.floor(p * options.resamples))];
  return [q(0.025), q(0.975)];
}

/**
 * The speed-up of `other` over `first` on one phase: `first.median / other.median`, with its 95%
 * interval from a bootstrap of both samples (at least 2 finite samples each, every sample above
 * 0) or else from the two `ci95` intervals. Null where either median is not a number above 0.
 * `resamples` (default {@link SPEEDUP_RESAMPLES}) and `seed` (default {@link SPEEDUP_SEED}) set
 * the bootstrap.
 */
export function speedup(
  first: PhaseTimingLike,
  other: PhaseTimingLike,
  options: { resamples?: number; seed?: number } = {},
): Speedup | null {
  if (!positive(first.median) || !positive(other.median)) return null;
  const value = first.median / other.median;
  const a = sortedSamples(first.samples);
  const b = sortedSamples(other.samples);
  if (a.length && b.length && a[0] > 0 && b[0] > 0) {
    const ci95 = bootstrapRatio(a, b, {
      resamples: options.resamples ?? SPEEDUP_RESAMPLES,
      seed: options.seed ?? SPEEDUP_SEED,
    });
    return { value, ci95, method: "bootstrap" };
  }
  const [loA, hiA] = Array.isArray(first.ci95) ? first.ci95 : [];
  const [loB, hiB] = Array.isArray(other.ci95) ? other.ci95 : [];
  if (positive(loA) && positive(hiA) && positive(loB) && positive(hiB)) {
    return { value, ci95: [loA / hiB, hiA / loB], method: "ci95" };
  }
  return { value, ci95: null, method: "none" };
}

/**
 * The geometric mean of the finite values above 0 among `values` (exp of the mean logarithm),
 * with how many there were; `value` is null when there is none.
 */
export function geometricMean(
  values: readonly (number | null | undefined)[],
): { value: number | null; count: number } {
  const used = values.filter(positive);
  if (!used.length) return { value: null, count: 0 };
  return {
    value: Math.exp(used.reduce((s, x) => s + Math.log(x), 0) / used.length),
    count: used.length,
  };
}
