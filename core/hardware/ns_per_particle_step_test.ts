import assert from "node:assert/strict";
import { nsPerParticleStep } from "./ns_per_particle_step.ts";

Deno.test("ns per particle-step: ms × 10⁶ / particles, null without a time or a count > 0", () => {
  assert.equal(nsPerParticleStep(3.9, 432), (3.9 * 1e6) / 432);
  for (
    const [ms, n] of [[0, 432], [3.9, 0], [NaN, 432], [Infinity, 432], ["3.9", 432], [3.9, null]]
  ) {
    assert.equal(nsPerParticleStep(ms, n), null, `${ms}, ${n}`);
  }
});
