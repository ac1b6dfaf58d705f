import assert from "node:assert/strict";
import fc from "fast-check";
import { bootstrapMedianCi, mad, mean, median, summarise } from "./statistics.ts";
import { RUNS } from "../core/test_util.ts";
import { Rng } from "../core/rng.ts";

/** The bootstrap as it was before selection replaced the sorts: the values it must still give. */
function sortedBootstrapCi(xs: readonly number[], resamples: number, seed: number): number[] {
  const rng = new Rng(seed);
  const meds = new Float64Array(resamples);
  const buf = new Array<number>(xs.length);
  for (let r = 0; r < resamples; r++) {
    for (let k = 0; k < xs.length; k++) buf[k] = xs[rng.int(0, xs.length - 1)];
    meds[r] = median(buf);
  }
  meds.sort();
  const q = (p: number) => meds[Math.min(resamples - 1, Math.max(0, Math.floor(p * resamples)))];
  return [q(0.025), q(0.975)];
}

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
  await t.step("the CI by selection is the CI by sorting, value for value", () => {
    // timing samples repeat values: a phase that did not run in a step reads 0 ms there
    const sample = fc.array(
      fc.oneof(fc.constant(0), fc.constant(2.5), fc.double({ min: -50, max: 100, noNaN: true })),
      { minLength: 2, maxLength: 90 },
    );
    fc.assert(
      fc.property(sample, fc.integer({ min: 0, max: 1000 }), (xs, seed) => {
        // the same numbers; a sort and a selection may order −0 and 0 differently (x + 0 is +0 for both)
        assert.deepEqual(
          bootstrapMedianCi(xs, { seed, resamples: 50 }).map((x) => x + 0),
          sortedBootstrapCi(xs, 50, seed).map((x) => x + 0),
        );
      }),
      { numRuns: Math.min(RUNS, 300) },
    );
    const steps = Array.from({ length: 3001 }, (_, k) => (k % 4 ? 15 + (k % 59) / 10 : 0));
    assert.deepEqual(
      bootstrapMedianCi(steps, { seed: 2021 }),
      sortedBootstrapCi(steps, 2000, 2021),
    );
  });
  await t.step("mean: the arithmetic mean, beside the median where a run slows down", () => {
    assert.equal(mean([1, 2, 3, 10]), 4);
    assert.ok(Number.isNaN(mean([])));
    // a wall that breaks: 15 ms steps, then slower and slower ones
    const steps = [...Array(60).fill(15), ...Array.from({ length: 40 }, (_, k) => 20 + k)];
    const s = summarise(steps);
    assert.equal(s.median, 15);
    assert.equal(s.mean, (60 * 15 + 40 * 20 + (39 * 40) / 2) / 100);
    assert.equal(s.n, 100);
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
    assert.equal(s.mean, 2);
    const none = summarise([NaN]);
    assert.equal(none.n, 0);
    assert.ok([none.median, none.mean, none.min, none.max].every(Number.isNaN));
  });
});
