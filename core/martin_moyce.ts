/**
 * The dam-break experiment the fluid systems are validated against (Martin & Moyce 1952, "Part IV.
 * An experimental study of the collapse of liquid columns on a rigid horizontal plane", Phil.
 * Trans. R. Soc. Lond. A 244, 312–324): the surge front of a collapsing column, and the comparison
 * of a run's front (`frontX` of the dam-break scenes) with it in the experiment's dimensionless
 * form, Z = front / a against T = t·√(2g/a).
 *
 * @module
 */

/**
 * The surge front of Martin & Moyce's Fig. 3, column of height 2a (n² = 2) and width a = 2.25 in,
 * as [T = t·√(2g/a), Z = front / a] (digitised values as tabulated in PySPH's dam-break example,
 * `pysph/examples/db_exp_data.py`). The larger of the paper's two n² = 2 columns, the less its
 * surface tension matters.
 */
export const MARTIN_MOYCE_SURGE_FRONT: readonly (readonly [number, number])[] = [
  [0.832, 1.217],
  [1.219, 1.474],
  [1.997, 2.292],
  [2.547, 2.995],
  [3.345, 4.134],
  [4.034, 4.944],
  [4.418, 5.881],
  [5.091, 6.98],
  [5.685, 7.945],
  [6.306, 8.966],
  [6.822, 9.986],
  [7.439, 10.963],
  [8.031, 11.977],
  [8.633, 13.005],
  [9.237, 13.97],
];

/** One experimental point against the run. */
export interface SurgeFrontPoint {
  /** T = t·√(2g/a). */
  T: number;
  /** Z of the experiment and of the run (linear between the run's samples). */
  zExperiment: number;
  zRun: number;
  /** (zRun − zExperiment) / zExperiment. */
  error: number;
}

/** A run's surge front against the experiment. */
export interface SurgeFrontComparison {
  /** The experimental points inside the run (see {@link compareSurgeFront}). */
  points: SurgeFrontPoint[];
  /** The largest |error| and the mean |error| over them (NaN when there is none). */
  maxError: number;
  meanError: number;
}

/**
 * Compares a run's front with {@link MARTIN_MOYCE_SURGE_FRONT} at the experiment's times: every
 * point whose T lies between the run's first and last sample and whose Z is at least one column
 * width short of the tank's far wall (there the run's front is stopped by the wall, the
 * experiment's was not).
 */
export function compareSurgeFront(
  samples: readonly { time: number; frontX: number }[],
  options: { columnWidth: number; gravity: number; tankLength: number },
): SurgeFrontComparison {
  const { columnWidth: a, gravity: g, tankLength } = options;
  if (!(a > 0) || !(g > 0) || !(tankLength > a)) {
    throw new RangeError(
      `compareSurgeFront: options.columnWidth and options.gravity must be > 0 and ` +
        `options.tankLength > columnWidth, got ${a}, ${g}, ${tankLength}`,
    );
  }
  const scale = Math.sqrt(2 * g / a);
  const run = samples.map((s) => [s.time * scale, s.frontX / a] as const);
  const points: SurgeFrontPoint[] = [];
  for (const [T, zExperiment] of MARTIN_MOYCE_SURGE_FRONT) {
    if (zExperiment > tankLength / a - 1) continue;
    const k = run.findIndex(([t]) => t >= T);
    if (k < 0 || (k === 0 && run[0][0] > T)) continue;
    const [t1, z1] = run[k];
    const [t0, z0] = k > 0 ? run[k - 1] : run[k];
    const zRun = t1 > t0 ? z0 + (z1 - z0) * (T - t0) / (t1 - t0) : z1;
    points.push({ T, zExperiment, zRun, error: (zRun - zExperiment) / zExperiment });
  }
  const errors = points.map((p) => Math.abs(p.error));
  return {
    points,
    maxError: errors.length ? Math.max(...errors) : NaN,
    meanError: errors.length ? errors.reduce((s, e) => s + e, 0) / errors.length : NaN,
  };
}
