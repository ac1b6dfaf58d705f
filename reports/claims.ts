/**
 * The paper's findings that the suite can test, as data: each claim names its figure, reads the
 * records it needs and says whether the measured values reproduce it. Thresholds are the named
 * constants below, so they can be tuned in one place. A claim whose cases are absent (or ended
 * without metrics) is "not run".
 *
 * @module
 */
import type { CaseRecord } from "../core/result.ts";
import { formatNumber } from "./format_number.ts";

/** Outcome of a claim on a set of records. */
export type ClaimStatus = "reproduced" | "not reproduced" | "not run";

/** What a claim's evaluation found: its status and the measured values, in words. */
export interface ClaimResult {
  status: ClaimStatus;
  measured: string;
}

/** One testable finding of the paper. */
export interface Claim {
  /** Short id: `a`, `b`, … */
  id: string;
  /** The finding, in words. */
  text: string;
  /** Where the paper shows it (figure or section). */
  paper: string;
  /** Evaluates the claim on the records of one scale (the last record of a case wins). */
  evaluate(records: readonly CaseRecord[]): ClaimResult;
}

/** The Fig. 4 scene: a fast fluid column hitting a pinned cloth. */
export const FIG4_SCENE = "fig4-fluid-cloth";
/** Merge-split lets no fluid through: its `passThroughMax` must be at most this (particles). */
export const MERGE_SPLIT_PASS_THROUGH_MAX = 0;
/** A baseline "lets fluid through" when its `passThroughMax` exceeds this (particles). */
export const LEAK_PASS_THROUGH_MIN = 0;
/** Penalty-strong "flings fluid back" when its max rebound exceeds this factor × merge-split's. */
export const REBOUND_FACTOR = 1.5;
/** Largest relative momentum error across merge/split that counts as conserved. */
export const MOMENTUM_ERROR_MAX = 1e-5;
/** Largest relative energy error across merge/split that counts as conserved. */
export const ENERGY_ERROR_MAX = 1e-4;
/** Fig. 10: α = β = 0 must end with an energy ratio at least this much below α = 1's. */
export const DISSIPATION_MARGIN = 0.01;
/** Fig. 11: "rigidified" means the unlimited case deflects less than this fraction of 8–16's. */
export const RIGIDIFY_FACTOR = 0.8;

/**
 * A case gained energy (instability) when its energy ratio (kinetic + gravity + elastic, end /
 * start) exceeds 1 + this: a passive scene only loses energy to damping, and f32 round-off is
 * orders of magnitude below 5 %.
 */
export const ENERGY_GAIN_MAX = 0.05;
/** The Fig. 3 scenes (ball dropped from two heights onto the cloth). */
export const FIG3_SCENES = ["fig3-ball-cloth-low", "fig3-ball-cloth-high"] as const;
/** Fig. 5: strong forces "crumble" the wall: at least this many times merge-split's fragments. */
export const FRAGMENT_FACTOR = 2;
/** The Fig. 5 scene (a dense ball hits a brittle wall). */
export const FIG5_SCENE = "fig5-wall";
/** The Fig. 7 scenes (mass ratios 1, 10, 100). */
export const FIG7_SCENES = ["fig7-mass-1", "fig7-mass-10", "fig7-mass-100"] as const;

const MERGE_SPLIT = "merge-split";

/** Whether a record shows instability: recorded unstable, exploded, or gained energy. */
function unstable(r: CaseRecord): boolean {
  return r.status === "unstable" || r.metrics?.summary.exploded === true ||
    metric(r, "energyRatio") > 1 + ENERGY_GAIN_MAX;
}

/** Whether a record finished `ok` with metrics and did not explode (usable for leak claims). */
function usable(r: CaseRecord | undefined): r is CaseRecord {
  return r !== undefined && r.status === "ok" && !!r.metrics &&
    r.metrics.summary.exploded !== true;
}

/**
 * A claim over the scenes of a family that were run: `test` gets the usable records of `handler`
 * per scene (missing or unusable ones left out); "not run" when none is usable.
 */
