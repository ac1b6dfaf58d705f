import assert from "node:assert/strict";
import { checkWgslStruct } from "../runtime/struct_layout.ts";
import { SOLID_PARAMS, SOLID_PENETRATION_WGSL } from "./solid_penetration.ts";
import { KIND_BITS } from "../state/particle_state.ts";
import { flungSpeed, HANDLER_SAMPLE_FIELDS, HANDLER_SAMPLE_KINDS } from "../../core/result.ts";
import { statisticConstant } from "../state/handler_statistics.ts";
import { columnConstant, floorOf, METRICS_PARAMS, METRICS_WGSL, type Sheet } from "./metrics.ts";
import { sampleMetrics, sampleMetricsPath } from "./metrics_fixture.ts";

const R = 0.02;
const SPACING = 0.1;

/** Fixture: two 3 × 3 sheets at y = 0 and y = 1 (particles 0–8, 9–17) and free particles after. */
function sheetsFixture(free: number[][]) {
  const pos: number[][] = [];
  for (const y of [0, 1]) {
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) pos.push([c * SPACING, y, r * SPACING]);
  }
  pos.push(...free);
  const sheets: Sheet[] = [
    { start: 0, rows: 3, cols: 3, spacing: SPACING },
    { start: 9, rows: 3, cols: 3, spacing: SPACING },
  ];
  return { pos, sheets };
}

/** One sample of `after` (the start recorded on `before`) with the test's domain and gravity. */
function measure(
  sheets: Sheet[],
  before: number[][],
  after: number[][],
  vel: number[][],
  solids: { start: number; count: number }[] = [],
) {
  const n = before.length;
  const kind = Uint32Array.from(
    { length: n },
    (
      _,
      i,
    ) => (sheets.some((s) => i >= s.start && i < s.start + s.rows * s.cols)
      ? KIND_BITS.sheet
      : KIND_BITS.fluid),
  );
  return sampleMetrics({
    before,
    after,
    vel,
    mass: new Float32Array(n).fill(2),
    kind,
    sheets,
    solids,
    domain: { min: [-1, -1, -1], max: [2, 2, 2] },
    radius: R,
    gravity: [0, -10, 0],
    origin: [0, -1, 0],
    capacity: 4,
  });
}

