import assert from "node:assert/strict";
import { checkWgslStruct } from "../runtime/struct_layout.ts";
import { KIND_BITS } from "../state/particle_state.ts";
import { gridForDomain } from "../state/neighbor_grid.ts";
import type { MetricsSample } from "./metrics.ts";
import { sampleMetricsPath } from "./metrics_fixture.ts";
import {
  type Sheet,
  SHEET_CROSSING_WGSL,
  SHEET_GRID_MAX_CELLS,
  SHEET_PARAMS,
  sheetReach,
} from "./sheet_crossing.ts";

type Vec = readonly number[];
type Positions = readonly Vec[];

const R = 0.025;
const SPACING = 2 * R;
const DOMAIN = { min: [-1, -1, -1], max: [1, 1, 1] } as const;

const sub = (a: Vec, b: Vec) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec, b: Vec) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm = (a: Vec) => Math.sqrt(dot(a, a));
const cross = (a: Vec, b: Vec) => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];

/** Normal of the sheet at lattice node (r, c): the kernel's central differences, in f64. */
function normalAt(x: Positions, sh: Sheet, r: number, c: number): number[] {
  const p = (rr: number, cc: number) => x[sh.start + rr * sh.cols + cc];
  const n = cross(
    sub(p(r, Math.min(c + 1, sh.cols - 1)), p(r, Math.max(c - 1, 0))),
    sub(p(Math.min(r + 1, sh.rows - 1), c), p(Math.max(r - 1, 0), c)),
  );
  const len = norm(n);
  return len > 0 ? n.map((v) => v / len) : [0, 1, 0];
}

/**
 * The particle's observation of a sheet (metrics.ts): its nearest sheet particle closer than
 * `reach` (brute force), its side by the local normal there, and whether it counts (interior
 * nearest, laterally within the spacing).
 */
function observe(x: Positions, i: number, sh: Sheet, reach: number) {
  let best = reach, bestK = -1;
  for (let k = 0; k < sh.rows * sh.cols; k++) {
    const d = norm(sub(x[i], x[sh.start + k]));
    if (d < best) [best, bestK] = [d, k];
  }
  if (bestK < 0) return { seen: false, side: 0 };
  const r = Math.floor(bestK / sh.cols), c = bestK % sh.cols;
  const n = normalAt(x, sh, r, c);
  const rel = sub(x[i], x[sh.start + bestK]);
  const h = dot(rel, n);
  const interior = r > 0 && c > 0 && r + 1 < sh.rows && c + 1 < sh.cols;
  const lateral = norm(sub(rel, n.map((v) => h * v)));
  return { seen: interior && lateral < sh.spacing, side: h < 0 ? -1 : 1 };
}

const inSheet = (i: number, sh: Sheet) => i >= sh.start && i < sh.start + sh.rows * sh.cols;

/**
 * Whether x[i] lies outside the sheet's outline: the quadrilateral of its corner particles,
 * projected along the cross product of its diagonals (none when that is zero).
 */
function outsideOutline(x: Positions, i: number, sh: Sheet): boolean {
  const p = (r: number, c: number) => x[sh.start + r * sh.cols + c];
  const q = [p(0, 0), p(0, sh.cols - 1), p(sh.rows - 1, sh.cols - 1), p(sh.rows - 1, 0)];
  const n = cross(sub(q[2], q[0]), sub(q[3], q[1]));
  const e = q.map((a, k) => dot(cross(sub(q[(k + 1) % 4], a), sub(x[i], a)), n));
  return !(e.every((v) => v >= 0) || e.every((v) => v <= 0));
}

/**
 * The sheet metrics of every sample of `path` (path[0]: the start), brute force in f64, with
 * whether each particle counts as passed through.
 */
