/**
 * The claims of the method's own sentences: conservation (§4), stability (§6), the time step (§6.1), the order of merging (§3): each quotes its sentence, declares the cases it needs and reads them
 * (`reports/claims/claims.ts` joins every figure's).
 *
 * @module
 */
import { MERGE_ORDERS } from "../../../core/merge_orders.ts";
import {
  DT_FACTOR,
  ENERGY_ERROR_MAX,
  FIG4_SCENE,
  FIG5_SCENE,
  MERGE_ORDER_SPREAD_MAX,
  MERGE_SPLIT,
  MOMENTUM_ERROR_MAX,
} from "../claim_thresholds.ts";
import { dtAgainstBaselines, type DtWindow, sweptLacking } from "../claim_readers.ts";
import { caseWorks, instability, SPIKE_FIELD, unstable, usable } from "../case_status.ts";
import { lacking, metric, sweptOnly } from "../claim_records.ts";
import { byValue } from "../sweep_stats.ts";
import type { CaseRecord } from "../../../core/result.ts";
import { formatNumber } from "../../page/format_number.ts";
import type { Claim } from "../claim.ts";

/**
 * The swept time steps of `scene` × `handler` and the largest at which it works: every record
 * there usable and stable by the one definition, no particle more than half inside another solid
 * before the first broken bond, and at most LEAK_FRACTION_MIN through (claim s).
 */
function dtWorks(
  records: readonly CaseRecord[],
  scene: string,
  handler: string,
): DtWindow {
  const at = byValue(sweptOnly(records, { scene, handler, key: "scene.dt" }), "scene.dt");
  const swept = [...at.keys()].sort((a, b) => a - b);
  const works = (v: number) =>
    at.get(v)!.every((r) => caseWorks(r) && metric(r, "solidInsideBeforeFracture") <= 0);
  const ok = swept.filter(works);
  return { dt: ok.length ? ok[ok.length - 1] : null, swept };
}

/** The claims of the method's own sentences: conservation (§4), stability (§6), the time step (§6.1), the order of merging (§3). */
export const METHOD_CLAIMS: readonly Claim[] = [
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
    id: "s",
    text:
      `Merge-split works (stable by the one definition, the ball never more than half inside the wall before it breaks, no leak) on Fig. 5's brittle wall at a time step where the force-based baselines need one at least ${DT_FACTOR}× smaller`,
    paper: "§6.1",
    quote: {
      where: "§6.1 (before the Fig. 5 discussion)",
      quote:
        "Particle-based fracture simulations using peridynamics are typically handled using penalty forces [1], which require extremely small time step size",
    },
    needs: [{
      scene: FIG5_SCENE,
      handlers: ["merge-split", "penalty-medium", "kernel-repulsion-medium"],
      sweep: "scene.dt",
    }],
    evaluate(records) {
      const dtSwept = (r: CaseRecord) => r.sweep?.["scene.dt"] !== undefined;
      const old = sweptLacking(records, dtSwept) ??
        lacking(records.filter((r) => dtSwept(r) && usable(r)), "solidInsideBeforeFracture");
      if (old) return old;
      // the fracture scene only: a sweep of another scene (the earlier s read Fig. 3's) is not it
      return dtAgainstBaselines(records, [FIG5_SCENE], (scene, h) => dtWorks(records, scene, h), {
        verb: "works",
        where: `${FIG5_SCENE} (--suite claims)`,
      });
    },
  },
  {
    id: "z",
    text:
      `The order of merging does not change the velocities after splitting: each group of three or more particles merged in its order and in reverse under the case's merge order (the merge-order probe, f64; the paper's setup merges along the colliding pairs, the ablation's index-com-merge in ascending index) ends with every particle's velocity within ${MERGE_ORDER_SPREAD_MAX} × the reference speed, in every merge-split case`,
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
        } groups probed; merge order ${mergeOrdersOf(probed)}${pairUnionNote(probed)}`,
      };
    },
  },
];

/** The probe's spread under the reading the engine does not run (pair-union), where recorded. */
function pairUnionNote(probed: readonly CaseRecord[]): string {
  const union = probed.filter((r) => Number.isFinite(metric(r, "mergeOrderSpreadPairUnion")));
  if (!union.length) return "";
  const worst = Math.max(...union.map((r) => metric(r, "mergeOrderSpreadPairUnion")));
  return `; under the reading pair-union (the group's colliding pairs in order, metas joined), largest ${
    formatNumber(worst)
  } × the reference speed`;
}

/**
 * The merge orders `records` ran (`merge-split.mergeOrder`, `core/merge_orders.ts`); a record made
 * before the order was a parameter merged in ascending index from the meta's centre (index-com).
 */
function mergeOrdersOf(records: readonly CaseRecord[]): string {
  const names = records.map((r) => {
    const k = r.handlerParams?.mergeOrder;
    return k === undefined ? "index-com (recorded before it was a parameter)" : MERGE_ORDERS[k];
  });
  return [...new Set(names)].join(", ");
}
