import assert from "node:assert/strict";
import fc from "fast-check";
import {
  AXIS_KEYS,
  cellCenter,
  cellCoords,
  cellCount,
  cellId,
  cellOfPoint,
  faceCoords,
  faceCounts,
  faceId,
  facePosition,
  type FlipAxis,
  flipGrid,
  uFaceId,
  vFaceId,
  wFaceId,
} from "./flip_grid.ts";
import { gridArb } from "./flip_grid_fixture.ts";
import { RUNS } from "../test_util.ts";

const AXES = [0, 1, 2] as const;

Deno.test("FLIP grid and indexing", async (t) => {
  await t.step("dims are max(1, ceil((max − min) / dx − 1e-9)); face counts", () => {
    const g = flipGrid([0, 0, 0], [1, 0.5, 0.25], 0.25);
    assert.deepEqual(g.dims, [4, 2, 1]);
    assert.deepEqual(flipGrid([0, 0, 0], [0.3, 0, 0.05], 0.1).dims, [3, 1, 1]);
    assert.deepEqual(flipGrid([-1, 2, 3], [-1, 2, 3], 0.5).dims, [1, 1, 1]);
    assert.deepEqual(faceCounts(g), { x: 5 * 2 * 1, y: 4 * 3 * 1, z: 4 * 2 * 2 });
    assert.deepEqual(flipGrid([0, 0, 0], [1, 1, 1], 0.3).dims, [4, 4, 4]);
    // a whole number of cells up to rounding: 0.9 / 0.075 = 12.000000000000002
    assert.deepEqual(flipGrid([-0.45, -0.45, -0.45], [0.45, 0.75, 0.45], 0.075).dims, [12, 16, 12]);
  });

  await t.step("cell and face ids round-trip and follow the spec's formulas", () => {
    fc.assert(
      fc.property(gridArb(1, 7), fc.nat(), (grid, seed) => {
        const [nx, ny, nz] = grid.dims;
        const c = seed % cellCount(grid);
        const [i, j, k] = cellCoords(grid, c);
        assert.equal(cellId(grid, [i, j, k]), c);
        assert.equal(c, i + nx * (j + ny * k));
        const center = cellCenter(grid, c);
        assert.deepEqual(cellOfPoint(grid, center), [i, j, k]);
        const counts = faceCounts(grid);
        const formulas = [
          (a: number, b: number, d: number) => a + (nx + 1) * (b + ny * d),
          (a: number, b: number, d: number) => a + nx * (b + (ny + 1) * d),
          (a: number, b: number, d: number) => a + nx * (b + ny * d),
        ];
        const named = [uFaceId, vFaceId, wFaceId];
        for (const axis of AXES) {
          const f = seed % counts[AXIS_KEYS[axis]];
          const fc3 = faceCoords(grid, axis, f);
          assert.equal(faceId(grid, axis, fc3), f);
          assert.equal(named[axis](grid, fc3), f);
          assert.equal(formulas[axis](...fc3), f);
          const pos = facePosition(grid, axis, f);
          for (let b = 0; b < 3; b++) {
            const expected = grid.min[b] + (fc3[b] + (b === axis ? 0 : 0.5)) * grid.dx;
            assert.equal(pos[b], expected);
          }
        }
        assert.equal(counts.x, (nx + 1) * ny * nz);
        assert.equal(counts.y, nx * (ny + 1) * nz);
        assert.equal(counts.z, nx * ny * (nz + 1));
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("the cell of a point is floor((x − min)/dx), clamped to the grid", () => {
    fc.assert(
      fc.property(
        gridArb(1, 6),
        fc.tuple(
          fc.double({ min: -3, max: 9, noNaN: true }),
          fc.double({ min: -3, max: 9, noNaN: true }),
          fc.double({ min: -3, max: 9, noNaN: true }),
        ),
        (grid, t) => {
          const p = AXES.map((a) => grid.min[a] + t[a] * grid.dx);
          const c = cellOfPoint(grid, p);
          for (const a of AXES) {
            const raw = Math.floor((p[a] - grid.min[a]) / grid.dx);
            assert.equal(c[a], Math.min(grid.dims[a] - 1, Math.max(0, raw)));
          }
        },
      ),
      { numRuns: RUNS },
    );
    const g = flipGrid([0, 0, 0], [1, 1, 1], 0.25);
    assert.deepEqual(cellOfPoint(g, [-10, 0.3, 99]), [0, 1, 3]);
    assert.deepEqual(cellOfPoint(g, [1, 1, 1]), [3, 3, 3]);
  });

  await t.step("bad arguments throw, naming the argument", () => {
    assert.throws(() => flipGrid([0, 0, 0], [1, 1, 1], 0), /flipGrid: dx must be .*> 0, got 0/);
    assert.throws(() => flipGrid([0, 0, 0], [1, 1, 1], -1), /flipGrid: dx/);
    assert.throws(() => flipGrid([0, 0, 0], [1, 1, 1], NaN), /flipGrid: dx/);
    assert.throws(() => flipGrid([0, 0, 0], [1, -1, 1], 0.1), /flipGrid: max\[1\] = -1 .*min\[1\]/);
    assert.throws(() => flipGrid([0, 0], [1, 1, 1], 0.1), TypeError);
    assert.throws(() => flipGrid([0, 0, 0], [1, Infinity, 1], 0.1), /flipGrid: max\[1\]/);
    assert.throws(() => flipGrid([0, 0, NaN], [1, 1, 1], 0.1), /flipGrid: min\[2\]/);
    assert.throws(() => flipGrid([0, 0, 0], [1, 1, 1], 1e-4), /flipGrid: dx = .* larger dx/);
    const g = flipGrid([0, 0, 0], [1, 1, 1], 0.5);
    assert.throws(() => cellId(g, [2, 0, 0]), /cellId: coords\[0\] = 2 .*\[0, 1\]/);
    assert.throws(() => uFaceId(g, [0, 2, 0]), /faceId: coords\[1\] = 2/);
    assert.doesNotThrow(() => uFaceId(g, [2, 0, 0]));
    assert.throws(() => facePosition(g, 3 as FlipAxis, 0), /facePosition: axis/);
    assert.throws(() => cellCoords(g, 8), /cellCoords: id/);
  });
});
