/**
 * Named case suites of `deno task bench --suite <name>`: which scenes run under which handlers.
 * `default` (a user's first run, minutes on a laptop CPU at `small`) covers every system and
 * every handler family; `claims` adds the cases of the rest of the claims the small scenes judge
 * in minutes (Figs. 3, 7, 10 and Fig. 4's every level); `all` is every scene under every handler
 * that applies to it.
 *
 * @module
 */

import type { Scale } from "../core/scene.ts";

/** A seed a case runs at: a number, or `"scene"` for the scene's own seed. */
export type SeedChoice = number | "scene";

/**
 * The seeds of the suites whose claims decide what the paper's findings are (issue 24): the
 * scene's own, 7 and 99. A claim is reproduced only when it holds at each (`reports/claims.ts`).
 */
export const CLAIM_SEEDS: readonly SeedChoice[] = ["scene", 7, 99];

/** A suite: (scene id or glob, handler ids or globs) entries; a case runs when any entry matches. */
export interface Suite {
  description: string;
  cases: readonly (readonly [scene: string, handlers: readonly string[]])[];
  /** The seeds each case runs at (default: the scene's own); `--seed` overrides them. */
  seeds?: readonly SeedChoice[];
  /** The scale its cases run at when no `--scale` is given (default `small`). */
  scale?: Scale;
}

/** Every suite, by name. */
export const SUITES: Readonly<Record<string, Suite>> = {
  default: {
    description:
      "every system and handler family at a representative scene each, the paper's headline comparison and the dam breaks' validation (the first run: about 4 min on two CPU cores; --suite claims for the rest of the claims)",
    cases: [
      // Fig. 4, SPH fluid on cloth: one level of each handler family (akinci as published), and
      // penalty-strong for the fling-back of claim (e); claims a–e2
      ["fig4-fluid-cloth", [
        "merge-split",
        "penalty-weak",
        "penalty-strong",
        "kernel-repulsion-weak",
        "akinci",
        "impulse",
        "velocity-projection",
      ]],
      // the peridynamic solid (Fig. 3): merge-split holds the ball, a weak penalty lets it through
      ["fig3-ball-cloth-high", ["merge-split", "penalty-weak"]],
      // the FLIP system (Fig. 9) and the validation of both fluids (dam breaks)
      ["fig9-flip-cloth", ["merge-split"]],
      ["dam-break-*", ["merge-split"]],
    ],
  },
  claims: {
    description:
      "the cases of every claim the small scenes judge in minutes: Fig. 4 under every handler, Fig. 3 (high) under each family's levels, Figs. 7 (mass ratio 100), 9 and 10, the dam breaks; at three seeds (the scene's, 7, 99: about 80 min on two CPU cores, --seed scene one seed in 26; the default suite until 2026-11-28, at the scene's seed)",
    cases: [
      ["fig4-fluid-cloth", ["*"]],
      ["fig10-*", ["merge-split"]],
      // Fig. 11 runs a few seconds per case: its own suite (`--suite fig11`)
      ["fig3-ball-cloth-high", [
        "merge-split",
        "penalty-weak",
        "penalty-strong",
        "kernel-repulsion-weak",
        "kernel-repulsion-strong", // claim (m2), as penalty-strong for (m)
        "impulse",
      ]],
      ["fig7-mass-100", ["merge-split"]],
      ["fig9-flip-cloth", ["merge-split"]],
      ["dam-break-*", ["merge-split"]],
    ],
    seeds: CLAIM_SEEDS,
  },
  "claims-medium": {
    description:
      "the claims of Figs. 3, 4 and 7 at scale medium, where they are read at a resolution closer to convergence (the report says where a claim's outcome differs from small's): Fig. 4 under merge-split and one level of each family, Fig. 3 (both heights) under merge-split and the force families' weak and strong levels, Fig. 7 (mass ratio 100); at three seeds",
    cases: [
      ["fig4-fluid-cloth", [
        "merge-split",
        "penalty-weak",
        "penalty-strong",
        "kernel-repulsion-weak",
        "akinci",
        "impulse",
      ]],
      ["fig3-ball-cloth-*", [
        "merge-split",
        "penalty-weak",
        "penalty-strong",
        "kernel-repulsion-weak",
        "kernel-repulsion-strong",
      ]],
      ["fig7-mass-100", ["merge-split"]],
    ],
    seeds: CLAIM_SEEDS,
    scale: "medium",
  },
  all: {
    description:
      "every scene under every handler that applies to it, at three seeds (the scene's, 7, 99)",
    cases: [["*", ["*"]]],
    seeds: CLAIM_SEEDS,
  },
  fig11: {
    description:
      "Fig. 11, the meta-particle size limits: a fluid block resting on the cloth for a few seconds, every limit (claims i, j), at three seeds (the scene's, 7, 99)",
    cases: [["fig11-*", ["merge-split"]]],
    seeds: CLAIM_SEEDS,
  },
  table1: {
    description:
      "Table I's six scenes under merge-split (Fig. 6; Fig. 8 top, middle, bottom; Fig. 9 top, bottom); " +
      "--scale paper --steps N for the paper's particle counts",
    cases: [
      ["fig6-wall", ["merge-split"]],
      ["fig8-cloth-tori", ["merge-split"]],
      ["fig8-dam-break-wall", ["merge-split"]],
      ["fig8-bowl", ["merge-split"]],
      ["fig9-flip-cloth", ["merge-split"]],
      ["fig9-flip-peridynamics", ["merge-split"]],
    ],
  },
};

/** Looks up a suite; the error lists the valid names. */
export function getSuite(name: string): Suite {
  const s = SUITES[name];
  if (!s) {
    throw new RangeError(`unknown suite "${name}"; suites: ${Object.keys(SUITES).join(", ")}`);
  }
  return s;
}
