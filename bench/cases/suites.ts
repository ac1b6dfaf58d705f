/**
 * Named case suites of `deno task bench --suite <name>`: which scenes run under which handlers.
 * `default` (a user's first run, minutes on a laptop CPU at `small`) covers every system and
 * every handler family; `claims` adds the cases of the rest of the claims the small scenes judge
 * in minutes (Figs. 3, 7, 10 and Fig. 4's every level); `all` is every scene under every handler
 * that applies to it; `hardware` compares machines (`./hardware_suite.ts`).
 *
 * @module
 */

import type { Scale } from "../../core/scene/scene.ts";
import { PAPER_SETUP, VARIANTS } from "../../core/setups.ts";
import { FIG3_COLUMNS } from "../../core/figure_columns.ts";
import {
  HARDWARE_FIGURES,
  HARDWARE_SCALES,
  HARDWARE_STEPS,
} from "../../core/hardware/hardware_suite.ts";

/** A seed a case runs at: a number, or `"scene"` for the scene's own seed. */
export type SeedChoice = number | "scene";

/**
 * The seeds of the suites whose claims decide what the paper's findings are: the
 * scene's own, 7 and 99. A claim is reproduced only when it holds at each (`reports/claims/claims.ts`).
 */
export const CLAIM_SEEDS: readonly SeedChoice[] = ["scene", 7, 99];

/**
 * The setups of the suites that judge claims: the paper's, from which the claims are read, then
 * every variant (`core/setups.ts`) on the cases it changes, for the report's ablation table.
 */
export const ABLATION_SETUPS: readonly string[] = [PAPER_SETUP.id, ...VARIANTS.map((v) => v.id)];

/**
 * One entry of a suite: a scene id or glob, handler ids or globs, and optionally the sweeps its
 * cases run at (as `--sweep` writes them): the entry's cases run once per swept value instead of
 * once.
 */
export type SuiteEntry = readonly [
  scene: string,
  handlers: readonly string[],
  sweeps?: readonly string[],
];