Deno.test("metrics per sheet: none, one or several sheets, same definitions", async (t) => {
  await t.step(
    "WGSL struct matches its layout",
    () => {
      checkWgslStruct(METRICS_WGSL, METRICS_PARAMS);
      checkWgslStruct(SOLID_PENETRATION_WGSL, SOLID_PARAMS);
    },
  );

  await t.step("two sheets: a crossing of either counts; overlaps with either sheet", async () => {
    const centre = (y: number) => [SPACING, y, SPACING];
    const free = [centre(0.05), centre(1.5), [0, 1.01, 0], centre(0.9)];
    const { pos, sheets } = sheetsFixture(free);
    // A crosses sheet 0 downwards, B stays above sheet 1, C sits on a sheet-1 particle (depth
    // (2r − 0.01)/r = 1.5 radii), D crosses sheet 1 upwards.
    const after = [...pos.slice(0, 18), centre(-0.05), centre(1.5), [0, 1.01, 0], centre(1.05)];
    const vel = pos.map((_, i) => (i === 18 ? [0, -1, 0] : [0, 0, 0]));
    const row = await measure(sheets, pos, after, vel);
    assert.equal(row.passThrough, 2);
    assert.equal(row.deepOverlaps, 1);
    assert.ok(Math.abs(row.maxPenetrationDepth - 1.5) < 1e-3, `${row.maxPenetrationDepth}`);
    assert.ok(Math.abs(row.kinetic - 0.5 * 2 * 1) < 1e-6, `${row.kinetic}`);
    assert.equal(row.nanCount, 0);
    // the 4 fluid particles (mass 2): Σ m v_y / Σ m = (2 · −1) / 8; none moves up
    assert.ok(Math.abs(row.fluidUpVelocity + 0.25) < 1e-7, `${row.fluidUpVelocity}`);
    // the fluid's centre of mass height, Σ m y / Σ m over the 4 fluid particles (equal masses)
    const heights = after.slice(18).map((p) => p[1]);
    const height = heights.reduce((a, y) => a + y, 0) / heights.length;
    assert.ok(Math.abs(row.fluidHeight - height) < 1e-6, `${row.fluidHeight} vs ${height}`);
    assert.equal(row.maxRebound, 0);
  });

  await t.step("solid bodies: overlaps with another solid body, not with its own", async () => {
    // Fixture: body 0 = particles 0, 1 (1 at 0.3r from 0: its own body, ignored); body 1 =
    // particle 2 at 0.5r from 0 (depth 1.5: inside); body 2 = particle 3 at 1.5r from 2's far
    // side (depth 0.5 with 2), particle 4 far away.
    const x = [[0, 0, 0], [0.3 * R, 0, 0], [0.5 * R, 0, 0], [2 * R, 0, 0], [1, 1, 1]];
    const solids = [{ start: 0, count: 2 }, { start: 2, count: 1 }, { start: 3, count: 2 }];
    const row = await measure([], x, x, x.map(() => [0, 0, 0]), solids);
    // inside (depth > 1): 0 and 2 (0.5r apart), 1 and 2 (0.2r apart)
    assert.equal(row.solidInside, 3);
    assert.ok(Math.abs(row.maxSolidPenetration - 1.8) < 1e-4, `${row.maxSolidPenetration}`);
    assert.equal(row.deepOverlaps, 0, "no sheet");
    // no bonds: every solid particle is a fragment of its own
    assert.equal(row.fragments, 5);
    assert.equal(row.largestFragment, 1);
    // 1 % of 5 solid particles rounds up to 1: every fragment holds at least that
    assert.equal(row.significantFragments, 5);
  });

  await t.step("solid bodies on the grid equal the brute force on a random cloud", async () => {
    // 600 particles in 4 solid bodies, in a box of a few cells (many overlaps across cells), and
    // some outside the domain (they fall into its border cells)
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const x = Array.from(
      { length: 600 },
      (_, i) =>
        i % 50 === 0 ? [2.5, -1.5, 0.3 * rnd()] : [8 * R * rnd(), 8 * R * rnd(), 8 * R * rnd()],
    );
    const solids = [0, 1, 2, 3].map((k) => ({ start: 150 * k, count: 150 }));
    const row = await measure([], x, x, x.map(() => [0, 0, 0]), solids);
    let inside = 0, deepest = 0;
    for (let i = 0; i < x.length; i++) {
      let pen = 0;
      for (let j = 0; j < x.length; j++) {
        if (Math.floor(i / 150) === Math.floor(j / 150)) continue;
        const d = Math.hypot(x[i][0] - x[j][0], x[i][1] - x[j][1], x[i][2] - x[j][2]);
        if (d < 2 * R) pen = Math.max(pen, (2 * R - d) / R);
      }
      if (pen > 1) inside++;
      deepest = Math.max(deepest, pen);
    }
    assert.ok(inside > 50, `a cloud with overlaps (${inside} inside)`);
    assert.equal(row.solidInside, inside);
    assert.ok(Math.abs(row.maxSolidPenetration - deepest) < 1e-4, `${row.maxSolidPenetration}`);
  });

  await t.step("no sheet: no pass-through, energies still measured", async () => {
    const free = [[0, 0, 0], [0.5, 0.5, 0.5]];
    const row = await measure([], free, [[0, -0.5, 0], [0.5, 0.5, 0.5]], [[0, 3, 0], [0, 0, 4]]);
    assert.equal(row.passThrough, 0);
    assert.equal(row.deepOverlaps, 0);
    assert.ok(Math.abs(row.kinetic - (9 + 16)) < 1e-5, `${row.kinetic}`);
    // −Σ m g·(x − origin) with the positions sampled: 2·10·(0.5 + 1.5)
    assert.ok(Math.abs(row.potential - 2 * 10 * (0.5 + 1.5)) < 1e-4, `${row.potential}`);
    // rebound: one particle's 3 m/s up; the fluid's net upward velocity (2·3 + 2·0) / 4
    assert.equal(row.maxRebound, 3);
    assert.ok(Math.abs(row.fluidUpVelocity - 1.5) < 1e-7, `${row.fluidUpVelocity}`);
    assert.equal(row.fastRebound, 0, "no rebound speed given: none counts");
  });

  await t.step("fastRebound counts the fluid moving up faster than reboundSpeed", async () => {
    // 1,000 particles (every invocation of the workgroup, several each), a third of them cloth,
    // upward speeds in [−2, 2] m/s; the count against one made here in f64
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const n = 1000;
    const x = Array.from({ length: n }, () => [rnd(), rnd(), rnd()]);
    const v = Array.from({ length: n }, () => [rnd() - 0.5, 4 * rnd() - 2, 0]);
    const kind = Uint32Array.from(
      { length: n },
      (_, i) => i % 3 ? KIND_BITS.fluid : KIND_BITS.sheet,
    );
    const reboundSpeed = 0.75;
    const expected = v.filter((w, i) => kind[i] === KIND_BITS.fluid && w[1] > reboundSpeed).length;
    assert.ok(expected > 100 && expected < 600, `a mixed cloud (${expected})`);
    const row = await sampleMetrics({
      before: x,
      after: x,
      vel: v,
      mass: new Float32Array(n).fill(1),
      kind,
      sheets: [],
      solids: [],
      domain: { min: [-1, -1, -1], max: [2, 2, 2] },
      radius: R,
      reboundSpeed,
      gravity: [0, -10, 0],
      origin: [0, -1, 0],
      capacity: 4,
    });
    assert.equal(row.fastRebound, expected);
  });
});