function overScenes(
  scenes: readonly string[],
  handler: string,
  test: (found: CaseRecord[]) => { ok: boolean; measured: string },
  options: { usableOnly?: boolean } = {},
): (records: readonly CaseRecord[]) => ClaimResult {
  return (records) => {
    const found = scenes.map((s) => findCase(records, s, handler)).filter((r) =>
      options.usableOnly === false
        ? r !== undefined && (r.status === "ok" || r.status === "unstable")
        : usable(r)
    ) as CaseRecord[];
    if (!found.length) {
      return { status: "not run", measured: `no usable ${handler} case of ${scenes.join(", ")}` };
    }
    const t = test(found);
    return { status: t.ok ? "reproduced" : "not reproduced", measured: t.measured };
  };
}

/**
 * Merge-split lets nothing through and stays stable on every one of `scenes` that was run
 * (unstable runs count, as failures).
 */
function mergeSplitHoldsOn(
  scenes: readonly string[],
): (records: readonly CaseRecord[]) => ClaimResult {
  return overScenes(scenes, MERGE_SPLIT, (found) => ({
    ok: found.every((r) => metric(r, "passThroughMax") <= 0 && !unstable(r)),
    measured: found.map((r) =>
      `${r.scene}: passThroughMax ${formatNumber(metric(r, "passThroughMax"))}, energy ratio ${
        formatNumber(metric(r, "energyRatio"))
      }`
    ).join("; "),
  }), { usableOnly: false });
}

/** The last record of `scene` × `handler`, or undefined. */
function findCase(
  records: readonly CaseRecord[],
  scene: string,
  handler: string,
): CaseRecord | undefined {
  return records.findLast((r) => r.scene === scene && r.handler === handler);
}

/** A summary metric as a number (booleans and missing values give NaN). */
function metric(record: CaseRecord, name: string): number {
  const v = record.metrics?.summary[name];
  return typeof v === "number" ? v : NaN;
}

/** "not run" for a missing case or one without metrics, naming which and why. */
function missing(
  needed: ReadonlyArray<[string, string]>,
  found: ReadonlyArray<CaseRecord | undefined>,
): ClaimResult | null {
  const why: string[] = [];
  needed.forEach(([scene, handler], k) => {
    const r = found[k];
    if (!r) why.push(`${scene} × ${handler} absent`);
    else if (!r.metrics) why.push(`${scene} × ${handler} ${r.status}, no metrics`);
  });
  return why.length ? { status: "not run", measured: why.join("; ") } : null;
}

/** Compares one metric of one Fig. 4 case with a threshold. */
function fig4Case(
  handler: string,
  options: { metric: string; test: (v: number) => boolean; unit: string },
): (records: readonly CaseRecord[]) => ClaimResult {
  return (records) => {
    const r = findCase(records, FIG4_SCENE, handler);
    const gap = missing([[FIG4_SCENE, handler]], [r]);
    if (gap) return gap;
    const v = metric(r!, options.metric);
    return {
      status: options.test(v) ? "reproduced" : "not reproduced",
      measured: `${handler}: ${options.metric} = ${formatNumber(v)}${options.unit}`,
    };
  };
}

/** Compares one metric of two merge-split scenes: `test(first, second)`. */
function twoScenes(
  scenes: [string, string],
  options: { metric: string; test: (a: number, b: number) => boolean },
): (records: readonly CaseRecord[]) => ClaimResult {
  return (records) => {
    const found = scenes.map((s) => findCase(records, s, MERGE_SPLIT));
    const gap = missing(scenes.map((s) => [s, MERGE_SPLIT]), found);
    if (gap) return gap;
    const [a, b] = found.map((r) => metric(r!, options.metric));
    return {
      status: options.test(a, b) ? "reproduced" : "not reproduced",
      measured: `${options.metric}: ${scenes[0]} ${formatNumber(a)} vs ${scenes[1]} ${
        formatNumber(b)
      }`,
    };
  };
}

