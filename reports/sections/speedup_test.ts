import assert from "node:assert/strict";
import { Rng } from "../../core/rng.ts";
import { geometricMean, speedup, SPEEDUP_RESAMPLES } from "./speedup.ts";

/** The median of `xs` (sorted copy). */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * The bootstrap as speedup() documents it, done the slow way: each resample drawn into the sorted
 * finite samples and sorted to take its median.
 */
function bruteForce(
  first: number[],
  other: number[],
  options: { resamples: number; seed: number },
): [number, number] {
  const a = first.filter(Number.isFinite).sort((x, y) => x - y);
  const b = other.filter(Number.isFinite).sort((x, y) => x - y);
  const rng = new Rng(options.seed);
  const draw = (xs: number[]) => xs.map(() => xs[Math.floor(rng.nextFloat() * xs.length)]);
  const ratios: number[] = [];
  for (let r = 0; r < options.resamples; r++) {
    const ma = median(draw(a));
    ratios.push(ma / median(draw(b)));
  }
  ratios.sort((x, y) => x - y);
  const q = (p: number) =>
    ratios[Math.min(options.resamples - 1, Math.floor(p * options.resamples))];
  return [q(0.025), q(0.975)];
}

Deno.test("speed-up of one machine over another", async (t) => {
  const base = [0.9, 1, 1.1, 0.95, 1.05];

  await t.step("twice as slow: 0.5, the bootstrap interval contains it, repeatably", () => {
    const first = { median: 1, ci95: [0.95, 1.05], samples: base };
    const other = { median: 2, ci95: [1.9, 2.1], samples: base.map((x) => 2 * x) };
    const s = speedup(first, other)!;
    assert.equal(s.value, 0.5);
    assert.equal(s.method, "bootstrap");
    assert.ok(s.ci95![0] < 0.5 && 0.5 < s.ci95![1], `${s.ci95}`);
    // the extreme resamples (all 0.9 over all 2.2, all 1.1 over all 1.8) bound it
    assert.ok(s.ci95![0] >= 0.9 / 2.2 && s.ci95![1] <= 1.1 / 1.8, `${s.ci95}`);
    assert.deepEqual(speedup(first, other), s, "the same records give the same interval");
    assert.notDeepEqual(speedup(first, other, { seed: 7 })!.ci95, s.ci95, "the seed matters");
  });

  await t.step("the bootstrap is the ratio of resampled medians (odd and even n)", () => {
    const rng = new Rng(99);
    const first = Array.from({ length: 41 }, () => 1 + rng.nextFloat());
    const other = Array.from({ length: 30 }, () => 3 + rng.nextFloat());
    other.push(NaN); // dropped, like the bench drops non-finite samples
    for (const seed of [1, 2021]) {
      const s = speedup(
        { median: median(first), samples: first },
        { median: median(other.filter(Number.isFinite)), samples: other },
        { resamples: 300, seed },
      )!;
      assert.deepEqual(s.ci95, bruteForce(first, other, { resamples: 300, seed }));
    }
  });

  await t.step("constant samples: the interval is the ratio itself", () => {
    const s = speedup({ median: 3, samples: [3, 3, 3] }, { median: 1.5, samples: [1.5, 1.5] })!;
    assert.deepEqual([s.value, s.ci95], [2, [2, 2]]);
  });

  await t.step("without samples: the ratio of the ends of the two intervals", () => {
    const s = speedup({ median: 1, ci95: [0.95, 1.05] }, { median: 2, ci95: [1.9, 2.1] })!;
    assert.equal(s.method, "ci95");
    assert.deepEqual(s.ci95, [0.95 / 2.1, 1.05 / 1.9]);
    // one sample set only, or a single sample: still the intervals
    assert.equal(
      speedup({ median: 1, ci95: [0.9, 1.1], samples: base }, {
        median: 2,
        ci95: [1.9, 2.1],
        samples: [2],
      })!.method,
      "ci95",
    );
  });

  await t.step("no usable interval, no usable median", () => {
    assert.deepEqual(speedup({ median: 1 }, { median: 4, ci95: [0, 5] }), {
      value: 0.25,
      ci95: null,
      method: "none",
    });
    assert.equal(speedup({ median: 0 }, { median: 1 }), null);
    assert.equal(speedup({ median: 1 }, { median: NaN }), null);
  });

  await t.step("1000 resamples of 2000 samples each take under 2 s (about 50 ms)", () => {
    assert.equal(SPEEDUP_RESAMPLES, 1000);
    const rng = new Rng(5);
    const a = Array.from({ length: 2000 }, () => 1 + rng.nextFloat());
    const t0 = performance.now();
    const s = speedup({ median: median(a), samples: a }, {
      median: 2 * median(a),
      samples: a.map((x) => 2 * x),
    })!;
    const ms = performance.now() - t0;
    assert.ok(ms < 2000, `${ms.toFixed(0)} ms`);
    assert.ok(s.ci95![0] < 0.5 && s.ci95![1] > 0.5 && s.ci95![1] - s.ci95![0] < 0.05);
  });

  await t.step("geometric mean of the values above 0", () => {
    assert.deepEqual(geometricMean([0.5, 0.5, 0.5]), { value: 0.5, count: 3 });
    const g = geometricMean([2, 8, null, NaN, 0, -1, undefined]);
    assert.equal(g.count, 2);
    assert.ok(Math.abs(g.value! - 4) < 1e-12);
    assert.deepEqual(geometricMean([null]), { value: null, count: 0 });
  });
});