Deno.test("spring metrics: elastic energy of intact springs, broken bonds counted", async () => {
  // Fixture: a chain 0–1–2–3 (rest length 1, k = 10, 20 and 30) stretched to lengths 1.5, 2 and
  // 1.25; the bond 1–2 is broken; bonds listed under their lower index (ParticleState's lists).
  const pos = [[0, 0, 0], [1.5, 0, 0], [3.5, 0, 0], [4.75, 0, 0]];
  const BROKEN = 0x80000000;
  const row = await sampleMetrics({
    before: pos,
    mass: new Float32Array(4).fill(1),
    kind: new Uint32Array(4),
    bonds: {
      bondStart: Uint32Array.from([0, 1, 2, 3, 3]),
      bondList: Uint32Array.from([1, (2 | BROKEN) >>> 0, 3]),
      bondClass: Uint32Array.from([1, 2, 3]),
      springClasses: Float32Array.from([0, 0, 0, 0, 1, 10, 0, 0, 1, 20, 0, 0, 1, 30, 0, 0]),
    },
    init: false,
    time: 0,
    sheets: [],
    solids: [],
    domain: { min: [-1, -1, -1], max: [5, 1, 1] },
    radius: R,
    gravity: [0, 0, 0],
    origin: [0, 0, 0],
    capacity: 2,
  });
  const elastic = 0.5 * 10 * 0.5 ** 2 + 0.5 * 30 * 0.25 ** 2;
  assert.ok(Math.abs(row.elastic - elastic) < 1e-6, `elastic ${row.elastic}`);
  assert.equal(row.brokenBonds, 1);
});