/** The claims: (a)–(j) fluid on cloth, (k)–(p) solids, (q) FLIP on cloth. */
export const CLAIMS: readonly Claim[] = [
  {
    id: "a",
    text: "Merge-split lets no fluid through the cloth",
    paper: "Fig. 4",
    evaluate: fig4Case(MERGE_SPLIT, {
      metric: "passThroughMax",
      test: (v) => v <= MERGE_SPLIT_PASS_THROUGH_MAX,
      unit: " particles",
    }),
  },
  ...(["penalty-weak", "impulse", "sph-force-weak"] as const).map((handler, k): Claim => ({
    id: ["b", "c", "d"][k],
    text: `${handler} lets fluid through the cloth`,
    paper: "Fig. 4",
    evaluate: fig4Case(handler, {
      metric: "passThroughMax",
      test: (v) => v > LEAK_PASS_THROUGH_MIN,
      unit: " particles",
    }),
  })),
  {
    id: "e",
    text: `penalty-strong flings fluid back: max rebound > ${REBOUND_FACTOR} × merge-split's`,
    paper: "Fig. 4",
    evaluate(records) {
      const handlers = ["penalty-strong", MERGE_SPLIT];
      const found = handlers.map((h) => findCase(records, FIG4_SCENE, h));
      const gap = missing(handlers.map((h) => [FIG4_SCENE, h]), found);
      if (gap) return gap;
      const [strong, ms] = found.map((r) => metric(r!, "maxRebound"));
      return {
        status: strong > REBOUND_FACTOR * ms ? "reproduced" : "not reproduced",
        measured: `max rebound ${formatNumber(strong)} m/s vs ${formatNumber(ms)} m/s (${
          formatNumber(strong / ms)
        }×)`,
      };
    },
  },
  {
    id: "f",
    text:
      `Merge-split conserves momentum and energy across merge/split (relative errors < ${MOMENTUM_ERROR_MAX} and < ${ENERGY_ERROR_MAX})`,
    paper: "§4 (Eqs. 8–16)",
    evaluate(records) {
      const ms = records.filter((r) => r.handler === MERGE_SPLIT && r.metrics);
      if (!ms.length) return { status: "not run", measured: "no merge-split case with metrics" };
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
    evaluate(records) {
      const ms = records.filter((r) => r.handler === MERGE_SPLIT);
      if (!ms.length) return { status: "not run", measured: "no merge-split case" };
      const bad = ms.filter((r) => r.status !== "ok" || r.metrics?.summary.exploded === true);
      return {
        status: bad.length ? "not reproduced" : "reproduced",
        measured: bad.length
          ? `${bad.length} of ${ms.length} not stable: ${
            bad.map((r) => `${r.scene} (${r.status === "ok" ? "exploded" : r.status})`).join(", ")
          }`
          : `${ms.length} of ${ms.length} stable`,
      };
    },
  },
  {
    id: "h",
    text:
      `α = β = 0 dissipates more energy than α = 1 (energy ratio lower by > ${DISSIPATION_MARGIN})`,
    paper: "Fig. 10",
    evaluate: twoScenes(
      ["fig10-alpha-beta-00", "fig10-alpha-beta-10"],
      { metric: "energyRatio", test: (a, b) => a < b - DISSIPATION_MARGIN },
    ),
  },
  {
    id: "i",
    text: "A small meta-particle limit (4–8) lets more fluid through than a large one (32–64)",
    paper: "Fig. 11",
    evaluate: twoScenes(
      ["fig11-nlimit-4-8", "fig11-nlimit-32-64"],
      { metric: "passThroughMax", test: (a, b) => a > b },
    ),
  },
  {
    id: "j",
    text:
      `An unlimited meta-particle rigidifies the sheet (deflection < ${RIGIDIFY_FACTOR} × that with 8–16)`,
    paper: "Fig. 11",
    evaluate: twoScenes(
      ["fig11-nlimit-inf", "fig11-nlimit-8-16"],
      { metric: "sheetDeflection", test: (a, b) => a < RIGIDIFY_FACTOR * b },
    ),
  },
  {
    id: "k",
    text:
      "Merge-split lets no ball particle through the cloth and stays stable, at every height run",
    paper: "Fig. 3",
    evaluate: mergeSplitHoldsOn(FIG3_SCENES),
  },
  ...(["penalty-weak", "sph-force-weak"] as const).map((handler): Claim => ({
    id: handler === "penalty-weak" ? "l" : "l2",
    text: `${handler} lets the ball into or through the cloth at one height at least`,
    paper: "Fig. 3",
    evaluate: overScenes(FIG3_SCENES, handler, (found) => ({
      ok: found.some((r) => metric(r, "passThroughMax") > LEAK_PASS_THROUGH_MIN),
      measured: found.map((r) =>
        `${r.scene}: passThroughMax ${formatNumber(metric(r, "passThroughMax"))}`
      ).join("; "),
    })),
  })),
  ...(["penalty-strong", "sph-force-strong"] as const).map((handler): Claim => ({
    id: handler === "penalty-strong" ? "m" : "m2",
    text:
      `${handler} is unstable at one height at least (recorded unstable, exploded, or energy ratio > ${
        1 + ENERGY_GAIN_MAX
      })`,
    paper: "Fig. 3",
    evaluate: overScenes(
      FIG3_SCENES,
      handler,
      (found) => ({
        ok: found.some(unstable),
        measured: found.map((r) =>
          `${r.scene}: ${r.status}, energy ratio ${
            formatNumber(metric(r, "energyRatio"))
          }, max speed ${formatNumber(metric(r, "maxSpeedRatio"))}× v_ref`
        ).join("; "),
      }),
      { usableOnly: false },
    ),
  })),
  {
    id: "o",
    text:
      "Weak forces and impulses let the ball into the wall before it breaks (particles more than half inside another solid before the first broken bond); merge-split does not",
    paper: "Fig. 5",
    evaluate(records) {
      const handlers = [MERGE_SPLIT, "penalty-weak", "sph-force-weak", "impulse"];
      const found = handlers.map((h) => findCase(records, FIG5_SCENE, h));
      const ms = found[0];
      if (!usable(ms)) {
        return { status: "not run", measured: `no usable ${FIG5_SCENE} × merge-split case` };
      }
      const others = found.slice(1).filter(usable);
      if (!others.length) {
        return { status: "not run", measured: "no usable weak-force or impulse case of fig5-wall" };
      }
      const v = (r: CaseRecord) => metric(r, "solidInsideBeforeFracture");
      return {
        status: v(ms) <= 0 && others.every((r) => v(r) > 0) ? "reproduced" : "not reproduced",
        measured: [ms, ...others].map((r) => `${r.handler}: ${formatNumber(v(r))}`).join("; ") +
          " particles inside before fracture",
      };
    },
  },
  {
    id: "p",
    text:
      `Strong forces crumble the wall: at least ${FRAGMENT_FACTOR}× merge-split's fragments (penalty-strong, sph-force-strong)`,
    paper: "Fig. 5",
    evaluate(records) {
      const ms = findCase(records, FIG5_SCENE, MERGE_SPLIT);
      if (!usable(ms)) {
        return { status: "not run", measured: `no usable ${FIG5_SCENE} × merge-split case` };
      }
      const strong = ["penalty-strong", "sph-force-strong"].map((h) =>
        findCase(records, FIG5_SCENE, h)
      ).filter(usable);
      if (!strong.length) {
        return { status: "not run", measured: "no usable strong-force case of fig5-wall" };
      }
      const f = (r: CaseRecord) => metric(r, "fragments");
      return {
        status: strong.every((r) => f(r) >= FRAGMENT_FACTOR * f(ms))
          ? "reproduced"
          : "not reproduced",
        measured: [ms, ...strong].map((r) => `${r.handler}: ${formatNumber(f(r))}`).join("; ") +
          " fragments",
      };
    },
  },
  {
    id: "n",
    text: "Merge-split stays stable and leak-free at every mass ratio run (1, 10, 100)",
    paper: "Fig. 7",
    evaluate: mergeSplitHoldsOn(FIG7_SCENES),
  },
  {
    id: "q",
    text: "Merge-split lets no FLIP particle through the cloth and stays stable",
    paper: "Fig. 9",
    evaluate: mergeSplitHoldsOn(["fig9-flip-cloth"]),
  },
];

/** Evaluates every claim on the records of one scale. */
export function evaluateClaims(
  records: readonly CaseRecord[],
  options: { claims?: readonly Claim[] } = {},
): { claim: Claim; result: ClaimResult }[] {
  return (options.claims ?? CLAIMS).map((claim) => ({ claim, result: claim.evaluate(records) }));
}