/** A suite: entries; a case runs when any entry matches (once per entry that sweeps it). */
export interface Suite {
  description: string;
  cases: readonly SuiteEntry[];
  /** The seeds each case runs at (default: the scene's own); `--seed` overrides them. */
  seeds?: readonly SeedChoice[];
  /** The scale its cases run at when no `--scale` is given (default `small`). */
  scale?: Scale;
  /** The steps each case runs when no `--steps` is given (default the scene's duration / dt). */
  steps?: number;
  /** The setups its cases run under when no `--variant` is given (default the paper's alone). */
  setups?: readonly string[];
  /**
   * The claims it judges (`reports/claims/claims.ts` ids): it runs every case each of them needs
   * (`Claim.needs`), which a test holds it to (`claims_suites_test.ts`).
   */
  judges?: readonly string[];
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
    judges: ["a", "a2", "b", "c", "d", "e2", "f", "g", "k", "l", "q", "w", "w2", "x", "x2", "z"],
  },
  claims: {
    description:
      "the cases of every claim the small scenes judge: Fig. 4 under every handler, Fig. 3 (both heights) under every column of the figure, Figs. 7 (mass ratio 100), 9 and 10, the dam breaks, and the sweeps of claims (r) (the force families' stiffness at both heights of Fig. 3) and (s) (the time step of Fig. 5's brittle wall); at three seeds (the scene's, 7, 99; 231 cases), then each variant of core/setups.ts on the cases it changes (144 more: the report's ablation table; --variant none for the paper's setup alone)",
    cases: [
      ["fig4-fluid-cloth", ["*"]],
      ["fig10-*", ["merge-split"]],
      // Fig. 11 runs a few seconds per case: its own suite (`--suite fig11`)
      // Fig. 3 at both heights under every column of the figure: claim (k2), the caption's "only
      // our approach … for both cases" (m2 reads kernel-repulsion-strong as m penalty-strong)
      ["fig3-ball-cloth-*", ["merge-split", ...FIG3_COLUMNS]],
      ["fig7-mass-100", ["merge-split"]],
      ["fig9-flip-*", ["merge-split"]], // Fig. 9 top (q) and bottom (q2)
      ["dam-break-*", ["merge-split"]],
      // claim (r): the same absolute stiffnesses at both heights of Fig. 3 ("the stiffness that
      // works for the top row does not work for the bottom row … and vice-versa"). The rule, fixed
      // before any run: whole decades from one below the weakest level of either height (penalty
      // 19.6, kernel repulsion 98.1 at the low drop, `small`) to one above the strongest (15,696
      // and 78,480 at the high drop)
      ["fig3-ball-cloth-*", ["penalty"], ["penalty.stiffness=1e0..1e6:7"]],
      ["fig3-ball-cloth-*", ["kernel-repulsion"], ["kernel-repulsion.stiffness=1e1..1e6:6"]],
      // claim (s), on a fracture scene (§6.1 speaks of peridynamic fracture): time steps a decade
      // either side of Fig. 5's (0.281 ms at `small`), half decades, for merge-split and the
      // medium level of each force family (the rule set before any run of it)
      ["fig5-wall", ["merge-split", "penalty-medium", "kernel-repulsion-medium"], [
        "scene.dt=2.8e-5..2.8e-3:5",
      ]],
    ],
    seeds: CLAIM_SEEDS,
    setups: ABLATION_SETUPS,
    judges: [
      ...["a", "a2", "a3", "b", "c", "d", "e", "e2", "f", "g", "h", "k", "k2", "l", "l2", "l3"],
      ...["m", "m2", "n", "q", "q2", "r", "s", "w", "w2", "x", "x2", "z"],
    ],
  },
  "claims-medium": {
    description:
      "the claims of Figs. 3, 4 and 7 at scale medium, where they are read at a resolution closer to convergence (the report says where a claim's outcome differs from small's): Fig. 4 under merge-split and one level of each family, Fig. 3 (both heights) under merge-split and the force families' weak and strong levels, Fig. 7 (mass ratio 100); at three seeds (51 cases), then each variant on the cases it changes (36 more: the ablation)",
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
    setups: ABLATION_SETUPS,
    scale: "medium",
    judges: ["a", "a2", "b", "c", "d", "e2", "f", "g", "k", "l", "l2", "m", "m2", "n", "z"],
  },
  all: {
    description:
      "every scene under every handler that applies to it, at three seeds (the scene's, 7, 99)",
    cases: [["*", ["*"]]],
    seeds: CLAIM_SEEDS,
    // every claim but the sweeps' (r, s: --suite claims) and the real material's (p3, u3: scene
    // files, `deno task scene --material ice`; gpu-check's fidelity plan)
    judges: [
      ...["a", "a2", "a3", "b", "c", "d", "e", "e2", "f", "g", "h", "i", "j", "j2", "j3", "k"],
      ...["k2"],
      ...["l", "l2", "l3", "m", "m2", "n", "o", "p", "p2", "p4", "q", "q2", "t", "t2", "u", "u2"],
      ...["v", "w", "w2", "x", "x2", "y", "y2", "z"],
    ],
  },
  fig11: {
    description:
      "Fig. 11, the meta-particle size limits: a fluid block resting on the cloth for a few seconds, every limit (claims i, j), at three seeds (the scene's, 7, 99)",
    cases: [["fig11-*", ["merge-split"]]],
    seeds: CLAIM_SEEDS,
    judges: ["g", "i", "j", "j2", "j3"],
  },
  fractures: {
    description:
      "Figs. 5, 6 and 8, the brittle solids: Fig. 5's wall under every handler (claims o, p, p2, p4), Fig. 6 and Fig. 8's three scenes under merge-split (t, t2, u, u2, v), at three seeds (the scene's, 7, 99: the seeded placement of the ball, the tori and the bowl, the fluids' jitter)",
    cases: [["fig5-wall", ["*"]], ["fig6-wall", ["merge-split"]], ["fig8-*", ["merge-split"]]],
    seeds: CLAIM_SEEDS,
    judges: ["o", "p", "p2", "p4", "t", "t2", "u", "u2", "v"],
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
    judges: ["g", "q", "q2", "t", "t2", "u", "u2", "v", "y", "y2"],
  },
  hardware: {
    description:
      `particle-steps per second per system (mass-spring cloth, peridynamics, SPH, FLIP) and for merge-split, ${HARDWARE_STEPS} steps a case, to compare machines (bench/cases/hardware_suite.ts); at ${HARDWARE_SCALES.gpu} on a GPU, --scale ${HARDWARE_SCALES.software} on a software adapter; deno task submit makes a submission of its results`,
    cases: HARDWARE_FIGURES.map((f) => [f.scene, [f.handler]] as const),
    scale: HARDWARE_SCALES.gpu,
    steps: HARDWARE_STEPS,
  },
};

/** Looks up a suite; the error lists the valid names. */
export function getSuite(name: string): Suite {
  const s = Object.hasOwn(SUITES, name) ? SUITES[name] : undefined; // not `constructor`
  if (!s) {
    throw new RangeError(`unknown suite "${name}"; suites: ${Object.keys(SUITES).join(", ")}`);
  }
  return s;
}