Deno.test("fragments: only the breakable bodies' particles are members", async () => {
  // Fixture: a breakable wall 0–4 (bonds 0–1, 1–2 intact, 2–3 broken; 4 unbonded) and a bonded
  // projectile 5–9 (a chain, as Fig. 5's unbreakable ball); solids both, fragment bodies the wall.
  const BROKEN = 0x80000000;
  const pos = Array.from({ length: 10 }, (_, i) => [0.1 * i, 0, 0]);
  const options = {
    before: pos,
    mass: new Float32Array(10).fill(1),
    kind: new Uint32Array(10),
    bonds: {
      bondStart: Uint32Array.from([0, 1, 2, 3, 3, 3, 4, 5, 6, 7, 7]),
      bondList: Uint32Array.from([1, 2, (3 | BROKEN) >>> 0, 6, 7, 8, 9]),
      bondClass: new Uint32Array(7),
      springClasses: new Float32Array(4),
    },
    init: false,
    time: 0,
    sheets: [],
    solids: [{ start: 0, count: 5 }, { start: 5, count: 5 }],
    domain: { min: [-1, -1, -1], max: [2, 1, 1] } as const,
    radius: R,
    gravity: [0, 0, 0] as const,
    origin: [0, 0, 0] as const,
    capacity: 2,
  };
  const wallOnly = await sampleMetrics({ ...options, fragmentBodies: [{ start: 0, count: 5 }] });
  // the wall: {0, 1, 2}, {3}, {4}; the projectile is no fragment (else it would be the largest)
  assert.equal(wallOnly.fragments, 3);
  assert.equal(wallOnly.largestFragment, 3);
  // 1 % of the wall's 5 particles rounds up to 1: all three count
  assert.equal(wallOnly.significantFragments, 3);
  // default: every solid body, the projectile's 5 particles one more fragment, the largest
  const every = await sampleMetrics(options);
  assert.equal(every.fragments, 4);
  assert.equal(every.largestFragment, 5);
});

Deno.test("metrics on a device of 8 storage buffers per stage: at most 8 per kernel, the same row", async () => {
  // two sheets, free particles crossing them, two solid bodies with a bond, handler statistics
  const free = [[SPACING, 0.05, SPACING], [0, 1.01, 0], [SPACING, 0.9, SPACING], [0.3, 0.5, 0.3]];
  const { pos, sheets } = sheetsFixture([...free, [0.3 + R, 0.5, 0.3]]);
  const after = pos.map(([x, y, z], i) => (i >= 18 ? [x, y + (i % 2 ? 0.1 : -0.1), z] : [x, y, z]));
  const n = pos.length;
  // a handler's own layout: the columns' words in an order of its own, a word no column samples
  // (99), and no statistic for largestGroup (sampled as 0)
  const bits = (x: number) => new Uint32Array(Float32Array.of(x).buffer)[0];
  const stats = {
    words: Uint32Array.from([3, 12, 99, bits(-2.5e-6), 7, bits(1.5e-7)]),
    sampled: { largestSheetGroup: 0, stage2Pairs: 1, energyError: 3, groups: 4, momentumError: 5 },
  };
  const bondStart = Uint32Array.from({ length: n + 1 }, (_, i) => (i > 21 ? 1 : 0));
  const rows = [];
  for (const storageBuffers of [undefined, 8]) {
    let used: Record<string, number> = {};
    rows.push(
      await sampleMetrics({
        before: pos,
        after,
        vel: pos.map((_, i) => [0, i % 3 - 1, 0.5]),
        mass: Float32Array.from({ length: n }, (_, i) => 1 + i / 8),
        kind: Uint32Array.from(
          { length: n },
          (_, i) => (i < 18 ? KIND_BITS.sheet : KIND_BITS.fluid),
        ),
        bonds: {
          bondStart,
          bondList: Uint32Array.from([22]),
          bondClass: Uint32Array.from([1]),
          springClasses: Float32Array.from([0, 0, 0, 0, 0.01, 10, 0, 0]),
        },
        stats,
        sheets,
        solids: [{ start: 18, count: 3 }, { start: 21, count: 2 }],
        domain: { min: [-1, -1, -1], max: [2, 2, 2] },
        radius: R,
        gravity: [0, -10, 0],
        origin: [0, -1, 0],
        capacity: 2,
        storageBuffers,
        onKernels: (k) => (used = k),
      }),
    );
    if (storageBuffers === 8) {
      const metrics = Object.entries(used).filter(([label]) => label.startsWith("metrics "));
      assert.ok(metrics.some(([label]) => label === "metrics sample_metrics"));
      for (const [label, count] of metrics) assert.ok(count <= 8, `${label} binds ${count}`);
    }
  }
  const [row, row8] = rows;
  assert.deepEqual(row8, row);
  assert.equal(row.momentumError, Math.fround(1.5e-7));
  assert.equal(row.energyError, Math.fround(-2.5e-6));
  assert.deepEqual(
    [row.stage2Pairs, row.groups, row.largestGroup, row.largestSheetGroup],
    [12, 7, 0, 3],
  );
  assert.ok(row.passThrough > 0 && row.elastic > 0 && row.kinetic > 0, JSON.stringify(row));
});

