import assert from "node:assert/strict";
import fc from "fast-check";
import { bootstrapMedianCi, mad, median, summarise } from "./statistics.ts";
import { RUNS } from "../core/test_util.ts";

Deno.test("statistics", async (t) => {
  await t.step("median and MAD on known samples", () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.ok(Number.isNaN(median([])));
    assert.equal(mad([1, 2, 3, 4, 100]), 1);
  });
  await t.step("the bootstrap CI brackets the median, lies within [min, max], and repeats", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 60 }),
        (xs) => {
          const [lo, hi] = bootstrapMedianCi(xs, { seed: 3, resamples: 400 });
          const m = median(xs);
          assert.ok(lo <= m + 1e-12 && m - 1e-12 <= hi, `${lo} ≤ ${m} ≤ ${hi}`);
          assert.ok(lo >= Math.min(...xs) && hi <= Math.max(...xs));
          assert.deepEqual(bootstrapMedianCi(xs, { seed: 3, resamples: 400 }), [lo, hi]);
        },
      ),
      { numRuns: Math.min(RUNS, 200) },
    );
  });
  await t.step("the CI narrows with more samples", () => {
    const draw = (n: number) => Array.from({ length: n }, (_, k) => 10 + Math.sin(k * 12.9898) * 3);
    const w = (xs: number[]) => {
      const [lo, hi] = bootstrapMedianCi(xs);
      return hi - lo;
    };
    assert.ok(w(draw(400)) < w(draw(20)));
  });
  await t.step("summarise drops NaN and reports n", () => {
    const s = summarise([1, NaN, 3, 2]);
    assert.equal(s.n, 3);
    assert.equal(s.median, 2);
    assert.equal(s.min, 1);
    assert.equal(s.max, 3);
  });
});
