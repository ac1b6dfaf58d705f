/**
 * A case's summary metrics (docs/design.md "Metrics") from its time series, and the mapping of the
 * engine's timed phases onto the phases of the paper's Table I.
 *
 * @module
 */
import type { Phase } from "../gpu/engine.ts";
import type { MetricsSample } from "../gpu/metrics/metrics.ts";
import { compareColumnHeight, compareSurgeFront } from "../core/martin_moyce.ts";
import { BUDGET_ENERGY_PHASES, type BudgetField } from "../gpu/metrics/step_budget.ts";

/** Table I phases, each the sum of the engine phases it covers. */
export const TABLE_I_PHASES: Readonly<Record<string, readonly Phase[]>> = {
  neighborSearch: ["neighborSearch"],
  collisionDetection: ["collisionDetection"],
  merging: ["merging1", "merging2"],
  integrationStage1: ["integration1"],
  integrationStage2: ["integration2"],
  splitting: ["splitting1", "splitting2", "endOfStep"],
  metrics: ["metrics"],
};

/** Summary metrics of a case (definitions in gpu/metrics/metrics.ts). */
export interface CaseMetrics {
  /** Fluid particles on the other side of the cloth at the end. */
  passThrough: number;
  /** The most at any sample. */
  passThroughMax: number;
  /**
   * `passThroughMax` over the particles that can cross a sheet (those of the bodies that are not
   * cloth): the leak as a fraction, which the claims compare with a threshold; 0 without cloth.
   */
  passThroughFraction: number;
  deepOverlaps: number;
  /** Max penetration depth over the run, in radii. */
  maxPenetrationDepth: number;
  /** Max speed over the run / the scene's reference speed. */
  maxSpeedRatio: number;
  /**
   * The fastest particle flung at any sample (`flungSpeed`: at least half of its speed gained from
   * a force other than gravity since the previous sample; free fall never counts) / the scene's
   * reference speed: the speed spike of the one definition of instability
   * (`reports/claims/case_status.ts`). Absent from records made before it.
   */
  flungSpeedRatio: number;
  /** Max upward speed of any fluid particle over the run (m/s): one droplet suffices. */
  maxRebound: number;
  /**
   * The fluid's net upward velocity Σ m v_y / Σ m at its most over the samples, at least 0 (m/s):
   * the fluid as a whole thrown back (`fluidUpVelocity` of gpu/metrics/metrics.ts).
   */
  fluidRebound: number;
  /**
   * Scenes with fluid: how high the fluid jumps back after impact (m, {@link reboundHeight} of the
   * `fluidHeight` column, its centre of mass): Fig. 10's "causing the fluid to jump back slightly
   * higher after impact" (claim h).
   */
  fluidReboundHeight?: number;
  /** The scene's reference speed (m/s): the CFL speed that `maxSpeedRatio` divides by. */
  referenceSpeed: number;
  /** (kinetic + potential + elastic) at the end / at the first sample. */
  energyRatio: number;
  /**
   * That energy at the first and the last sample (J), the potential energy measured from the
   * scene's floor (its lowest particle at the start).
   */
  energyStart: number;
  energyEnd: number;
  nanCount: number;
  /** NaN/Inf appeared, or the max speed exceeded 10× the reference speed. */
  exploded: boolean;
  /** Time (s) of the first sample that blew up ({@link blewUp}); NaN when none did. */
  blowUpTime: number;
  /**
   * Scenes with fluid: the most fluid particles bouncing back with high velocity (`fastRebound`,
   * moving up faster than `FAST_REBOUND_FRACTION` × the reference speed) at any sample before the
   * blow-up, as a fraction of the fluid particles (Fig. 4's "bouncing back with high velocity").
   */
  fastReboundFraction?: number;
  /**
   * The fragment statistics (as `fragments`, `significantFragments`, `largestFragmentShare`) at the
   * last sample before the blow-up, the end when the run did not blow up: how a solid broke before
   * the numbers stopped meaning anything (Fig. 5's strong forces "crumble" the wall, then blow up).
   */
  fragmentsBeforeBlowUp: number;
  significantFragmentsBeforeBlowUp: number;
  largestFragmentShareBeforeBlowUp: number;
  /**
   * `significantFragments` at the first sample with a broken bond (NaN when nothing broke): 1 when
   * the first fractures are small cracks in a solid still whole (Fig. 8's dam break).
   */
  significantFragmentsAtFirstFracture: number;
  /** Max cloth displacement from rest, in radii. */
  sheetDeflection: number;
  /** The cloth's displacement at the last sample, in radii (the state the run ends in). */
  sheetDeflectionEnd: number;
  /**
   * The cloth's largest and smallest displacement over the samples of the run's second half, in
   * radii: how it stays once the impact is over (Fig. 11's "the rigidification remains permanent").
   */
  sheetDeflectionLateMax: number;
  /** See {@link CaseMetrics.sheetDeflectionLateMax}. */
  sheetDeflectionLateMin: number;
  /**
   * Scenes with cloth: the most cloth particles in one meta-particle at any sample, as a fraction of
   * the cloth particles (`largestSheetGroup`; 0 under handlers that do not merge): how much of the
   * sheet moved as one rigid piece (Fig. 11).
   */
  largestSheetGroupFraction?: number;
  /**
   * Scenes with cloth: the fewest cloth particles in one meta-particle over the samples of the
   * run's second half, as a fraction of the cloth particles: whether the sheet stayed one piece
   * (Fig. 11's "the rigidification remains permanent").
   */
  largestSheetGroupFractionLateMin?: number;
  /**
   * The particle counts the fractions are shares of ({@link SummaryOptions}): the particles that
   * can cross a sheet (`passThroughFraction`), of the cloth (`largestSheetGroupFraction`), of the
   * breakable solids (`largestFragmentShare`, the 1 % of `significantFragments`) and of the fluid
   * (`fastReboundFraction`), so that a reader knows how many particles a share's threshold is
   * (`reports/claims/claim_resolution.ts`).
   */
  crossingParticles?: number;
  /** See {@link CaseMetrics.crossingParticles}. */
  sheetParticles?: number;
  /** See {@link CaseMetrics.crossingParticles}. */
  breakableParticles?: number;
  /** See {@link CaseMetrics.crossingParticles}. */
  fluidParticles?: number;
  /** Worst relative momentum / energy error of any split. */
  momentumError: number;
  energyError: number;
  /** Marked pairs merged in stage 2, meta-particles formed, largest meta-particle. */
  stage2Pairs: number;
  groups: number;
  largestGroup: number;
  /** Broken bonds at the end, and as a fraction of the breakable bonds (0 when none). */
  brokenBonds: number;
  brokenFraction: number;
  /** Time (s) of the first sample with a broken bond; NaN when nothing broke. */
  firstFracture: number;
  /** Most particles more than half inside another solid body at any sample, and the deepest (r). */
  solidInside: number;
  maxSolidPenetration: number;
  /**
   * Fragments of the breakable solid bodies at the end (components of intact bonds; an unbreakable
   * projectile is none), the largest one's size.
   */
  fragments: number;
  largestFragment: number;
  /**
   * Fragments at the end holding at least 1 % of the breakable bodies' particles
   * (`significantFragments`, `gpu/metrics/metrics.ts` SIGNIFICANT_FRAGMENT_SHARE), and the largest
   * one's share of them (0 without a breakable body).
   */
  significantFragments: number;
  largestFragmentShare: number;
  /** `solidInside` at its most over the samples before the first broken bond (all if none broke). */
  solidInsideBeforeFracture: number;
  /**
   * Scenes with fluid: the largest compression error (ρ/ρ0 − 1) of any particle at any sample, the
   * largest mean over the particles at any sample, and the relative volume change at the end
   * (`gpu/metrics/fluid_metrics.ts`).
   */
  densityErrorMax?: number;
  densityErrorMean?: number;
  volumeChange?: number;
  /** Dam-break scenes: the column width a (m) and |g| (m/s²), to scale frontX and columnHeight. */
  columnWidth?: number;
  gravity?: number;
  /** Dam-break scenes: the tank's length from the back wall (m). */
  tankLength?: number;
  /**
   * Dam-break scenes: the largest and the mean |relative error| of the surge front against Martin &
   * Moyce's at the experiment's points inside the run (`core/martin_moyce.ts`; NaN when none).
   */
  surgeFrontError?: number;
  surgeFrontErrorMean?: number;
  /**
   * Dam-break scenes: the same for the residual column's height against Martin & Moyce's, at the
   * experiment's points inside the run where its column is at least `COLUMN_HEIGHT_MIN_RADII`
   * particle radii high (`core/martin_moyce.ts`; NaN when none).
   */
  columnHeightError?: number;
  columnHeightErrorMean?: number;
  /**
   * The whole-step budget (`gpu/metrics/step_budget.ts`) over the budget steps (the steps that end
   * with a sample): how many were measured; per phase the mean energy change per step (J,
   * `<column>Mean`); the worst momentum change of merging, splitting and the end of the step, and
   * the handler's impulse that does not cancel, each relative to `budgetMomentumScale`
   * (`<column>Max`).
   */
  budgetSteps: number;
  budgetMergeMomentumMax: number;
  budgetSplitMomentumMax: number;
  budgetEndMomentumMax: number;
  budgetHandlerImpulseMax: number;
  /** The worst fraction of the handler's forces that did not cancel (`budgetHandlerImbalance`). */
  budgetHandlerImbalanceMax: number;
  budgetMergeEnergyMean: number;
  budgetPinEnergyMean: number;
  budgetIntegrationEnergyMean: number;
  budgetCouplingEnergyMean: number;
  budgetWallEnergyMean: number;
  budgetSplitEnergyMean: number;
  budgetEndEnergyMean: number;
  budgetStepEnergyMean: number;
}

