/**
 * What each findings page shows (`docs/findings/*.md`): the paper figure whose caption it quotes,
 * the scenes whose records fill its table, the cases it draws (scene × handler, from the committed
 * run of the largest scale that has them), how it draws them, the columns of its table and the
 * claims whose outcomes it lists. `docs/build_docs.ts` renders the pages' generated blocks from it.
 *
 * @module
 */
import type { View } from "./frames_svg.ts";

/** Groups of table columns (`docs/build_docs.ts` `COLUMNS`). */
export type ColumnGroup = "leak" | "fluid" | "fracture" | "dam" | "deflection" | "energy";

/** One findings page. */
export interface FindingsPage {
  /** The file under `docs/findings/`. */
  file: string;
  /** The paper figure it reproduces (its caption is quoted), or null (the dam breaks). */
  figure: number | null;
  /** The scenes whose records fill the page's table, in order. */
  scenes: string[];
  /** The cases drawn, in order. */
  pictures: { scene: string; handler: string }[];
  view: View;
  columns: ColumnGroup[];
  /** The ids of the claims (`reports/claims/`) the page lists with their outcomes. */
  claims: string[];
}

const ms = (scene: string) => ({ scene, handler: "merge-split" });
const CROSS_SECTION: View = { horizontal: 0, slabRadii: 3 };
const SIDE: View = { horizontal: 0 };

/** The findings pages, in the order of `docs/findings/README.md`. */
export const FINDINGS_PAGES: readonly FindingsPage[] = [
  {
    file: "fig3.md",
    figure: 3,
    scenes: ["fig3-ball-cloth-low", "fig3-ball-cloth-high"],
    pictures: [
      ms("fig3-ball-cloth-low"),
      { scene: "fig3-ball-cloth-low", handler: "penalty-weak" },
      { scene: "fig3-ball-cloth-low", handler: "penalty-strong" },
      ms("fig3-ball-cloth-high"),
      { scene: "fig3-ball-cloth-high", handler: "penalty-weak" },
    ],
    view: CROSS_SECTION,
    columns: ["leak"],
    claims: ["k", "l", "l2", "l3", "m", "m2", "r"],
  },
  {
    file: "fig4.md",
    figure: 4,
    scenes: ["fig4-fluid-cloth"],
    pictures: [
      "merge-split",
      "penalty-weak",
      "penalty-strong",
      "kernel-repulsion-weak",
      "impulse",
      "akinci",
      "velocity-projection",
    ].map((handler) => ({ scene: "fig4-fluid-cloth", handler })),
    view: CROSS_SECTION,
    columns: ["leak", "fluid"],
    claims: ["a", "b", "c", "d", "e", "e2", "f", "g", "z"],
  },
  {
    file: "fig5.md",
    figure: 5,
    scenes: ["fig5-wall"],
    pictures: [
      "merge-split",
      "penalty-weak",
      "impulse",
      "penalty-strong",
      "kernel-repulsion-strong",
    ]
      .map((handler) => ({ scene: "fig5-wall", handler })),
    view: SIDE,
    columns: ["fracture"],
    claims: ["o", "p", "p2", "p3", "p4", "s"],
  },
  {
    file: "fig6.md",
    figure: 6,
    scenes: ["fig6-wall"],
    pictures: [ms("fig6-wall")],
    view: SIDE,
    columns: ["fracture"],
    claims: [],
  },
  {
    file: "fig7.md",
    figure: 7,
    scenes: ["fig7-mass-1", "fig7-mass-10", "fig7-mass-100"],
    pictures: [ms("fig7-mass-1"), ms("fig7-mass-10"), ms("fig7-mass-100")],
    view: CROSS_SECTION,
    columns: ["leak"],
    claims: ["n"],
  },
  {
    file: "fig8.md",
    figure: 8,
    scenes: ["fig8-cloth-tori", "fig8-dam-break-wall", "fig8-bowl"],
    pictures: [ms("fig8-cloth-tori"), ms("fig8-dam-break-wall"), ms("fig8-bowl")],
    view: SIDE,
    columns: ["leak", "fluid", "fracture"],
    claims: ["t", "u", "v", "u2", "u3", "y", "y2"],
  },
  {
    file: "fig9.md",
    figure: 9,
    scenes: ["fig9-flip-cloth", "fig9-flip-peridynamics"],
    pictures: [ms("fig9-flip-cloth"), ms("fig9-flip-peridynamics")],
    view: SIDE,
    columns: ["leak", "fluid", "fracture"],
    claims: ["q", "q2"],
  },
  {
    file: "fig10.md",
    figure: 10,
    scenes: ["fig10-alpha-beta-00", "fig10-alpha-beta-10", "fig10-alpha-beta-11"],
    pictures: [ms("fig10-alpha-beta-00"), ms("fig10-alpha-beta-10"), ms("fig10-alpha-beta-11")],
    view: { ...CROSS_SECTION, clothByMetaParticle: true },
    columns: ["energy", "fluid"],
    claims: ["h"],
  },
  {
    file: "fig11.md",
    figure: 11,
    scenes: [
      "fig11-nlimit-inf",
      "fig11-nlimit-32-64",
      "fig11-nlimit-16-32",
      "fig11-nlimit-8-16",
      "fig11-nlimit-4-8",
    ],
    pictures: [
      ms("fig11-nlimit-inf"),
      ms("fig11-nlimit-32-64"),
      ms("fig11-nlimit-16-32"),
      ms("fig11-nlimit-8-16"),
      ms("fig11-nlimit-4-8"),
    ],
    view: { ...SIDE, clothByMetaParticle: true },
    columns: ["leak", "deflection", "fluid"],
    claims: ["i", "j", "j2", "j3"],
  },
  {
    file: "dam-breaks.md",
    figure: null,
    scenes: ["dam-break-sph", "dam-break-flip"],
    pictures: [ms("dam-break-sph"), ms("dam-break-flip")],
    view: SIDE,
    columns: ["dam", "fluid"],
    claims: ["w", "w2", "x", "x2"],
  },
];
