/**
 * The claims of Fig. 7, balls of 1, 10 and 100 times the cloth's particle mass: each quotes its sentence, declares the cases it needs and reads them
 * (`reports/claims/claims.ts` joins every figure's).
 *
 * @module
 */
import { FIG7_SCENES } from "../claim_thresholds.ts";
import { mergeSplitHoldsOn } from "../claim_readers.ts";
import { LEAK_FRACTION_MIN } from "../case_status.ts";
import type { Claim } from "../claim.ts";

/** The claims of Fig. 7, balls of 1, 10 and 100 times the cloth's particle mass. */
export const FIG7_CLAIMS: readonly Claim[] = [
  {
    id: "n",
    text:
      `Merge-split stays stable and leak-free (at most ${LEAK_FRACTION_MIN} of the ball through) at every mass ratio run (1, 10, 100)`,
    paper: "Fig. 7",
    quote: {
      where: "§6.1 (Fig. 7 discussion)",
      quote:
        "Our merging-and-splitting method can stably handle variations in mass, since meta particles allow significant energy transfer between objects during each time step without introducing instabilities, as demonstrated in Fig. 7.",
    },
    needs: [{ scene: "fig7-mass-100", handlers: ["merge-split"] }],
    evaluate: mergeSplitHoldsOn(FIG7_SCENES),
  },
];