/** The budget's momentum terms summarised as their worst value relative to the scale. */
const BUDGET_MOMENTUM = [
  "budgetMergeMomentum",
  "budgetSplitMomentum",
  "budgetEndMomentum",
  "budgetHandlerImpulse",
] as const;

/** The budget's summary fields from the rows of the budget steps (those with a momentum scale). */
function summariseBudget(series: readonly MetricsSample[]) {
  const rows = series.filter((r) => r.budgetMomentumScale > 0);
  const mean = (f: BudgetField) =>
    rows.length ? rows.reduce((s, r) => s + r[f], 0) / rows.length : 0;
  const worst = (f: BudgetField) =>
    rows.reduce((m, r) => Math.max(m, r[f] / r.budgetMomentumScale), 0);
  return {
    budgetSteps: rows.length,
    ...Object.fromEntries(BUDGET_MOMENTUM.map((f) => [`${f}Max`, worst(f)])),
    budgetHandlerImbalanceMax: rows.reduce((m, r) => Math.max(m, r.budgetHandlerImbalance), 0),
    ...Object.fromEntries(
      [...BUDGET_ENERGY_PHASES, "budgetStepEnergy" as const].map((f) => [`${f}Mean`, mean(f)]),
    ),
  } as Pick<
    CaseMetrics,
    | "budgetSteps"
    | "budgetHandlerImbalanceMax"
    | `${typeof BUDGET_MOMENTUM[number]}Max`
    | `${typeof BUDGET_ENERGY_PHASES[number] | "budgetStepEnergy"}Mean`
  >;
}

