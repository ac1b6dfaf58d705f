/**
 * The GPU's index-order grouping (`grouping.wgsl` "index order") against the paper's pass in
 * `core/grouping/index_order_grouping.ts`, bit for bit, on both of its paths (the dispatched pass
 * over the components and the one-workgroup pass, `io_small`), which must also agree with each
 * other word for word (labels, member lists, statistics): random and lattice contact graphs, with
 * and without a limit, stage 2's approaching marked pairs, a loop budget that runs out (counted,
 * never silent), and the one-workgroup pass at its loop bound on a graph whose every slot is taken
 * (llvmpipe and lavapipe stop an invocation's loops after 65,535 iterations: a pass cut short
 * there would show as other groups).
 */
import assert from "node:assert/strict";
import { groupIndexOrder } from "../../../core/grouping/index_order_grouping.ts";
import type { Pair } from "../../../core/grouping/collision_rules.ts";
import type { Grouping } from "../../../core/grouping/grouping.ts";
import type { MergeOrder } from "../../../core/merge_orders.ts";
import { readBuffer } from "../../runtime/kernel.ts";
import {
  CENSUS_BINS,
  CENSUS_STAGE_WORDS,
  CENSUS_WORD,
  censusOf,
  summarizeCensus,
} from "../../../core/grouping/grouping_census.ts";
import { censusWords, MERGE_SPLIT_STATS } from "./merge_split_stats.ts";
import { GROUPING_WGSL, indexOrderFits } from "./grouping.ts";
import { type Case, K, randomCase, run, setup, STATS, u32 } from "./merge_split_fixture.ts";
import { LOCAL_BUDGET } from "../../runtime/local_solve.ts";

/** The two paths: the one-workgroup pass, the dispatched pass over the components. */
const PATHS = [["one workgroup", true], ["dispatched", false]] as const;

/** A w × h lattice, each particle touching its right and upper neighbours (as a sheet under a layer). */
function latticeCase(w: number, h: number): Case {
  const c = randomCase(1, w * h);
  const pairs: Pair[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (x + 1 < w) pairs.push([i, i + 1]);
      if (y + 1 < h) pairs.push([i, i + w]);
    }
  }
  return { ...c, pairs, marked: [] };
}

/** N particles, each touching the next `k`: every pair slot taken (k = K), one component. */
function bandCase(n: number, k: number): Case {
  const c = randomCase(1, n);
  const pairs: Pair[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j <= Math.min(n - 1, i + k); j++) pairs.push([i, j]);
  }
  return { ...c, pairs, marked: [] };
}

async function groupOnGpu(
  c: Case,
  p: { nMin: number; nMax: number; seed: number; step: number; floodBudget?: number },
  small: boolean,
  mergeOrder: MergeOrder = "colliding-pairs",
) {
  const { device, buffers, ms } = await setup(c, {
    grouping: "index-order",
    floodBudget: p.floodBudget,
    smallGrouping: small,
    mergeOrder,
  });
  ms.setParams({ count: c.n, alpha: 1, beta: 0, ...p });
  run(device, (pass) => ms.encodeGroup(pass, { stage: 1 }));
  assert.equal(ms.grouping.dispatchesPerStage[0] === 2, small);
  const dof = [...await u32(device, buffers.dof)].slice(0, c.n);
  const start = await u32(device, buffers.memberStart);
  const list = await u32(device, buffers.memberList);
  const stats = new Uint32Array(await readBuffer(device, buffers.stats));
  assert.equal(await device.popErrorScope(), null);
  ms.destroy();
  device.destroy();
  return { dof, start, list, stats };
}

/**
 * The member lists in the order of joining with the partner each joined through (merge order
 * colliding-pairs), or with `ascending` (index-com) ascending without partners: the reference's.
 */
function assertJoined(
  got: Awaited<ReturnType<typeof groupOnGpu>>,
  want: Grouping,
  ascending = false,
  groups = want.joined,
): void {
  const n = got.dof.length;
  for (const g of groups) {
    const begin = got.start[g[0]];
    const end = got.start[g[0] + 1];
    const order = ascending ? [...g].sort((a, b) => a - b) : g;
    assert.deepEqual([...got.list.slice(begin, end)], order);
    const via = order.map((i) => (ascending || want.via[i] < 0 ? NONE : want.via[i]));
    assert.deepEqual([...got.list.slice(n + begin, n + end)], via);
  }
}

const NONE = 0xffffffff;

/** The two paths' outputs, word for word: labels, member starts and lists, statistics. */
function assertPathsAgree(
  a: Awaited<ReturnType<typeof groupOnGpu>>,
  b: Awaited<ReturnType<typeof groupOnGpu>>,
): void {
  assert.deepEqual(a.dof, b.dof);
  assert.deepEqual([...a.start], [...b.start]);
  assert.deepEqual([...a.list], [...b.list]);
  assert.deepEqual([...a.stats], [...b.stats]);
}

