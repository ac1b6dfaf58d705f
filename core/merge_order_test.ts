import assert from "node:assert/strict";
import { groupTree, mergeOrderSpread, type ProbedGroup } from "./merge_order.ts";
import { leaves, mergeAll, mergeAlongPairs, splitAll } from "./merge_split.ts";
import type { Vec3 } from "./vec3.ts";

/** A group joined along a chain of pairs in the order given (each through the one before). */
function chain(order: number[]): ProbedGroup {
  const via = new Int32Array(Math.max(...order) + 1).fill(-1);
  order.forEach((i, k) => (via[i] = k ? order[k - 1] : -1));
  return { joined: order, via, pairs: order.slice(1).map((i, k) => [order[k], i]) };
}

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
    const r = mergeOrderSpread([chain([0, 1, 2])], s, 1, "index-com");
    assert.equal(r.groups, 1);
    assert.ok(r.spread < 1e-12, `${r.spread}`);
  });
  await t.step("pairs are not probed; a general 3-body group spreads", () => {
    const s = state([
      [[0, 0, 0], [1, 0.2, 0], 1],
      [[0.1, 0.02, 0], [0, 0, 0.3], 2],
      [[0.05, 0.1, 0], [-0.5, -1, 0], 0.7],
    ]);
    assert.deepEqual(mergeOrderSpread([chain([0, 1])], s, 1, "index-com"), {
      groups: 0,
      spread: 0,
    });
    const r = mergeOrderSpread([chain([0, 1, 2])], s, 1, "index-com");
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

Deno.test("merge order: the readings of §5.2's recursive merging of colliding pairs", async (t) => {
  // four particles: 0–1, 1–2, 0–3 collide; joined breadth first from 0: 0, 1, 3, 2
  const s = state([
    [[0, 0, 0], [1, 0.2, 0], 1],
    [[0.02, 0, 0], [0, 0, 0.3], 2],
    [[0.04, 0.01, 0], [-0.5, -1, 0], 0.7],
    [[0, 0.02, 0], [0.3, -0.4, 0.1], 1.3],
  ]);
  const via = Int32Array.from([-1, 0, 1, 0]);
  const g: ProbedGroup = { joined: [0, 1, 3, 2], via, pairs: [[0, 1], [1, 2], [0, 3]] };
  const p = (i: number) => ({
    x: [s.x[4 * i], s.x[4 * i + 1], s.x[4 * i + 2]] as [number, number, number],
    v: [s.v[4 * i], s.v[4 * i + 1], s.v[4 * i + 2]] as [number, number, number],
    mass: s.mass[i],
  });
  await t.step("colliding-pairs: joined order, n of Eq. 5 from the two colliding particles", () => {
    const { tree, index } = groupTree(g, p, "colliding-pairs", false);
    assert.deepEqual(leaves(tree).map((q) => index.get(q)), [0, 1, 3, 2]);
    // the last merge is particle 2 with the meta of 0, 1, 3, through its partner 1
    const want = mergeAlongPairs([p(0), p(1), p(3), p(2)], [-1, 0, 0, 1]);
    assert.deepEqual(tree, want);
    const n = [0.04 - 0.02, 0.01, 0];
    const unit = n.map((c) => c / Math.hypot(...n));
    if (!("nHat" in tree)) throw new Error("a meta");
    tree.nHat.forEach((c, d) => assert.ok(Math.abs(c - unit[d]) < 1e-12));
    // the centre-of-mass reading takes another direction for the same member
    const com = groupTree(g, p, "index-com", false).tree;
    if (!("nHat" in com)) throw new Error("a meta");
    assert.ok(Math.abs(com.nHat[0] - unit[0]) > 1e-3);
  });
  await t.step("the reverse of each reading merges every particle once", () => {
    for (const reading of ["colliding-pairs", "index-com", "pair-union"] as const) {
      for (const reversed of [false, true]) {
        const { tree, index } = groupTree(g, p, reading, reversed);
        const got = leaves(tree).map((q) => index.get(q)!).sort();
        assert.deepEqual(got, [0, 1, 2, 3], `${reading} ${reversed}`);
        // momentum (Eq. 3) whatever the order
        const m = [0, 1, 2, 3].reduce((a, i) => a + s.mass[i] * s.v[4 * i], 0);
        assert.ok(Math.abs(tree.mass * tree.v[0] - m) < 1e-12, reading);
      }
    }
    // colliding-pairs' reverse grows from the highest index (3), partners descending: 3, 0, 1, 2
    const back = groupTree(g, p, "colliding-pairs", true);
    assert.deepEqual(leaves(back.tree).map((q) => back.index.get(q)), [3, 0, 1, 2]);
    // pair-union: (0–1), then (0,1)–3 by 0–3, then +2 by 1–2, ascending pairs [0,1], [0,3], [1,2]
    const union = groupTree(g, p, "pair-union", false);
    assert.deepEqual(leaves(union.tree).map((q) => union.index.get(q)), [0, 1, 3, 2]);
    assert.throws(
      () => groupTree({ ...g, pairs: [[0, 1]] }, p, "pair-union", false),
      /leave the group in 3 metas/,
    );
    assert.throws(
      () => groupTree({ ...g, pairs: [[0, 1]] }, p, "colliding-pairs", true),
      /not connected by its pairs/,
    );
  });
  await t.step("each reading's spread is that of its two trees", () => {
    for (const reading of ["colliding-pairs", "index-com", "pair-union"] as const) {
      const r = mergeOrderSpread([g], s, 1, reading);
      assert.equal(r.groups, 1);
      assert.ok(Number.isFinite(r.spread) && r.spread > 0, `${reading}: ${r.spread}`);
    }
  });
});
