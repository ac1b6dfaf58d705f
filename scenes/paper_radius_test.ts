import assert from "node:assert/strict";
import { boxLatticeCount, radiusForCount } from "./paper_radius.ts";
import { sampleSolid } from "../core/scene/scene_builder.ts";

Deno.test("radiusForCount: the radius whose lattice holds the target count", async (t) => {
  await t.step("a box: boxLatticeCount is what the scene builder samples", () => {
    const size = [0.06, 0.29, 0.3];
    for (const r of [0.01, 0.0037, 0.0018]) {
      const pts = sampleSolid(
        {
          kind: "solid",
          name: "box",
          shape: { type: "box", min: [0, 0, 0], max: [...size] as [number, number, number] },
          spacing: 2 * r,
          density: 1000,
          bulkModulus: 1e7,
          fractureEnergy: 1,
          horizon: 6 * r,
          dampingRatio: 0,
          velocity: [0, 0, 0],
          breakable: true,
        } as Parameters<typeof sampleSolid>[0],
      );
      assert.equal(pts.length / 3, boxLatticeCount(size, r), `r = ${r}`);
    }
  });

  await t.step("the closest count; no radius nearby does better", () => {
    const size = [0.06, 0.29, 0.3];
    const count = (r: number) => boxLatticeCount(size, r);
    const target = 112_500;
    const guess = Math.cbrt(size[0] * size[1] * size[2] / target) / 2;
    const r = radiusForCount(target, { count, guess });
    const best = Math.abs(count(r) - target);
    assert.ok(best / target < 0.05, `${count(r)} of ${target}`);
    for (let k = -2000; k <= 2000; k++) {
      const q = r * (1 + k * 1e-5);
      assert.ok(Math.abs(count(q) - target) >= best, `r = ${q} holds ${count(q)}`);
    }
    // volume / count alone undercounts here by more than 5 %
    assert.ok(count(guess) < 0.95 * target);
    assert.throws(() => radiusForCount(target, { count, guess: 10 * guess }), /closer guess/);
    assert.throws(() => radiusForCount(0, { count, guess }), /target/);
  });
});
