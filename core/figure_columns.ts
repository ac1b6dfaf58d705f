/**
 * The methods each comparison figure of the paper shows beside merging-and-splitting, as handler
 * ids, declared once for the claims that read a figure's every column (`reports/claims/claims.ts`:
 * the captions' "only our approach", Fig. 5's "all collision handling methods") and the suites
 * that run them (`bench/cases/suites.ts`). Fig. 3: "weak/medium/strong penalty and SPH-based
 * forces differ by an order of magnitude", and impulses; Fig. 4: "weak/strong penalty and SPH-based
 * force stiffness parameters", and impulses; Fig. 5 shows Fig. 3's columns.
 *
 * @module
 */

/** Fig. 3's (and Fig. 5's) columns beside merge-split. */
export const FIG3_COLUMNS = [
  "penalty-weak",
  "penalty-medium",
  "penalty-strong",
  "kernel-repulsion-weak",
  "kernel-repulsion-medium",
  "kernel-repulsion-strong",
  "impulse",
] as const;

/** Fig. 4's columns beside merge-split. */
export const FIG4_COLUMNS = [
  "penalty-weak",
  "penalty-strong",
  "kernel-repulsion-weak",
  "kernel-repulsion-strong",
  "impulse",
] as const;
