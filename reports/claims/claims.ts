/**
 * The paper's findings that the suite can test, as data: each claim names its figure, reads the
 * records it needs and says whether the measured values reproduce it. Thresholds are the named
 * constants below, fixed before running with the reason for each in {@link CLAIM_THRESHOLDS} (and
 * the table of docs/claims.md, which a test keeps equal to it). A claim about leaks reads only
 * cases that finished `ok` and did not explode; one about what strong forces do reads unstable
 * runs too, before their blow-up; one whose cases are absent, failed or lack the metric it reads
 * is "not run", with the reason. Claims about stability count instability as an outcome.
 *
 * @module
 */
import { type CaseRecord, FAST_REBOUND_FRACTION } from "../../core/result.ts";
import { COLUMN_HEIGHT_MIN_RADII } from "../../core/martin_moyce.ts";
import { formatNumber } from "../page/format_number.ts";
import {
  caseWorks,
  ENERGY_GAIN_MAX,
  finished,
  instability,
  LEAK_FRACTION_MIN,
  SPEED_SPIKE_RATIO,
  SPIKE_FIELD,
  unstable,
  usable,
} from "./case_status.ts";
import { dtStability, workingWindow } from "./sweep_stats.ts";
import { MERGE_SPLIT_SHARE_MAX, STAGE2_SHARE_MIN, TIMING_CLAIMS } from "./timing_claims.ts";
import { PAPER_SETUP, setupChanges, SETUPS } from "../../core/setups.ts";
import { FIG3_COLUMNS, FIG4_COLUMNS } from "../../core/figure_columns.ts";
import { caseGroupKey } from "../case_key.ts";
import {
  findCase,
  lacking,
  metric,
  missing,
  notFinished,
  notUsable,
  overScenes,
  sweptOnly,
} from "./claim_records.ts";

export { caseWorks, ENERGY_GAIN_MAX, LEAK_FRACTION_MIN, SPEED_SPIKE_RATIO, unstable, usable };

export type { Claim, ClaimResult, ClaimStatus } from "./claim.ts";
import type { Claim, ClaimResult, ClaimStatus } from "./claim.ts";

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
 * of it, issue 57).
 */
export const REBOUND_HEIGHT_MARGIN = 1e-4;
/** Fig. 10's scenes: no energy conservation (α = β = 0), merging's (α = 1, β = 0), full (α = β = 1). */
export const FIG10_SCENES = {
  none: "fig10-alpha-beta-00",
  merging: "fig10-alpha-beta-10",
  full: "fig10-alpha-beta-11",
} as const;
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
 * `small` (issue 24, item 2), with p2's and u2's thresholds.
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

const MERGE_SPLIT = "merge-split";
/** Fig. 11's claims: where their cases run, and the sheet's largest rigid piece beside them. */
const FIG11_CLAIM = {
  hint: "they run with --suite fig11",
  also: { metric: "largestSheetGroupFraction", label: "sheet in its largest meta-particle" },
} as const;
/** Fig. 11's limits between 8 and 64 that the paper finds similar (claim j2). */
const FIG11_SIMILAR = ["fig11-nlimit-8-16", "fig11-nlimit-16-32", "fig11-nlimit-32-64"] as const;
/** The SPH-based coupling of the literature (Akinci et al. 2012), one level as published. */
const AKINCI = "akinci";

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
const STABILITY_CLAIMS =
  "a, a2, a3, g, h, i, j, j2, k, k2, m, m2, n, o, p2, p3, q, q2, t, t2, u2, u3, w, w2";

