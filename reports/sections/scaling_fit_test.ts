import assert from "node:assert/strict";
import { nsPerParticleStep, scalingFit } from "./scaling_fit.ts";

const close = (a: number, b: number, tol = 1e-9) =>
  assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} vs ${b}`);

Deno.test("scaling exponent of a sweep", async (t) => {
  await t.step("recovers a known exponent and coefficient", () => {
    for (const k of [1, 0.5, 1.3, 0]) {
      const points = [432, 3456, 27648, 221184].map((n) => ({ particles: n, ms: 2e-4 * n ** k }));
      const fit = scalingFit(points);
      close(fit.exponent, k);
      close(fit.coefficient, 2e-4);
      close(fit.r2, 1);
      assert.equal(fit.points, 4);
    }
  });

  await t.step("least squares over noisy points, in any order", () => {
    // ln t = ln 3 + 1.2 ln N, with ±5% noise that cancels pairwise around the line
    const n = [1e3, 8e3, 6.4e4, 5.12e5];
    const noise = [1.05, 0.95, 1.05, 0.95];
    const pts = n.map((x, i) => ({ particles: x, ms: 3 * x ** 1.2 * noise[i] }));
    const fit = scalingFit([pts[2], pts[0], pts[3], pts[1]]);
    assert.ok(Math.abs(fit.exponent - 1.2) < 0.03, `k = ${fit.exponent}`);
    assert.ok(fit.r2 > 0.99 && fit.r2 < 1, `r² = ${fit.r2}`);
    // two points: the line through them
    const two = scalingFit([{ particles: 100, ms: 1 }, { particles: 1000, ms: 100 }]);
    close(two.exponent, 2);
    assert.equal(two.r2, 1);
  });

  await t.step("rejects fewer than 2 points, bad values and a single size", () => {
    assert.throws(() => scalingFit([]), /needs at least 2 points, got 0: run the case at 2/);
    assert.throws(
      () => scalingFit([{ particles: 432, ms: 1 }]),
      (e) => e instanceof RangeError && /at least 2 points, got 1/.test(e.message),
    );
    assert.throws(
      () => scalingFit([{ particles: 432, ms: 1 }, { particles: 3456, ms: 0 }]),
      /points\[1\]\.ms must be a number > 0, got 0/,
    );
    assert.throws(
      () => scalingFit([{ particles: NaN, ms: 1 }, { particles: 3456, ms: 2 }]),
      /points\[0\]\.particles must be a number > 0, got NaN/,
    );
    assert.throws(
      () => scalingFit([{ particles: 432, ms: 1 }, { particles: 432, ms: 2 }]),
      /every point has 432 particles; needs 2 or more distinct particle counts/,
    );
  });

  await t.step("ns per particle-step", () => {
    assert.equal(nsPerParticleStep(5, 432), (5 * 1e6) / 432);
    assert.equal(nsPerParticleStep(1, 1e6), 1);
    assert.equal(nsPerParticleStep(null, 432), null);
    assert.equal(nsPerParticleStep(5, 0), null);
    assert.equal(nsPerParticleStep(Infinity, 10), null);
  });
});
