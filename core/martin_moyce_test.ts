import assert from "node:assert/strict";
import { compareSurgeFront, MARTIN_MOYCE_SURGE_FRONT } from "./martin_moyce.ts";

const A = 0.24, G = 9.81;
const scale = Math.sqrt(2 * G / A);

/** Samples of a front that follows Z(T), every 0.01 s up to `until` s and at the experiment's times. */
function front(z: (T: number) => number, until: number) {
  const times = [
    ...Array.from({ length: Math.round(until / 0.01) + 1 }, (_, k) => k * 0.01),
    ...MARTIN_MOYCE_SURGE_FRONT.map(([T]) => T / scale).filter((t) => t <= until),
  ].sort((a, b) => a - b);
  return times.map((time) => ({ time, frontX: z(time * scale) * A }));
}

/** The experiment's front, linear between its points (Z = 1 at T = 0). */
function experiment(T: number): number {
  const pts = [[0, 1], ...MARTIN_MOYCE_SURGE_FRONT];
  const k = pts.findIndex(([t]) => t >= T);
  if (k <= 0) return k === 0 ? pts[0][1] : pts[pts.length - 1][1];
  const [t0, z0] = pts[k - 1], [t1, z1] = pts[k];
  return z0 + (z1 - z0) * (T - t0) / (t1 - t0);
}

Deno.test("Martin & Moyce: a run's surge front against the experiment", async (t) => {
  await t.step("the experiment itself compares with no error", () => {
    const c = compareSurgeFront(front(experiment, 0.5), {
      columnWidth: A,
      gravity: G,
      tankLength: 8 * A,
    });
    // T up to 0.5 s · 9.04 s⁻¹ = 4.5, and Z ≤ 7: the points up to T = 4.418
    assert.deepEqual(c.points.map((p) => p.T), [0.832, 1.219, 1.997, 2.547, 3.345, 4.034, 4.418]);
    assert.ok(c.maxError < 1e-12);
  });

  await t.step(
    "a front 10 % ahead reads 10 % everywhere; one slower than the experiment, negative",
    () => {
      const options = { columnWidth: A, gravity: G, tankLength: 8 * A };
      const ahead = compareSurgeFront(front((T) => 1.1 * experiment(T), 0.6), options);
      assert.ok(Math.abs(ahead.maxError - 0.1) < 1e-12 && Math.abs(ahead.meanError - 0.1) < 1e-12);
      const slow = compareSurgeFront(front(() => 1, 0.6), options);
      assert.ok(slow.points.every((p) => p.error < 0));
      assert.equal(slow.maxError, Math.abs(slow.points.at(-1)!.error));
    },
  );

  await t.step("points past the far wall's reach or outside the run are left out", () => {
    const short = compareSurgeFront(front(experiment, 0.6), {
      columnWidth: A,
      gravity: G,
      tankLength: 4 * A,
    });
    assert.ok(short.points.every((p) => p.zExperiment <= 3));
    const none = compareSurgeFront(front(experiment, 0.05), {
      columnWidth: A,
      gravity: G,
      tankLength: 8 * A,
    });
    assert.deepEqual(none.points, []);
    assert.ok(Number.isNaN(none.maxError));
    assert.throws(
      () => compareSurgeFront([], { columnWidth: 0, gravity: G, tankLength: 1 }),
      /options.columnWidth/,
    );
  });
});