/** What the summary needs from the scene besides the series. */
export interface SummaryOptions {
  /** The scene's reference speed (m/s): max speeds are reported relative to it. */
  referenceSpeed: number;
  /** Breakable bonds of the scene (the broken fraction's denominator). */
  breakableBonds?: number;
  /** Particles that can cross a sheet (of the non-cloth bodies): the leak fraction's denominator. */
  crossingParticles?: number;
  /** Cloth particles: the denominator of `largestSheetGroupFraction` (absent or 0: no cloth). */
  sheetParticles?: number;
  /**
   * Particles of the breakable solid bodies (the fragments' members): the denominator of
   * `largestFragmentShare` (0: none).
   */
  breakableParticles?: number;
  /** Whether the scene has fluid: the fluid-validity fields are added. */
  fluid?: boolean;
  /** Fluid particles: the denominator of `fastReboundFraction` (absent or 0: no fluid). */
  fluidParticles?: number;
  /**
   * Dam-break scenes: column width a (m), |g| (m/s²) and the tank's length from the back wall (m),
   * recorded in the summary with the surge front's and the column's errors against Martin & Moyce;
   * the particle radius (m), which sets the column heights the comparison can judge.
   */
  damBreak?: { columnWidth: number; gravity: number; tankLength: number; radius: number };
}

