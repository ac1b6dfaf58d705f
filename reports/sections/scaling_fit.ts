/**
 * The scaling exponent of a scale sweep: the least-squares fit of log step time on log particle
 * count, step time ≈ c · N^k. k = 1 is linear scaling (a constant time per particle), k < 1 means
 * the adapter was not yet saturated at the smaller sizes, k > 1 super-linear cost.
 *
 * @module
 */

/** One measured size: particle count and median step time. */
export interface ScalingPoint {
  /** Particles in the case (N > 0). */
  particles: number;
  /** Median step time (ms/step, > 0). */
  ms: number;
}

/** A power law step time ≈ coefficient · N^exponent, fitted in log–log space. */
export interface ScalingFit {
  /** k in step time ∝ N^k. */
  exponent: number;
  /** c in ms/step: the fitted step time at N = 1. */
  coefficient: number;
  /** Coefficient of determination of the log–log fit (1 for two points). */
  r2: number;
  /** Points fitted. */
  points: number;
}

/**
 * Fits step time ≈ c · N^k by least squares of ln(ms) on ln(N) over `points`. Throws a
 * `RangeError` for fewer than 2 points, a count or time that is not a finite number > 0 (naming
 * the point), or points that all have the same particle count: measure the case at 2 or more
 * scales (`--scale tiny,small,medium`).
 */
export function scalingFit(points: readonly ScalingPoint[]): ScalingFit {
  if (points.length < 2) {
    throw new RangeError(
      `scalingFit: needs at least 2 points, got ${points.length}: run the case at 2 or more scales (--scale tiny,small,medium)`,
    );
  }
  points.forEach((p, k) => {
    for (const [name, v] of [["particles", p.particles], ["ms", p.ms]] as const) {
      if (!(typeof v === "number" && Number.isFinite(v) && v > 0)) {
        throw new RangeError(`scalingFit: points[${k}].${name} must be a number > 0, got ${v}`);
      }
    }
  });
  const x = points.map((p) => Math.log(p.particles));
  const y = points.map((p) => Math.log(p.ms));
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const mx = mean(x), my = mean(y);
  let sxx = 0, sxy = 0, syy = 0;
  for (let i = 0; i < x.length; i++) {
    sxx += (x[i] - mx) ** 2;
    sxy += (x[i] - mx) * (y[i] - my);
    syy += (y[i] - my) ** 2;
  }
  if (sxx === 0) {
    throw new RangeError(
      `scalingFit: every point has ${
        points[0].particles
      } particles; needs 2 or more distinct particle counts`,
    );
  }
  const exponent = sxy / sxx;
  const intercept = my - exponent * mx;
  let ssRes = 0;
  for (let i = 0; i < x.length; i++) ssRes += (y[i] - intercept - exponent * x[i]) ** 2;
  return {
    exponent,
    coefficient: Math.exp(intercept),
    r2: syy === 0 ? 1 : Math.max(0, 1 - ssRes / syy),
    points: points.length,
  };
}

export { nsPerParticleStep } from "../../core/hardware/ns_per_particle_step.ts";
