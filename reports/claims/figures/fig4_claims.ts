/**
 * The claims of Fig. 4, a fluid column hitting a cloth: each quotes its sentence, declares the cases it needs and reads them
 * (`reports/claims/claims.ts` joins every figure's).
 *
 * @module
 */
import { AKINCI, FAST_REBOUND_SHARE_MIN, FIG4_SCENE, MERGE_SPLIT } from "../claim_thresholds.ts";
import {
  blowUpText,
  fig4Case,
  mergeSplitHoldsOn,
  mergeSplitNoneThrough,
  onlyMergeSplit,
  strongCases,
} from "../claim_readers.ts";
import { LEAK_FRACTION_MIN } from "../case_status.ts";
import { findCase, lacking, metric, missing } from "../claim_records.ts";
import { type CaseRecord, FAST_REBOUND_FRACTION } from "../../../core/result.ts";
import { formatNumber } from "../../page/format_number.ts";
import { FIG4_COLUMNS } from "../../../core/figure_columns.ts";
import type { Claim, ClaimQuote } from "../claim.ts";

/** The sentence a and a2 test. */
const SEPARATION: ClaimQuote = {
  where: "§6.1 (Fig. 4 discussion)",
  quote:
    "Our merging-and-splitting method produces perfect separation between the fluid and the solid systems and completely prevents penetration without introducing instabilities.",
};

/** The claims of Fig. 4, a fluid column hitting a cloth. */
export const FIG4_CLAIMS: readonly Claim[] = [
  {
    id: "a",
    text:
      "Merge-split completely prevents penetration: no fluid particle through the cloth at any sample (0, no tolerance), and the run stable (an unstable run is a verdict against it)",
    paper: "Fig. 4",
    quote: SEPARATION,
    needs: [{ scene: FIG4_SCENE, handlers: ["merge-split"] }],
    evaluate: mergeSplitNoneThrough([FIG4_SCENE]),
  },
  {
    id: "a2",
    text:
      `As a, with the one leak tolerance: at most ${LEAK_FRACTION_MIN} of the fluid through (LEAK_FRACTION_MIN's reason: one or two particles cross at a sheet's edge or between two samples), stable`,
    paper: "Fig. 4",
    quote: SEPARATION,
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
];
