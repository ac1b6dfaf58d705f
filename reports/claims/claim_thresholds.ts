/**
 * The claims' thresholds and the scenes they read, each a named constant fixed before running with
 * its reason in {@link CLAIM_THRESHOLDS} (docs/claims.md's table, which a test keeps equal to it).
 *
 * @module
 */
import { ENERGY_GAIN_MAX, LEAK_FRACTION_MIN, SPEED_SPIKE_RATIO } from "./case_status.ts";

import { MERGE_SPLIT_SHARE_MAX, STAGE2_SHARE_MIN } from "./timing_claims.ts";
import { FAST_REBOUND_FRACTION } from "../../core/result.ts";

/** The Fig. 4 scene: a fast fluid column hitting a pinned cloth. */
export const FIG4_SCENE = "fig4-fluid-cloth";
/**
 * Fig. 4: strong forces fling fluid back when at least this fraction of the fluid bounces back
 * with high velocity (`fastReboundFraction`: up faster than {@link FAST_REBOUND_FRACTION} × the
 * reference speed) at one sample before any blow-up.
 */
export const FAST_REBOUND_SHARE_MIN = 0.005;
export { FAST_REBOUND_FRACTION };
/** Largest relative momentum error across merge/split that counts as conserved. */
export const MOMENTUM_ERROR_MAX = 1e-5;
/** Largest relative energy error across merge/split that counts as conserved. */
export const ENERGY_ERROR_MAX = 1e-4;
/**
 * Fig. 10: "causing the fluid to jump back slightly higher after impact": full energy conservation's
 * rebound (`fluidReboundHeight`, m) exceeds none's by more than this: 0.1 mm, a hundredth of a
 * particle radius at `small`, far above the f32 round-off of a centre of mass (set before any run
 * of it).
 */
export const REBOUND_HEIGHT_MARGIN = 1e-4;
/** Fig. 10's scenes: no energy conservation (α = β = 0), merging's (α = 1, β = 0), full (α = β = 1). */
export const FIG10_SCENES = {
  none: "fig10-alpha-beta-00",
  merging: "fig10-alpha-beta-10",
  full: "fig10-alpha-beta-11",
} as const;
/**
 * The fewest particles of a body that a claim's threshold, where it is a share of that body, must
 * amount to for the claim to be judged at a scale (`claim_resolution.ts`); below it the claim is
 * "too coarse at this scale". Set before any run of it.
 */
export const RESOLUTION_MIN_PARTICLES = 10;
/**
 * Fig. 11's premise, "a single meta-particle" of "the entire cloth": the largest meta-particle holds
 * at least this share of the cloth (`largestSheetGroupFraction`; and, for the rigidification to
 * remain permanent, over the whole second half of the run: `largestSheetGroupFractionLateMin`).
 * "Entire" read with a tenth for the sheet's border and pinned particles. Set before any run of it.
 */
export const SHEET_SPAN_MIN = 0.9;
/** Fig. 11: "rigidified" means the unlimited case deflects less than this fraction of 8–16's. */
export const RIGIDIFY_FACTOR = 0.8;

/** The Fig. 3 scenes (ball dropped from two heights onto the cloth). */
export const FIG3_SCENES = ["fig3-ball-cloth-low", "fig3-ball-cloth-high"] as const;
/**
 * Fig. 8: a solid that broke is, before any blow-up, in at least this many fragments of ≥ 1 % of it
 * (`significantFragmentsBeforeBlowUp`): a break makes two pieces; dust makes none.
 */
export const BROKEN_PIECES_MIN = 2;
/**
 * Fig. 5: a wall broken "into pieces" ends in at least this many fragments of 1 % of the wall or
 * more (`significantFragments`): several pieces, not one crack.
 */
export const PIECES_MIN = 3;
/**
 * Fig. 5: the largest fragment's share of the wall (`largestFragmentShare`) that separates pieces
 * (at least this) from a wall pulverised into tiny ones (below it).
 */
export const PIECE_SHARE_MIN = 0.1;
/**
 * The worst compression of an SPH fluid (`densityErrorMax`: max(ρ_i/ρ0 − 1, 0) of its worst
 * particle at any sample) that still counts as near-incompressible (claim x).
 */