Deno.test("flungSpeed: a particle flung by a force, never one falling freely, as the f64 reference", async () => {
  // g = 10 m/s², samples 0.1 s apart: gravity alone gives 1 m/s between two samples. Velocities at
  // the start and at two samples, one particle a row: free fall from rest, free fall from 3 m/s
  // (past the others' speeds, never flung), a fling up from 1 m/s down, a push sideways from
  // rest, a fast rebound just short of the share, then flung again (12 ≥ 2 (5 + 1)).
  const vel = [
    [[0, 0, 0], [0, -1, 0], [0, -2, 0]],
    [[0, -3, 0], [0, -4, 0], [0, -5, 0]],
    [[0, -1, 0], [0, 5, 0], [0, 12, 0]],
    [[0, 0, 0], [3, 0, 0], [3, -1, 0]],
    [[0, -4, 0], [0, 9, 0], [0, 8, 0]],
  ];
  const n = vel.length;
  const x = vel.map((_, i) => [i, 0, 0]);
  const rows = await sampleMetricsPath({
    before: x,
    path: [undefined, undefined],
    vel: vel.map((v) => v[0]),
    velPath: [vel.map((v) => v[1]), vel.map((v) => v[2])],
    time: 0.1,
    interval: 0.1,
    mass: new Float32Array(n).fill(1),
    kind: new Uint32Array(n).fill(KIND_BITS.fluid),
    sheets: [],
    solids: [],
    domain: { min: [-1, -1, -1], max: [6, 2, 2] },
    radius: R,
    gravity: [0, -10, 0],
    origin: [0, -1, 0],
    capacity: 4,
  });
  const speed = (v: number[]) => Math.hypot(...v);
  for (const k of [1, 2]) {
    const want = Math.max(
      ...vel.map((v) => flungSpeed(speed(v[k]), speed(v[k - 1]), 10 * 0.1)),
    );
    assert.ok(
      Math.abs(rows[k - 1].flungSpeed - want) < 1e-5,
      `sample ${k}: ${rows[k - 1].flungSpeed} vs ${want}`,
    );
  }
  assert.deepEqual(rows.map((r) => r.flungSpeed), [5, 12]);
  assert.deepEqual(rows.map((r) => r.maxSpeed), [9, 12]);
});

Deno.test("metrics.wgsl: a word per handler column, read as HANDLER_SAMPLE_KINDS says", () => {
  for (const f of HANDLER_SAMPLE_FIELDS) {
    const column = columnConstant(f);
    const read = HANDLER_SAMPLE_KINDS[f] === "f32" ? "bitcast<f32>" : "f32";
    const line = `e_samples[o + ${column}] = ${read}(handler_stat(${statisticConstant(f)}));`;
    assert.ok(METRICS_WGSL.includes(`override ${statisticConstant(f)}: u32;`), f);
    assert.ok(METRICS_WGSL.includes(line), `metrics.wgsl lacks: ${line}`);
  }
});

Deno.test("floorOf: the potential energy's reference is the lowest particle along g", () => {
  const x = [0, 1, 0, 2, -0.5, 1, 3, 0.2, 0];
  assert.deepEqual(floorOf(x, [0, -9.81, 0]), [2, -0.5, 1]);
  assert.deepEqual(floorOf(x, [9.81, 0, 0]), [3, 0.2, 0]); // gravity along +x: largest x lowest
  assert.equal(floorOf(x, [0, 0, 0]), undefined);
  assert.equal(floorOf([], [0, -9.81, 0]), undefined);
});