/** Every threshold of the claims, with its reason (docs/claims.md's table is this, checked by a test). */
export const CLAIM_THRESHOLDS: readonly ClaimThreshold[] = [
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
      '"highly unstable" short of a blow-up: a particle flung at 2.4× the fastest impact, which no passive collision gives it (set before any run of it; a blow-up is 10×, NaN or Inf). Since issue 57 it reads only particles flung (flungSpeedRatio: at least half of the speed gained from forces other than gravity within one sample interval, so free fall after passing through never counts) and is part of the one definition of instability every handler faces, merge-split in a, g, k, n as the baselines in m, m2 (the flung reading set before any run of it)',
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
      '"jump back slightly higher": any rise one can tell from round-off; 0.1 mm is a hundredth of a particle radius at `small` and orders above the f32 error of a centre of mass (set before any run of it, issue 57; the earlier h read an energy ratio with a margin set after a run had been seen)',
  },
  {
    name: "RIGIDIFY_FACTOR",
    value: RIGIDIFY_FACTOR,
    unit: "× 8–16's deflection at the end",
    claims: "j, j2",
    reason:
      "rigidified means a deflection visibly smaller: 20 % less; similar (j2) is its complement, every deflection within 20 % of the largest",
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
      "the front's target, which issue 24 set for the residual column too before the comparison was built; judged only where the experiment's column is at least 20 particle radii high, so that one radius, the free surface's uncertainty, is at most 5 % of it",
  },
  {
    name: "SPH_DENSITY_ERROR_MAX",
    value: SPH_DENSITY_ERROR_MAX,
    unit: "worst particle's compression, relative",
    claims: "x",
    reason:
      "issue 24's target for the SPH fluid, set before the claim was built: weakly compressible SPH aims at about 1 % (Becker & Teschner 2007), 3 % leaves room for single particles at an impact",
  },
  {
    name: "FLIP_VOLUME_DRIFT_MAX",
    value: FLIP_VOLUME_DRIFT_MAX,
    unit: "volume change at the end, relative, absolute value",
    claims: "x2",
    reason:
      "issue 24's target for the FLIP fluid, set before the claim was built: a drift one would see in a column's height (2 % of a 0.5 m column is 1 cm, about a particle's radius at small)",
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

/** The strong-force baselines (Figs. 3–5: "when the force is too strong"). */
const STRONG = ["penalty-strong", "kernel-repulsion-strong"] as const;

/**
 * The strong-force cases of `scene` that ran to their end, ok or unstable (an unstable run is read
 * before its blow-up: `…BeforeBlowUp`), or the "not run" result naming what is missing.
 */
function strongCases(records: readonly CaseRecord[], scene: string): CaseRecord[] | ClaimResult {
  const strong = STRONG.map((h) => findCase(records, scene, h)).filter((r): r is CaseRecord =>
    !!r?.metrics && (r.status === "ok" || r.status === "unstable")
  );
  if (!strong.length) {
    return { status: "not run", measured: `no strong-force case of ${scene} ran to its end` };
  }
  return strong;
}

/** " (blew up at t s)" for a run that blew up, else "". */
function blowUpText(r: CaseRecord): string {
  const t = metric(r, "blowUpTime");
  return Number.isFinite(t) ? ` (blew up at ${formatNumber(t)} s; read before it)` : "";
}

/**
 * Fig. 5 (`scene`): every strong-force case that ran crumbles the wall into tiny pieces: before any
 * blow-up, its largest fragment holds less than {@link PIECE_SHARE_MIN} of the wall.
 */
function strongPulverise(
  records: readonly CaseRecord[],
  scene: string,
): { ok: boolean; measured: string } | ClaimResult {
  const strong = strongCases(records, scene);
  if (!Array.isArray(strong)) return strong;
  const gap = lacking(strong, "largestFragmentShareBeforeBlowUp");
  if (gap) return gap;
  const share = (r: CaseRecord) => metric(r, "largestFragmentShareBeforeBlowUp");
  return {
    ok: strong.every((r) => share(r) < PIECE_SHARE_MIN),
    measured: strong.map((r) =>
      `${r.handler}: largest fragment ${formatNumber(share(r))} of the wall${blowUpText(r)}`
    ).join("; "),
  };
}

/**
 * How a breakable solid ended, by the thresholds of the fracture claims: `in pieces` (at least
 * {@link PIECES_MIN} fragments of ≥ 1 % of it, the largest holding at least {@link PIECE_SHARE_MIN}
 * of it), `pulverised` (its largest fragment holds less than {@link PIECE_SHARE_MIN}), else `not in
 * pieces` (one or two fragments of ≥ 1 %: whole, cracked, or one piece amid dust).
 */
export type FractureReading = "in pieces" | "pulverised" | "not in pieces";

/** The {@link FractureReading} of `pieces` fragments of ≥ 1 %, the largest holding `largestShare`. */
export function fractureReading(pieces: number, largestShare: number): FractureReading {
  if (largestShare < PIECE_SHARE_MIN) return "pulverised";
  return pieces >= PIECES_MIN ? "in pieces" : "not in pieces";
}

/** A solid in pieces, not dust ({@link fractureReading}). */
function isInPieces(pieces: number, largestShare: number): boolean {
  return fractureReading(pieces, largestShare) === "in pieces";
}

/**
 * Fig. 5 (`scene`): merge-split breaks the wall into pieces (at least {@link PIECES_MIN} fragments
 * of ≥ 1 % of it, the largest ≥ {@link PIECE_SHARE_MIN} of it), stable, while every strong-force
 * case that ran pulverises it before any blow-up ({@link strongPulverise}).
 */
function piecesWhileStrongPulverise(
  scene: string,
): (records: readonly CaseRecord[]) => ClaimResult {
  return (records) => {
    const found = findCase(records, scene, MERGE_SPLIT);
    const gap = notFinished([[scene, MERGE_SPLIT]], [found]);
    if (gap) return gap;
    const ms = found!;
    const strong = strongPulverise(records, scene);
    if ("status" in strong) return strong;
    const pieces = metric(ms, "significantFragments");
    const share = metric(ms, "largestFragmentShare");
    if (!Number.isFinite(pieces) || !Number.isFinite(share)) {
      return { status: "not run", measured: "records without fragment statistics" };
    }
    const inPieces = isInPieces(pieces, share) && !unstable(ms);
    return {
      status: inPieces && strong.ok ? "reproduced" : "not reproduced",
      measured: `merge-split: ${formatNumber(pieces)} pieces of ≥ 1 %, largest ${
        formatNumber(share)
      } of the wall${unstable(ms) ? `, unstable (${instability(ms)})` : ""}; ${strong.measured}`,
    };
  };
}

/**
 * Merge-split's case of `scene` when it ran to its end (ok or unstable: instability is an
 * outcome), else the "not run" result naming why (absent, no metrics, failed or timed out).
 */
function finishedMergeSplit(
  records: readonly CaseRecord[],
  scene: string,
): CaseRecord | ClaimResult {
  const r = findCase(records, scene, MERGE_SPLIT);
  const gap = missing([[scene, MERGE_SPLIT]], [r]);
  if (gap) return gap;
  if (r!.status === "failed" || r!.status === "timeout" || r!.status === "gpu-timeout") {
    return { status: "not run", measured: `${scene} × ${MERGE_SPLIT} ended ${r!.status}` };
  }
  return r!;
}

/**
 * Fig. 8: merge-split's case of `scene` breaks its brittle solid: before any blow-up, at least
 * {@link BROKEN_PIECES_MIN} fragments of ≥ 1 % of it (dust is none); with `cracksFirst`, the first
 * broken bond leaves it in one piece (at most one fragment of ≥ 1 %: "small fractures" before the
 * break). A case that failed or timed out is "not run".
 */
function breaksUnderFluid(
  scene: string,
  options: { cracksFirst: boolean },
): (records: readonly CaseRecord[]) => ClaimResult {
  return (records) => {
    const r = finishedMergeSplit(records, scene);
    if ("measured" in r) return r;
    const fields = ["significantFragmentsBeforeBlowUp", "significantFragmentsAtFirstFracture"];
    const gap = lacking([r], fields[0]);
    if (gap) return gap;
    const [pieces, atFirst] = fields.map((f) => metric(r, f));
    const broke = pieces >= BROKEN_PIECES_MIN;
    const cracked = !options.cracksFirst || atFirst <= 1;
    const first = metric(r, "firstFracture");
    return {
      status: broke && cracked ? "reproduced" : "not reproduced",
      measured: `${scene}: ${formatNumber(pieces)} fragments of ≥ 1 %${blowUpText(r)}${
        Number.isFinite(first)
          ? `; first broken bond at ${formatNumber(first)} s, leaving ${
            formatNumber(atFirst)
          } fragment(s) of ≥ 1 %`
          : "; no bond broke"
      }; ${formatNumber(100 * metric(r, "brokenFraction"))} % of bonds broken`,
    };
  };
}

/**
 * A validation against Martin & Moyce: every dam break (`DAM_BREAK_SCENES`, merge-split, which runs
 * as the identity on one body) within `limit` of the experiment's curve at every point judged
 * (`field`: the largest error, `field`Mean the mean); records without the comparison are "not run".
 */
function followsExperiment(
  field: "surgeFrontError" | "columnHeightError",
  what: string,
  limit: number,
): (records: readonly CaseRecord[]) => ClaimResult {
  return (records) => {
    const lines: string[] = [];
    let all = true;
    for (const scene of DAM_BREAK_SCENES) {
      const r = finishedMergeSplit(records, scene);
      if ("measured" in r) return r;
      const old = lacking([r], SPIKE_FIELD);
      if (old) return old;
      const max = metric(r, field), mean = metric(r, `${field}Mean`);
      if (!Number.isFinite(max)) {
        return { status: "not run", measured: `${scene}: no ${what} comparison in its record` };
      }
      all &&= max <= limit && !unstable(r);
      lines.push(
        `${scene}: ${what} within ${formatNumber(100 * max)} % (mean ${
          formatNumber(100 * mean)
        } %)${unstable(r) ? `, unstable (${instability(r)})` : ""}`,
      );
    }
    return { status: all ? "reproduced" : "not reproduced", measured: lines.join("; ") };
  };
}

/**
 * A fluid fidelity target over every merge-split case of a fluid system that finished `ok` (the
 * scenes' own cases, not a sweep's): the worst value of `field` (its absolute value) at most
 * `limit`. `flip` picks the system: records whose solvers include FLIP's pressure projection, or
 * the other fluid cases (SPH, explicit: no solver). "not run" without such a case.
 */
function fluidWithin(
  options: { flip: boolean; field: "densityErrorMax" | "volumeChange"; limit: number },
): (records: readonly CaseRecord[]) => ClaimResult {
  const { flip, field, limit } = options;
  const system = flip ? "FLIP" : "SPH";
  return (records) => {
    const cases = records.filter((r) =>
      r.handler === MERGE_SPLIT && Object.keys(r.sweep ?? {}).length === 0 && usable(r) &&
      r.particles.fluid > 0 && (r.solvers?.flip !== undefined) === flip &&
      Number.isFinite(metric(r, field))
    );
    if (!cases.length) {
      return { status: "not run", measured: `no ${system} case under merge-split finished ok` };
    }
    const value = (r: CaseRecord) => Math.abs(metric(r, field));
    const over = cases.filter((r) => value(r) > limit);
    const worst = cases.reduce((w, r) => (value(r) > value(w) ? r : w));
    const label = (r: CaseRecord) =>
      `${r.scene} ${r.scale}${r.seed === undefined ? "" : ` seed ${r.seed}`} ${
        formatNumber(100 * value(r))
      } %`;
    return {
      status: over.length ? "not reproduced" : "reproduced",
      measured:
        `worst ${label(worst)} of ${cases.length} ${system} case${cases.length > 1 ? "s" : ""}` +
        (over.length ? `; past ${100 * limit} %: ${over.map(label).join(", ")}` : ""),
    };
  };
}

/**
 * Fig. 8 (middle): merge-split's case of `scene` breaks its brittle solid into pieces, not dust: at
 * least {@link PIECES_MIN} fragments of ≥ 1 % of the solid, the largest holding at least
 * {@link PIECE_SHARE_MIN} of it, the run stable ("not run" for a missing case or one that did not
 * finish; records without the fragment statistics are "not run" too).
 */
function breaksIntoPieces(scene: string): (records: readonly CaseRecord[]) => ClaimResult {
  return (records) => {
    const r = finishedMergeSplit(records, scene);
    if ("measured" in r) return r;
    const old = lacking([r], SPIKE_FIELD);
    if (old) return old;
    const pieces = metric(r, "significantFragments");
    const share = metric(r, "largestFragmentShare");
    if (!Number.isFinite(pieces) || !Number.isFinite(share)) {
      return { status: "not run", measured: `${scene}: a record without fragment statistics` };
    }
    const ok = isInPieces(pieces, share) && !unstable(r);
    return {
      status: ok ? "reproduced" : "not reproduced",
      measured: `${scene}: ${formatNumber(pieces)} fragments of ≥ 1 %, the largest ${
        formatNumber(share)
      } of the solid, ${formatNumber(100 * metric(r, "brokenFraction"))} % of bonds broken${
        unstable(r) ? `, unstable (${instability(r)})` : ""
      }`,
    };
  };
}

/**
 * Merge-split does not leak (at most {@link LEAK_FRACTION_MIN} of the particles that can cross,
 * the one definition of a leak) and stays stable by the one definition of instability
 * (`instability`, the baselines' bar in m, m2) on every one of `scenes` that was run (unstable runs
 * count, as failures).
 */
function mergeSplitHoldsOn(
  scenes: readonly string[],
): (records: readonly CaseRecord[]) => ClaimResult {
  return overScenes(scenes, MERGE_SPLIT, (found) => ({
    ok: found.every((r) => metric(r, "passThroughFraction") <= LEAK_FRACTION_MIN && !unstable(r)),
    measured: found.map((r) =>
      `${r.scene}: passThroughMax ${formatNumber(metric(r, "passThroughMax"))} (fraction ${
        formatNumber(metric(r, "passThroughFraction"))
      }), energy ratio ${formatNumber(metric(r, "energyRatio"))}, fastest flung particle ${
        formatNumber(metric(r, SPIKE_FIELD))
      }× v_ref${unstable(r) ? `: unstable (${instability(r)})` : ""}`
    ).join("; "),
  }), { usableOnly: false, fields: ["passThroughFraction", SPIKE_FIELD] });
}

/**
 * Merge-split lets nothing through on every one of `scenes` that was run: no particle on the other
 * side of a sheet at any sample (`passThroughMax` 0: the paper's "completely prevents", with no
 * tolerance), and stable by the one definition; unstable runs count, as failures.
 */
function mergeSplitNoneThrough(
  scenes: readonly string[],
): (records: readonly CaseRecord[]) => ClaimResult {
  return overScenes(scenes, MERGE_SPLIT, (found) => ({
    ok: found.every((r) => metric(r, "passThroughMax") === 0 && !unstable(r)),
    measured: found.map((r) =>
      `${r.scene}: ${formatNumber(metric(r, "passThroughMax"))} through at most${
        unstable(r) ? `; unstable (${instability(r)})` : ", stable"
      }`
    ).join("; "),
  }), { usableOnly: false, fields: ["passThroughMax", SPIKE_FIELD] });
}

/**
 * Whether a run "prevents penetrations without introducing instability", one standard for every
 * method: nothing through at any sample (`passThroughMax` 0) and stable by the one definition.
 */
function prevents(r: CaseRecord): boolean {
  return metric(r, "passThroughMax") === 0 && !unstable(r);
}

/** How a run fares against {@link prevents}, in words. */
function preventsText(r: CaseRecord): string {
  const through = metric(r, "passThroughMax");
  const why = instability(r);
  return `${r.scene} × ${r.handler}: ${formatNumber(through)} through${
    why ? `, unstable (${why})` : ""
  }`;
}

/**
 * A caption's "only our merging-and-splitting approach prevents penetrations without introducing
 * instability": on every one of `scenes`, merge-split {@link prevents}, and every one of
 * `baselines` fails to at one of them at least (a level that works on all is a counterexample).
 * Every case must have run to its end ("not run" naming the missing).
 */
function onlyMergeSplit(
  scenes: readonly string[],
  baselines: readonly string[],
): (records: readonly CaseRecord[]) => ClaimResult {
  return (records) => {
    const needed = scenes.flatMap((scene) =>
      [MERGE_SPLIT, ...baselines].map((h): [string, string] => [scene, h])
    );
    const found = needed.map(([scene, h]) => findCase(records, scene, h));
    const gap = notFinished(needed, found) ?? lacking(found as CaseRecord[], "passThroughMax");
    if (gap) return gap;
    const runs = found as CaseRecord[];
    const ms = runs.filter((r) => r.handler === MERGE_SPLIT);
    const works = baselines.filter((h) => runs.filter((r) => r.handler === h).every(prevents));
    return {
      status: ms.every(prevents) && !works.length ? "reproduced" : "not reproduced",
      measured: `${works.length ? `works on every scene too: ${works.join(", ")}; ` : ""}${
        runs.map(preventsText).join("; ")
      }`,
    };
  };
}

/** Compares one metric of one Fig. 4 case with a threshold. */
function fig4Case(
  handler: string,
  options: { metric: string; test: (v: number) => boolean; unit: string },
): (records: readonly CaseRecord[]) => ClaimResult {
  return (records) => {
    const r = findCase(records, FIG4_SCENE, handler);
    const gap = notUsable([[FIG4_SCENE, handler]], [r]);
    if (gap) return gap;
    const v = metric(r!, options.metric);
    if (Number.isNaN(v)) {
      return { status: "not run", measured: `${handler}: no ${options.metric} in the record` };
    }
    return {
      status: options.test(v) ? "reproduced" : "not reproduced",
      measured: `${handler}: ${options.metric} = ${formatNumber(v)}${options.unit}`,
    };
  };
}

/**
 * "not run" when a finished swept record that `which` picks lacks what the one definition of
 * instability reads (a sweep's "works" and "stable" read it), else null.
 */
function sweptLacking(
  records: readonly CaseRecord[],
  which: (r: CaseRecord) => boolean,
): ClaimResult | null {
  const swept = records.filter((r) => Object.keys(r.sweep ?? {}).length > 0 && finished(r));
  const picked = swept.filter(which);
  return picked.length ? lacking(picked, SPIKE_FIELD) : null;
}

/**
 * "merge-split unstable: …" naming each of `cases` unstable by the one definition, or null: a
 * claim about merge-split's outcome fails on an unstable run, as a baseline's would.
 */
function unstableText(cases: readonly CaseRecord[]): string | null {
  const bad = cases.filter(unstable);
  return bad.length
    ? `merge-split unstable: ${bad.map((r) => `${r.scene} (${instability(r)})`).join(", ")}`
    : null;
}

/**
 * One metric of two merge-split scenes, `test(first, second)`, on cases that ran to their end
 * ("not run" otherwise, naming which, with `hint` on where they run; "not reproduced" when either
 * is unstable); `also` names a metric the measurement reports beside it.
 */
export function twoScenes(
  scenes: [string, string],
  options: {
    metric: string;
    test: (a: number, b: number) => boolean;
    hint?: string;
    also?: { metric: string; label: string };
  },
): (records: readonly CaseRecord[]) => ClaimResult {
  return (records) => {
    const found = scenes.map((s) => findCase(records, s, MERGE_SPLIT));
    const gap = notFinished(scenes.map((s) => [s, MERGE_SPLIT]), found);
    if (gap) return options.hint ? { ...gap, measured: `${gap.measured} (${options.hint})` } : gap;
    const shaky = unstableText(found as CaseRecord[]);
    if (shaky) return { status: "not reproduced", measured: shaky };
    const [a, b] = found.map((r) => metric(r!, options.metric));
    if (Number.isNaN(a) || Number.isNaN(b)) {
      return { status: "not run", measured: `no ${options.metric} in the records` };
    }
    const also = options.also;
    const extra = also
      ? `; ${also.label} ${found.map((r) => formatNumber(metric(r!, also.metric))).join(" vs ")}`
      : "";
    return {
      status: options.test(a, b) ? "reproduced" : "not reproduced",
      measured: `${options.metric}: ${scenes[0]} ${formatNumber(a)} vs ${scenes[1]} ${
        formatNumber(b)
      }${extra}`,
    };
  };
}

/**
 * The claims: (a)–(j) fluid on cloth, (k)–(p) solids, (r), (s) from parameter sweeps, (q) FLIP on
 * cloth, (t)–(v) the coupled scenes of Fig. 8.
 */
export const CLAIMS: readonly Claim[] = [
  {
    id: "a",
    text:
      "Merge-split completely prevents penetration: no fluid particle through the cloth at any sample (0, no tolerance), and the run stable (an unstable run is a verdict against it)",
    paper: "Fig. 4",
    quote: {
      where: "§6.1 (Fig. 4 discussion)",
      quote:
        "Our merging-and-splitting method produces perfect separation between the fluid and the solid systems and completely prevents penetration without introducing instabilities.",
    },
    needs: [{ scene: FIG4_SCENE, handlers: ["merge-split"] }],
    evaluate: mergeSplitNoneThrough([FIG4_SCENE]),
  },
  {
    id: "a2",
    text:
      `As a, with the one leak tolerance: at most ${LEAK_FRACTION_MIN} of the fluid through (LEAK_FRACTION_MIN's reason: one or two particles cross at a sheet's edge or between two samples), stable`,
    paper: "Fig. 4",
    quote: {
      where: "§6.1 (Fig. 4 discussion)",
      quote:
        "Our merging-and-splitting method produces perfect separation between the fluid and the solid systems and completely prevents penetration without introducing instabilities.",
    },
    needs: [{ scene: FIG4_SCENE, handlers: ["merge-split"] }],
    evaluate: mergeSplitHoldsOn([FIG4_SCENE]),
  },
  {
    id: "a3",
    text:
      `Only merge-split prevents penetrations without instability (Fig. 4's caption): it lets nothing through, stable, while every column of the figure (${
        FIG4_COLUMNS.join(", ")
      }) lets a particle through or is unstable, one standard for all`,
    paper: "Fig. 4",
    quote: {
      where: "Fig. 4 (caption)",
      quote:
        "Notice that only our merging-and-splitting approach prevents penetrations without introducing instability.",
    },
    needs: [{ scene: FIG4_SCENE, handlers: [MERGE_SPLIT, ...FIG4_COLUMNS] }],
    evaluate: onlyMergeSplit([FIG4_SCENE], FIG4_COLUMNS),
  },
  ...(["penalty-weak", "impulse", "kernel-repulsion-weak"] as const).map((handler, k): Claim => ({
    id: ["b", "c", "d"][k],
    quote: [{
      where: "§6.1 (Fig. 4 discussion)",
      quote:
        "As can be seen in the figure, penetrations cannot be avoided with weak penalty or SPH-based forces.",
    }, {
      where: "§6.1 (Fig. 4 discussion)",
      quote:
        "Impulse-based collisions cannot prevent penetration either and consistent low-velocity impacts without position correction lead to fluid particles slowly passing through the cloth layer.",
    }, {
      where: "§6.1 (Fig. 4 discussion)",
      quote:
        "As can be seen in the figure, penetrations cannot be avoided with weak penalty or SPH-based forces.",
    }][k],
    needs: [{ scene: FIG4_SCENE, handlers: [handler] }],
    text: `${handler} lets fluid through the cloth (more than ${LEAK_FRACTION_MIN} of it)`,
    paper: "Fig. 4",
    evaluate: fig4Case(handler, {
      metric: "passThroughFraction",
      test: (v) => v > LEAK_FRACTION_MIN,
      unit: ` of the fluid (threshold ${LEAK_FRACTION_MIN})`,
    }),
  })),
  {
    id: "e",
    text:
      `Strong forces fling fluid back fast: under each strong-force baseline run (penalty-strong, kernel-repulsion-strong), at least ${FAST_REBOUND_SHARE_MIN} of the fluid moves up faster than ${FAST_REBOUND_FRACTION} × the reference speed at one sample (before any blow-up)`,
    paper: "Fig. 4",
    quote: {
      where: "§6.1 (Fig. 4 discussion)",
      quote: "Stronger forces lead to fluid particles bouncing back with high velocity.",
    },
    needs: [{ scene: FIG4_SCENE, handlers: ["penalty-strong", "kernel-repulsion-strong"] }],
    evaluate(records) {
      const strong = strongCases(records, FIG4_SCENE);
      if (!Array.isArray(strong)) return strong;
      const gap = lacking(strong, "fastReboundFraction");
      if (gap) return gap;
      const fast = (r: CaseRecord) => metric(r, "fastReboundFraction");
      const ms = findCase(records, FIG4_SCENE, MERGE_SPLIT);
      return {
        status: strong.every((r) => fast(r) >= FAST_REBOUND_SHARE_MIN)
          ? "reproduced"
          : "not reproduced",
        measured: [...strong, ...(ms && Number.isFinite(fast(ms)) ? [ms] : [])].map((r) =>
          `${r.handler}: ${formatNumber(fast(r))} of the fluid rebounding fast at most${
            blowUpText(r)
          }`
        ).join("; "),
      };
    },
  },
  {
    id: "e2",
    text:
      `The SPH-based coupling of the literature (akinci, Akinci et al. 2012) does not give merge-split's outcome: it lets more than ${LEAK_FRACTION_MIN} of the fluid through, flings it back fast (as in e), or blows up`,
    paper: "Fig. 4",
    quote: {
      where: "Fig. 4 caption",
      quote:
        "Notice that only our merging-and-splitting approach prevents penetrations without introducing instability.",
    },
    needs: [{ scene: FIG4_SCENE, handlers: [AKINCI] }],
    evaluate(records) {
      const ak = findCase(records, FIG4_SCENE, AKINCI);
      const gap = missing([[FIG4_SCENE, AKINCI]], [ak]);
      if (gap) return gap;
      const r = ak!;
      if (r.status !== "ok" && r.status !== "unstable") {
        return { status: "not run", measured: `${FIG4_SCENE} × ${AKINCI} ended ${r.status}` };
      }
      const leak = metric(r, "passThroughFraction");
      const fast = metric(r, "fastReboundFraction");
      const blew = r.status === "unstable" || r.metrics?.summary.exploded === true;
      // the rebound is needed only where neither a leak nor a blow-up decides
      const old = leak > LEAK_FRACTION_MIN || blew ? null : lacking([r], "fastReboundFraction");
      if (old) return old;
      return {
        status: leak > LEAK_FRACTION_MIN || fast >= FAST_REBOUND_SHARE_MIN || blew
          ? "reproduced"
          : "not reproduced",
        measured: `akinci: leak fraction ${formatNumber(leak)} (threshold ${LEAK_FRACTION_MIN}); ${
          formatNumber(fast)
        } of the fluid rebounding fast (threshold ${FAST_REBOUND_SHARE_MIN})${
          blew ? `, ${r.status}${blowUpText(r)}` : ""
        }`,
      };
    },
  },
  {
    id: "f",
    text:
      `Merge-split conserves momentum and energy across merge/split (relative errors < ${MOMENTUM_ERROR_MAX} and < ${ENERGY_ERROR_MAX})`,
    paper: "§4 (Eqs. 8–16)",
    quote: {
      where: "§3 (splitting; Fig. 2 discussion)",
      quote:
        "Note that any solution that satisfies Equation 10 conserves both momentum and energy.",
    },
    needs: [{ scene: FIG4_SCENE, handlers: ["merge-split"] }],
    evaluate(records) {
      const ms = records.filter((r) =>
        r.handler === MERGE_SPLIT && r.metrics &&
        Number.isFinite(metric(r, "momentumError")) && Number.isFinite(metric(r, "energyError"))
      );
      if (!ms.length) {
        return {
          status: "not run",
          measured: "no merge-split case with conservation errors in its metrics",
        };
      }
      const worst = (name: string) =>
        ms.reduce<{ v: number; scene: string }>(
          (w, r) => {
            const v = metric(r, name);
            return !(v <= w.v) ? { v, scene: r.scene } : w;
          },
          { v: -Infinity, scene: "" },
        );
      const p = worst("momentumError");
      const e = worst("energyError");
      return {
        status: p.v < MOMENTUM_ERROR_MAX && e.v < ENERGY_ERROR_MAX
          ? "reproduced"
          : "not reproduced",
        measured: `worst momentum error ${formatNumber(p.v)} (${p.scene}), energy error ${
          formatNumber(e.v)
        } (${e.scene}) over ${ms.length} case${ms.length > 1 ? "s" : ""}`,
      };
    },
  },
  {
    id: "g",
    text: "Merge-split stays stable on every scene",
    paper: "§6",
    quote: {
      where: "§1 (summarising the §6 results)",
      quote:
        "Our tests show that our merging-and-splitting scheme completely prevents inter-penetrations without introducing instabilities.",
    },
    needs: [],
    evaluate(records) {
      // the scenes' own cases (not a sweep's) that ran to the end: a failed or timed-out case
      // says nothing about stability
      const own = records.filter((r) =>
        r.handler === MERGE_SPLIT && Object.keys(r.sweep ?? {}).length === 0
      );
      const ms = own.filter((r) => !!r.metrics && (r.status === "ok" || r.status === "unstable"));
      const skipped = own.filter((r) => !ms.includes(r));
      const left = skipped.length
        ? ` (not counted: ${skipped.map((r) => `${r.scene} ${r.status}`).join(", ")})`
        : "";
      if (!ms.length) return { status: "not run", measured: `no merge-split case ran${left}` };
      const old = lacking(ms, SPIKE_FIELD);
      if (old) return old;
      const bad = ms.filter(unstable);
      return {
        status: bad.length ? "not reproduced" : "reproduced",
        measured:
          (bad.length
            ? `${bad.length} of ${ms.length} not stable: ${
              bad.map((r) => `${r.scene} (${instability(r)})`).join(", ")
            }`
            : `${ms.length} of ${ms.length} stable`) + left,
      };
    },
  },
  {
    id: "h",
    text:
      `Full energy conservation (α = β = 1) makes the fluid jump back higher after impact than none (α = β = 0): the rise of its centre of mass after its first low point (fluidReboundHeight) higher by more than ${REBOUND_HEIGHT_MARGIN} m, both runs stable`,
    paper: "Fig. 10",
    quote: {
      where: "§6.4 (Fig. 10 discussion)",
      quote:
        "Notice that energy conservation in this example has a relatively minor impact on the final result, causing the fluid to jump back slightly higher after impact.",
    },
    needs: [{ scene: FIG10_SCENES.full, handlers: [MERGE_SPLIT] }, {
      scene: FIG10_SCENES.none,
      handlers: [MERGE_SPLIT],
    }],
    evaluate: twoScenes(
      [FIG10_SCENES.full, FIG10_SCENES.none],
      { metric: "fluidReboundHeight", test: (a, b) => a > b + REBOUND_HEIGHT_MARGIN },
    ),
  },
  {
    id: "i",
    text:
      `A small meta-particle limit (4–8) lets fluid through (more than ${LEAK_FRACTION_MIN} of it), more than a large one (32–64)`,
    paper: "Fig. 11",
    quote: {
      where: "§6.4 (Fig. 11 discussion)",
      quote:
        "However, when the limit is too small, it prevents properly resolving some collision events, failing to stop some fluid particles to pass through the cloth model (Fig. 11f).",
    },
    needs: [{ scene: "fig11-nlimit-4-8", handlers: ["merge-split"] }, {
      scene: "fig11-nlimit-32-64",
      handlers: ["merge-split"],
    }],
    evaluate: twoScenes(["fig11-nlimit-4-8", "fig11-nlimit-32-64"], {
      metric: "passThroughFraction",
      test: (a, b) => a > LEAK_FRACTION_MIN && a > b,
      ...FIG11_CLAIM,
    }),
  },
  {
    id: "j",
    text:
      `An unlimited meta-particle rigidifies the sheet: its deflection at the end of the run < ${RIGIDIFY_FACTOR} × that with 8–16`,
    paper: "Fig. 11",
    quote: {
      where: "§6.4 (Fig. 11 discussion)",
      quote:
        "Therefore, allowing an unlimited number of particles to merge into a single meta-particle effectively rigidifies the entire cloth, significantly impacting the simulation outcome (Fig. 11b).",
    },
    needs: [{ scene: "fig11-nlimit-inf", handlers: ["merge-split"] }, {
      scene: "fig11-nlimit-8-16",
      handlers: ["merge-split"],
    }],
    evaluate: twoScenes(["fig11-nlimit-inf", "fig11-nlimit-8-16"], {
      metric: "sheetDeflectionEnd",
      test: (a, b) => a < RIGIDIFY_FACTOR * b,
      ...FIG11_CLAIM,
    }),
  },
  {
    id: "j2",
    text:
      `Limits between 8 and 64 give similar results: the sheet's deflection at the end with 8–16, 16–32 and 32–64 each at least ${RIGIDIFY_FACTOR} × the largest of them (the complement of (j)), none leaking (at most ${LEAK_FRACTION_MIN} of the fluid)`,
    paper: "Fig. 11",
    quote: {
      where: "§5.2",
      quote: "We use a number between 8 and 64 in our tests, producing similar results.",
    },
    needs: [{ scene: "fig11-nlimit-8-16", handlers: ["merge-split"] }, {
      scene: "fig11-nlimit-16-32",
      handlers: ["merge-split"],
    }, { scene: "fig11-nlimit-32-64", handlers: ["merge-split"] }],
    evaluate(records) {
      const cases = FIG11_SIMILAR.map((scene) => findCase(records, scene, MERGE_SPLIT));
      const gap = notFinished(FIG11_SIMILAR.map((scene) => [scene, MERGE_SPLIT]), cases);
      if (gap) return { ...gap, measured: `${gap.measured} (${FIG11_CLAIM.hint})` };
      const found = cases as CaseRecord[];
      const shaky = unstableText(found);
      if (shaky) return { status: "not reproduced", measured: shaky };
      const old = lacking(found, "sheetDeflectionEnd") ?? lacking(found, "passThroughFraction");
      if (old) return old;
      const deflection = found.map((r) => metric(r, "sheetDeflectionEnd"));
      const most = Math.max(...deflection);
      const ok = deflection.every((d) => d >= RIGIDIFY_FACTOR * most) &&
        found.every((r) => metric(r, "passThroughFraction") <= LEAK_FRACTION_MIN);
      return {
        status: ok ? "reproduced" : "not reproduced",
        measured: found.map((r, k) =>
          `${r.scene}: deflection ${formatNumber(deflection[k])}, leak fraction ${
            formatNumber(metric(r, "passThroughFraction"))
          }`
        ).join("; "),
      };
    },
  },
  {
    id: "k",
    text:
      `Merge-split lets no ball particle through the cloth (at most ${LEAK_FRACTION_MIN} of them) and stays stable, at every height run`,
    paper: "Fig. 3",
    quote: {
      where: "§6.1 (Fig. 3 discussion)",
      quote:
        "Our merging-and-splitting approach completely prevents penetration and properly resolves the collisions without introducing instabilities for both cases.",
    },
    needs: [{ scene: FIG3_SCENES[1], handlers: ["merge-split"] }],
    evaluate: mergeSplitHoldsOn(FIG3_SCENES),
  },
  {
    id: "k2",
    text:
      `Only merge-split prevents penetrations without instability for both cases (Fig. 3's caption): it lets nothing through, stable, at both heights, while every column of the figure (${
        FIG3_COLUMNS.join(", ")
      }) lets a particle through or is unstable at one height at least, one standard for all`,
    paper: "Fig. 3",
    quote: {
      where: "Fig. 3 (caption)",
      quote:
        "Only our merging-and-splitting approach prevents penetrations without introducing instability for both cases.",
    },
    needs: FIG3_SCENES.map((scene) => ({ scene, handlers: [MERGE_SPLIT, ...FIG3_COLUMNS] })),
    evaluate: onlyMergeSplit(FIG3_SCENES, FIG3_COLUMNS),
  },
  ...(["penalty-weak", "kernel-repulsion-weak", "impulse"] as const).map((handler, k): Claim => ({
    id: ["l", "l2", "l3"][k],
    quote: [{
      where: "§6.1 (Fig. 3 discussion)",
      quote:
        "As can be seen in the figure, using a weak penalty or SPH-based force fails to resolve penetration.",
    }, {
      where: "§6.1 (Fig. 3 discussion)",
      quote:
        "As can be seen in the figure, using a weak penalty or SPH-based force fails to resolve penetration.",
    }, {
      where: "§6.1 (Fig. 3 discussion)",
      quote:
        "Impulse-based collisions fail to prevent penetration, since they handle colliding particles in isolation using instant velocity updates.",
    }][k],
    needs: [{ scene: FIG3_SCENES[1], handlers: [handler] }],
    text:
      `${handler} lets the ball through the cloth (more than ${LEAK_FRACTION_MIN} of its particles) at one height at least`,
    paper: "Fig. 3",
    evaluate: overScenes(FIG3_SCENES, handler, (found) => ({
      ok: found.some((r) => metric(r, "passThroughFraction") > LEAK_FRACTION_MIN),
      measured: found.map((r) =>
        `${r.scene}: ${formatNumber(metric(r, "passThroughMax"))} through (fraction ${
          formatNumber(metric(r, "passThroughFraction"))
        })`
      ).join("; "),
    }), { fields: ["passThroughFraction"] }),
  })),
  ...STRONG.map((handler): Claim => ({
    id: handler === "penalty-strong" ? "m" : "m2",
    quote: handler === "penalty-strong"
      ? {
        where: "§6.1 (Fig. 3 discussion)",
        quote:
          "Increasing the stiffness of the force formulation helps, but when the force is too strong with either force-based formulation, it can make the simulation system highly unstable.",
      }
      : {
        where: "§6.1 (Fig. 3 discussion)",
        quote:
          "Increasing the stiffness of the force formulation helps, but when the force is too strong with either force-based formulation, it can make the simulation system highly unstable.",
      },
    needs: [{ scene: FIG3_SCENES[1], handlers: [handler] }],
    text:
      `${handler} makes the simulation highly unstable at one height at least, by the one definition merge-split faces in k: it blows up (NaN or Inf, or a particle past 10× the reference speed), gains more than ${ENERGY_GAIN_MAX} of its energy, or flings a particle past ${SPEED_SPIKE_RATIO}× the reference speed (free fall does not count)`,
    paper: "Fig. 3",
    evaluate: overScenes(
      FIG3_SCENES,
      handler,
      (found) => ({
        ok: found.some(unstable),
        measured: found.map((r) =>
          `${r.scene}: ${instability(r) ?? "stable"}; fastest particle ${
            formatNumber(metric(r, "maxSpeedRatio"))
          }×, fastest flung ${formatNumber(metric(r, SPIKE_FIELD))}× the reference speed${
            blowUpText(r)
          }`
        ).join("; "),
      }),
      { usableOnly: false, fields: [SPIKE_FIELD] },
    ),
  })),
  {
    id: "o",
    text:
      "Weak forces and impulses let the ball into the wall before it breaks (particles more than half inside another solid before the first broken bond); merge-split does not",
    paper: "Fig. 5",
    quote: {
      where: "§6.1 (Fig. 5 discussion)",
      quote: "Weak forces or impulse-based collisions lead to penetrations before fracture.",
    },
    needs: [{
      scene: FIG5_SCENE,
      handlers: ["merge-split", "penalty-weak", "kernel-repulsion-weak", "impulse"],
    }],
    evaluate(records) {
      // every baseline the sentence names, unstable runs included (read before the fracture)
      const handlers = [MERGE_SPLIT, "penalty-weak", "kernel-repulsion-weak", "impulse"];
      const found = handlers.map((h) => findCase(records, FIG5_SCENE, h));
      const gap = notFinished(handlers.map((h) => [FIG5_SCENE, h]), found) ??
        lacking(found as CaseRecord[], "solidInsideBeforeFracture");
      if (gap) return gap;
      const [ms, ...others] = found as CaseRecord[];
      const v = (r: CaseRecord) => metric(r, "solidInsideBeforeFracture");
      const shaky = unstableText([ms]);
      return {
        status: !shaky && v(ms) <= 0 && others.every((r) => v(r) > 0)
          ? "reproduced"
          : "not reproduced",
        measured: [ms, ...others].map((r) => `${r.handler}: ${formatNumber(v(r))}`).join("; ") +
          ` particles inside before fracture${shaky ? `; ${shaky}` : ""}`,
      };
    },
  },
  {
    id: "p",
    text:
      `Strong forces crumble the wall into tiny pieces: under each strong-force baseline run, the wall's largest fragment holds less than ${PIECE_SHARE_MIN} of it (read before any blow-up: runs that went unstable count)`,
    paper: "Fig. 5",
    quote: {
      where: "§6.1 (Fig. 5 discussion)",
      quote: "When the collision forces are too strong, the wall crumbles into tiny pieces.",
    },
    needs: [{ scene: FIG5_SCENE, handlers: [...STRONG] }],
    evaluate(records) {
      const found = strongPulverise(records, FIG5_SCENE);
      if ("status" in found) return found;
      return { status: found.ok ? "reproduced" : "not reproduced", measured: found.measured };
    },
  },
  {
    id: "p4",
    text:
      `Eventually every collision handling method fractures the wall: under merge-split and every column of Fig. 5 (${
        FIG3_COLUMNS.join(", ")
      }), the wall is in at least ${BROKEN_PIECES_MIN} fragments of ≥ 1 % of it before any blow-up`,
    paper: "Fig. 5",
    quote: {
      where: "§6.1 (Fig. 5 discussion)",
      quote: "Eventually, all collision handling methods lead to fracture",
    },
    needs: [{ scene: FIG5_SCENE, handlers: [MERGE_SPLIT, ...FIG3_COLUMNS] }],
    evaluate(records) {
      const handlers = [MERGE_SPLIT, ...FIG3_COLUMNS];
      const found = handlers.map((h) => findCase(records, FIG5_SCENE, h));
      const field = "significantFragmentsBeforeBlowUp";
      const gap = notFinished(handlers.map((h) => [FIG5_SCENE, h]), found) ??
        lacking(found as CaseRecord[], field);
      if (gap) return gap;
      const runs = found as CaseRecord[];
      const whole = runs.filter((r) => metric(r, field) < BROKEN_PIECES_MIN);
      return {
        status: whole.length ? "not reproduced" : "reproduced",
        measured: runs.map((r) =>
          `${r.handler}: ${formatNumber(metric(r, field))} fragments of ≥ 1 %${blowUpText(r)}`
        ).join("; "),
      };
    },
  },
  {
    id: "n",
    text:
      `Merge-split stays stable and leak-free (at most ${LEAK_FRACTION_MIN} of the ball through) at every mass ratio run (1, 10, 100)`,
    paper: "Fig. 7",
    quote: {
      where: "§6.1 (Fig. 7 discussion)",
      quote:
        "Our merging-and-splitting method can stably handle variations in mass, since meta particles allow significant energy transfer between objects during each time step without introducing instabilities, as demonstrated in Fig. 7.",
    },
    needs: [{ scene: "fig7-mass-100", handlers: ["merge-split"] }],
    evaluate: mergeSplitHoldsOn(FIG7_SCENES),
  },
  {
    id: "r",
    text:
      "No single stiffness of a force-based baseline works at both impact heights (no leak beyond the threshold, no instability), while some stiffness works at each: the stiffness that stops the fast ball fails the slow one, and the other way round",
    paper: "Fig. 3",
    quote: {
      where: "§6.1 (Fig. 3 discussion)",
      quote:
        "Notice that the stiffness that works for the top row does not work for the bottom row showing faster impact and vice-versa.",
    },
    needs: [{ scene: FIG3_SCENES[0], handlers: ["penalty"], sweep: "penalty.stiffness" }, {
      scene: FIG3_SCENES[1],
      handlers: ["penalty"],
      sweep: "penalty.stiffness",
    }, {
      scene: FIG3_SCENES[0],
      handlers: ["kernel-repulsion"],
      sweep: "kernel-repulsion.stiffness",
    }, {
      scene: FIG3_SCENES[1],
      handlers: ["kernel-repulsion"],
      sweep: "kernel-repulsion.stiffness",
    }],
    evaluate(records) {
      const old = sweptLacking(
        records,
        (r) => (FIG3_SCENES as readonly string[]).includes(r.scene),
      );
      if (old) return old;
      const lines: string[] = [];
      let compared = 0;
      let fails = false;
      for (const family of FORCE_FAMILIES) {
        const key = `${family}.stiffness`;
        const [low, high] = FIG3_SCENES.map((scene) =>
          workingWindow(sweptOnly(records, { scene, handler: family, key }), key)
        );
        const common = low.values.filter((v) => high.values.includes(v));
        if (common.length < SWEEP_VALUES_MIN) continue;
        compared++;
        const [wl, wh] = [low, high].map((w) => w.working.filter((v) => common.includes(v)));
        const both = wl.filter((v) => wh.includes(v));
        // the finding needs a window at each height that the other lacks: a height where no
        // swept stiffness works at all says the sweep missed its window, not that they differ
        if (both.length || !wl.length || !wh.length) fails = true;
        const list = (v: number[]) => v.length ? v.map((x) => formatNumber(x)).join(", ") : "none";
        lines.push(
          `${family} (${common.length} stiffnesses): works low at ${list(wl)}; high at ${
            list(wh)
          }; both at ${list(both)}`,
        );
      }
      if (!compared) {
        return {
          status: "not run",
          measured: `no stiffness sweep of ${
            FORCE_FAMILIES.join(" or ")
          } with at least ${SWEEP_VALUES_MIN} values on both ${
            FIG3_SCENES.join(" and ")
          } (--handler penalty --sweep penalty.stiffness=…)`,
        };
      }
      return { status: fails ? "not reproduced" : "reproduced", measured: lines.join("; ") };
    },
  },
  {
    id: "s",
    text:
      `Merge-split is stable at a time step where the force-based baselines need one at least ${DT_FACTOR}× smaller`,
    paper: "§6.1",
    quote: {
      where: "§6.1 (before the Fig. 5 discussion)",
      quote:
        "Particle-based fracture simulations using peridynamics are typically handled using penalty forces [1], which require extremely small time step size",
    },
    needs: [{
      scene: FIG3_SCENES[1],
      handlers: ["merge-split", "penalty-medium", "kernel-repulsion-medium"],
      sweep: "scene.dt",
    }],
    evaluate(records) {
      const old = sweptLacking(records, (r) => r.sweep?.["scene.dt"] !== undefined);
      if (old) return old;
      const scenes = [
        ...new Set(records.filter((r) => r.sweep?.["scene.dt"] !== undefined).map((r) => r.scene)),
      ];
      const lines: string[] = [];
      let compared = 0;
      let holds = true;
      for (const scene of scenes) {
        const stability = (handler: string) => {
          const d = dtStability(sweptOnly(records, { scene, handler, key: "scene.dt" }), {
            scene,
            handler,
          });
          return { dt: d.stable.length ? d.stable[d.stable.length - 1] : null, swept: d.values };
        };
        const ms = stability(MERGE_SPLIT);
        if (ms.swept.length < SWEEP_VALUES_MIN) continue;
        const handlers = [
          ...new Set(records.filter((r) => r.scene === scene).map((r) => r.handler)),
        ]
          .filter((h) => FORCE_FAMILIES.some((f) => h === f || h.startsWith(`${f}-`)));
        for (const h of handlers) {
          const b = stability(h);
          if (b.swept.length < SWEEP_VALUES_MIN) continue;
          compared++;
          // a baseline stable at no swept dt needs one below the smallest swept
          const need = b.dt ?? b.swept[0];
          const ok = ms.dt !== null && ms.dt >= DT_FACTOR * need;
          if (!ok) holds = false;
          lines.push(
            `${scene}: merge-split stable up to ${
              ms.dt === null ? "none" : formatNumber(ms.dt)
            } s, ${h} ${
              b.dt === null
                ? `at none (below ${formatNumber(b.swept[0])})`
                : `up to ${formatNumber(b.dt)}`
            } s`,
          );
        }
      }
      if (!compared) {
        return {
          status: "not run",
          measured:
            `no time-step sweep of merge-split and a force-based baseline with at least ${SWEEP_VALUES_MIN} values on one scene (--sweep scene.dt=…)`,
        };
      }
      return { status: holds ? "reproduced" : "not reproduced", measured: lines.join("; ") };
    },
  },
  {
    id: "q",
    text:
      `Merge-split lets no FLIP particle through the cloth (at most ${LEAK_FRACTION_MIN} of them) and stays stable`,
    paper: "Fig. 9",
    quote: {
      where: "§6.2 (Fig. 9 discussion)",
      quote:
        "As can be seen in the figure, similar levels of complex interactions between solid and fluid simulations can be achieved using FLIP as well.",
    },
    needs: [{ scene: "fig9-flip-cloth", handlers: ["merge-split"] }],
    evaluate: mergeSplitHoldsOn(["fig9-flip-cloth"]),
  },
  {
    id: "q2",
    text:
      `Merge-split couples FLIP with a peridynamic solid as it does with cloth: no FLIP particle inside the solid (at most ${LEAK_FRACTION_MIN} of them), stable`,
    paper: "Fig. 9 (bottom)",
    quote: {
      where: "§6.2 (Fig. 9 discussion)",
      quote:
        "As can be seen in the figure, similar levels of complex interactions between solid and fluid simulations can be achieved using FLIP as well.",
    },
    needs: [{ scene: "fig9-flip-peridynamics", handlers: ["merge-split"] }],
    evaluate: mergeSplitHoldsOn(["fig9-flip-peridynamics"]),
  },
  {
    id: "t",
    text:
      "A single-layer cloth holds the poured fluid and the tori on it: no particle passes through at any sample (0, no tolerance), stable (merge-split)",
    paper: "Fig. 8 (top)",
    quote: {
      where: "§6.2 (Fig. 8 discussion), Fig. 8 top",
      quote:
        "The cloth model contains only a single layer of particles. Nonetheless, no fluid particle penetrates through the cloth surface.",
    },
    needs: [{ scene: FIG8_SCENES.cloth, handlers: ["merge-split"] }],
    evaluate: mergeSplitNoneThrough([FIG8_SCENES.cloth]),
  },
  {
    id: "t2",
    text:
      `As t, with the one leak tolerance: at most ${LEAK_FRACTION_MIN} of the particles that can cross (LEAK_FRACTION_MIN's reason), stable (merge-split)`,
    paper: "Fig. 8 (top)",
    quote: {
      where: "§6.2 (Fig. 8 discussion), Fig. 8 top",
      quote:
        "The cloth model contains only a single layer of particles. Nonetheless, no fluid particle penetrates through the cloth surface.",
    },
    needs: [{ scene: FIG8_SCENES.cloth, handlers: ["merge-split"] }],
    evaluate: mergeSplitHoldsOn([FIG8_SCENES.cloth]),
  },
  {
    id: "p2",
    text:
      `Merge-split breaks the wall into pieces (at least ${PIECES_MIN} fragments of ≥ 1 % of it, the largest ≥ ${PIECE_SHARE_MIN} of it) while strong forces pulverise it (largest < ${PIECE_SHARE_MIN})`,
    paper: "Fig. 5",
    quote: {
      where: "§6.1 (Fig. 5 discussion)",
      quote:
        "Eventually, all collision handling methods lead to fracture, but they differ by the amount of inter-penetration occurring prior to fracture and the visual quality of the fracture. Our merging-and-splitting scheme, in comparison, produces stable and expected results without any parameter tuning (Fig. 6).",
    },
    needs: [{ scene: FIG5_SCENE, handlers: ["merge-split", ...STRONG] }],
    evaluate: piecesWhileStrongPulverise(FIG5_SCENE),
  },
  {
    id: "p3",
    text:
      `As p2, the wall and ball of a real brittle material (${REAL_MATERIAL}: ${FIG5_SCENE}-${REAL_MATERIAL}, deno task scene --material ${REAL_MATERIAL})`,
    paper: "Fig. 5",
    quote: {
      where: "§6.1 (Fig. 5 discussion)",
      quote:
        "Eventually, all collision handling methods lead to fracture, but they differ by the amount of inter-penetration occurring prior to fracture and the visual quality of the fracture. Our merging-and-splitting scheme, in comparison, produces stable and expected results without any parameter tuning (Fig. 6).",
    },
    needs: [{ scene: `${FIG5_SCENE}-${REAL_MATERIAL}`, handlers: ["merge-split", ...STRONG] }],
    evaluate: piecesWhileStrongPulverise(`${FIG5_SCENE}-${REAL_MATERIAL}`),
  },
  {
    id: "u",
    text:
      `The dam break cracks the brittle wall, then breaks it: its first broken bond leaves the wall in one piece (at most one fragment of ≥ 1 %), and before any blow-up it is in at least ${BROKEN_PIECES_MIN} fragments of ≥ 1 % of it (merge-split)`,
    paper: "Fig. 8 (middle)",
    quote: {
      where: "§6.2 (Fig. 8 discussion), Fig. 8 middle",
      quote:
        "In the dam break example, the first impact of fluid particles lead to small fractures around the wall. These fractures form weak points that ultimately break the wall and the broken pieces are carried away by the fluid.",
    },
    needs: [{ scene: FIG8_SCENES.wall, handlers: ["merge-split"] }],
    evaluate: breaksUnderFluid(FIG8_SCENES.wall, { cracksFirst: true }),
  },
  {
    id: "v",
    text:
      `The bowl breaks on the water: before any blow-up it is in at least ${BROKEN_PIECES_MIN} fragments of ≥ 1 % of it (merge-split)`,
    paper: "Fig. 8 (bottom)",
    quote: {
      where: "§6.2 (Fig. 8 discussion), Fig. 8 bottom",
      quote: "The next example shows a bowl breaking as it hits the water surface.",
    },
    needs: [{ scene: FIG8_SCENES.bowl, handlers: ["merge-split"] }],
    evaluate: breaksUnderFluid(FIG8_SCENES.bowl, { cracksFirst: false }),
  },
  {
    id: "u2",
    text:
      `The dam break breaks the brittle wall into pieces, not dust: at least ${PIECES_MIN} fragments of ≥ 1 % of it, the largest ≥ ${PIECE_SHARE_MIN} of it, stable (merge-split)`,
    paper: "Fig. 8 (middle)",
    quote: {
      where: "§6.2 (Fig. 8 discussion), Fig. 8 middle",
      quote:
        "In the dam break example, the first impact of fluid particles lead to small fractures around the wall. These fractures form weak points that ultimately break the wall and the broken pieces are carried away by the fluid.",
    },
    needs: [{ scene: FIG8_SCENES.wall, handlers: ["merge-split"] }],
    evaluate: breaksIntoPieces(FIG8_SCENES.wall),
  },
  {
    id: "u3",
    text:
      `As u2, the wall of a real brittle material (${REAL_MATERIAL}: ${FIG8_SCENES.wall}-${REAL_MATERIAL}, deno task scene --material ${REAL_MATERIAL})`,
    paper: "Fig. 8 (middle)",
    quote: {
      where: "§6.2 (Fig. 8 discussion), Fig. 8 middle",
      quote:
        "In the dam break example, the first impact of fluid particles lead to small fractures around the wall. These fractures form weak points that ultimately break the wall and the broken pieces are carried away by the fluid.",
    },
    needs: [{ scene: `${FIG8_SCENES.wall}-${REAL_MATERIAL}`, handlers: ["merge-split"] }],
    evaluate: breaksIntoPieces(`${FIG8_SCENES.wall}-${REAL_MATERIAL}`),
  },
  {
    id: "w",
    text: `The dam breaks (SPH and FLIP) follow Martin & Moyce's surge front (n² = 2) within ${
      100 * SURGE_FRONT_ERROR_MAX
    } % at every point of the experiment inside the run`,
    paper: "validation (Martin & Moyce 1952)",
    quote: null, // validates the harness, not a sentence of the paper
    needs: [...DAM_BREAK_SCENES.map((scene) => ({ scene, handlers: [MERGE_SPLIT] }))],
    evaluate: followsExperiment("surgeFrontError", "front", SURGE_FRONT_ERROR_MAX),
  },
  {
    id: "w2",
    text:
      `The dam breaks (SPH and FLIP) follow Martin & Moyce's residual column height (n² = 2) within ${
        100 * COLUMN_HEIGHT_ERROR_MAX
      } % at every point of the experiment inside the run where the column is at least ${COLUMN_HEIGHT_MIN_RADII} particle radii high`,
    paper: "validation (Martin & Moyce 1952)",
    quote: null, // validates the harness, not a sentence of the paper
    needs: [...DAM_BREAK_SCENES.map((scene) => ({ scene, handlers: [MERGE_SPLIT] }))],
    evaluate: followsExperiment("columnHeightError", "column", COLUMN_HEIGHT_ERROR_MAX),
  },
  {
    id: "x",
    text: `The SPH fluid stays near-incompressible: its worst particle is compressed at most ${
      100 * SPH_DENSITY_ERROR_MAX
    } % in every SPH case run (merge-split)`,
    paper: "validation (issue 24)",
    quote: null, // validates the harness, not a sentence of the paper
    needs: [{ scene: "dam-break-sph", handlers: ["merge-split"] }],
    evaluate: fluidWithin({
      flip: false,
      field: "densityErrorMax",
      limit: SPH_DENSITY_ERROR_MAX,
    }),
  },
  {
    id: "x2",
    text: `The FLIP fluid keeps its volume within ${
      100 * FLIP_VOLUME_DRIFT_MAX
    } % to the end of every FLIP case run (merge-split)`,
    paper: "validation (issue 24)",
    quote: null, // validates the harness, not a sentence of the paper
    needs: [{ scene: "dam-break-flip", handlers: ["merge-split"] }],
    evaluate: fluidWithin({ flip: true, field: "volumeChange", limit: FLIP_VOLUME_DRIFT_MAX }),
  },
  {
    id: "z",
    text:
      `The order of merging does not change the velocities after splitting: each group of three or more particles merged in its order and in reverse (the merge-order probe, f64) ends with every particle's velocity within ${MERGE_ORDER_SPREAD_MAX} × the reference speed, in every merge-split case`,
    paper: "§3",
    quote: {
      where: "§3 (after Eq. 16)",
      quote:
        "We have empirically verified that the order of merging does not affect the outcome of the final particle velocities after splitting.",
    },
    needs: [{ scene: FIG4_SCENE, handlers: ["merge-split"] }],
    evaluate(records) {
      const probed = records.filter((r) =>
        r.handler === MERGE_SPLIT && Object.keys(r.sweep ?? {}).length === 0 &&
        metric(r, "mergeOrderGroups") > 0 && Number.isFinite(metric(r, "mergeOrderSpread"))
      );
      if (!probed.length) {
        return {
          status: "not run",
          measured: "no merge-split case probed a group of three or more (mergeOrderGroups)",
        };
      }
      const spread = (r: CaseRecord) => metric(r, "mergeOrderSpread");
      const worst = probed.reduce((w, r) => (spread(r) > spread(w) ? r : w));
      const over = probed.filter((r) => spread(r) > MERGE_ORDER_SPREAD_MAX);
      return {
        status: over.length ? "not reproduced" : "reproduced",
        measured: `largest difference ${
          formatNumber(spread(worst))
        } × the reference speed (${worst.scene}); ${over.length} of ${probed.length} cases past ${MERGE_ORDER_SPREAD_MAX}; ${
          formatNumber(probed.reduce((n, r) => n + metric(r, "mergeOrderGroups"), 0))
        } groups probed`,
      };
    },
  },
  ...TIMING_CLAIMS,
];

/**
 * The records of one setup (`core/setups.ts`): those that ran under `setup`; for a variant also the
 * paper's records of the cases it does not change (`setupChanges`: the bench does not run those, the
 * paper's record is theirs bit for bit) where it has none of its own (a record without `systems`
 * counts as having every system the variant sets); when no record names a setup (records made
 * before setups), all of them.
 */
export function underSetup(records: readonly CaseRecord[], setup: string): CaseRecord[] {
  if (!records.some((r) => r.setup !== undefined)) return [...records];
  const own = records.filter((r) => r.setup === setup);
  if (setup === PAPER_SETUP.id) return own;
  const ran = new Set(own.map(sameCase));
  // a record made before its systems were kept counts as having every system the variant sets
  const assumed = Object.keys(SETUPS.get(setup)?.systemParams ?? {});
  const unchanged = records.filter((r) =>
    r.setup === PAPER_SETUP.id &&
    !setupChanges(setup, r.handler, r.systems ?? assumed, r.collisionsPossible ?? true) &&
    !ran.has(sameCase(r))
  );
  return [...own, ...unchanged];
}

/** A case whatever the setup: scene, handler, scale, sweep, seed, steps and dt. */
function sameCase(r: CaseRecord): string {
  return `${caseGroupKey(r)}|seed=${r.seed}|steps=${r.steps}|dt=${r.dt}`;
}

/**
 * Evaluates every claim on the records of one scale, read from the paper's setup (`options.setup`
 * for another: the ablation table's columns). The catalogue cases of several seeds (the
 * named suites run the scene's, 7 and 99: `bench/cases/suites.ts`) are judged seed by seed: a claim is
 * reproduced only when it is reproduced at every seed, not reproduced when it fails at any, and not
 * run otherwise; `measured` then gives each seed's outcome. Scene files' cases have seeds of their
 * own and are judged with the catalogue's first seed.
 */
export function evaluateClaims(
  all: readonly CaseRecord[],
  options: { claims?: readonly Claim[]; setup?: string } = {},
): { claim: Claim; result: ClaimResult }[] {
  const claims = options.claims ?? CLAIMS;
  const records = underSetup(all, options.setup ?? PAPER_SETUP.id);
  const catalog = (r: CaseRecord) => (r.sceneSource ?? "catalog") === "catalog";
  const seeds = [...new Set(records.filter(catalog).map((r) => r.seed))];
  if (seeds.length <= 1) {
    return claims.map((claim) => ({ claim, result: claim.evaluate(records) }));
  }
  const bySeed = seeds.map((seed, k) =>
    records.filter((r) => catalog(r) ? r.seed === seed : k === 0)
  );
  return claims.map((claim) => {
    const results = bySeed.map((rs) => claim.evaluate(rs));
    const status: ClaimStatus = results.some((r) => r.status === "not reproduced")
      ? "not reproduced"
      : results.every((r) => r.status === "reproduced")
      ? "reproduced"
      : "not run";
    const measured = results.map((r, k) => `seed ${seeds[k]} (${r.status}): ${r.measured}`)
      .join(" | ");
    return { claim, result: { status, measured } };
  });
}
