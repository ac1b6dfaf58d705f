import assert from "node:assert/strict";
import { SheetSides, type TracedSheet } from "./sheet_sides.ts";

/** A flat 5 × 5 sheet in the plane y = 0, spacing 1, then one more particle at `x`. */
function flatSheet(x: number[], stretch = 1): { sheet: TracedSheet; pos: Float32Array } {
  const pos = new Float32Array(4 * 26);
  for (let r = 0; r < 5; r++) {
    for (let c = 0; c < 5; c++) pos.set([c * stretch, 0, r * stretch, 0], 4 * (r * 5 + c));
  }
  pos.set([...x, 0], 4 * 25);
  return { sheet: { name: "cloth", start: 0, rows: 5, cols: 5, spacing: 1 }, pos };
}

Deno.test("sheet sides: the side of a sheet, as the pass-through metric observes it", async (t) => {
  await t.step("a particle above or below an interior sheet particle is observed", () => {
    const { sheet, pos } = flatSheet([2, 0.5, 2]);
    const sides = new SheetSides(sheet, pos, { reach: 1 });
    const above = sides.observe([2.1, 0.5, 2]);
    const below = sides.observe([2.1, -0.5, 2]);
    assert.ok(above && below);
    assert.equal(above.side, -below.side);
    assert.deepEqual([above.row, above.col], [2, 2]);
    assert.ok(Math.abs(above.distance - Math.hypot(0.1, 0.5)) < 1e-6);
    assert.ok(Math.abs(above.normalCosine - 0.5 / Math.hypot(0.1, 0.5)) < 1e-6);
    assert.equal(above.strain, 0);
  });

  await t.step(
    "not observed: beyond the reach, next to the border, or in the sheet's plane",
    () => {
      const { sheet, pos } = flatSheet([0, 0, 0]);
      const sides = new SheetSides(sheet, pos, { reach: 1 });
      assert.equal(sides.observe([2, 1.5, 2]), null, "farther than the reach");
      assert.equal(sides.observe([0.1, 0.3, 2]), null, "nearest sheet particle on the border");
      // the initial side falls back to the plane at the centre particle
      assert.equal(sides.initialSide([2, 3, 2]), sides.observe([2, 0.3, 2])!.side);
    },
  );

  await t.step("the same observations wherever the sheet lies (cells keyed across zero)", () => {
    const { sheet, pos } = flatSheet([0, 0, 0]);
    const at = new SheetSides(sheet, pos, { reach: 1 });
    for (const shift of [[-7.3, -2.2, -5.1], [-0.5, -0.5, -0.5], [1e3, -1e3, 3.7]]) {
      const moved = pos.map((v, k) => (k % 4 === 3 ? v : v + shift[k % 4]));
      const there = new SheetSides(sheet, moved, { reach: 1 });
      for (const x of [[2.1, 0.5, 2], [1.6, -0.7, 2.4], [3.2, 0.9, 1.1], [2, 1.5, 2]]) {
        const here = at.observe(x as [number, number, number]);
        const seen = there.observe(x.map((v, a) => v + shift[a]) as [number, number, number]);
        assert.equal(seen?.side, here?.side, `${x} shifted by ${shift}`);
        assert.deepEqual([seen?.row, seen?.col], [here?.row, here?.col]);
        if (here) assert.ok(Math.abs(seen!.distance - here.distance) < 1e-3);
      }
    }
  });

  await t.step("the outline: the quadrilateral of the corners, along its normal", () => {
    const { sheet, pos } = flatSheet([0, 0, 0]);
    const sides = new SheetSides(sheet, pos, { reach: 1 });
    for (const x of [[2, 3, 2], [0.1, -5, 3.9], [4, 0, 4], [0, 1, 0]]) {
      assert.equal(sides.outsideOutline(x as [number, number, number]), false, `${x}`);
    }
    for (const x of [[4.1, 0, 2], [-0.1, -1, 2], [2, 0.5, 4.2], [2, -0.5, -3]]) {
      assert.equal(sides.outsideOutline(x as [number, number, number]), true, `${x}`);
    }
  });

  await t.step("a stretched sheet reports its strain", () => {
    const { sheet, pos } = flatSheet([0, 0, 0], 1.5);
    const seen = new SheetSides(sheet, pos, { reach: 2 }).observe([3, 0.2, 3]);
    assert.ok(seen);
    assert.ok(Math.abs(seen.strain - 0.5) < 1e-6);
    assert.throws(() => new SheetSides(sheet, pos, { reach: 0 }), /options.reach must be > 0/);
  });
});
