/**
 * The claims of Fig. 5, a dense ball breaking a brittle wall: each quotes its sentence, declares the cases it needs and reads them
 * (`reports/claims/claims.ts` joins every figure's).
 *
 * @module
 */
import {
  BROKEN_PIECES_MIN,
  FIG5_SCENE,
  MERGE_SPLIT,
  PIECE_SHARE_MIN,
  PIECES_MIN,
  REAL_MATERIAL,
} from "../claim_thresholds.ts";
import {
  blowUpText,
  piecesWhileStrongPulverise,
  STRONG,
  strongPulverise,
  unstableText,
} from "../claim_readers.ts";

import { findCase, lacking, metric, notFinished } from "../claim_records.ts";
import type { CaseRecord } from "../../../core/result.ts";
import { formatNumber } from "../../page/format_number.ts";
import { FIG3_COLUMNS } from "../../../core/figure_columns.ts";
import type { Claim, ClaimResolution } from "../claim.ts";

/** A share of the wall of `scene` that a fragment threshold reads (claims p–p4). */
const ofWall = (scene: string, share: number, threshold: string): ClaimResolution => ({
  scenes: [scene],
  body: "breakable",
  share,
  threshold,
});
/** The 1 % of a significant fragment. */
const PIECE = 0.01;

/** The claims of Fig. 5, a dense ball breaking a brittle wall. */
export const FIG5_CLAIMS: readonly Claim[] = [
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
    resolution: ofWall(
      FIG5_SCENE,
      PIECE_SHARE_MIN,
      `a largest fragment of ${PIECE_SHARE_MIN} of the wall`,
    ),
    evaluate(records) {
      const found = strongPulverise(records, FIG5_SCENE);
      if ("status" in found) return found;
      return { status: found.ok ? "reproduced" : "not reproduced", measured: found.measured };
    },
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
    resolution: ofWall(FIG5_SCENE, PIECE, "a fragment of ≥ 1 % of the wall"),
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
    resolution: ofWall(`${FIG5_SCENE}-${REAL_MATERIAL}`, PIECE, "a fragment of ≥ 1 % of the wall"),
    evaluate: piecesWhileStrongPulverise(`${FIG5_SCENE}-${REAL_MATERIAL}`),
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
    resolution: ofWall(FIG5_SCENE, PIECE, "a fragment of ≥ 1 % of the wall"),
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
];
