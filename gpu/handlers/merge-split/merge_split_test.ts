import assert from "node:assert/strict";
import { checkWgslStruct } from "../../runtime/struct_layout.ts";
import {
  DEFAULT_STORAGE_BUFFERS,
  dispatchesEncoded,
  kernelStorageBuffers,
  readBuffer,
} from "../../runtime/kernel.ts";
import { KIND_BITS } from "../../state/particle_state.ts";
import { MERGE_SPLIT_PARAMS, MERGE_SPLIT_WGSL } from "./merge_split.ts";
import {
  type Case,
  f32,
  randomCase,
  run,
  setup,
  sheetKinds,
  STATS,
  u32,
} from "./merge_split_fixture.ts";
import { groupCollisions } from "../../../core/grouping/grouping.ts";
import { groupWith } from "../../../core/grouping/index_order_grouping.ts";
import { censusOf } from "../../../core/grouping/grouping_census.ts";
import { censusWords, MERGE_SPLIT_STATS } from "./merge_split_stats.ts";
import {
  CTRL_WORDS,
  defaultLocalLimit,
  GROUPING_BINDINGS,
  GROUPING_WGSL,
  groupingEntryPoints,
  LOCAL_LIMIT,
  workAWords,
  workBWords,
} from "./grouping.ts";
import { mergeAll, mergeAlongPairs, splitAll } from "../../../core/merge_split.ts";
import type { Pair } from "../../../core/grouping/collision_rules.ts";
import type { Particle } from "../../../core/particle.ts";
import { Rng } from "../../../core/rng.ts";
import type { Vec3 } from "../../../core/vec3.ts";

function particleOf(c: Case, i: number): Particle {
  return {
    mass: c.m[i],
    x: [c.x[4 * i], c.x[4 * i + 1], c.x[4 * i + 2]],
    v: [c.v[4 * i], c.v[4 * i + 1], c.v[4 * i + 2]],
  };
}

function closeVec(a: ArrayLike<number>, at: number, want: Vec3, tol: number, msg: string): void {
  for (let k = 0; k < 3; k++) {
    assert.ok(Math.abs(a[at + k] - want[k]) <= tol, `${msg}[${k}]: ${a[at + k]} vs ${want[k]}`);
  }
}

