/**
 * The dam-break experiment the fluid systems are validated against (Martin & Moyce 1952, "Part IV.
 * An experimental study of the collapse of liquid columns on a rigid horizontal plane", Phil.
 * Trans. R. Soc. Lond. A 244, 312–324): the surge front and the residual column of a collapsing
 * column, and the comparison of a run's (`frontX` and `columnHeight` of the dam-break scenes) with
 * them in the experiment's dimensionless forms: Z = front / a against T = t·√(2g/a), and
 * η = height / 2a against τ = t·√(g/a).
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

/**
 * The residual column of Martin & Moyce's Table 6, the same column (n² = 2, a = 2.25 in): the
 * height of the water at the back wall as [τ = t·√(g/a), η = height / (n²·a) = height / 2a]
 * (tabulated values as given in Ocellaris's dam-break plot script, T. M. Landet,
 * `scripts/plot_dam_break.py`, beside its Table 2 surge front, which lies within 3 % of
 * {@link MARTIN_MOYCE_SURGE_FRONT} between the latter's points). The heights step by about 1/18
 * of the column's 4.5 in: a quarter inch.
 */
export const MARTIN_MOYCE_COLUMN_HEIGHT: readonly (readonly [number, number])[] = [
  [0.56, 0.94],
  [0.77, 0.89],
  [0.93, 0.83],
  [1.08, 0.78],
  [1.28, 0.72],
  [1.46, 0.67],
  [1.66, 0.61],
  [1.84, 0.56],
  [2.0, 0.5],
  [2.21, 0.44],
  [2.45, 0.39],
  [2.7, 0.33],
  [3.06, 0.28],
  [3.44, 0.22],
  [4.2, 0.17],
  [5.25, 0.11],
  [7.4, 0.06],
];

/**
 * A column-height point is judged only where the experiment's column is at least this many particle
 * radii high: a particle model's free surface is uncertain by about one radius, which is then at
 * most 5 % of the height (the validation target), so the point can tell a 5 % error.
 */
export const COLUMN_HEIGHT_MIN_RADII = 20;

/** One experimental point against the run, in the experiment's dimensionless units. */
export interface ExperimentPoint {
  /** The dimensionless time: T = t·√(2g/a) (front) or τ = t·√(g/a) (column height). */
  at: number;
  /** The experiment's value and the run's (linear between the run's samples). */
  experiment: number;
  run: number;
  /** (run − experiment) / experiment. */
  error: number;
}

/** A run's curve against the experiment's. */
export interface ExperimentComparison {
  /** The experimental points judged (see {@link compareSurgeFront}, {@link compareColumnHeight}). */
  points: ExperimentPoint[];
  /** The largest |error| and the mean |error| over them (NaN when there is none). */
  maxError: number;
  meanError: number;
}

/** The dam break's scales: the column width a (m) and |g| (m/s²). */
interface DamBreakScales {
  columnWidth: number;
  gravity: number;
}

function checkScales(name: string, { columnWidth: a, gravity: g }: DamBreakScales): void {
  if (!(a > 0) || !(g > 0)) {
    throw new RangeError(
      `${name}: options.columnWidth and options.gravity must be > 0, got ${a}, ${g}`,
    );
  }
}

/**
 * The run's curve `run` ([at, value], ascending `at`) at each experimental point that lies between
 * its first and last sample and that `judged` keeps, linear between samples.
 */
function compareCurves(
  experiment: readonly (readonly [number, number])[],
  run: readonly (readonly [number, number])[],
  judged: (at: number, value: number) => boolean,
): ExperimentComparison {
  const points: ExperimentPoint[] = [];
  for (const [at, value] of experiment) {
    if (!judged(at, value)) continue;
    const k = run.findIndex(([t]) => t >= at);
    if (k < 0 || (k === 0 && run[0][0] > at)) continue;
    const [t1, z1] = run[k];
    const [t0, z0] = k > 0 ? run[k - 1] : run[k];
    const zRun = t1 > t0 ? z0 + (z1 - z0) * (at - t0) / (t1 - t0) : z1;
    points.push({ at, experiment: value, run: zRun, error: (zRun - value) / value });
  }
  const errors = points.map((p) => Math.abs(p.error));
  return {
    points,
    maxError: errors.length ? Math.max(...errors) : NaN,
    meanError: errors.length ? errors.reduce((s, e) => s + e, 0) / errors.length : NaN,
  };
}

/**
 * Compares a run's front with {@link MARTIN_MOYCE_SURGE_FRONT} at the experiment's times: every
 * point whose T lies between the run's first and last sample and whose Z is at least one column
 * width short of the tank's far wall (there the run's front is stopped by the wall, the
 * experiment's was not).
 */
export function compareSurgeFront(
  samples: readonly { time: number; frontX: number }[],
  options: DamBreakScales & { tankLength: number },
): ExperimentComparison {
  const { columnWidth: a, gravity: g, tankLength } = options;
  checkScales("compareSurgeFront", options);
  if (!(tankLength > a)) {
    throw new RangeError(
      `compareSurgeFront: options.tankLength must be > columnWidth, got ${tankLength} <= ${a}`,
    );
  }
  const scale = Math.sqrt(2 * g / a);
  const run = samples.map((s) => [s.time * scale, s.frontX / a] as const);
  return compareCurves(MARTIN_MOYCE_SURGE_FRONT, run, (_, z) => z <= tankLength / a - 1);
}

/**
 * Compares a run's residual column (`columnHeight`, m) with {@link MARTIN_MOYCE_COLUMN_HEIGHT} at
 * the experiment's times: every point whose τ lies between the run's first and last sample and
 * where the experiment's column is at least {@link COLUMN_HEIGHT_MIN_RADII} particle radii high.
 */
export function compareColumnHeight(
  samples: readonly { time: number; columnHeight: number }[],
  options: DamBreakScales & { radius: number },
): ExperimentComparison {
  const { columnWidth: a, gravity: g, radius } = options;
  checkScales("compareColumnHeight", options);
  if (!(radius > 0)) {
    throw new RangeError(`compareColumnHeight: options.radius must be > 0 (m), got ${radius}`);
  }
  const scale = Math.sqrt(g / a);
  const run = samples.map((s) => [s.time * scale, s.columnHeight / (2 * a)] as const);
  return compareCurves(
    MARTIN_MOYCE_COLUMN_HEIGHT,
    run,
    (_, eta) => eta * 2 * a >= COLUMN_HEIGHT_MIN_RADII * radius,
  );
}