/** The dam-break fields of a summary: the scene's scales, the surge front's and column's errors. */
function damBreakSummary(
  series: readonly MetricsSample[],
  damBreak: NonNullable<SummaryOptions["damBreak"]>,
): Pick<
  CaseMetrics,
  | "columnWidth"
  | "gravity"
  | "tankLength"
  | "surgeFrontError"
  | "surgeFrontErrorMean"
  | "columnHeightError"
  | "columnHeightErrorMean"
> {
  const { columnWidth, gravity, tankLength } = damBreak;
  const front = compareSurgeFront(series, damBreak);
  const column = compareColumnHeight(series, damBreak);
  return {
    columnWidth,
    gravity,
    tankLength,
    surgeFrontError: front.maxError,
    surgeFrontErrorMean: front.meanError,
    columnHeightError: column.maxError,
    columnHeightErrorMean: column.meanError,
  };
}

/**
 * How high a centre of mass `height` (one value per sample) rises again after its first low point:
 * the first sample followed by a higher one (the impact, for a fluid that falls from rest), and
 * the highest sample after it, minus it; 0 when it never rises. A fluid falling freely loses height
 * at every sample, so no rounding of f32 sums makes a low point before the impact.
 */
export function reboundHeight(height: readonly number[]): number {
  const k = height.findIndex((h, i) => i + 1 < height.length && height[i + 1] > h);
  if (k < 0) return 0;
  return Math.max(...height.slice(k + 1)) - height[k];
}

/** A sample whose speed exceeds this × the reference speed has blown up ({@link blewUp}). */
export const BLOW_UP_SPEED_RATIO = 10;

/**
 * Whether a sample shows the simulation blown up: a NaN or Inf position or velocity, a particle
 * faster than {@link BLOW_UP_SPEED_RATIO} × the reference speed, or an energy that is not finite.
 */
export function blewUp(sample: MetricsSample, referenceSpeed: number): boolean {
  const energy = sample.kinetic + sample.potential + sample.elastic;
  return sample.nanCount > 0 || !(sample.maxSpeed <= BLOW_UP_SPEED_RATIO * referenceSpeed) ||
    !Number.isFinite(energy);
}

/** The summary fields read before the blow-up (every sample when none blew up). */
function beforeBlowUp(
  series: readonly MetricsSample[],
  options: SummaryOptions,
): Pick<
  CaseMetrics,
  | "blowUpTime"
  | "fastReboundFraction"
  | "fragmentsBeforeBlowUp"
  | "significantFragmentsBeforeBlowUp"
  | "largestFragmentShareBeforeBlowUp"
> {
  const k = series.findIndex((r) => blewUp(r, options.referenceSpeed));
  const sound = k < 0 ? series : series.slice(0, k);
  const last = sound.at(-1);
  const fastMost = sound.reduce((m, r) => Math.max(m, r.fastRebound ?? 0), 0);
  return {
    blowUpTime: k < 0 ? NaN : series[k].time,
    ...(options.fluidParticles ? { fastReboundFraction: fastMost / options.fluidParticles } : {}),
    fragmentsBeforeBlowUp: last?.fragments ?? 0,
    significantFragmentsBeforeBlowUp: last?.significantFragments ?? 0,
    largestFragmentShareBeforeBlowUp: options.breakableParticles
      ? (last?.largestFragment ?? 0) / options.breakableParticles
      : 0,
  };
}

/** The values of `field` over the samples of the run's second half, NaN left out. */
function secondHalf(series: readonly MetricsSample[], field: keyof MetricsSample): number[] {
  return series.slice(Math.floor(series.length / 2)).map((r) => r[field])
    .filter((v) => !Number.isNaN(v));
}

/** The largest and smallest `field` over the samples of the series' second half (0 when empty). */
function lateRange(
  series: readonly MetricsSample[],
  field: "sheetDeflection",
): { sheetDeflectionLateMax: number; sheetDeflectionLateMin: number } {
  const late = secondHalf(series, field);
  return late.length
    ? { sheetDeflectionLateMax: Math.max(...late), sheetDeflectionLateMin: Math.min(...late) }
    : { sheetDeflectionLateMax: 0, sheetDeflectionLateMin: 0 };
}

/** The least of `field` over the samples of the run's second half (0 without samples). */
function lateMin(series: readonly MetricsSample[], field: keyof MetricsSample): number {
  const late = secondHalf(series, field);
  return late.length ? Math.min(...late) : 0;
}