export const SPH_DENSITY_ERROR_MAX = 0.03;
/** The largest |volume change| of a FLIP fluid at the end of a run (`volumeChange`; claim x2). */
export const FLIP_VOLUME_DRIFT_MAX = 0.02;
/** The dam-break scenes, validated against Martin & Moyce 1952 (claim w). */
export const DAM_BREAK_SCENES = ["dam-break-sph", "dam-break-flip"] as const;
/**
 * The largest |relative error| of a dam break's surge front against Martin & Moyce's at any of the
 * experiment's points inside the run (`surgeFrontError`) that still counts as following it.
 */
export const SURGE_FRONT_ERROR_MAX = 0.05;
/**
 * The largest |relative error| of a dam break's residual column against Martin & Moyce's at any of
 * the experiment's points judged (`columnHeightError`: inside the run, the column at least
 * `COLUMN_HEIGHT_MIN_RADII` particle radii high) that still counts as following it.
 */
export const COLUMN_HEIGHT_ERROR_MAX = 0.05;
/** The Fig. 8 scenes: the cloth holding tori, the dam break against a wall, the bowl. */
export const FIG8_SCENES = {
  cloth: "fig8-cloth-tori",
  wall: "fig8-dam-break-wall",
  bowl: "fig8-bowl",
} as const;
/** The Fig. 5 scene (a dense ball hits a brittle wall). */
export const FIG5_SCENE = "fig5-wall";
/**
 * The real brittle material of claims p3 and u3: the id suffix `deno task scene --material ice`
 * gives its scenes (`fig5-wall-ice`, `fig8-dam-break-wall-ice`; `scenes/brittle_materials.ts`), and
 * the `fidelity` plan of `deno task gpu-check` runs them. Claims set before any run of them at
 * `small`, with p2's and u2's thresholds.
 */
export const REAL_MATERIAL = "ice";
/** A sweep claim needs at least this many swept values run at each of the cases it compares. */
export const SWEEP_VALUES_MIN = 3;
/** "Needs a much smaller time step": merge-split's largest stable dt at least this × a baseline's. */
export const DT_FACTOR = 10;
/** The force-based handler families whose stiffness and time-step sweeps the claims read. */
export const FORCE_FAMILIES = ["penalty", "kernel-repulsion"] as const;
/**
 * §3: the order of merging "does not affect" the velocities after splitting when the largest
 * difference the merge-order probe finds (`mergeOrderSpread`, over the reference speed) is at most
 * this: the f32 bound the GPU's splits are held to against the f64 reference (2e-4 on unit speeds,
 * `gpu/handlers/merge-split/merge_split_test.ts`).
 */
export const MERGE_ORDER_SPREAD_MAX = 2e-4;
/** The Fig. 7 scenes (mass ratios 1, 10, 100). */
export const FIG7_SCENES = ["fig7-mass-1", "fig7-mass-10", "fig7-mass-100"] as const;

/** The id of the paper's method. */
export const MERGE_SPLIT = "merge-split";
/** Fig. 11's claims: where their cases run, and the sheet's largest rigid piece beside them. */
export const FIG11_CLAIM = {
  hint: "they run with --suite fig11",
  also: { metric: "largestSheetGroupFraction", label: "sheet in its largest meta-particle" },
} as const;
/** Fig. 11's limits between 8 and 64 that the paper finds similar (claim j2). */
export const FIG11_SIMILAR = [
  "fig11-nlimit-8-16",
  "fig11-nlimit-16-32",
  "fig11-nlimit-32-64",
] as const;
/** The SPH-based coupling of the literature (Akinci et al. 2012), one level as published. */
export const AKINCI = "akinci";

/** A claim threshold: its constant, value, unit and why it is what it is. */
export interface ClaimThreshold {
  name: string;
  value: number;
  unit: string;
  claims: string;
  reason: string;
}

/**
 * The claims that judge stability by the one definition (`instability` in `case_status.ts`): an
 * unstable run is a verdict, against merge-split as against a baseline.
 */
export const STABILITY_CLAIMS =
  "a, a2, a3, g, h, i, j, j2, k, k2, m, m2, n, o, p2, p3, q, q2, t, t2, u2, u3, w, w2";

