/**
 * The claims of Fig. 10, the energy parameters α and β: each quotes its sentence, declares the cases it needs and reads them
 * (`reports/claims/claims.ts` joins every figure's).
 *
 * @module
 */
import { FIG10_SCENES, MERGE_SPLIT, REBOUND_HEIGHT_MARGIN } from "../claim_thresholds.ts";
import { twoScenes } from "../claim_readers.ts";

import type { Claim } from "../claim.ts";

/** The claims of Fig. 10, the energy parameters α and β. */
export const FIG10_CLAIMS: readonly Claim[] = [
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
];
