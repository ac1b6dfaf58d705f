import assert from "node:assert/strict";
import { recordFixture } from "../result_fixture.ts";
import { figureRates, particleStepsPerSecond } from "./figure_rates.ts";

const timed = (median: number, solid: number, fluid: number, scene = "dam-break-sph") => {
  const r = recordFixture({ scene, particles: { solid, fluid } });
  r.timings!.phases.total.median = median;
  return r;
};

Deno.test("particle-steps per second: every particle over the median step time", () => {
  assert.equal(particleStepsPerSecond(timed(2, 1000, 3000)), 2_000_000);
  assert.equal(particleStepsPerSecond({ ...timed(2, 1, 1), timings: null }), null);
  assert.equal(particleStepsPerSecond(timed(0, 1, 1)), null);
});

Deno.test("figure rates: each figure's case by scene and handler, null where it is missing", () => {
  const rates = figureRates([timed(4, 0, 4000), timed(1, 10, 0, "fig5-wall")]);
  assert.equal(rates.sph, 1_000_000);
  assert.equal(rates.peridynamics, 10_000);
  assert.equal(rates.flip, null);
  assert.equal(rates["mass-spring"], null);
});