/** Every threshold of the claims, with its reason (docs/claims.md's table is this, checked by a test). */
export const CLAIM_THRESHOLDS: readonly ClaimThreshold[] = [
  {
    name: "RESOLUTION_MIN_PARTICLES",
    value: RESOLUTION_MIN_PARTICLES,
    unit: "particles of the body a share-threshold reads",
    claims: "i, j2, p, p2, p3, p4, t2, u, u2, u3, v",
    reason:
      "a verdict is read where its threshold is many particles: below ten, one or two particles (a seed, an adapter's rounding) decide it, and a share of 1 % of a 52-particle bowl is any particle; the claim then says too coarse at this scale (set before any run of it)",
  },
  {
    name: "SHEET_SPAN_MIN",
    value: SHEET_SPAN_MIN,
    unit: "of the cloth in the largest meta-particle",
    claims: "j, j3",
    reason:
      'Fig. 11\'s premise, "a single meta-particle" of "the entire cloth", with a tenth for the border and pinned particles; j needs it at some sample, j3 ("permanent") over the whole second half; otherwise premise not reached (set before any run of it)',
  },
  {
    name: "LEAK_FRACTION_MIN",
    value: LEAK_FRACTION_MIN,
    unit: "of the particles that can cross",
    claims: "a2, b, c, d, e2, i, j2, k, l, l2, l3, n, q, q2, t2",
    reason:
      "one definition of a leak for every handler, merge-split included: a visible amount, above the one or two particles that cross at a sheet's edge or between two samples and flip with the seed and the adapter (merge-split: 0–2 of fig7-mass-100's 552 ball particles, 0.36 %; 2–11 of fig11's 33,640 at `medium`, found since to come round the cloth's edge, which the pass-through metric no longer counts); 0.5 % is 6 of fig4's 1,200 fluid particles at `small`",
  },
  {
    name: "FAST_REBOUND_FRACTION",
    value: FAST_REBOUND_FRACTION,
    unit: "× the reference speed, upward",
    claims: "e, e2",
    reason:
      'a fluid particle "bouncing back with high velocity": the reference speed is 1.2× the impact speed, so 0.6 of the speed it fell at, where fluid hitting a sheet keeps almost none (set before any run of it)',
  },
  {
    name: "FAST_REBOUND_SHARE_MIN",
    value: FAST_REBOUND_SHARE_MIN,
    unit: "of the fluid, at one sample",
    claims: "e, e2",
    reason:
      "fluid particles, not one droplet: the leak's visible amount (LEAK_FRACTION_MIN), 6 of fig4's 1,200 fluid particles at `small` (set before any run of it)",
  },
  {
    name: "SPEED_SPIKE_RATIO",
    value: SPEED_SPIKE_RATIO,
    unit: "× the reference speed",
    claims: STABILITY_CLAIMS,
    reason:
      '"highly unstable" short of a blow-up: a particle flung at 2.4× the fastest impact, which no passive collision gives it (set before any run of it; a blow-up is 10×, NaN or Inf). It reads only particles flung (flungSpeedRatio: at least half of the speed gained from forces other than gravity within one sample interval, so free fall after passing through never counts) and is part of the one definition of instability every handler faces, merge-split in a, g, k, n as the baselines in m, m2 (the flung reading set before any run of it)',
  },
  {
    name: "MERGE_ORDER_SPREAD_MAX",
    value: MERGE_ORDER_SPREAD_MAX,
    unit: "× the reference speed",
    claims: "z",
    reason:
      '"does not affect the outcome": a difference within f32 round-off, the bound the GPU\'s splits are held to against the f64 reference (2e-4 on unit speeds); the probe itself is f64 (set before the claim was judged)',
  },
  {
    name: "MOMENTUM_ERROR_MAX",
    value: MOMENTUM_ERROR_MAX,
    unit: "relative",
    claims: "f",
    reason: "Eqs. 8–16 conserve momentum exactly; f32 round-off of sums of a few hundred terms",
  },
  {
    name: "ENERGY_ERROR_MAX",
    value: ENERGY_ERROR_MAX,
    unit: "relative",
    claims: "f",
    reason: "as momentum, with squares of velocities (one more rounding per term)",
  },
  {
    name: "ENERGY_GAIN_MAX",
    value: ENERGY_GAIN_MAX,
    unit: "relative",
    claims: STABILITY_CLAIMS,
    reason:
      "a passive scene only loses energy to damping; a 5 % gain is instability, orders above round-off",
  },
  {
    name: "REBOUND_HEIGHT_MARGIN",
    value: REBOUND_HEIGHT_MARGIN,
    unit: "m, rebound height",
    claims: "h",
    reason:
      '"jump back slightly higher": any rise one can tell from round-off; 0.1 mm is a hundredth of a particle radius at `small` and orders above the f32 error of a centre of mass (set before any run of it; the earlier h read an energy ratio with a margin set after a run had been seen)',
  },
  {
    name: "RIGIDIFY_FACTOR",
    value: RIGIDIFY_FACTOR,
    unit: "× 8–16's deflection",
    claims: "j, j2, j3",
    reason:
      "rigidified means a deflection visibly smaller: 20 % less (j at the end; j3, permanent, at every sample of the run's second half against 8–16's smallest there, set before any run of it); similar (j2) is its complement, every deflection within 20 % of the largest",
  },
  {
    name: "SWEEP_VALUES_MIN",
    value: SWEEP_VALUES_MIN,
    unit: "swept values",
    claims: "r, s",
    reason:
      'a window needs values below, inside and above it; with fewer, "no value works at both" says little',
  },
  {
    name: "DT_FACTOR",
    value: DT_FACTOR,
    unit: "× a baseline's largest stable dt",
    claims: "s",
    reason:
      "an order of magnitude, the spacing of the stiffness levels; the paper's penalty fracture needs a dt of about 1e-7 s (§6.1)",
  },
  {
    name: "BROKEN_PIECES_MIN",
    value: BROKEN_PIECES_MIN,
    unit: "fragments of ≥ 1 % before any blow-up",
    claims: "p4, u, v",
    reason:
      "a solid that broke is in pieces: one break makes two fragments of ≥ 1 %; dust makes none (set before any run of it)",
  },
  {
    name: "PIECES_MIN",
    value: PIECES_MIN,
    unit: "fragments of ≥ 1 % of the wall",
    claims: "p2, p3, u2, u3",
    reason: "several pieces, not one crack: a crack makes two, pieces make at least three",
  },
  {
    name: "PIECE_SHARE_MIN",
    value: PIECE_SHARE_MIN,
    unit: "largest fragment / wall",
    claims: "p, p2, p3, u2, u3",
    reason:
      "a wall in pieces keeps a piece of a tenth of it; pulverised, its largest fragment holds less (Fig. 5: 'crumbles into tiny pieces')",
  },
  {
    name: "SURGE_FRONT_ERROR_MAX",
    value: SURGE_FRONT_ERROR_MAX,
    unit: "front error, relative, absolute value",
    claims: "w",
    reason:
      "the validation target of the fluid systems, fixed before the comparison was built; Martin & Moyce's own two n² = 2 columns (a = 1.125 and 2.25 in) differ from each other by 1–6 % at the same T",
  },
  {
    name: "COLUMN_HEIGHT_ERROR_MAX",
    value: COLUMN_HEIGHT_ERROR_MAX,
    unit: "column height error, relative, absolute value",
    claims: "w2",
    reason:
      "the front's target, set for the residual column too before the comparison was built; judged only where the experiment's column is at least 20 particle radii high, so that one radius, the free surface's uncertainty, is at most 5 % of it",
  },
  {
    name: "SPH_DENSITY_ERROR_MAX",
    value: SPH_DENSITY_ERROR_MAX,
    unit: "worst particle's compression, relative",
    claims: "x",
    reason:
      "the target for the SPH fluid, set before the claim was built: weakly compressible SPH aims at about 1 % (Becker & Teschner 2007), 3 % leaves room for single particles at an impact",
  },
  {
    name: "FLIP_VOLUME_DRIFT_MAX",
    value: FLIP_VOLUME_DRIFT_MAX,
    unit: "volume change at the end, relative, absolute value",
    claims: "x2",
    reason:
      "the target for the FLIP fluid, set before the claim was built: a drift one would see in a column's height (2 % of a 0.5 m column is 1 cm, about a particle's radius at small)",
  },
  {
    name: "MERGE_SPLIT_SHARE_MAX",
    value: MERGE_SPLIT_SHARE_MAX,
    unit: "of a step (phase medians)",
    claims: "y",
    reason:
      "the paper's own largest share of collision detection + merging + splitting in Table I (Fig. 8 top: (73 + 34 + 0.4) / 1600 ms), computed from the table; §6.3 calls the operations' cost negligible there, so a larger share is not what the paper measured",
  },
  {
    name: "STAGE2_SHARE_MIN",
    value: STAGE2_SHARE_MIN,
    unit: "× stage 1's integration per step",
    claims: "y2",
    reason:
      '"effectively doubles the computation time": stage 2 costs about as much as stage 1 (Table I: 0.73–0.95 of it); half is the midpoint between no second stage and a full one',
  },
];
