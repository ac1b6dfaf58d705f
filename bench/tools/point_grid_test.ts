import assert from "node:assert/strict";
import { Rng } from "../../core/rng.ts";
import { PointGrid } from "./point_grid.ts";

Deno.test("PointGrid: every particle within a cell of a point is near it; nearest as brute force", () => {
  const rng = new Rng(2021);
  const n = 2000;
  const pos = new Float64Array(4 * n);
  for (let i = 0; i < 4 * n; i++) pos[i] = i % 4 === 3 ? 0 : rng.nextFloat() * 2 - 1;
  const cell = 0.15;
  // every other particle hashed: the rest must never be reported
  const hashed = Array.from({ length: n }, (_, i) => i).filter((i) => i % 2 === 0);
  const grid = new PointGrid(pos, { cell, particles: hashed });
  let reported = 0;
  for (let q = 0; q < 100; q++) {
    const x = [0, 1, 2].map(() => rng.nextFloat() * 2.4 - 1.2) as [number, number, number];
    const near = new Map<number, number>();
    grid.forEachNear(x, (j, d2) => near.set(j, d2));
    let best = Infinity, bestJ = -1;
    for (const j of hashed) {
      const d2 = (x[0] - pos[4 * j]) ** 2 + (x[1] - pos[4 * j + 1]) ** 2 +
        (x[2] - pos[4 * j + 2]) ** 2;
      if (d2 < cell * cell) {
        assert.ok(near.has(j), `particle ${j} at ${Math.sqrt(d2)} m not reported`);
        assert.equal(near.get(j), d2);
        if (d2 < best) [best, bestJ] = [d2, j];
      }
    }
    for (const j of near.keys()) assert.equal(j % 2, 0, `unhashed particle ${j} reported`);
    if (bestJ >= 0) reported++;
    const found = grid.nearest(x);
    if (bestJ < 0) assert.equal(found, null);
    else assert.deepEqual(found, { particle: bestJ, distance: Math.sqrt(best) });
  }
  assert.ok(reported > 50, `only ${reported} of 100 points had a particle within a cell`);
  assert.throws(() => new PointGrid(pos, { cell: 0, particles: [] }), /options\.cell must be/);
});