function reference(sheets: readonly Sheet[], reach: number, path: readonly Positions[]) {
  const n = path[0].length;
  const initial = sheets.map((sh) =>
    Array.from({ length: n }, (_, i) => {
      if (inSheet(i, sh)) return 0;
      const o = observe(path[0], i, sh, reach);
      if (o.seen) return o.side;
      const [r, c] = [Math.floor(sh.rows / 2), Math.floor(sh.cols / 2)];
      const centre = path[0][sh.start + r * sh.cols + c];
      return dot(sub(path[0][i], centre), normalAt(path[0], sh, r, c)) < 0 ? -1 : 1;
    })
  );
  const tracked = initial.map((a) => [...a]);
  // marked: seen outside the outline while not observed, since its last observation (or the start)
  const marked = sheets.map((sh) =>
    Array.from(
      { length: n },
      (_, i) =>
        !inSheet(i, sh) && !observe(path[0], i, sh, reach).seen && outsideOutline(path[0], i, sh),
    )
  );
  return path.slice(1).map((x) => {
    let deepOverlaps = 0, maxPenetrationDepth = 0;
    const passed = Array.from({ length: n }, (_, i) => {
      let crossed = false;
      sheets.forEach((sh, s) => {
        if (inSheet(i, sh)) return;
        for (let k = 0; k < sh.rows * sh.cols; k++) {
          const d = norm(sub(x[i], x[sh.start + k]));
          if (d < 2 * R) maxPenetrationDepth = Math.max(maxPenetrationDepth, (2 * R - d) / R);
          if (d < R) deepOverlaps++;
        }
        const o = observe(x, i, sh, reach);
        if (o.seen) {
          // back from round the edge: both sides re-seeded with the observed one
          if (marked[s][i]) initial[s][i] = o.side;
          tracked[s][i] = o.side;
          marked[s][i] = false;
        } else if (outsideOutline(x, i, sh)) marked[s][i] = true;
        if (tracked[s][i] !== initial[s][i]) crossed = true;
      });
      return crossed;
    });
    const passThrough = passed.filter(Boolean).length;
    return { passThrough, deepOverlaps, maxPenetrationDepth, passed };
  });
}

/**
 * The definition the grid search replaced, brute force in f64: on the other side than at the
 * start by the local normal at the nearest particle of the sheet (at any distance), counted when
 * that one is interior and the particle lies within the spacing laterally.
 */
function formerPassThrough(sheets: readonly Sheet[], start: Positions, x: Positions): number {
  let count = 0;
  for (let i = 0; i < x.length; i++) {
    if (
      sheets.some((sh) => {
        if (inSheet(i, sh)) return false;
        const o0 = observe(start, i, sh, Infinity);
        const o = observe(x, i, sh, Infinity);
        return o.seen && o.side !== o0.side;
      })
    ) count++;
  }
  return count;
}

/** A rows × cols lattice of `spacing` in the xz plane from `origin`, lifted by `lift(x, z)`. */
function lattice(
  origin: Vec,
  rows: number,
  cols: number,
  lift: (x: number, z: number) => number = () => 0,
): number[][] {
  const out: number[][] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const [x, z] = [origin[0] + c * SPACING, origin[2] + r * SPACING];
      out.push([x, origin[1] + lift(x, z), z]);
    }
  }
  return out;
}

/** The GPU rows of the samples of `path` (path[0]: the start). */
function measure(sheets: readonly Sheet[], travel: number, path: readonly Positions[]) {
  const n = path[0].length;
  const kind = Uint32Array.from(
    { length: n },
    (_, i) => sheets.some((sh) => inSheet(i, sh)) ? KIND_BITS.sheet : KIND_BITS.fluid,
  );
  return sampleMetricsPath({
    before: path[0],
    path: path.slice(1),
    mass: new Float32Array(n).fill(1),
    kind,
    sheets,
    sampleTravel: travel,
    solids: [],
    domain: DOMAIN,
    radius: R,
    gravity: [0, -10, 0],
    origin: [...DOMAIN.min],
    capacity: path.length,
  });
}

/** Asserts that the GPU rows equal the reference's, sample by sample. */
function assertRows(
  rows: readonly MetricsSample[],
  expected: ReturnType<typeof reference>,
) {
  assert.equal(rows.length, expected.length);
  rows.forEach((row, k) => {
    const e = expected[k];
    assert.equal(row.passThrough, e.passThrough, `sample ${k} passThrough`);
    assert.equal(row.deepOverlaps, e.deepOverlaps, `sample ${k} deepOverlaps`);
    assert.ok(
      Math.abs(row.maxPenetrationDepth - e.maxPenetrationDepth) < 1e-4,
      `sample ${k} depth ${row.maxPenetrationDepth} vs ${e.maxPenetrationDepth}`,
    );
  });
}

