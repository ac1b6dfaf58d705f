/**
 * The `hardware` suite (`deno task bench --suite hardware`): a short fixed list of cases that
 * gives, per system of the harness and for merge-split, the particle-steps per second an adapter
 * reaches, so that machines can be compared row by row (`docs/hardware.md`, submissions checked
 * by `bench/submission/check_submission.ts`). Fixed, because a row is comparable with another only
 * when both ran the same cases at the same steps.
 *
 * Each figure is one case: the catalogue scene that is that system alone where one exists (the
 * peridynamic wall of Fig. 5, the SPH and FLIP dam breaks), and for the mass-spring cloth, which
 * the catalogue has only under a fluid, Fig. 4's cloth and SPH column under the weak penalty (the
 * cheapest handler, so the cloth and the fluid's integration dominate); merge-split is Fig. 4 under
 * merge-split. A figure counts every particle of its case.
 *
 * @module
 */
import type { Scale } from "../scene/scene.ts";

/** One figure of the suite: what it measures and the case that measures it. */
export interface HardwareFigure {
  /** The figure's id, a column of the hardware table. */
  id: "mass-spring" | "peridynamics" | "sph" | "flip" | "merge-split";
  /** What it measures, for the table's header. */
  label: string;
  scene: string;
  handler: string;
}

/** The suite's figures, in the table's column order. */
export const HARDWARE_FIGURES: readonly HardwareFigure[] = [
  {
    id: "mass-spring",
    label: "mass-spring cloth (+ SPH)",
    scene: "fig4-fluid-cloth",
    handler: "penalty-weak",
  },
  { id: "peridynamics", label: "peridynamics", scene: "fig5-wall", handler: "merge-split" },
  { id: "sph", label: "SPH", scene: "dam-break-sph", handler: "merge-split" },
  { id: "flip", label: "FLIP", scene: "dam-break-flip", handler: "merge-split" },
  { id: "merge-split", label: "merge-split", scene: "fig4-fluid-cloth", handler: "merge-split" },
];

/**
 * Steps per case (20 of them warm-up, the bench's default): enough for a stable median, few
 * enough that the suite stays short; the first steps of each scene, before its collision peaks.
 */
export const HARDWARE_STEPS = 200;

/**
 * The scales a hardware submission may run at: `paper` on a GPU (the suite's default, hundreds of
 * thousands of particles a case: a few minutes on an H100-class GPU, an estimate), `small` on a
 * software adapter (`--scale small`: 2,000 to 4,000 particles a case, minutes on two CPU cores;
 * at `medium` the peridynamic wall alone took over 8 minutes on lavapipe beside other work).
 */
export const HARDWARE_SCALES: Readonly<{ gpu: Scale; software: Scale }> = {
  gpu: "paper",
  software: "small",
};
