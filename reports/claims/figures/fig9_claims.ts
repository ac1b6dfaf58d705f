/**
 * The claims of Fig. 9, FLIP with cloth and with a peridynamic solid: each quotes its sentence, declares the cases it needs and reads them
 * (`reports/claims/claims.ts` joins every figure's).
 *
 * @module
 */
import { mergeSplitHoldsOn } from "../claim_readers.ts";
import { LEAK_FRACTION_MIN } from "../case_status.ts";
import type { Claim } from "../claim.ts";

/** The claims of Fig. 9, FLIP with cloth and with a peridynamic solid. */
export const FIG9_CLAIMS: readonly Claim[] = [
  {
    id: "q",
    text:
      `Merge-split lets no FLIP particle through the cloth (at most ${LEAK_FRACTION_MIN} of them) and stays stable`,
    paper: "Fig. 9",
    quote: {
      where: "§6.2 (Fig. 9 discussion)",
      quote:
        "As can be seen in the figure, similar levels of complex interactions between solid and fluid simulations can be achieved using FLIP as well.",
    },
    needs: [{ scene: "fig9-flip-cloth", handlers: ["merge-split"] }],
    evaluate: mergeSplitHoldsOn(["fig9-flip-cloth"]),
  },
  {
    id: "q2",
    text:
      `Merge-split couples FLIP with a peridynamic solid as it does with cloth: no FLIP particle inside the solid (at most ${LEAK_FRACTION_MIN} of them), stable`,
    paper: "Fig. 9 (bottom)",
    quote: {
      where: "§6.2 (Fig. 9 discussion)",
      quote:
        "As can be seen in the figure, similar levels of complex interactions between solid and fluid simulations can be achieved using FLIP as well.",
    },
    needs: [{ scene: "fig9-flip-peridynamics", handlers: ["merge-split"] }],
    evaluate: mergeSplitHoldsOn(["fig9-flip-peridynamics"]),
  },
];
