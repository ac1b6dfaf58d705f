/**
 * How the claims read their records: the readings several claims share (merge-split holds on a set
 * of scenes, only merge-split prevents penetration, two scenes compared, a fracture read before a
 * blow-up, a validation against experiment), each returning a claim's evaluation.
 *
 * @module
 */
import {
  BROKEN_PIECES_MIN,
  DAM_BREAK_SCENES,
  DT_FACTOR,
  FIG4_SCENE,
  FORCE_FAMILIES,
  MERGE_SPLIT,
  PIECE_SHARE_MIN,
  PIECES_MIN,
  SWEEP_VALUES_MIN,
} from "./claim_thresholds.ts";
import {
  finished,
  instability,
  LEAK_FRACTION_MIN,
  SPIKE_FIELD,
  unstable,
  usable,
} from "./case_status.ts";
import {
  findCase,
  lacking,
  metric,
  missing,
  notFinished,
  notUsable,
  overScenes,
} from "./claim_records.ts";
import type { CaseRecord } from "../../core/result.ts";
import { formatNumber } from "../page/format_number.ts";
import type { ClaimResult } from "./claim.ts";

/** The strong-force baselines (Figs. 3–5: "when the force is too strong"). */
export const STRONG = ["penalty-strong", "kernel-repulsion-strong"] as const;

/**
 * The strong-force cases of `scene` that ran to their end, ok or unstable (an unstable run is read
 * before its blow-up: `…BeforeBlowUp`), or the "not run" result naming what is missing.
 */
export function strongCases(
  records: readonly CaseRecord[],
  scene: string,
): CaseRecord[] | ClaimResult {
  const strong = STRONG.map((h) => findCase(records, scene, h)).filter((r): r is CaseRecord =>
    !!r?.metrics && (r.status === "ok" || r.status === "unstable")
  );
  if (!strong.length) {
    return { status: "not run", measured: `no strong-force case of ${scene} ran to its end` };
  }
  return strong;
}

/** " (blew up at t s)" for a run that blew up, else "". */
export function blowUpText(r: CaseRecord): string {
  const t = metric(r, "blowUpTime");
  return Number.isFinite(t) ? ` (blew up at ${formatNumber(t)} s; read before it)` : "";
}

/**
 * Fig. 5 (`scene`): every strong-force case that ran crumbles the wall into tiny pieces: before any
 * blow-up, its largest fragment holds less than {@link PIECE_SHARE_MIN} of the wall.
 */
export function strongPulverise(
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
export function isInPieces(pieces: number, largestShare: number): boolean {
  return fractureReading(pieces, largestShare) === "in pieces";
}

/**
 * Fig. 5 (`scene`): merge-split breaks the wall into pieces (at least {@link PIECES_MIN} fragments
 * of ≥ 1 % of it, the largest ≥ {@link PIECE_SHARE_MIN} of it), stable, while every strong-force
 * case that ran pulverises it before any blow-up ({@link strongPulverise}).
 */
export function piecesWhileStrongPulverise(
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
export function finishedMergeSplit(
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
export function breaksUnderFluid(
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
export function followsExperiment(
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
export function fluidWithin(
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
export function breaksIntoPieces(scene: string): (records: readonly CaseRecord[]) => ClaimResult {
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
export function mergeSplitHoldsOn(
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
export function mergeSplitNoneThrough(
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
export function prevents(r: CaseRecord): boolean {
  return metric(r, "passThroughMax") === 0 && !unstable(r);
}

/** How a run fares against {@link prevents}, in words. */
export function preventsText(r: CaseRecord): string {
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
export function onlyMergeSplit(
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
export function fig4Case(
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
export function sweptLacking(
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
export function unstableText(cases: readonly CaseRecord[]): string | null {
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

/** A handler's swept time steps and the largest of them a claim accepts (null: none). */
export interface DtWindow {
  dt: number | null;
  swept: number[];
}

/**
 * Claim s's comparison (and its earlier definition's): on each of `scenes`, merge-split's largest
 * time step that `window` accepts against each force-based baseline's (one below the smallest swept
 * where a baseline has none), each with at least SWEEP_VALUES_MIN swept values: reproduced where
 * merge-split's is at least DT_FACTOR × every baseline's; "not run" (naming `where`) without such a
 * pair. `verb` names what the window accepts ("works", "stable").
 */
export function dtAgainstBaselines(
  records: readonly CaseRecord[],
  scenes: readonly string[],
  window: (scene: string, handler: string) => DtWindow,
  words: { verb: string; where: string },
): ClaimResult {
  const lines: string[] = [];
  let holds = true;
  for (const scene of scenes) {
    const ms = window(scene, MERGE_SPLIT);
    if (ms.swept.length < SWEEP_VALUES_MIN) continue;
    const handlers = [...new Set(records.filter((r) => r.scene === scene).map((r) => r.handler))]
      .filter((h) => FORCE_FAMILIES.some((f) => h === f || h.startsWith(`${f}-`)));
    for (const h of handlers) {
      const b = window(scene, h);
      if (b.swept.length < SWEEP_VALUES_MIN) continue;
      if (!(ms.dt !== null && ms.dt >= DT_FACTOR * (b.dt ?? b.swept[0]))) holds = false;
      const upTo = (w: DtWindow) =>
        w.dt === null
          ? `at none (below ${formatNumber(w.swept[0])})`
          : `up to ${formatNumber(w.dt)}`;
      lines.push(`${scene}: merge-split ${words.verb} ${upTo(ms)} s, ${h} ${upTo(b)} s`);
    }
  }
  if (!lines.length) {
    return {
      status: "not run",
      measured:
        `no time-step sweep of merge-split and a force-based baseline with at least ${SWEEP_VALUES_MIN} values on ${words.where}`,
    };
  }
  return { status: holds ? "reproduced" : "not reproduced", measured: lines.join("; ") };
}