Deno.test("merge-split kernels match the core f64 reference", async (t) => {
  await t.step("WGSL struct matches the TypeScript layout", () => {
    checkWgslStruct(MERGE_SPLIT_WGSL, MERGE_SPLIT_PARAMS);
  });

  // the compact grouping (members ascending, n from the meta's centre) and the paper's index-order
  // pass (members in the order they joined, n from the two colliding particles: colliding-pairs)
  const runs = [
    [1, 300, 4, 8, "compact"],
    [2, 500, 8, 64, "compact"],
    [4, 6000, 8, 64, "compact"],
    [3, 200, Infinity, Infinity, "compact"],
    [5, 500, 8, 64, "index-order"],
    [6, 200, Infinity, Infinity, "index-order"],
  ] as const;
  for (const [seed, n, nMin, nMax, grouping] of runs) {
    await t.step(
      `random groups: seed ${seed}, N = ${n}, n in [${nMin}, ${nMax}], ${grouping}`,
      async () => {
        const c = randomCase(seed, n);
        const { device, buffers, ms } = await setup(c, { grouping });
        const params = { count: n, seed: 77, step: 5, alpha: 0.7, beta: 0.4, nMin, nMax };
        ms.setParams(params);
        run(device, (pass) => {
          ms.encodeGroup(pass, { stage: 1 });
          ms.encodeMerge(pass, { stage: 1, count: n });
        });
        // grouping equals core/grouping/grouping.ts exactly
        const want = groupWith(grouping, c.pairs, {
          particleCount: n,
          nMin,
          nMax,
          seed: 77,
          step: 5,
        });
        assert.deepEqual([...await u32(device, buffers.dof)].slice(0, n), [...want.dof]);
        const start = await u32(device, buffers.memberStart);
        const list = await u32(device, buffers.memberList);
        for (const g of want.joined) {
          assert.deepEqual([...list.slice(start[g[0]], start[g[0] + 1])], g);
        }
        assert.ok(want.joined.length > (nMax === Infinity ? 0 : 5), "the case forms groups");
        const groupStats = new Uint32Array(await readBuffer(device, buffers.stats));
        assert.equal(groupStats[STATS.groupingRounds], want.rounds, "rounds that merged");
        assert.equal(groupStats[STATS.groups], want.joined.length);
        assert.equal(groupStats[STATS.largestGroup], Math.max(...want.joined.map((g) => g.length)));
        // the most sheet members of any group (a lone sheet particle is a group of one)
        const kinds = sheetKinds(n);
        const sheetOf = (g: readonly number[]) =>
          g.filter((i) => kinds[i] === KIND_BITS.sheet).length;
        assert.equal(
          groupStats[STATS.largestSheetGroup],
          Math.max(1, ...want.joined.map(sheetOf)),
          "sheet members of the largest sheet group",
        );
        // merged state equals mergeAll per group (f32)
        const dofX = await f32(device, buffers.dofX);
        const dofV = await f32(device, buffers.dofV);
        const dofM = await f32(device, buffers.dofM);
        const offset = await f32(device, buffers.offset);
        // each member through the partner it joined by (at its place in the group), or none (-1)
        const trees = want.joined.map((g) =>
          mergeAlongPairs(g.map((i) => particleOf(c, i)), g.map((i) => g.indexOf(want.via[i])))
        );
        if (grouping === "index-order") assert.ok(want.via.some((p) => p >= 0), "partners given");
        want.joined.forEach((g, k) => {
          const tr = trees[k];
          const d = g[0];
          assert.ok(Math.abs(dofM[d] - tr.mass) <= 1e-5 * tr.mass);
          closeVec(dofX, 4 * d, tr.x, 1e-5, "dofX");
          closeVec(dofV, 4 * d, tr.v, 1e-5, "dofV");
          for (const i of g) {
            const xi = particleOf(c, i).x;
            closeVec(
              offset,
              4 * i,
              [xi[0] - tr.x[0], xi[1] - tr.x[1], xi[2] - tr.x[2]],
              1e-5,
              "offset",
            );
          }
        });
        // split with random v′ and ΔĒk equals splitAll (f32)
        const rng = new Rng(seed + 100);
        const vAfter = new Float32Array(4 * n);
        const syncEnergy = new Float32Array(n);
        const dEk: number[] = [];
        want.joined.forEach((g) => {
          for (let k = 0; k < 3; k++) vAfter[4 * g[0] + k] = rng.uniform(-1, 1);
          const e = rng.uniform(0, 0.2);
          dEk.push(e);
          syncEnergy[g[0]] = e;
        });
        for (let i = 0; i < n; i++) {
          if (want.dof[i] === i && !want.joined.some((g) => g[0] === i)) {
            for (let k = 0; k < 3; k++) vAfter[4 * i + k] = rng.uniform(-1, 1);
          }
        }
        device.queue.writeBuffer(buffers.dofV, 0, vAfter);
        device.queue.writeBuffer(buffers.syncEnergy, 0, syncEnergy);
        run(device, (pass) => ms.encodeSplit(pass, { stage: 1, count: n }));
        const velOut = await f32(device, buffers.velOut);
        let closest = 0; // the reference's splits on the closest-point branch (ε ≠ 0)
        want.joined.forEach((g, k) => {
          const d = g[0];
          const va: Vec3 = [vAfter[4 * d], vAfter[4 * d + 1], vAfter[4 * d + 2]];
          const vs = splitAll(trees[k], va, {
            alpha: 0.7,
            beta: 0.4,
            deltaEk: dEk[k],
            onSplit: (r) => (closest += r.branch === "closest" ? 1 : 0),
          });
          g.forEach((i, q) => closeVec(velOut, 4 * i, vs[q], 2e-4, `v′ of particle ${i}`));
        });
        const counted =
          new Uint32Array(await readBuffer(device, buffers.stats))[STATS.closestSplits];
        assert.ok(closest > 0, "the case takes the closest-point branch");
        assert.equal(counted, closest, "splits with ε ≠ 0 counted on the GPU");
        // singletons keep their DOF's velocity
        for (let i = 0; i < n; i++) {
          if (want.dof[i] === i && !want.joined.some((g) => g[0] === i)) {
            closeVec(
              velOut,
              4 * i,
              [vAfter[4 * i], vAfter[4 * i + 1], vAfter[4 * i + 2]],
              0,
              "singleton",
            );
          }
        }
        // conservation measured on the GPU (relative, f32)
        const stats = await readBuffer(device, buffers.stats);
        const errs = new Float32Array(stats);
        assert.ok(errs[STATS.momentumError] < 2e-6, `momentum error ${errs[STATS.momentumError]}`);
        assert.ok(errs[STATS.energyError] < 2e-5, `energy error ${errs[STATS.energyError]}`);
        assert.equal(await device.popErrorScope(), null);
        ms.destroy();
        device.destroy();
      },
    );
  }

  await t.step("split keeps the energy of a pair stopped within its step (Eq. 10)", async () => {
    // Fixture: G pairs (2g, 2g + 1) in contact along a direction e (a new one per pair), both
    // moving along e at 5 m/s, the second 0.01 m/s slower, equal masses; the step ends with the
    // pair at rest (V′ = 0), so all its kinetic energy is the merge's bond energy, αΔE (α = 1).
    // Eq. 13's root branch then takes u with |v12′ − v1| = 5 m/s ≫ s = 0.005 m/s: in f32, w keeps
    // a component along n̂ of about ε·5 m/s, and |u|² = s² + 2√disc (w·n̂) read as much as 6·10⁻⁴
    // relative energy error (issue 24: 1.8·10⁻⁴ on an H100 in fig5-wall of ice) until u was
    // rescaled to s. Momentum is exact for any u (Eq. 8).
    const G = 1000;
    const n = 2 * G;
    const rng = new Rng(11);
    const x = new Float32Array(4 * n);
    const v = new Float32Array(4 * n);
    const m = new Float32Array(n).fill(0.1468);
    const pairs: Pair[] = [];
    for (let g = 0; g < G; g++) {
      const e = [rng.uniform(0.2, 1.2), rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5)];
      const len = Math.hypot(e[0], e[1], e[2]);
      const c = [rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)];
      for (let k = 0; k < 3; k++) {
        const ek = e[k] / len;
        x[8 * g + k] = c[k];
        x[8 * g + 4 + k] = c[k] + 0.02 * ek;
        v[8 * g + k] = 5 * ek;
        v[8 * g + 4 + k] = (5 - 0.01) * ek;
      }
      x[8 * g + 3] = x[8 * g + 7] = 0.01;
      pairs.push([2 * g, 2 * g + 1]);
    }
    const { device, buffers, ms } = await setup({ n, x, v, m, pairs, marked: [] });
    ms.setParams({ count: n, seed: 1, step: 0, alpha: 1, beta: 0, nMin: 8, nMax: 64 });
    run(device, (pass) => {
      ms.encodeGroup(pass, { stage: 1 });
      ms.encodeMerge(pass, { stage: 1, count: n });
    });
    assert.equal(new Uint32Array(await readBuffer(device, buffers.stats))[STATS.groups], G);
    device.queue.writeBuffer(buffers.dofV, 0, new Float32Array(4 * n)); // V′ = 0
    device.queue.writeBuffer(buffers.syncEnergy, 0, new Float32Array(n));
    run(device, (pass) => ms.encodeSplit(pass, { stage: 1, count: n }));
    const velOut = await f32(device, buffers.velOut);
    // the true error, in f64, of the kernel's f32 velocities: Σ ½m|v′|² against ½μ|Δv|² of the
    // f32 velocities it was given (μ the reduced mass)
    const mu = m[0] / 2;
    let worst = 0;
    for (let g = 0; g < G; g++) {
      const dv = [0, 1, 2].map((k) => v[8 * g + k] - v[8 * g + 4 + k]);
      const want = 0.5 * mu * (dv[0] ** 2 + dv[1] ** 2 + dv[2] ** 2);
      let ke = 0;
      for (let q = 0; q < 2; q++) {
        const o = 4 * (2 * g + q);
        ke += 0.5 * m[2 * g + q] * (velOut[o] ** 2 + velOut[o + 1] ** 2 + velOut[o + 2] ** 2);
      }
      worst = Math.max(worst, Math.abs(ke - want) / want);
    }
    // f32 round-off of the velocities, about 1e-6 relative: 10× above it
    assert.ok(worst < 1e-5, `worst relative energy error of a split ${worst}`);
    const errs = new Float32Array(await readBuffer(device, buffers.stats));
    assert.ok(errs[STATS.energyError] < 1e-5, `measured on the GPU: ${errs[STATS.energyError]}`);
    assert.ok(errs[STATS.momentumError] < 2e-6, `momentum error ${errs[STATS.momentumError]}`);
    assert.equal(await device.popErrorScope(), null);
    ms.destroy();
    device.destroy();
  });

  await t.step("members at one point split along v1 − v2, or e_x (n_k = 0)", async () => {
    // Fixture: G pairs (2g, 2g + 1), each pair's two particles at one point, so n_k = 0 and the
    // split's direction n̂ is v1 − v2's (the reference's collisionDirection), or e_x where the
    // velocities are equal too (the last pair); α = 1 and random V′, so u depends on n̂.
    const G = 50;
    const n = 2 * G;
    const rng = new Rng(21);
    const x = new Float32Array(4 * n);
    const v = new Float32Array(4 * n);
    const m = Float32Array.from({ length: n }, () => rng.uniform(0.5, 2));
    const pairs: Pair[] = [];
    for (let g = 0; g < G; g++) {
      for (let k = 0; k < 3; k++) {
        x[8 * g + k] = x[8 * g + 4 + k] = rng.uniform(-1, 1);
        v[8 * g + k] = rng.uniform(-1, 1);
        v[8 * g + 4 + k] = g === G - 1 ? v[8 * g + k] : rng.uniform(-1, 1);
      }
      pairs.push([2 * g, 2 * g + 1]);
    }
    const c: Case = { n, x, v, m, pairs, marked: [] };
    const { device, buffers, ms } = await setup(c);
    ms.setParams({ count: n, seed: 1, step: 0, alpha: 1, beta: 0, nMin: 8, nMax: 64 });
    run(device, (pass) => {
      ms.encodeGroup(pass, { stage: 1 });
      ms.encodeMerge(pass, { stage: 1, count: n });
    });
    const vAfter = new Float32Array(4 * n).map((_, k) => (k % 4 === 3 ? 0 : rng.uniform(-1, 1)));
    device.queue.writeBuffer(buffers.dofV, 0, vAfter);
    device.queue.writeBuffer(buffers.syncEnergy, 0, new Float32Array(n));
    run(device, (pass) => ms.encodeSplit(pass, { stage: 1, count: n }));
    const velOut = await f32(device, buffers.velOut);
    for (let g = 0; g < G; g++) {
      const tree = mergeAll([particleOf(c, 2 * g), particleOf(c, 2 * g + 1)]);
      const va: Vec3 = [vAfter[8 * g], vAfter[8 * g + 1], vAfter[8 * g + 2]];
      const vs = splitAll(tree, va, { alpha: 1, beta: 0, deltaEk: 0 });
      vs.forEach((want, q) => closeVec(velOut, 4 * (2 * g + q), want, 2e-4, `pair ${g}: v′${q}`));
    }
    assert.equal(await device.popErrorScope(), null);
    ms.destroy();
    device.destroy();
  });

  await t.step(
    "every kernel binds at most 8 storage buffers and runs on such a device",
    async () => {
      const n = 300;
      const c = randomCase(6, n);
      const methods = [[true, "compact"], [false, "compact"], [false, "index-order"]] as const;
      assert.deepEqual(
        new Set(methods.flatMap(([, m]) => groupingEntryPoints(m))),
        new Set(Object.keys(GROUPING_BINDINGS)),
      );
      for (const [smallGrouping, grouping] of methods) {
        const { device, buffers, ms } = await setup(c, {
          smallGrouping,
          grouping,
          storageBuffers: DEFAULT_STORAGE_BUFFERS,
        });
        assert.equal(device.limits.maxStorageBuffersPerShaderStage, DEFAULT_STORAGE_BUFFERS);
        const used = kernelStorageBuffers(device);
        // the handler's kernels (and its scans'): every entry point of both modules is there
        for (const entryPoint of groupingEntryPoints(grouping)) {
          assert.ok(`merge-split grouping ${entryPoint}` in used, entryPoint);
        }
        for (
          const entryPoint of [
            "merge_groups",
            "merge_dofs",
            "mark_approaching",
            "split_groups",
          ]
        ) {
          assert.ok(`merge-split ${entryPoint}` in used, entryPoint);
        }
        for (const [label, storage] of Object.entries(used)) {
          assert.ok(
            storage <= DEFAULT_STORAGE_BUFFERS,
            `${label} binds ${storage} storage buffers`,
          );
        }
        // and every path runs there (with a limit and without; stage 2), stage 1's groups those
        // of the reference
        for (const nMax of [32, Infinity]) {
          ms.setParams({ count: n, seed: 1, step: 1, alpha: 1, beta: 0.5, nMin: 8, nMax });
          run(device, (pass) => {
            ms.encodeGroup(pass, { stage: 1 });
            ms.encodeMerge(pass, { stage: 1, count: n });
            ms.encodeSplit(pass, { stage: 1, count: n });
          });
          const opts = { particleCount: n, nMin: 8, nMax, seed: 1, step: 1 };
          const want = groupWith(grouping, c.pairs, opts);
          assert.ok(want.groups.length > 0, "the case forms groups");
          assert.deepEqual([...await u32(device, buffers.dof)].slice(0, n), [...want.dof]);
          run(device, (pass) => {
            ms.encodeStage2Flag(pass, { count: n });
            ms.encodeGroup(pass, { stage: 2 });
            ms.encodeMerge(pass, { stage: 2, count: n });
            ms.encodeSplit(pass, { stage: 2, count: n });
          });
        }
        assert.equal(await device.popErrorScope(), null);
        ms.destroy();
        device.destroy();
      }
    },
  );

  await t.step("dispatches of merging, the stage-2 flag and splitting per stage", async () => {
    const n = 300;
    const { device, ms } = await setup(randomCase(6, n));
    ms.setParams({ count: n, seed: 1, step: 1, alpha: 1, beta: 0, nMin: 8, nMax: 32 });
    const counted = (encode: (pass: GPUComputePassEncoder) => void) => {
      let k = 0;
      run(device, (pass) => {
        const before = dispatchesEncoded();
        encode(pass);
        k = dispatchesEncoded() - before;
      });
      return k;
    };
    for (const stage of [1, 2] as const) {
      assert.equal(
        counted((pass) => ms.encodeGroup(pass, { stage })),
        ms.grouping.dispatchesPerStage[stage - 1],
        `grouping of stage ${stage}`,
      );
      assert.equal(counted((pass) => ms.encodeMerge(pass, { stage, count: n })), 2, "merging");
      assert.equal(counted((pass) => ms.encodeSplit(pass, { stage, count: n })), 1, "splitting");
    }
    assert.equal(counted((pass) => ms.encodeStage2Flag(pass, { count: n })), 1, "stage-2 flag");
    assert.equal(await device.popErrorScope(), null);
    ms.destroy();
    device.destroy();
  });

  await t.step("work A holds every control word grouping.wgsl names (CTRL_WORDS)", () => {
    const words = [...GROUPING_WGSL.matchAll(/^const C_[A-Z_]+: u32 = (\d+)u;/gm)].map((m) =>
      Number(m[1])
    );
    assert.ok(words.length >= 5, `control words found: ${words}`);
    assert.equal(Math.max(...words) + 1, CTRL_WORDS);
    assert.match(GROUPING_WGSL, new RegExp(`^const CTRL_WORDS: u32 = ${CTRL_WORDS}u;`, "m"));
    assert.equal(workAWords(10), 40 + CTRL_WORDS);
  });

  await t.step(
    "the grouping's scratch stays under 128 MiB per binding at Table I's largest",
    () => {
      const fig8BowlPaper = 6_512_570; // particles of fig8-bowl at scale `paper`
      for (const words of [workAWords, workBWords]) {
        assert.ok(
          4 * words(fig8BowlPaper) <= 128 * 2 ** 20,
          `${words.name}: ${4 * words(fig8BowlPaper)} B`,
        );
      }
    },
  );

  await t.step("the local limit of grouping follows the adapter", () => {
    const device = (fallback: boolean) =>
      ({ adapterInfo: { isFallbackAdapter: fallback } }) as unknown as GPUDevice;
    assert.equal(defaultLocalLimit(device(true)), LOCAL_LIMIT);
    assert.ok(defaultLocalLimit(device(false)) < LOCAL_LIMIT);
  });

  for (
    const [path, localLimit, localBudget, smallGrouping] of [
      ["the whole grouping in one workgroup", undefined, undefined, true],
      ["rounds in one workgroup", undefined, undefined, false],
      ["each component's rounds in a workgroup of their own", 0, undefined, false],
      ["workgroup dispatches resuming each other after one round", undefined, 1, false],
    ] as const
  ) {
    await t.step(`${path}: equal to the reference; a round cap stops both alike`, async () => {
      const n = 2000;
      const c = randomCase(5, n);
      for (const maxRounds of [3, 32]) {
        const { device, buffers, ms } = await setup(c, {
          maxRounds,
          localLimit,
          localBudget,
          smallGrouping,
        });
        ms.setParams({ count: n, seed: 9, step: 2, alpha: 1, beta: 0, nMin: 16, nMax: 64 });
        run(device, (pass) => ms.encodeGroup(pass, { stage: 1 }));
        const opts = { particleCount: n, nMin: 16, nMax: 64, seed: 9, step: 2, maxRounds };
        const want = groupCollisions(c.pairs, opts);
        if (maxRounds === 3) assert.ok(want.fittingPairsLeft > 0, "3 rounds leave fitting pairs");
        else assert.equal(want.fittingPairsLeft, 0);
        assert.deepEqual([...await u32(device, buffers.dof)].slice(0, n), [...want.dof]);
        const start = await u32(device, buffers.memberStart);
        const list = await u32(device, buffers.memberList);
        for (const g of want.groups) {
          assert.deepEqual([...list.slice(start[g[0]], start[g[0] + 1])], g);
        }
        const stats = new Uint32Array(await readBuffer(device, buffers.stats));
        assert.equal(stats[STATS.groupingRounds], want.rounds);
        const census = censusWords(MERGE_SPLIT_STATS.decode(stats.buffer as ArrayBuffer));
        assert.deepEqual(census, [...censusOf(want.groups, want.dof, c.pairs)]);
        assert.equal(await device.popErrorScope(), null);
        ms.destroy();
        device.destroy();
      }
    });
  }

  await t.step(
    "per component: the small ones an invocation each, the large a workgroup",
    async () => {
      // blocks of 2 to 70 particles, each a chain with random chords: components on both sides of
      // compSerialMax (32), equal to the reference with the local path bypassed
      const n = 3000;
      const c = randomCase(7, n);
      const rng = new Rng(3);
      c.pairs = [];
      c.marked = [];
      const sizes = [2, 3, 5, 8, 13, 33, 40, 70];
      for (let b = 0, k = 0; b < n; b += sizes[k++ % sizes.length]) {
        const end = Math.min(n, b + sizes[k % sizes.length]);
        for (let i = b; i + 1 < end; i++) {
          c.pairs.push([i, i + 1]);
          const j = i + 2 + rng.int(0, 4);
          if (j < end && rng.uniform(0, 1) < 0.5) c.pairs.push([i, j]);
        }
      }
      const { device, buffers, ms } = await setup(c, { localLimit: 0 });
      ms.setParams({ count: n, seed: 4, step: 6, alpha: 1, beta: 0, nMin: 4, nMax: 16 });
      run(device, (pass) => ms.encodeGroup(pass, { stage: 1 }));
      const opts = { particleCount: n, nMin: 4, nMax: 16, seed: 4, step: 6 };
      const want = groupCollisions(c.pairs, opts);
      assert.deepEqual([...await u32(device, buffers.dof)].slice(0, n), [...want.dof]);
      const stats = new Uint32Array(await readBuffer(device, buffers.stats));
      assert.equal(stats[STATS.groupingRounds], want.rounds);
      assert.equal(stats[STATS.groupingIncomplete], 0);
      assert.equal(await device.popErrorScope(), null);
      ms.destroy();
      device.destroy();
    },
  );

  await t.step("a workgroup per component: a loop budget too small cuts, counted", async () => {
    // past the local limit on a fallback adapter a component whose rounds would run past the
    // loop budget stops after its last whole round: with a budget of 1, before its first
    const n = 2000;
    const c = randomCase(5, n);
    const { device, buffers, ms } = await setup(c, { localLimit: 0, localBudget: 1 });
    ms.setParams({ count: n, seed: 9, step: 2, alpha: 1, beta: 0, nMin: 16, nMax: 64 });
    run(device, (pass) => ms.encodeGroup(pass, { stage: 1 }));
    const opts = { particleCount: n, nMin: Infinity, nMax: Infinity, seed: 9, step: 2 };
    const components = groupCollisions(c.pairs, opts).groups.length;
    assert.ok(components > 10, `${components} components`);
    assert.deepEqual([...await u32(device, buffers.dof)].slice(0, n), [...Array(n).keys()]);
    const start = await u32(device, buffers.memberStart);
    assert.deepEqual([...start.slice(0, n + 1)], [...Array(n + 1).keys()]);
    const stats = new Uint32Array(await readBuffer(device, buffers.stats));
    assert.equal(stats[STATS.groupingIncomplete], components);
    assert.equal(stats[STATS.groupingRounds], 0);
    assert.equal(await device.popErrorScope(), null);
    ms.destroy();
    device.destroy();
  });

  await t.step("stage 2 merges the marked pairs that approach after stage 1", async () => {
    const n = 300;
    const c = randomCase(9, n);
    const { device, buffers, ms } = await setup(c);
    ms.setParams({ count: n, seed: 3, step: 1, alpha: 1, beta: 0, nMin: 8, nMax: 64 });
    // velocities "after stage 1": random, so about half the marked pairs approach
    const rng = new Rng(11);
    const after = new Float32Array(4 * n).map((_, k) => (k % 4 === 3 ? 0 : rng.uniform(-1, 1)));
    device.queue.writeBuffer(buffers.velOut, 0, after);
    run(device, (pass) => {
      ms.encodeStage2Flag(pass, { count: n });
      ms.encodeGroup(pass, { stage: 2 });
    });
    const approaching = c.marked.filter(([i, j]) => {
      let s = 0;
      for (let k = 0; k < 3; k++) {
        s += (c.x[4 * j + k] - c.x[4 * i + k]) * (after[4 * j + k] - after[4 * i + k]);
      }
      return s < 0;
    });
    assert.ok(approaching.length > 10 && approaching.length < c.marked.length);
    const want = groupCollisions([...c.pairs, ...approaching], {
      particleCount: n,
      nMin: 8,
      nMax: 64,
      seed: 3,
      step: 1,
    });
    assert.deepEqual([...await u32(device, buffers.dof)].slice(0, n), [...want.dof]);
    const stats = new Uint32Array(await readBuffer(device, buffers.stats));
    assert.equal(stats[STATS.stage2Pairs], approaching.length);
    assert.equal(await device.popErrorScope(), null);
    ms.destroy();
    device.destroy();
  });
});