/** The census words of a raw statistics readback. */
function censusOfStats(raw: Uint32Array): number[] {
  return censusWords(MERGE_SPLIT_STATS.decode(raw.buffer as ArrayBuffer));
}

function assertSame(
  got: Awaited<ReturnType<typeof groupOnGpu>>,
  want: Grouping,
  pairs: readonly Pair[],
): void {
  assert.deepEqual(got.dof, [...want.dof]);
  assertJoined(got, want);
  assert.equal(got.stats[STATS.groups], want.groups.length);
  assert.equal(got.stats[STATS.largestGroup], Math.max(0, ...want.groups.map((g) => g.length)));
  assert.equal(got.stats[STATS.groupingIncomplete], 0);
  // the census of the stage: every word the reference's groups imply
  assert.deepEqual(censusOfStats(got.stats), [...censusOf(want.groups, want.dof, pairs)]);
}

Deno.test("index-order grouping on the GPU equals the paper's pass", async (t) => {
  const cases: [string, Case][] = [
    ["random, N = 2000", randomCase(5, 2000)],
    ["random, N = 300", randomCase(12, 300)],
    ["lattice 40 × 30", latticeCase(40, 30)],
  ];
  for (const [name, c] of cases) {
    for (const [nMin, nMax] of [[8, 64], [2, 2], [4, 8], [Infinity, Infinity]]) {
      await t.step(`${name}, n in [${nMin}, ${nMax}]`, async () => {
        const p = { nMin, nMax, seed: 9, step: 2 };
        const want = groupIndexOrder(c.pairs, { particleCount: c.n, ...p });
        assert.ok(want.groups.length > 0);
        const [small, dispatched] = await Promise.all(PATHS.map(([, s]) => groupOnGpu(c, p, s)));
        assertSame(small, want, c.pairs);
        assertSame(dispatched, want, c.pairs);
        assertPathsAgree(small, dispatched);
        // merge order index-com: the same groups, members ascending, no partners
        const com = await Promise.all(PATHS.map(([, s]) => groupOnGpu(c, p, s, "index-com")));
        for (const got of com) {
          assert.deepEqual(got.dof, [...want.dof]);
          assertJoined(got, want, true);
        }
      });
    }
  }

  await t.step("the census layout of the WGSL is core's", () => {
    const constant = (name: string) =>
      Number(new RegExp(`const ${name}: u32 = (\\d+)u;`).exec(GROUPING_WGSL)?.[1]);
    assert.equal(constant("CENSUS_STAGE_WORDS"), CENSUS_STAGE_WORDS);
    assert.equal(constant("CENSUS_BINS"), CENSUS_BINS);
    for (const [name, word] of Object.entries(CENSUS_WORD)) {
      assert.equal(constant(`CENSUS_${name.toUpperCase()}`), word, name);
    }
  });

  await t.step("the census reads sizes, quantiles and pairs between groups", () => {
    const groups = [[0, 1], [2, 3, 4], [5, 6, 7, 8, 9, 10, 11, 12, 13, 14]];
    const dof = [0, 0, 2, 2, 2, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 15];
    const pairs: Pair[] = [[0, 1], [1, 2], [3, 4], [14, 15]];
    const [s1, s2] = summarizeCensus(censusOf(groups, dof, pairs));
    assert.deepEqual(s1, {
      runs: 1,
      groups: 3,
      meanSize: 5,
      p50Size: 3,
      p90Size: 10,
      maxSize: 10,
      pairs: 4,
      pairsBetweenGroups: 0.5,
    });
    assert.equal(s2.runs, 0);
  });

  for (const [path, small] of PATHS) {
    await t.step(`stage 2 (${path}): the marked pairs that approach join the pass`, async () => {
      const c = randomCase(9, 300);
      const { device, buffers, ms } = await setup(c, {
        grouping: "index-order",
        smallGrouping: small,
      });
      ms.setParams({ count: c.n, seed: 3, step: 1, alpha: 1, beta: 0, nMin: 4, nMax: 16 });
      // velocities "after stage 1" that make every other marked pair approach
      const after = new Float32Array(4 * c.n);
      const approaching = c.marked.filter((_, k) => k % 2 === 0);
      for (const [i, j] of approaching) {
        for (let k = 0; k < 3; k++) after[4 * j + k] = -(c.x[4 * j + k] - c.x[4 * i + k]);
      }
      const approaches = ([i, j]: Pair) => {
        let s = 0;
        for (let k = 0; k < 3; k++) {
          s += (c.x[4 * j + k] - c.x[4 * i + k]) * (after[4 * j + k] - after[4 * i + k]);
        }
        return s < 0;
      };
      device.queue.writeBuffer(buffers.velOut, 0, after);
      run(device, (pass) => {
        ms.encodeStage2Flag(pass, { count: c.n });
        ms.encodeGroup(pass, { stage: 2 });
      });
      const merged = c.marked.filter(approaches);
      assert.ok(merged.length > 10 && merged.length < c.marked.length);
      const want = groupIndexOrder([...c.pairs, ...merged], {
        particleCount: c.n,
        nMin: 4,
        nMax: 16,
        seed: 3,
        step: 1,
      });
      assert.equal(ms.grouping.dispatchesPerStage[1] === 2, small);
      assert.deepEqual([...await u32(device, buffers.dof)].slice(0, c.n), [...want.dof]);
      assert.equal(await device.popErrorScope(), null);
      ms.destroy();
      device.destroy();
    });
  }

  // The dispatched pass skips the component passes in a stage-1 step without colliding pairs
  // (grouping.wgsl no_pairs): such a step leaves every particle alone, and a step with pairs after
  // it groups as the reference, at a new step index or the same one (a word left from a step
  // with pairs at the same index only makes the passes run).
  await t.step(
    "stage 1 without pairs: every particle alone; with pairs again, the reference's",
    async () => {
      const c = randomCase(21, 600);
      const { device, buffers, ms } = await setup(c, {
        grouping: "index-order",
        smallGrouping: false,
      });
      const pairCount = await u32(device, buffers.pairCount);
      const group = async (step: number, pairs: boolean) => {
        device.queue.writeBuffer(buffers.pairCount, 0, pairs ? pairCount : new Uint32Array(c.n));
        ms.setParams({ count: c.n, seed: 5, step, alpha: 1, beta: 0, nMin: 4, nMax: 16 });
        run(device, (pass) => ms.encodeGroup(pass, { stage: 1 }));
        return {
          dof: [...await u32(device, buffers.dof)].slice(0, c.n),
          start: [...await u32(device, buffers.memberStart)].slice(0, c.n + 1),
          list: [...await u32(device, buffers.memberList)].slice(0, 2 * c.n),
        };
      };
      const alone = {
        dof: Array.from({ length: c.n }, (_, i) => i),
        start: Array.from({ length: c.n + 1 }, (_, i) => i),
        list: [...Array.from({ length: c.n }, (_, i) => i), ...Array(c.n).fill(NONE)],
      };
      const want = (
        step: number,
      ) => [
        ...groupIndexOrder(c.pairs, { particleCount: c.n, nMin: 4, nMax: 16, seed: 5, step }).dof,
      ];
      assert.deepEqual(await group(3, false), alone);
      assert.deepEqual((await group(3, true)).dof, want(3));
      assert.deepEqual(await group(3, false), alone);
      assert.deepEqual(await group(4, false), alone);
      assert.deepEqual((await group(5, true)).dof, want(5));
      assert.notDeepEqual(want(5), alone.dof);
      assert.equal(await device.popErrorScope(), null);
      ms.destroy();
      device.destroy();
    },
  );

  for (const [path, small] of PATHS) {
    await t.step(
      `a loop budget that runs out (${path}) is counted, and the groups stay valid`,
      async () => {
        const c = latticeCase(40, 30);
        const got = await groupOnGpu(
          c,
          { nMin: 8, nMax: 64, seed: 9, step: 2, floodBudget: 3000 },
          small,
        );
        assert.equal(got.stats[STATS.groupingIncomplete], 1);
        const want = groupIndexOrder(c.pairs, {
          particleCount: c.n,
          nMin: 8,
          nMax: 64,
          seed: 9,
          step: 2,
        });
        // the groups it finished are the reference's first ones, in the order they joined
        assertJoined(got, want, false, [want.joined[0]]);
        assert.notDeepEqual(got.dof, [...want.dof]);
      },
    );
  }

  // the most particles the one-workgroup pass takes with K slots within llvmpipe's budget (were
  // SMALL_LIMIT higher): every slot taken, one component; without a limit every pair is walked
  // and the one group's members ranked
  await t.step("the one-workgroup pass at its loop bound, every slot taken", async () => {
    const fits = (count: number) =>
      indexOrderFits({ count, maxPerParticle: K, budget: LOCAL_BUDGET });
    let n = 1;
    while (fits(n + 1)) n++;
    const c = bandCase(n, K);
    for (const [nMin, nMax] of [[Infinity, Infinity], [8, 64]]) {
      const p = { nMin, nMax, seed: 4, step: 7 };
      const want = groupIndexOrder(c.pairs, { particleCount: c.n, ...p });
      const got = await groupOnGpu(c, p, true);
      assert.deepEqual(got.dof, [...want.dof], `N = ${n}, n in [${nMin}, ${nMax}]`);
      assert.equal(got.stats[STATS.groupingIncomplete], 0);
      assertJoined(got, want);
    }
  });
});
