/**
 * The claims of Fig. 8, the coupled scenes: cloth and tori, the dam break against a wall, the bowl: each quotes its sentence, declares the cases it needs and reads them
 * (`reports/claims/claims.ts` joins every figure's).
 *
 * @module
 */
import {
  BROKEN_PIECES_MIN,
  FIG8_SCENES,
  PIECE_SHARE_MIN,
  PIECES_MIN,
  REAL_MATERIAL,
} from "../claim_thresholds.ts";
import {
  breaksIntoPieces,
  breaksUnderFluid,
  mergeSplitHoldsOn,
  mergeSplitNoneThrough,
} from "../claim_readers.ts";
import { LEAK_FRACTION_MIN } from "../case_status.ts";
import type { Claim, ClaimQuote, ClaimResolution } from "../claim.ts";

/** A fragment of ≥ 1 % of the broken solid of `scene` (claims u–v). */
const pieceOf = (scene: string, what: string): ClaimResolution => ({
  scenes: [scene],
  body: "breakable",
  share: 0.01,
  threshold: `a fragment of ≥ 1 % of the ${what}`,
});

/** The sentence t and t2 test. */
const SINGLE_LAYER: ClaimQuote = {
  where: "§6.2 (Fig. 8 discussion), Fig. 8 top",
  quote:
    "The cloth model contains only a single layer of particles. Nonetheless, no fluid particle penetrates through the cloth surface.",
};

/** The sentence u, u2 and u3 test. */
const DAM_BREAK_WALL: ClaimQuote = {
  where: "§6.2 (Fig. 8 discussion), Fig. 8 middle",
  quote:
    "In the dam break example, the first impact of fluid particles lead to small fractures around the wall. These fractures form weak points that ultimately break the wall and the broken pieces are carried away by the fluid.",
};

/** The claims of Fig. 8, the coupled scenes: cloth and tori, the dam break against a wall, the bowl. */
export const FIG8_CLAIMS: readonly Claim[] = [
  {
    id: "t",
    text:
      "A single-layer cloth holds the poured fluid and the tori on it: no particle passes through at any sample (0, no tolerance), stable (merge-split)",
    paper: "Fig. 8 (top)",
    quote: SINGLE_LAYER,
    needs: [{ scene: FIG8_SCENES.cloth, handlers: ["merge-split"] }],
    evaluate: mergeSplitNoneThrough([FIG8_SCENES.cloth]),
  },
  {
    id: "t2",
    text:
      `As t, with the one leak tolerance: at most ${LEAK_FRACTION_MIN} of the particles that can cross (LEAK_FRACTION_MIN's reason), stable (merge-split)`,
    paper: "Fig. 8 (top)",
    quote: SINGLE_LAYER,
    needs: [{ scene: FIG8_SCENES.cloth, handlers: ["merge-split"] }],
    resolution: {
      scenes: [FIG8_SCENES.cloth],
      body: "crossing",
      share: LEAK_FRACTION_MIN,
      threshold: `a leak of ${LEAK_FRACTION_MIN} of the particles that can cross`,
    },
    evaluate: mergeSplitHoldsOn([FIG8_SCENES.cloth]),
  },
  {
    id: "u",
    text:
      `The dam break cracks the brittle wall, then breaks it: its first broken bond leaves the wall in one piece (at most one fragment of ≥ 1 %), and before any blow-up it is in at least ${BROKEN_PIECES_MIN} fragments of ≥ 1 % of it (merge-split)`,
    paper: "Fig. 8 (middle)",
    quote: DAM_BREAK_WALL,
    needs: [{ scene: FIG8_SCENES.wall, handlers: ["merge-split"] }],
    resolution: pieceOf(FIG8_SCENES.wall, "wall"),
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
    resolution: pieceOf(FIG8_SCENES.bowl, "bowl"),
    evaluate: breaksUnderFluid(FIG8_SCENES.bowl, { cracksFirst: false }),
  },
  {
    id: "u2",
    text:
      `The dam break breaks the brittle wall into pieces, not dust: at least ${PIECES_MIN} fragments of ≥ 1 % of it, the largest ≥ ${PIECE_SHARE_MIN} of it, stable (merge-split)`,
    paper: "Fig. 8 (middle)",
    quote: DAM_BREAK_WALL,
    needs: [{ scene: FIG8_SCENES.wall, handlers: ["merge-split"] }],
    resolution: pieceOf(FIG8_SCENES.wall, "wall"),
    evaluate: breaksIntoPieces(FIG8_SCENES.wall),
  },
  {
    id: "u3",
    text:
      `As u2, the wall of a real brittle material (${REAL_MATERIAL}: ${FIG8_SCENES.wall}-${REAL_MATERIAL}, deno task scene --material ${REAL_MATERIAL})`,
    paper: "Fig. 8 (middle)",
    quote: DAM_BREAK_WALL,
    needs: [{ scene: `${FIG8_SCENES.wall}-${REAL_MATERIAL}`, handlers: ["merge-split"] }],
    resolution: pieceOf(`${FIG8_SCENES.wall}-${REAL_MATERIAL}`, "wall"),
    evaluate: breaksIntoPieces(`${FIG8_SCENES.wall}-${REAL_MATERIAL}`),
  },
];
