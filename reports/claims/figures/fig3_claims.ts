/**
 * The claims of Fig. 3, a ball dropped on a cloth from two heights: each quotes its sentence, declares the cases it needs and reads them
 * (`reports/claims/claims.ts` joins every figure's).
 *
 * @module
 */
import { FIG3_SCENES, FORCE_FAMILIES, MERGE_SPLIT, SWEEP_VALUES_MIN } from "../claim_thresholds.ts";
import {
  blowUpText,
  mergeSplitHoldsOn,
  onlyMergeSplit,
  STRONG,
  sweptLacking,
} from "../claim_readers.ts";
import {
  ENERGY_GAIN_MAX,
  instability,
  LEAK_FRACTION_MIN,
  SPEED_SPIKE_RATIO,
  SPIKE_FIELD,
  unstable,
} from "../case_status.ts";
import { metric, overScenes, sweptOnly } from "../claim_records.ts";
import { workingWindow } from "../sweep_stats.ts";
import { formatNumber } from "../../page/format_number.ts";
import { FIG3_COLUMNS } from "../../../core/figure_columns.ts";
import type { Claim } from "../claim.ts";

/** The claims of Fig. 3, a ball dropped on a cloth from two heights. */
export const FIG3_CLAIMS: readonly Claim[] = [
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
];
