import assert from "node:assert/strict";
import fc from "fast-check";
import { groupIndexOrder, partnerLists } from "./index_order_grouping.ts";
import { drawGroupLimit, groupCollisions } from "./grouping.ts";
import type { Pair } from "./collision_rules.ts";
import { contactGraph, RUNS } from "../test_util.ts";

/** A seed (searched once, fixed here) whose first group limits at step 0 are given. */
function seedWithLimits(nMin: number, nMax: number, want: Record<number, number>): number {
  for (let seed = 0; seed < 100000; seed++) {
    if (
      Object.entries(want).every(([r, n]) =>
        drawGroupLimit(Number(r), { nMin, nMax, seed, step: 0 }) === n
      )
    ) return seed;
  }
  throw new Error("no seed found");
}

const graph = contactGraph;

Deno.test("groupIndexOrder (§5.2, the paper's pass)", async (t) => {
  await t.step("a chain 0-1-2-3-4-5 with n = 2 breaks into pairs in index order", () => {
    const pairs: Pair[] = [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]];
    const g = groupIndexOrder(pairs, { particleCount: 6, nMin: 2, nMax: 2, seed: 1 });
    assert.deepEqual(g.groups, [[0, 1], [2, 3], [4, 5]]);
    assert.deepEqual([...g.dof], [0, 0, 2, 2, 4, 4]);
  });

  await t.step("the group of 0 grows breadth first, partners ascending, up to its limit", () => {
    // 0 touches 5 and 3; 3 touches 1; 5 touches 2. n = 3: 0 takes 3 and 5 (its partners,
    // ascending) before 1 or 2 (partners of partners); 1 and 2 are not adjacent: left alone.
    const pairs: Pair[] = [[0, 5], [0, 3], [3, 1], [5, 2]];
    const g = groupIndexOrder(pairs, { particleCount: 6, nMin: 3, nMax: 3, seed: 1 });
    assert.deepEqual(g.groups, [[0, 3, 5]]);
    assert.deepEqual([...g.dof], [0, 1, 2, 0, 4, 0]);
    // the order they joined and the partner each joined through (merge order colliding-pairs)
    assert.deepEqual(g.joined, [[0, 3, 5]]);
    assert.deepEqual([...g.via], [-1, -1, -1, 0, -1, 0]);
    const deeper = groupIndexOrder(pairs, { particleCount: 6, nMin: 5, nMax: 5, seed: 1 });
    assert.deepEqual(deeper.joined, [[0, 3, 5, 1, 2]]);
    assert.deepEqual([...deeper.via], [-1, 3, 5, 0, -1, 0]);
  });

  await t.step("the next group starts at the lowest particle left, not next to the last", () => {
    // chain 0-10-11-12-1, n = 2: {0, 10}; then 1 (the lowest left) starts {1, 12}; 11 alone.
    const pairs: Pair[] = [[0, 10], [10, 11], [11, 12], [12, 1]];
    const g = groupIndexOrder(pairs, { particleCount: 13, nMin: 2, nMax: 2, seed: 3 });
    assert.deepEqual(g.groups, [[0, 10], [1, 12]]);
    assert.equal(g.dof[11], 11);
  });

  await t.step("a limit is drawn as each group starts, from its first particle", () => {
    // a star 0-{1..6} and a star 7-{8..13}; limits 3 for the group at 0, 5 for the one at 7
    const seed = seedWithLimits(2, 6, { 0: 3, 7: 5 });
    const pairs: Pair[] = [];
    for (let k = 1; k <= 6; k++) pairs.push([0, k], [7, 7 + k]);
    const g = groupIndexOrder(pairs, { particleCount: 14, nMin: 2, nMax: 6, seed });
    // 0 takes 1 and 2 (limit 3); 3..6 touch only 0, already grouped: alone. 7 takes 8..11.
    assert.deepEqual(g.groups, [[0, 1, 2], [7, 8, 9, 10, 11]]);
    assert.deepEqual(
      g.limits,
      g.groups.map((m) => drawGroupLimit(m[0], { nMin: 2, nMax: 6, seed })),
    );
    for (const i of [3, 4, 5, 6, 12, 13]) assert.equal(g.dof[i], i);
  });

  await t.step("without a limit a group is a connected component", () => {
    fc.assert(
      fc.property(graph, fc.nat(), ([n, pairs], seed) => {
        const a = groupIndexOrder(pairs, {
          particleCount: n,
          nMin: Infinity,
          nMax: Infinity,
          seed,
        });
        const b = groupCollisions(pairs, {
          particleCount: n,
          nMin: Infinity,
          nMax: Infinity,
          seed,
        });
        assert.deepEqual(a.groups, b.groups);
        assert.deepEqual([...a.dof], [...b.dof]);
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("groups are connected, within their limit, and maximal along the pass", () => {
    fc.assert(
      fc.property(graph, fc.integer({ min: 2, max: 12 }), fc.nat(), ([n, pairs], nMin, seed) => {
        const nMax = nMin + 8;
        const g = groupIndexOrder(pairs, { particleCount: n, nMin, nMax, seed, step: 5 });
        const partners = partnerLists(pairs, n);
        const grouped = new Set(g.groups.flat());
        g.groups.forEach((members, k) => {
          assert.ok(members.length >= 2 && members.length <= g.limits[k]);
          assert.equal(g.limits[k], drawGroupLimit(members[0], { nMin, nMax, seed, step: 5 }));
          // a group short of its limit has no partner outside every group
          if (members.length < g.limits[k]) {
            for (const i of members) for (const j of partners[i]) assert.ok(grouped.has(j));
          }
          for (const i of members) assert.equal(g.dof[i], members[0]);
        });
        // a particle alone has no partner alone
        for (let i = 0; i < n; i++) {
          if (!grouped.has(i)) { for (const j of partners[i]) assert.ok(grouped.has(j)); }
        }
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("bad input names the field", () => {
    assert.throws(
      () => groupIndexOrder([[0, 0]], { particleCount: 2, nMin: 2, nMax: 2, seed: 0 }),
      /pairs\[0\]/,
    );
    assert.throws(
      () => groupIndexOrder([], { particleCount: 2, nMin: 9, nMax: 2, seed: 0 }),
      /nMax/,
    );
  });
});
