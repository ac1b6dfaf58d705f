/**
 * The claims' earlier definitions, kept visible where their verdict differs from the definition
 * that replaced them: a reader sees which verdicts a rewrite moved. Each was rewritten because it read something other than the paper's sentence
 * (each claim's `quote`): e and e2 a mass-weighted mean velocity for "fluid particles bouncing back
 * with high velocity"; m and m2 an energy gain for "highly unstable"; p a fragment count relative
 * to merge-split's, and p, p2, p3 only strong-force runs that stayed stable, for "the wall crumbles
 * into tiny pieces"; u and v any two fragments, which dust passes. The claims table shows an
 * earlier definition's row under its claim only where the two verdicts differ (h: an energy ratio
 * with a margin set after a run had been seen, for "jump back slightly higher"); nothing else reads
 * them.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import type { Claim, ClaimResult } from "./claim.ts";
import { unstableByEnergy as unstable, usable } from "./case_status.ts";
import { findCase, metric, missing, notUsable, overScenes, sweptOnly } from "./claim_records.ts";
import { dtStability } from "./sweep_stats.ts";
import { dtAgainstBaselines, sweptLacking } from "./claim_readers.ts";
import { formatNumber } from "../page/format_number.ts";
import {
  CLAIMS,
  DT_FACTOR,
  ENERGY_GAIN_MAX,
  FIG10_SCENES,
  FIG3_SCENES,
  FIG4_SCENE,
  FIG5_SCENE,
  FIG8_SCENES,
  fractureReading,
  LEAK_FRACTION_MIN,
  REAL_MATERIAL,
  twoScenes,
} from "./claims.ts";

/** Earlier e, e2: `fluidRebound` above this factor × merge-split's… */
export const REBOUND_FACTOR = 1.5;
/** …and this fraction of the scene's reference speed. */
export const REBOUND_SPEED_FRACTION = 0.05;
/** Earlier p: strong forces crumble the wall with at least this many times merge-split's fragments. */
export const FRAGMENT_FACTOR = 2;
/** Earlier u, v: a solid that broke ends in at least this many fragments, of any size. */
export const BROKEN_FRAGMENTS_MIN = 2;

const MERGE_SPLIT = "merge-split";
const STRONG = ["penalty-strong", "kernel-repulsion-strong"] as const;

/** Earlier e's test: `r`'s net upward velocity clearly above merge-split's `ms` (m/s). */
function flingsBack(r: CaseRecord, ms: number): boolean {
  const v = metric(r, "fluidRebound");
  return v > REBOUND_FACTOR * ms && v > REBOUND_SPEED_FRACTION * metric(r, "referenceSpeed");
}

/** Earlier e: penalty-strong's net upward fluid velocity against merge-split's. */
function earlierE(records: readonly CaseRecord[]): ClaimResult {
  const handlers = ["penalty-strong", MERGE_SPLIT];
  const found = handlers.map((h) => findCase(records, FIG4_SCENE, h));
  const gap = notUsable(handlers.map((h) => [FIG4_SCENE, h]), found);
  if (gap) return gap;
  const [strong, ms] = found.map((r) => metric(r!, "fluidRebound"));
  return {
    status: flingsBack(found[0]!, ms) ? "reproduced" : "not reproduced",
    measured: `fluid's net upward velocity at its most ${formatNumber(strong)} m/s vs ${
      formatNumber(ms)
    } m/s (reference speed ${formatNumber(metric(found[0]!, "referenceSpeed"))} m/s)`,
  };
}

/** Earlier e2: akinci leaks, flings the fluid back as earlier e, or is unstable. */
function earlierE2(records: readonly CaseRecord[]): ClaimResult {
  const ms = findCase(records, FIG4_SCENE, MERGE_SPLIT);
  const ak = findCase(records, FIG4_SCENE, "akinci");
  const gap = notUsable([[FIG4_SCENE, MERGE_SPLIT]], [ms]) ??
    missing([[FIG4_SCENE, "akinci"]], [ak]);
  if (gap) return gap;
  const leak = metric(ak!, "passThroughFraction");
  const ok = unstable(ak!) || leak > LEAK_FRACTION_MIN ||
    flingsBack(ak!, metric(ms!, "fluidRebound"));
  return {
    status: ok ? "reproduced" : "not reproduced",
    measured: `akinci: ${ak!.status}, leak fraction ${formatNumber(leak)}, net upward velocity ${
      formatNumber(metric(ak!, "fluidRebound"))
    } m/s, energy ratio ${formatNumber(metric(ak!, "energyRatio"))}`,
  };
}