Deno.test("steps that share a submit each group with their own step index", async () => {
  // a limit of 2–3 on a dense random contact graph: which groups form depends on the draws, which
  // depend on the step; each step's parameters reach its own grouping (StepParamRing), where
  // direct writes would leave all four the last step's
  const c = randomCase(11, 300);
  const n = c.n;
  const steps = [3, 4, 5, 6];
  for (const grouping of ["compact", "index-order"] as const) {
    const { device, buffers, ms } = await setup(c, { grouping });
    device.pushErrorScope("validation");
    const out = device.createBuffer({
      label: "grouping per step",
      size: steps.length * n * 4,
      usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
    const commands = steps.map((step, k) => {
      const encoder = device.createCommandEncoder({ label: `step ${step}` });
      ms.setParams({ count: n, seed: 5, step, alpha: 1, beta: 0, nMin: 2, nMax: 3 }, encoder);
      const pass = encoder.beginComputePass({ label: `grouping step ${step}` });
      ms.encodeGroup(pass, { stage: 1 });
      pass.end();
      encoder.copyBufferToBuffer(buffers.dof, 0, out, 4 * k * n, 4 * n);
      return encoder.finish();
    });
    device.queue.submit(commands);
    const got = await u32(device, out);
    const wants = steps.map((
      step,
    ) => [
      ...groupWith(grouping, c.pairs, { particleCount: n, nMin: 2, nMax: 3, seed: 5, step }).dof,
    ]);
    assert.ok(
      wants.some((w) => w.join() !== wants[3].join()),
      `${grouping}: the steps' groups differ`,
    );
    steps.forEach((step, k) => {
      assert.deepEqual([...got.slice(k * n, (k + 1) * n)], wants[k], `${grouping}, step ${step}`);
    });
    assert.equal(await device.popErrorScope(), null);
    out.destroy();
    ms.destroy();
    device.destroy();
  }
});
