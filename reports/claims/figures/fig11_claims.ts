/**
 * The claims of Fig. 11, the meta-particle size limits: each quotes its sentence, declares the cases it needs and reads them
 * (`reports/claims/claims.ts` joins every figure's).
 *
 * @module
 */
import {
  FIG11_CLAIM,
  FIG11_SIMILAR,
  MERGE_SPLIT,
  RIGIDIFY_FACTOR,
  SHEET_SPAN_MIN,
} from "../claim_thresholds.ts";
import { twoScenes, unstableText } from "../claim_readers.ts";
import { LEAK_FRACTION_MIN } from "../case_status.ts";
import { findCase, lacking, metric, notFinished } from "../claim_records.ts";
import type { CaseRecord } from "../../../core/result.ts";
import { formatNumber } from "../../page/format_number.ts";
import type { Claim, ClaimPremise, ClaimResolution } from "../claim.ts";

/** A leak of Fig. 11's fluid: {@link LEAK_FRACTION_MIN} of it (claims i, j2). */
const leakOf = (scenes: readonly string[]): ClaimResolution => ({
  scenes,
  body: "crossing",
  share: LEAK_FRACTION_MIN,
  threshold: `a leak of ${LEAK_FRACTION_MIN} of the fluid`,
});

/**
 * Fig. 11's premise (§6.4: "a single meta-particle" of "the entire cloth"): under the unlimited
 * case, the largest meta-particle held at least {@link SHEET_SPAN_MIN} of the sheet at some sample
 * (`largestSheetGroupFraction`), and with `late` over the whole second half of the run
 * (`largestSheetGroupFractionLateMin`, where recorded).
 */
function sheetSpanned(late: boolean): ClaimPremise {
  return {
    text:
      `the unlimited case's largest meta-particle holds at least ${SHEET_SPAN_MIN} of the sheet${
        late ? " throughout the run's second half" : " at some sample"
      }`,
    check(records) {
      const r = findCase(records, "fig11-nlimit-inf", MERGE_SPLIT);
      const most = r?.metrics?.summary.largestSheetGroupFraction;
      if (typeof most !== "number") return null;
      if (most < SHEET_SPAN_MIN) {
        return `the largest meta-particle held at most ${formatNumber(most)} of the sheet`;
      }
      const least = r!.metrics!.summary.largestSheetGroupFractionLateMin;
      if (late && typeof least === "number" && least < SHEET_SPAN_MIN) {
        return `the largest meta-particle held ${
          formatNumber(most)
        } of the sheet at most, but only ${formatNumber(least)} at one sample of the second half`;
      }
      return null;
    },
  };
}

/** The claims of Fig. 11, the meta-particle size limits. */
export const FIG11_CLAIMS: readonly Claim[] = [
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
    resolution: leakOf(["fig11-nlimit-4-8", "fig11-nlimit-32-64"]),
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
    premise: sheetSpanned(false),
    evaluate: twoScenes(["fig11-nlimit-inf", "fig11-nlimit-8-16"], {
      metric: "sheetDeflectionEnd",
      test: (a, b) => a < RIGIDIFY_FACTOR * b,
      ...FIG11_CLAIM,
    }),
  },
  {
    id: "j3",
    text:
      `The unlimited meta-particle's rigidification is permanent: over the second half of the run the unlimited sheet's largest deflection stays below ${RIGIDIFY_FACTOR} × the smallest deflection of the sheet with 8–16`,
    paper: "Fig. 11",
    quote: {
      where: "§6.4 (Fig. 11 discussion)",
      quote:
        "In this case, the rigidification remains permanent, as the solid-fluid contact persists, preventing any deformation.",
    },
    needs: [{ scene: "fig11-nlimit-inf", handlers: ["merge-split"] }, {
      scene: "fig11-nlimit-8-16",
      handlers: ["merge-split"],
    }],
    premise: sheetSpanned(true),
    evaluate(records) {
      const scenes = ["fig11-nlimit-inf", "fig11-nlimit-8-16"] as const;
      const cases = scenes.map((scene) => findCase(records, scene, MERGE_SPLIT));
      const gap = notFinished(scenes.map((scene) => [scene, MERGE_SPLIT]), cases);
      if (gap) return { ...gap, measured: `${gap.measured} (${FIG11_CLAIM.hint})` };
      const [inf, limited] = cases as CaseRecord[];
      const shaky = unstableText([inf, limited]);
      if (shaky) return { status: "not reproduced", measured: shaky };
      const old = lacking([inf, limited], "sheetDeflectionLateMax");
      if (old) return old;
      const most = metric(inf, "sheetDeflectionLateMax");
      const least = metric(limited, "sheetDeflectionLateMin");
      return {
        status: most < RIGIDIFY_FACTOR * least ? "reproduced" : "not reproduced",
        measured: `second half: unlimited at most ${formatNumber(most)}, 8–16 at least ${
          formatNumber(least)
        } radii (${formatNumber(most / least)} ×)`,
      };
    },
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
    resolution: leakOf(FIG11_SIMILAR),
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
];
