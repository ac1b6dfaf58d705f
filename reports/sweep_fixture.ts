/**
 * Test fixtures: the records of parameter sweeps (`--sweep`) for the tests of
 * `reports/claims/sweep_stats.ts` and `reports/sections/sweep_section.ts`.
 *
 * @module
 */
import type { CaseRecord } from "../core/result.ts";
import { fakeRecord } from "./fake_record.ts";

/** The scene the fixtures sweep on. */
export const FIG4 = "fig4-fluid-cloth";

/** One case of a `penalty.stiffness` sweep (plus any other sweep keys). */
export function stiffnessCase(
  stiffness: number,
  options: {
    summary?: Record<string, number | boolean>;
    status?: CaseRecord["status"];
    scene?: string;
    others?: Record<string, number>;
  } = {},
): CaseRecord {
  return fakeRecord({
    scene: options.scene ?? FIG4,
    handler: "penalty",
    handlerParams: { stiffness, damping: 0.1 },
    sweep: { "penalty.stiffness": stiffness, ...options.others },
    status: options.status ?? "ok",
    summary: options.summary,
  });
}

/**
 * A stiffness sweep on Fig. 4: weak values leak (10 %, 2 %), the middle works (0.1 %, 0, 0),
 * strong values explode or gain energy, the strongest ends unstable.
 */
export function stiffnessSweep(): CaseRecord[] {
  return [
    stiffnessCase(1e5, { summary: { passThroughFraction: 0, energyRatio: 1.3 } }), // energy gain
    stiffnessCase(10, { summary: { passThroughFraction: 0.1, energyRatio: 0.7 } }),
    stiffnessCase(100, { summary: { passThroughFraction: 0.02, energyRatio: 0.7 } }),
    stiffnessCase(1e3, { summary: { passThroughFraction: 0.001, energyRatio: 0.8 } }),
    stiffnessCase(3e3, { summary: { passThroughFraction: 0, energyRatio: 0.85 } }),
    stiffnessCase(1e4, { summary: { passThroughFraction: 0, energyRatio: 0.9 } }),
    stiffnessCase(3e4, { summary: { passThroughFraction: 0, energyRatio: 40, exploded: true } }),
    stiffnessCase(1e6, { status: "unstable", summary: { passThroughFraction: 0.3 } }),
  ];
}

/** One case of a `scene.dt` sweep. */
export function dtCase(
  handler: string,
  dt: number,
  options: { status?: CaseRecord["status"]; summary?: Record<string, number | boolean> } = {},
): CaseRecord {
  return fakeRecord({
    scene: FIG4,
    handler,
    dt,
    sweep: { "scene.dt": dt },
    status: options.status ?? "ok",
    summary: options.summary,
  });
}
