import assert from "node:assert/strict";
import { mergeOrderSpread } from "./merge_order.ts";
import { mergeAll, splitAll } from "./merge_split.ts";
import type { Vec3 } from "./vec3.ts";

/** A state of particles given as [x, v, m] rows (vec4 arrays, as the GPU's). */
function state(rows: readonly [Vec3, Vec3, number][]) {
  return {
    x: rows.flatMap(([x]) => [...x, 0]),
    v: rows.flatMap(([, v]) => [...v, 0]),
    mass: rows.map(([, , m]) => m),
  };
}

Deno.test("merge order: the spread of final velocities between an order and its reverse", async (t) => {
  await t.step("a head-on collinear collision of three equal particles: no spread", () => {
    // 1D, equal masses, symmetric: both orders reverse the velocities exactly
    const s = state([[[0, 0, 0], [1, 0, 0], 1], [[0.1, 0, 0], [0, 0, 0], 1], [
      [0.2, 0, 0],
      [-1, 0, 0],
      1,
    ]]);
    const r = mergeOrderSpread([[0, 1, 2]], s, 1);
    assert.equal(r.groups, 1);
    assert.ok(r.spread < 1e-12, `${r.spread}`);
  });
  await t.step("pairs are not probed; a general 3-body group spreads", () => {
    const s = state([
      [[0, 0, 0], [1, 0.2, 0], 1],
      [[0.1, 0.02, 0], [0, 0, 0.3], 2],
      [[0.05, 0.1, 0], [-0.5, -1, 0], 0.7],
    ]);
    assert.deepEqual(mergeOrderSpread([[0, 1]], s, 1), { groups: 0, spread: 0 });
    const r = mergeOrderSpread([[0, 1, 2]], s, 1);
    // the same by hand: merge 0, 1, 2 and 2, 1, 0, split with v12′ = v12
    const p = (i: number) => ({
      x: [s.x[4 * i], s.x[4 * i + 1], s.x[4 * i + 2]] as Vec3,
      v: [s.v[4 * i], s.v[4 * i + 1], s.v[4 * i + 2]] as Vec3,
      mass: s.mass[i],
    });
    const a = mergeAll([p(0), p(1), p(2)]);
    const b = mergeAll([p(2), p(1), p(0)]);
    const va = splitAll(a, [...a.v] as Vec3, { alpha: 1 });
    const vb = splitAll(b, [...b.v] as Vec3, { alpha: 1 }).reverse();
    const want = Math.max(...va.map((v, k) => Math.hypot(...v.map((c, d) => c - vb[k][d]))));
    assert.ok(want > 1e-3, `the general case differs (${want})`);
    assert.equal(r.spread, want);
    // both orders conserve the group's momentum (Eq. 8) all the same
    const momentum = (vs: Vec3[]) =>
      [0, 1, 2].map((d) => vs.reduce((sum, v, k) => sum + s.mass[k] * v[d], 0));
    momentum(va).forEach((m, d) => assert.ok(Math.abs(m - momentum(vb)[d]) < 1e-12));
  });
});