/** Earlier m, m2: `handler` unstable at one height (recorded unstable, exploded or gained energy). */
function earlierUnstable(handler: string): (records: readonly CaseRecord[]) => ClaimResult {
  return overScenes(FIG3_SCENES, handler, (found) => ({
    ok: found.some(unstable),
    measured: found.map((r) =>
      `${r.scene}: ${r.status}, energy ratio ${formatNumber(metric(r, "energyRatio"))}`
    ).join("; "),
  }), { usableOnly: false });
}

/** Fig. 5's merge-split case and its strong-force cases that finished `ok` (unstable ones left out). */
function stableStrong(
  records: readonly CaseRecord[],
  scene: string,
): { ms: CaseRecord; strong: CaseRecord[] } | ClaimResult {
  const ms = findCase(records, scene, MERGE_SPLIT);
  if (!usable(ms)) return { status: "not run", measured: `no usable ${scene} × merge-split case` };
  const strong = STRONG.map((h) => findCase(records, scene, h)).filter(usable);
  if (!strong.length) {
    return { status: "not run", measured: `no usable strong-force case of ${scene}` };
  }
  return { ms, strong };
}

/** Earlier p: every stable strong-force case ends with ≥ FRAGMENT_FACTOR × merge-split's fragments. */
function earlierP(records: readonly CaseRecord[]): ClaimResult {
  const found = stableStrong(records, FIG5_SCENE);
  if ("status" in found) return found;
  const f = (r: CaseRecord) => metric(r, "fragments");
  return {
    status: found.strong.every((r) => f(r) >= FRAGMENT_FACTOR * f(found.ms))
      ? "reproduced"
      : "not reproduced",
    measured: [found.ms, ...found.strong].map((r) => `${r.handler}: ${formatNumber(f(r))}`)
      .join("; ") + " fragments",
  };
}

/** Earlier p2, p3: merge-split in pieces while every stable strong-force case pulverises the wall. */
function earlierPieces(scene: string): (records: readonly CaseRecord[]) => ClaimResult {
  return (records) => {
    const found = stableStrong(records, scene);
    if ("status" in found) return found;
    const reading = (r: CaseRecord) =>
      fractureReading(metric(r, "significantFragments"), metric(r, "largestFragmentShare"));
    const ok = reading(found.ms) === "in pieces" &&
      found.strong.every((r) => reading(r) === "pulverised");
    return {
      status: ok ? "reproduced" : "not reproduced",
      measured: [found.ms, ...found.strong].map((r) => `${r.handler}: ${reading(r)}`).join("; "),
    };
  };
}

/** Earlier u, v: bonds broke and the solids end in ≥ BROKEN_FRAGMENTS_MIN fragments, stable. */
function earlierBreaks(scene: string): (records: readonly CaseRecord[]) => ClaimResult {
  return (records) => {
    const r = findCase(records, scene, MERGE_SPLIT);
    const gap = missing([[scene, MERGE_SPLIT]], [r]);
    if (gap) return gap;
    if (r!.status !== "ok" && r!.status !== "unstable") {
      return { status: "not run", measured: `${scene} × ${MERGE_SPLIT} ended ${r!.status}` };
    }
    const fragments = metric(r!, "fragments");
    const broke = metric(r!, "brokenBonds") > 0 && fragments >= BROKEN_FRAGMENTS_MIN;
    return {
      status: broke && !unstable(r!) ? "reproduced" : "not reproduced",
      measured: `${scene}: ${formatNumber(fragments)} fragments${unstable(r!) ? ", unstable" : ""}`,
    };
  };
}

/**
 * Earlier s: merge-split stable at a dt at least DT_FACTOR × the force baselines' largest stable
 * one, on whatever scene was swept (the suites swept Fig. 3's high drop, not a fracture scene), a
 * leak not counted.
 */
