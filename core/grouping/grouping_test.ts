import assert from "node:assert/strict";
import fc from "fast-check";
import { drawGroupLimit, groupCollisions } from "./grouping.ts";
import type { Pair } from "./collision_rules.ts";
import { contactGraph, RUNS } from "../test_util.ts";

const graph = contactGraph;
const limits = fc.integer({ min: 2, max: 40 }).chain((lo) =>
  fc.tuple(fc.constant(lo), fc.integer({ min: lo, max: lo + 40 }))
);

function components(n: number, pairs: readonly Pair[]): number[][] {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (const [a, b] of pairs) parent[Math.max(find(a), find(b))] = Math.min(find(a), find(b));
  const m = new Map<number, number[]>();
  for (let i = 0; i < n; i++) m.set(find(i), [...(m.get(find(i)) ?? []), i]);
  return [...m.values()].filter((g) => g.length > 1).sort((a, b) => a[0] - b[0]);
}

Deno.test("groupCollisions (§5.2)", async (t) => {
  await t.step("respects the size limits; groups are connected by colliding pairs", () => {
    fc.assert(
      fc.property(graph, limits, fc.nat(), fc.nat(1000), ([n, pairs], [nMin, nMax], seed, step) => {
        const g = groupCollisions(pairs, { particleCount: n, nMin, nMax, seed, step });
        const seen = new Set<number>();
        g.groups.forEach((members, k) => {
          assert.ok(members.length >= 2);
          assert.ok(
            members.length <= g.limits[k],
            `group of ${members.length} > limit ${g.limits[k]}`,
          );
          assert.ok(g.limits[k] >= nMin && g.limits[k] <= nMax);
          assert.deepEqual(members, [...members].sort((a, b) => a - b));
          for (const i of members) {
            assert.ok(!seen.has(i), `particle ${i} in two groups`);
            seen.add(i);
            assert.equal(g.dof[i], members[0]);
          }
          // connected through colliding pairs inside the group
          const inside = pairs.filter(([a, b]) => members.includes(a) && members.includes(b));
          assert.equal(
            components(n, inside).find((c) => c.includes(members[0]))?.length,
            members.length,
          );
        });
        for (let i = 0; i < n; i++) if (!seen.has(i)) assert.equal(g.dof[i], i);
        // No colliding pair is left with both particles ungrouped (a pair always fits n ≥ 2).
        for (const [a, b] of pairs) assert.ok(seen.has(a) || seen.has(b));
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("deterministic for a seed; the seed changes the limits", () => {
    const n = 400;
    const pairs: Pair[] = [];
    for (let i = 0; i + 1 < n; i++) pairs.push([i, i + 1]); // one long chain
    const opts = { particleCount: n, nMin: 4, nMax: 16, seed: 7, step: 3 };
    const a = groupCollisions(pairs, opts);
    const b = groupCollisions([...pairs].reverse(), opts);
    assert.deepEqual(a, b);
    const c = groupCollisions(pairs, { ...opts, seed: 8 });
    assert.notDeepEqual(a.limits, c.limits);
    // A chain breaks into groups within [4, 16]; limits are spread over the range.
    assert.ok(a.groups.length >= Math.floor(n / 16));
    assert.ok(new Set(a.limits).size > 4);
  });

  await t.step("no limit (Infinity) gives the connected components", () => {
    fc.assert(
      fc.property(graph, fc.nat(), ([n, pairs], seed) => {
        const g = groupCollisions(pairs, {
          particleCount: n,
          nMin: Infinity,
          nMax: Infinity,
          seed,
        });
        assert.deepEqual(g.groups, components(n, pairs));
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("rounds stop when one merges nothing: no fitting pair is left", () => {
    fc.assert(
      fc.property(graph, limits, fc.nat(), ([n, pairs], [nMin, nMax], seed) => {
        const g = groupCollisions(pairs, { particleCount: n, nMin, nMax, seed, maxRounds: 1000 });
        assert.equal(g.fittingPairsLeft, 0);
        const capped = groupCollisions(pairs, { particleCount: n, nMin, nMax, seed, maxRounds: 1 });
        assert.ok(capped.rounds <= 1);
        if (g.rounds > 1) assert.ok(capped.groups.length >= 1);
      }),
      { numRuns: RUNS },
    );
    // a bipartite interface (a 30 × 30 sheet under a layer touching 4 sheet particles each) needs
    // about 20 rounds at n in [8, 64]; the default cap leaves room for larger interfaces
    const side = 30;
    const pairs: Pair[] = [];
    for (let r = 0; r < side; r++) {
      for (let q = 0; q < side; q++) {
        for (const [dr, dq] of [[0, 0], [0, 1], [1, 0], [1, 1]]) {
          if (r + dr < side && q + dq < side) {
            pairs.push([(r + dr) * side + q + dq, side * side + r * side + q]);
          }
        }
      }
    }
    const g = groupCollisions(pairs, {
      particleCount: 2 * side * side,
      nMin: 8,
      nMax: 64,
      seed: 1,
    });
    assert.equal(g.fittingPairsLeft, 0);
    assert.ok(g.rounds > 10 && g.rounds < 32, `${g.rounds} rounds`);
  });

  await t.step("drawGroupLimit covers [nMin, nMax] uniformly enough", () => {
    const counts = new Map<number, number>();
    for (let r = 0; r < 5000; r++) {
      const n = drawGroupLimit(r, { nMin: 8, nMax: 15, seed: 1, step: 0 });
      counts.set(n, (counts.get(n) ?? 0) + 1);
    }
    assert.deepEqual([...counts.keys()].sort((a, b) => a - b), [8, 9, 10, 11, 12, 13, 14, 15]);
    for (const c of counts.values()) assert.ok(c > 500 && c < 750, `count ${c}`);
  });

  await t.step("rejects bad limits and pairs, naming them", () => {
    const base = { particleCount: 4, nMin: 2, nMax: 4, seed: 0 };
    assert.throws(() => groupCollisions([], { ...base, nMin: 1 }), {
      name: "RangeError",
      message: /nMin/,
    });
    assert.throws(() => groupCollisions([], { ...base, nMax: 1 }), /nMax/);
    assert.throws(() => groupCollisions([], { ...base, nMin: 2.5 }), /nMin/);
    assert.throws(() => groupCollisions([], { ...base, nMin: Infinity, nMax: 8 }), /nMax/);
    assert.throws(() => groupCollisions([[0, 4]], base), /pairs\[0\]/);
    assert.throws(() => groupCollisions([[1, 1]], base), /pairs\[0\]/);
    assert.throws(() => groupCollisions([], { ...base, seed: -1 }), /seed/);
  });
});