/** The particle counts of `options` that the summary's fractions are shares of, where given. */
function denominators(
  options: SummaryOptions,
): Pick<
  CaseMetrics,
  "crossingParticles" | "sheetParticles" | "breakableParticles" | "fluidParticles"
> {
  const out: Record<string, number> = {};
  for (
    const k of [
      "crossingParticles",
      "sheetParticles",
      "breakableParticles",
      "fluidParticles",
    ] as const
  ) {
    if (options[k] !== undefined) out[k] = options[k]!;
  }
  return out;
}

/** Summarises a metrics time series. */
export function summariseMetrics(
  series: readonly MetricsSample[],
  options: SummaryOptions,
): CaseMetrics {
  const max = (f: keyof MetricsSample) =>
    series.reduce((m, r) => (Number.isNaN(r[f]) ? m : Math.max(m, r[f])), 0);
  const last = series.at(-1);
  const first = series[0];
  const energy = (r: MetricsSample) => r.kinetic + r.potential + r.elastic;
  const maxSpeedRatio = max("maxSpeed") / options.referenceSpeed;
  const nanCount = max("nanCount");
  return {
    passThrough: last?.passThrough ?? 0,
    passThroughMax: max("passThrough"),
    passThroughFraction: options.crossingParticles
      ? max("passThrough") / options.crossingParticles
      : 0,
    deepOverlaps: max("deepOverlaps"),
    maxPenetrationDepth: max("maxPenetrationDepth"),
    maxSpeedRatio,
    flungSpeedRatio: max("flungSpeed") / options.referenceSpeed,
    maxRebound: max("maxRebound"),
    fluidRebound: max("fluidUpVelocity"),
    referenceSpeed: options.referenceSpeed,
    energyRatio: first && last ? energy(last) / energy(first) : NaN,
    energyStart: first ? energy(first) : NaN,
    energyEnd: last ? energy(last) : NaN,
    nanCount,
    exploded: series.some((r) => blewUp(r, options.referenceSpeed)),
    ...beforeBlowUp(series, options),
    sheetDeflection: max("sheetDeflection"),
    sheetDeflectionEnd: last?.sheetDeflection ?? 0,
    ...lateRange(series, "sheetDeflection"),
    ...(options.sheetParticles
      ? {
        largestSheetGroupFraction: max("largestSheetGroup") / options.sheetParticles,
        largestSheetGroupFractionLateMin: lateMin(series, "largestSheetGroup") /
          options.sheetParticles,
      }
      : {}),
    ...denominators(options),
    momentumError: last?.momentumError ?? 0,
    energyError: last?.energyError ?? 0,
    stage2Pairs: last?.stage2Pairs ?? 0,
    groups: last?.groups ?? 0,
    largestGroup: last?.largestGroup ?? 0,
    brokenBonds: last?.brokenBonds ?? 0,
    brokenFraction: options.breakableBonds ? (last?.brokenBonds ?? 0) / options.breakableBonds : 0,
    firstFracture: series.find((r) => r.brokenBonds > 0)?.time ?? NaN,
    significantFragmentsAtFirstFracture: series.find((r) => r.brokenBonds > 0)
      ?.significantFragments ?? NaN,
    solidInside: max("solidInside"),
    fragments: last?.fragments ?? 0,
    largestFragment: last?.largestFragment ?? 0,
    significantFragments: last?.significantFragments ?? 0,
    largestFragmentShare: options.breakableParticles
      ? (last?.largestFragment ?? 0) / options.breakableParticles
      : 0,
    solidInsideBeforeFracture: series.filter((r) => !(r.brokenBonds > 0)).reduce(
      (m, r) => Math.max(m, r.solidInside),
      0,
    ),
    maxSolidPenetration: max("maxSolidPenetration"),
    ...(options.fluid
      ? {
        fluidReboundHeight: reboundHeight(series.map((r) => r.fluidHeight)),
        densityErrorMax: max("densityErrorMax"),
        densityErrorMean: max("densityErrorMean"),
        volumeChange: last?.volumeChange ?? 0,
      }
      : {}),
    ...(options.damBreak ? damBreakSummary(series, options.damBreak) : {}),
    ...summariseBudget(series),
  };
}
