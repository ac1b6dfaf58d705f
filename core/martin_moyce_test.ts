import assert from "node:assert/strict";
import {
  COLUMN_HEIGHT_MIN_RADII,
  compareColumnHeight,
  compareSurgeFront,
  MARTIN_MOYCE_COLUMN_HEIGHT,
  MARTIN_MOYCE_SURGE_FRONT,
} from "./martin_moyce.ts";

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
    assert.deepEqual(c.points.map((p) => p.at), [0.832, 1.219, 1.997, 2.547, 3.345, 4.034, 4.418]);
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
    assert.ok(short.points.every((p) => p.experiment <= 3));
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

/** Linear interpolation of a [x, y] table, y(x0) = y0 before its first point. */
function table(pts: readonly (readonly [number, number])[], x0: number, y0: number) {
  return (x: number) => {
    const all = [[x0, y0], ...pts];
    const k = all.findIndex(([t]) => t >= x);
    if (k <= 0) return k === 0 ? all[0][1] : all[all.length - 1][1];
    const [t0, z0] = all[k - 1], [t1, z1] = all[k];
    return z0 + (z1 - z0) * (x - t0) / (t1 - t0);
  };
}

Deno.test("Martin & Moyce: a run's residual column against the experiment", async (t) => {
  const tauScale = Math.sqrt(G / A);
  const eta = table(MARTIN_MOYCE_COLUMN_HEIGHT, 0, 1);
  /** Samples of a column of height 2a·η(τ), every 0.005 s up to `until` s and at the table's τ. */
  const column = (h: (tau: number) => number, until: number) =>
    [
      ...Array.from({ length: Math.round(until / 0.005) + 1 }, (_, k) => k * 0.005),
      ...MARTIN_MOYCE_COLUMN_HEIGHT.map(([tau]) => tau / tauScale).filter((x) => x <= until),
    ].sort((a, b) => a - b).map((time) => ({ time, columnHeight: 2 * A * h(time * tauScale) }));

  await t.step("the experiment itself compares with no error; 10 % higher reads +10 %", () => {
    // r = 1 mm: every height down to 20 mm is judged, i.e. every point up to τ = 0.6 s · 6.39 = 3.8
    const options = { columnWidth: A, gravity: G, radius: 0.001 };
    const c = compareColumnHeight(column(eta, 0.6), options);
    assert.deepEqual(
      c.points.map((p) => p.at),
      MARTIN_MOYCE_COLUMN_HEIGHT.map(([tau]) => tau).filter((tau) => tau <= 0.6 * tauScale),
    );
    assert.ok(c.maxError < 1e-12);
    const high = compareColumnHeight(column((x) => 1.1 * eta(x), 0.6), options);
    assert.ok(Math.abs(high.maxError - 0.1) < 1e-12 && Math.abs(high.meanError - 0.1) < 1e-12);
    assert.ok(high.points.every((p) => Math.abs(p.error - 0.1) < 1e-12));
  });

  await t.step("a column that stops falling reads its excess, largest at the last point", () => {
    const stalled = compareColumnHeight(column((x) => Math.max(eta(x), 0.6), 0.6), {
      columnWidth: A,
      gravity: G,
      radius: 0.001,
    });
    const last = stalled.points.at(-1)!;
    assert.equal(last.at, 3.44);
    assert.ok(Math.abs(last.error - (0.6 - 0.22) / 0.22) < 1e-12);
    assert.equal(stalled.maxError, last.error);
    assert.ok(stalled.points.filter((p) => p.experiment >= 0.6).every((p) => p.error === 0));
  });

  await t.step(
    "points where the column is under COLUMN_HEIGHT_MIN_RADII radii high are not judged",
    () => {
      // r = 10 mm: 20 radii = 0.2 m = η 0.417 of the 0.48 m column: the points down to η = 0.44
      const c = compareColumnHeight(column(() => 0, 1), {
        columnWidth: A,
        gravity: G,
        radius: 0.01,
      });
      assert.equal(COLUMN_HEIGHT_MIN_RADII, 20);
      assert.deepEqual(c.points.map((p) => p.experiment), [
        0.94,
        0.89,
        0.83,
        0.78,
        0.72,
        0.67,
        0.61,
        0.56,
        0.5,
        0.44,
      ]);
      assert.equal(c.maxError, 1);
      const none = compareColumnHeight(column(eta, 0.05), {
        columnWidth: A,
        gravity: G,
        radius: 0.001,
      });
      assert.deepEqual(none.points, []);
      assert.ok(Number.isNaN(none.meanError));
      assert.throws(
        () => compareColumnHeight([], { columnWidth: A, gravity: G, radius: 0 }),
        /options.radius must be > 0/,
      );
      assert.throws(
        () => compareColumnHeight([], { columnWidth: A, gravity: -1, radius: 1 }),
        /options.columnWidth and options.gravity/,
      );
    },
  );
});