function earlierS(records: readonly CaseRecord[]): ClaimResult {
  const old = sweptLacking(records, (r) => r.sweep?.["scene.dt"] !== undefined);
  if (old) return old;
  const scenes = [
    ...new Set(records.filter((r) => r.sweep?.["scene.dt"] !== undefined).map((r) => r.scene)),
  ];
  return dtAgainstBaselines(records, scenes, (scene, handler) => {
    const d = dtStability(sweptOnly(records, { scene, handler, key: "scene.dt" }), {
      scene,
      handler,
    });
    return { dt: d.stable.length ? d.stable[d.stable.length - 1] : null, swept: d.values };
  }, { verb: "stable", where: "one scene (--sweep scene.dt=…)" });
}

/** Earlier h: α = β = 0 must end with an energy ratio at least this much below α = 1's. */
export const DISSIPATION_MARGIN = 0.01;

/**
 * An earlier definition of the claim `id`: it tested the same sentence (the quote of the claim
 * that replaced it) and no suite judges it (it needs no case of its own).
 */
function earlier(claim: Pick<Claim, "id" | "text" | "paper" | "evaluate">): Claim {
  const quote = CLAIMS.find((c) => c.id === claim.id)?.quote ?? null;
  return { ...claim, quote, needs: [] };
}

/** The earlier definitions, each under the id of the claim that replaced it. */
export const EARLIER_CLAIMS: readonly Claim[] = [
  earlier({
    id: "h",
    text:
      `α = β = 0 dissipates more energy than α = 1 (energy ratio lower by > ${DISSIPATION_MARGIN}, a margin set after a run had been seen)`,
    paper: "Fig. 10",
    evaluate: twoScenes(
      [FIG10_SCENES.none, FIG10_SCENES.merging],
      { metric: "energyRatio", test: (a, b) => a < b - DISSIPATION_MARGIN },
    ),
  }),
  earlier({
    id: "s",
    text:
      `Merge-split is stable at a time step where the force-based baselines need one at least ${DT_FACTOR}× smaller (on the swept scene: Fig. 3's high drop; leaks not counted)`,
    paper: "§6.1",
    evaluate: earlierS,
  }),
  earlier({
    id: "e",
    text:
      `penalty-strong flings fluid back: the fluid's net upward velocity after impact > ${REBOUND_FACTOR} × merge-split's and > ${REBOUND_SPEED_FRACTION} × the reference speed`,
    paper: "Fig. 4",
    evaluate: earlierE,
  }),
  earlier({
    id: "e2",
    text:
      `akinci lets more than ${LEAK_FRACTION_MIN} of the fluid through, flings it back (as the earlier e) or is unstable`,
    paper: "Fig. 4",
    evaluate: earlierE2,
  }),
  ...(["m", "m2"] as const).map((id, k): Claim =>
    earlier({
      id,
      text: `${
        STRONG[k]
      } is unstable at one height at least (recorded unstable, exploded, or energy ratio > ${
        1 + ENERGY_GAIN_MAX
      })`,
      paper: "Fig. 3",
      evaluate: earlierUnstable(STRONG[k]),
    })
  ),
  earlier({
    id: "p",
    text:
      `Strong forces crumble the wall: at least ${FRAGMENT_FACTOR}× merge-split's fragments (stable strong-force runs only)`,
    paper: "Fig. 5",
    evaluate: earlierP,
  }),
  earlier({
    id: "p2",
    text: "As p2, reading only the strong-force runs that stayed stable",
    paper: "Fig. 5",
    evaluate: earlierPieces(FIG5_SCENE),
  }),
  earlier({
    id: "p3",
    text: "As p3, reading only the strong-force runs that stayed stable",
    paper: "Fig. 5",
    evaluate: earlierPieces(`${FIG5_SCENE}-${REAL_MATERIAL}`),
  }),
  ...([["u", FIG8_SCENES.wall], ["v", FIG8_SCENES.bowl]] as const).map((
    [id, scene],
  ): Claim =>
    earlier({
      id,
      text:
        `${scene}: bonds break and it ends in at least ${BROKEN_FRAGMENTS_MIN} fragments of any size, stable (merge-split)`,
      paper: "Fig. 8",
      evaluate: earlierBreaks(scene),
    })
  ),
];