Deno.test("sheet metrics on a grid equal the f64 brute force", async (t) => {
  await t.step("WGSL struct matches its layout", () => {
    checkWgslStruct(SHEET_CROSSING_WGSL, SHEET_PARAMS);
  });

  await t.step("reach: max(2r, spacing) + travel, enlarged to bound the grid's cells", () => {
    const sheets: Sheet[] = [{ start: 0, rows: 3, cols: 3, spacing: 3 * R }];
    assert.equal(sheetReach({ radius: R, sheets, domain: DOMAIN }), 3 * R);
    assert.equal(sheetReach({ radius: R, sheets: [], travel: 0.1, domain: DOMAIN }), 2 * R + 0.1);
    const huge = { min: [0, 0, 0], max: [100, 100, 100] } as const;
    const reach = sheetReach({ radius: R, sheets, domain: huge });
    const cells = gridForDomain(huge.min, huge.max, reach).dims.reduce((a, b) => a * b);
    assert.ok(reach > 3 * R && cells <= SHEET_GRID_MAX_CELLS, `${reach} m, ${cells} cells`);
  });

  await t.step("random particles crossing two moving sheets over four samples", async () => {
    // Fixture: sheet 0, 9 × 11 nodes around y = 0 with a travelling wave (its nodes move
    // ≤ 0.006 m per sample); sheet 1, 5 × 5 nodes tilted around y = 0.3; 300 free particles in a
    // box around both, each moving ≤ 0.05 m per sample, mostly vertically, half of them down:
    // relative motion per sample ≤ travel = 0.06 m.
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const sheets: Sheet[] = [
      { start: 0, rows: 9, cols: 11, spacing: SPACING },
      { start: 99, rows: 5, cols: 5, spacing: SPACING },
    ];
    const free = Array.from({ length: 300 }, () => {
      const down = rnd() < 0.5 ? -1 : 1;
      return {
        x0: [
          -0.1 + 0.7 * rnd(),
          (rnd() < 0.7 ? 0 : 0.3) + 0.2 * (rnd() - 0.5),
          -0.1 + 0.6 * rnd(),
        ],
        v: [0.03 * (rnd() - 0.5), down * (0.01 + 0.035 * rnd()), 0.03 * (rnd() - 0.5)],
      };
    });
    const travel = 0.06;
    const path = [0, 1, 2, 3, 4].map((k) => [
      ...lattice([0, 0, 0], 9, 11, (x, z) => 0.02 * Math.sin(6 * x + 0.3 * k) * Math.cos(5 * z)),
      ...lattice([0.1, 0.3, 0.1], 5, 5, (x) => 0.3 * (x - 0.2)),
      ...free.map((p) => p.x0.map((v, a) => v + k * p.v[a])),
    ]);
    const expected = reference(
      sheets,
      sheetReach({ radius: R, sheets, travel, domain: DOMAIN }),
      path,
    );
    // a configuration that exercises every term
    assert.ok(expected[3].passThrough >= 20, `${expected[3].passThrough} passed`);
    assert.ok(expected.some((e) => e.deepOverlaps > 0), "deep overlaps");
    assertRows(await measure(sheets, travel, path), expected);
  });

  await t.step("a particle that goes around the edge is no pass-through", async () => {
    // Fixture: a flat 7 × 7 sheet at y = 0, x, z ∈ [0, 0.3] (travel 0.06 m: reach 0.11 m), and
    // three particles at z = 0.15, each moving ≤ 0.06 m per sample: A goes around the edge at
    // x = 0.3 and ends 0.14 to 0.2 m beneath the interior (beyond the reach); B crosses the
    // interior, then drifts out beneath the edge; C goes around the edge like A, then comes back
    // to 0.03 m beneath the interior.
    const sheets: Sheet[] = [{ start: 0, rows: 7, cols: 7, spacing: SPACING }];
    const around = [[0.27, 0.04], [0.32, 0.03], [0.36, -0.01], [0.35, -0.06]];
    const A = [...around, [0.31, -0.1], [0.27, -0.14], [0.23, -0.18]];
    const B = [[0.15, 0.04], [0.15, -0.015], [0.19, -0.055], [0.23, -0.095], [0.27, -0.135], [
      0.31,
      -0.175,
    ], [0.35, -0.215]];
    const C = [...around, [0.3, -0.04], [0.25, -0.03], [0.2, -0.03]];
    const sheet = lattice([0, 0, 0], 7, 7);
    const path = A.map((_, k) => [...sheet, ...[A, B, C].map((p) => [p[k][0], p[k][1], 0.15])]);
    const travel = 0.06;
    const reach = sheetReach({ radius: R, sheets, travel, domain: DOMAIN });
    assert.ok(Math.abs(reach - 0.11) < 1e-12, `${reach}`);
    const expected = reference(sheets, reach, path);
    const flags = (i: number) => expected.map((e) => Number(e.passed[i]));
    assert.deepEqual(flags(49), [0, 0, 0, 0, 0, 0], "A: around the edge, never");
    assert.deepEqual(flags(50), [1, 1, 1, 1, 1, 1], "B: through the interior, from then on");
    // C was seen outside the outline (beyond the edge) after its last observation above: its
    // next observation, beneath the interior, re-seeds its sides (it came round, not through).
    assert.deepEqual(flags(51), [0, 0, 0, 0, 0, 0], "C: around, then back beneath the interior");
    // the definition the grid replaced counted A beneath the interior at any depth, and dropped B
    // once beyond the edge
    assert.deepEqual(
      path.slice(1).map((x) => formerPassThrough(sheets, path[0], x)),
      [1, 1, 1, 1, 2, 2],
    );
    assertRows(await measure(sheets, travel, path), expected);
  });
});
