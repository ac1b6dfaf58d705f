import assert from "node:assert/strict";
import { buildClothSprings } from "./cloth_springs.ts";
import type { Vec3 } from "../vec3.ts";

Deno.test("buildClothSprings", async (t) => {
  await t.step("counts and rest lengths of each family", () => {
    const [rows, cols, h] = [4, 5, 0.1];
    const springs = buildClothSprings({
      rows,
      cols,
      spacing: h,
      structural: 100,
      shear: 50,
      bend: 10,
      damping: 0.1,
      first: 7,
    });
    const structural = springs.filter((s) => s.ks === 100);
    const shear = springs.filter((s) => s.ks === 50);
    const bend = springs.filter((s) => s.ks === 10);
    assert.equal(structural.length, rows * (cols - 1) + cols * (rows - 1));
    assert.equal(shear.length, 2 * (rows - 1) * (cols - 1));
    assert.equal(bend.length, rows * (cols - 2) + cols * (rows - 2));
    const pos = (i: number): Vec3 => [((i - 7) % cols) * h, 0, Math.floor((i - 7) / cols) * h];
    for (const s of springs) {
      assert.ok(s.i >= 7 && s.j >= 7 && s.i < 7 + rows * cols && s.j < 7 + rows * cols);
      const [a, b] = [pos(s.i), pos(s.j)];
      assert.ok(Math.abs(Math.hypot(b[0] - a[0], b[2] - a[2]) - s.restLength) < 1e-12);
      assert.equal(s.kd, 0.1);
    }
    assert.equal(
      buildClothSprings({
        rows,
        cols,
        spacing: h,
        structural: 1,
        shear: 0,
        bend: 0,
        damping: 0,
      }).length,
      structural.length,
    );
  });
  await t.step("errors name the bad option", () => {
    const ok = { rows: 2, cols: 2, spacing: 1, structural: 1, shear: 1, bend: 1, damping: 0 };
    assert.throws(() => buildClothSprings({ ...ok, rows: 0 }), /rows/);
    assert.throws(() => buildClothSprings({ ...ok, spacing: -1 }), /spacing/);
    assert.throws(() => buildClothSprings({ ...ok, shear: NaN }), /shear/);
  });
});
