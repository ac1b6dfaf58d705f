import assert from "node:assert/strict";
import fc from "fast-check";
import {
  applyPressureMatrix,
  cellMasses,
  classifyCells,
  divergence,
  faceClasses,
  faceStencil,
  FLIP_DEFAULTS,
  type FlipParticles,
  flipStep,
  particleToGrid,
  pressureDiagonal,
  separationVelocity,
  setBoundaryVelocities,
  solvePressure,
  subtractPressureGradient,
  volumeCorrectionTarget,
} from "./flip_reference.ts";
import {
  AXIS_KEYS,
  CELL_AIR,
  CELL_FLUID,
  CELL_SOLID,
  cellCoords,
  cellCount,
  cellId,
  FACE_FLUID,
  FACE_INACTIVE,
  FACE_SOLID,
  FACE_WALL,
  type FaceArrays,
  faceCoords,
  faceCounts,
  facePosition,
  type FlipAxis,
  type FlipGrid,
  flipGrid,
  uFaceId,
  vFaceId,
  wFaceId,
} from "../model/flip_grid.ts";
import { coord, dimsArb, gridArb } from "../model/flip_grid_fixture.ts";
import { RUNS } from "../test_util.ts";

const AXES = [0, 1, 2] as const;

/** Builds particles from a list of { x, v, m, flip } records. */
function particlesOf(
  list: { x: readonly number[]; v: readonly number[]; m: number; flip: boolean }[],
): FlipParticles {
  const n = list.length;
  const out = {
    x: new Float64Array(3 * n),
    v: new Float64Array(3 * n),
    m: new Float64Array(n),
    isFlip: new Uint8Array(n),
  };
  list.forEach((p, i) => {
    out.x.set(p.x, 3 * i);
    out.v.set(p.v, 3 * i);
    out.m[i] = p.m;
    out.isFlip[i] = p.flip ? 1 : 0;
  });
  return out;
}

/**
 * 2 × 2 × 2 particles per cell (offsets ¼ and ¾ of dx) over the cells lo ≤ (i, j, k) < hi,
 * velocity v, mass m each.
 */
function blockParticles(
  grid: FlipGrid,
  box: { lo: readonly number[]; hi: readonly number[]; v: readonly number[]; m: number },
  flip: boolean,
): { x: number[]; v: number[]; m: number; flip: boolean }[] {
  const out: { x: number[]; v: number[]; m: number; flip: boolean }[] = [];
  for (let k = box.lo[2]; k < box.hi[2]; k++) {
    for (let j = box.lo[1]; j < box.hi[1]; j++) {
      for (let i = box.lo[0]; i < box.hi[0]; i++) {
        for (let s = 0; s < 8; s++) {
          const o = [(s & 1) ? 0.75 : 0.25, (s & 2) ? 0.75 : 0.25, (s & 4) ? 0.75 : 0.25];
          const c = [i, j, k];
          out.push({
            x: AXES.map((a) => grid.min[a] + (c[a] + o[a]) * grid.dx),
            v: [...box.v],
            m: box.m,
            flip,
          });
        }
      }
    }
  }
  return out;
}

/** Hat weight of a face at a point, straight from the spec (independent of the stencil code). */
function hat(grid: FlipGrid, axis: FlipAxis, id: number, x: ArrayLike<number>, p: number): number {
  const f = facePosition(grid, axis, id);
  let w = 1;
  for (let b = 0; b < 3; b++) w *= Math.max(0, 1 - Math.abs(x[3 * p + b] - f[b]) / grid.dx);
  return w;
}

/** Brute-force normalised interpolation over the valid faces (all faces visited). */
function interpolate(
  grid: FlipGrid,
  x: ArrayLike<number>,
  p: number,
  field: FaceArrays<ArrayLike<number>>,
  valid: FaceArrays<ArrayLike<number>>,
): number[] {
  return AXES.map((axis) => {
    const key = AXIS_KEYS[axis];
    let sw = 0, s = 0;
    for (let f = 0; f < field[key].length; f++) {
      if (!valid[key][f]) continue;
      const w = hat(grid, axis, f, x, p);
      sw += w;
      s += w * field[key][f];
    }
    return sw > 0 ? s / sw : 0;
  });
}

function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let k = 0; k < a.length; k++) m = Math.max(m, Math.abs(a[k]));
  return m;
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k] * b[k];
  return s;
}

/** Low and high cell of an interior face (−1 for a boundary side), from the public helpers. */
function faceCells(grid: FlipGrid, axis: FlipAxis, id: number): [number, number] {
  const c = faceCoords(grid, axis, id);
  const lo = [...c] as [number, number, number];
  lo[axis] -= 1;
  return [
    lo[axis] >= 0 ? cellId(grid, lo) : -1,
    c[axis] < grid.dims[axis] ? cellId(grid, c) : -1,
  ];
}

/**
 * Relabels to AIR every FLUID cell with diag > 0 that does not reach an AIR cell through faces
 * that are neither WALL nor SOLID, so that A is nonsingular (a sealed pocket of fluid between
 * moving solids has no solution: Σ D_c ≠ 0 over it). Diag-0 FLUID cells are kept.
 */
function openToAir(grid: FlipGrid, cells: Uint8Array): Uint8Array {
  const faces = faceClasses(grid, cells);
  const diag = pressureDiagonal(grid, cells, faces);
  const reached = new Uint8Array(cells.length);
  const stack: number[] = [];
  for (let c = 0; c < cells.length; c++) {
    if (cells[c] === CELL_AIR) {
      reached[c] = 1;
      stack.push(c);
    }
  }
  const nbrs: number[][] = Array.from({ length: cells.length }, () => []);
  for (const axis of AXES) {
    const cls = faces[AXIS_KEYS[axis]];
    for (let f = 0; f < cls.length; f++) {
      if (cls[f] !== FACE_FLUID) continue;
      const [a, b] = faceCells(grid, axis, f);
      nbrs[a].push(b);
      nbrs[b].push(a);
    }
  }
  while (stack.length) {
    const c = stack.pop()!;
    for (const n of nbrs[c]) {
      if (!reached[n] && cells[n] === CELL_FLUID) {
        reached[n] = 1;
        stack.push(n);
      }
    }
  }
  return cells.map((l, c) => (l === CELL_FLUID && diag[c] > 0 && !reached[c] ? CELL_AIR : l));
}

Deno.test("FLIP cells and arguments", async (t) => {
  await t.step("a point outside the grid marks the clamped cell", () => {
    const g = flipGrid([0, 0, 0], [1, 1, 1], 0.25);
    const cells = classifyCells(g, { x: [-10, 0.3, 99], isFlip: [1] });
    assert.equal(cells[cellId(g, [0, 1, 3])], CELL_FLUID);
  });

  await t.step("bad arguments throw, naming the argument", () => {
    const g = flipGrid([0, 0, 0], [1, 1, 1], 0.5);
    assert.throws(
      () => classifyCells(g, { x: [0, 0], isFlip: [1] }),
      /classifyCells: particles.x has length 2, expected 3/,
    );
    assert.throws(
      () => classifyCells(g, { x: [0, NaN, 0], isFlip: [1] }),
      /classifyCells: particles.x\[1\]/,
    );
    const p = particlesOf([{ x: [0.1, 0.1, 0.1], v: [0, 0, 0], m: 1, flip: true }]);
    assert.throws(
      () => particleToGrid(g, { ...p, m: new Float64Array([0]) }),
      /particleToGrid: particles.m\[0\] = 0 must be finite and > 0/,
    );
    assert.throws(
      () => particleToGrid(g, p, { select: "cloth" as "flip" }),
      /particleToGrid: options.select/,
    );
    const opts = { dt: 0.01, gravity: [0, -9.81, 0] as [number, number, number] };
    assert.throws(() => flipStep(g, p, { ...opts, dt: 0 }), /flipStep: options.dt/);
    assert.throws(() => flipStep(g, p, { ...opts, flipRatio: 1.5 }), /flipStep: options.flipRatio/);
    assert.throws(
      () => flipStep(g, p, { ...opts, gravity: [0, NaN, 0] }),
      /flipStep: options.gravity\[1\]/,
    );
    const cells = new Uint8Array(8);
    const faces = faceClasses(g, cells);
    assert.throws(() => faceClasses(g, new Uint8Array(7)), /faceClasses: cells has length 7/);
    assert.throws(
      () => solvePressure(g, cells, faces, new Float64Array(8), { tolerance: -1 }),
      /solvePressure: options.tolerance/,
    );
    assert.throws(
      () => solvePressure(g, cells, faces, new Float64Array(8), { maxIterations: 1.5 }),
      /solvePressure: options.maxIterations/,
    );
    assert.throws(
      () => solvePressure(g, cells, faces, new Float64Array(3)),
      /solvePressure: rhsDivergence has length 3/,
    );
  });
});

Deno.test("FLIP P2G (Zhu & Bridson 2005 §4)", async (t) => {
  await t.step("stencil weights are the spec's hat, sum to 1 inside the lattice", () => {
    fc.assert(
      fc.property(
        gridArb(2, 5),
        fc.constantFrom(0, 1, 2),
        fc.tuple(
          fc.double({ min: 0, max: 1, noNaN: true }),
          fc.double({ min: 0, max: 1, noNaN: true }),
          fc.double({ min: 0, max: 1, noNaN: true }),
        ),
        (grid, axis, t) => {
          const x = AXES.map((a) => grid.min[a] + (1 + t[a] * (grid.dims[a] - 2)) * grid.dx);
          const { ids, weights } = faceStencil(grid, { axis: axis as FlipAxis, point: x });
          const sum = weights.reduce((s, w) => s + w, 0);
          assert.ok(Math.abs(sum - 1) <= 1e-12, `Σw = ${sum}`);
          ids.forEach((id, q) => {
            const w = hat(grid, axis as FlipAxis, id, x, 0);
            assert.ok(Math.abs(w - weights[q]) <= 1e-12, `w = ${weights[q]}, hat = ${w}`);
          });
        },
      ),
      { numRuns: RUNS },
    );
  });

  await t.step("mass and momentum are conserved per axis; a uniform field is exact", () => {
    const pArb = fc.record({
      t: fc.tuple(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
      ),
      v: fc.tuple(coord, coord, coord),
      m: fc.double({ min: 0.01, max: 10, noNaN: true }),
      flip: fc.boolean(),
    });
    fc.assert(
      fc.property(
        gridArb(2, 6),
        fc.array(pArb, { minLength: 1, maxLength: 30 }),
        fc.tuple(coord, coord, coord),
        (grid, list, v0) => {
          // Particles in [min + dx, min + (n − 1) dx]: no weight is cut by the box boundary.
          const placed = list.map((p) => ({
            ...p,
            x: AXES.map((a) => grid.min[a] + (1 + p.t[a] * (grid.dims[a] - 2)) * grid.dx),
          }));
          const particles = particlesOf(placed);
          for (const select of ["flip", "other"] as const) {
            const mine = placed.filter((p) => p.flip === (select === "flip"));
            const res = particleToGrid(grid, particles, { select });
            const mTot = mine.reduce((s, p) => s + p.m, 0);
            for (const axis of AXES) {
              const { mass, vel, momentum } = res[AXIS_KEYS[axis]];
              const M = mass.reduce((s, m) => s + m, 0);
              assert.ok(Math.abs(M - mTot) <= 1e-12 * mTot, `${select} ΣM_f ${M} vs Σm_p ${mTot}`);
              const pTot = mine.reduce((s, p) => s + p.m * p.v[axis], 0);
              const pScale = mine.reduce((s, p) => s + p.m * Math.abs(p.v[axis]), 0);
              const P = dot(vel, mass);
              const P2 = momentum.reduce((s, m) => s + m, 0);
              // (+1e-300: P_f / M_f · M_f loses subnormal momenta.)
              const bound = 1e-12 * pScale + 1e-300;
              assert.ok(Math.abs(P - pTot) <= bound, `${select} ΣP_f ${P} vs ${pTot}`);
              assert.ok(Math.abs(P2 - pTot) <= bound, `${select} momentum ${P2}`);
              for (let f = 0; f < mass.length; f++) if (!(mass[f] > 0)) assert.equal(vel[f], 0);
            }
          }
          // A uniform velocity field v0 is reproduced on every face with mass.
          const uniform = particlesOf(placed.map((p) => ({ ...p, v: v0, flip: true })));
          const res = particleToGrid(grid, uniform);
          for (const axis of AXES) {
            const { mass, vel } = res[AXIS_KEYS[axis]];
            for (let f = 0; f < mass.length; f++) {
              if (mass[f] > 0) {
                assert.ok(Math.abs(vel[f] - v0[axis]) <= 1e-14 * Math.max(1, Math.abs(v0[axis])));
              }
            }
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});

Deno.test("FLIP pressure projection", async (t) => {
  const labelsArb = (lo: number, hi: number) =>
    gridArb(lo, hi).chain((grid) =>
      fc.record({
        grid: fc.constant(grid),
        cells: fc.array(fc.constantFrom(CELL_AIR, CELL_FLUID, CELL_FLUID, CELL_SOLID), {
          minLength: cellCount(grid),
          maxLength: cellCount(grid),
        }).map((a) => Uint8Array.from(a)),
        seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      })
    );
  /** Deterministic pseudo-random values in [-1, 1) from a seed (Park–Miller). */
  const randoms = (seed: number, n: number) => {
    const out = new Float64Array(n);
    let s = seed;
    for (let k = 0; k < n; k++) {
      s = (s * 48271) % 2147483647;
      out[k] = 2 * (s / 2147483647) - 1;
    }
    return out;
  };
  const randomFaces = (grid: FlipGrid, seed: number, scale: number) => {
    const counts = faceCounts(grid);
    return {
      x: randoms(seed, counts.x).map((v) => v * scale),
      y: randoms(seed + 1, counts.y).map((v) => v * scale),
      z: randoms(seed + 2, counts.z).map((v) => v * scale),
    };
  };
  // a projection's inputs on `grid` with the cell labels `raw` opened to air: its face classes,
  // random solid velocities and an intermediate field u* with the boundary velocities set
  const openProjection = (grid: FlipGrid, raw: Uint8Array, seed: number) => {
    const cells = openToAir(grid, raw);
    const faces = faceClasses(grid, cells);
    const solidVel = randomFaces(grid, seed + 3, 1);
    const uStar = setBoundaryVelocities(randomFaces(grid, seed, 1), { faces, solidVel });
    return { cells, faces, solidVel, uStar };
  };

  await t.step("face classes: WALL, then SOLID, then FLUID, then INACTIVE", () => {
    fc.assert(
      fc.property(labelsArb(1, 7), ({ grid, cells }) => {
        const faces = faceClasses(grid, cells);
        for (const axis of AXES) {
          const cls = faces[AXIS_KEYS[axis]];
          for (let f = 0; f < cls.length; f++) {
            const [a, b] = faceCells(grid, axis, f);
            const expected = a < 0 || b < 0
              ? FACE_WALL
              : cells[a] === CELL_SOLID || cells[b] === CELL_SOLID
              ? FACE_SOLID
              : cells[a] === CELL_FLUID || cells[b] === CELL_FLUID
              ? FACE_FLUID
              : FACE_INACTIVE;
            assert.equal(cls[f], expected);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("D_c follows the spec's formula on FLUID cells, 0 elsewhere", () => {
    fc.assert(
      fc.property(labelsArb(1, 7), ({ grid, cells, seed }) => {
        const u = randomFaces(grid, seed, 3);
        const D = divergence(grid, u, cells);
        for (let c = 0; c < D.length; c++) {
          if (cells[c] !== CELL_FLUID) {
            assert.equal(D[c], 0);
            continue;
          }
          const [i, j, k] = cellCoords(grid, c);
          const expected = (u.x[uFaceId(grid, [i + 1, j, k])] - u.x[uFaceId(grid, [i, j, k])]) +
            (u.y[vFaceId(grid, [i, j + 1, k])] - u.y[vFaceId(grid, [i, j, k])]) +
            (u.z[wFaceId(grid, [i, j, k + 1])] - u.z[wFaceId(grid, [i, j, k])]);
          assert.equal(D[c], expected);
        }
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("A is symmetric, qᵀAq = Σ over FLUID faces of (q_b − q_a)², PD when open", () => {
    fc.assert(
      fc.property(labelsArb(1, 7), ({ grid, cells, seed }) => {
        const faces = faceClasses(grid, cells);
        const n = cellCount(grid);
        const q1 = randoms(seed, n), q2 = randoms(seed + 7, n);
        const a12 = dot(q1, applyPressureMatrix(grid, cells, faces, q2));
        const a21 = dot(q2, applyPressureMatrix(grid, cells, faces, q1));
        assert.ok(Math.abs(a12 - a21) <= 1e-12 * Math.max(1, Math.abs(a12)), `${a12} vs ${a21}`);
        // Energy form: qᵀAq = Σ_{FLUID faces} (q_b − q_a)², q = 0 off FLUID cells (so ≥ 0).
        const qOf = (c: number) => (cells[c] === CELL_FLUID ? q1[c] : 0);
        let energy = 0;
        for (const axis of AXES) {
          const cls = faces[AXIS_KEYS[axis]];
          for (let f = 0; f < cls.length; f++) {
            if (cls[f] !== FACE_FLUID) continue;
            const [a, b] = faceCells(grid, axis, f);
            energy += (qOf(b) - qOf(a)) ** 2;
          }
        }
        const qAq = dot(q1.map((_, c) => qOf(c)), applyPressureMatrix(grid, cells, faces, q1));
        assert.ok(Math.abs(qAq - energy) <= 1e-12 * Math.max(1, energy), `${qAq} vs ${energy}`);
        // Positive definite on FLUID cells with diag > 0 once every group reaches AIR: a random
        // q and the constant q (the null vector of a sealed group) both give qᵀAq > 0.
        const open = openToAir(grid, cells);
        const openFaces = faceClasses(grid, open);
        const diag = pressureDiagonal(grid, open, openFaces);
        if (!diag.some((d) => d > 0)) return;
        for (const q of [q1.map((v, c) => (diag[c] > 0 ? v : 0)), diag.map((d) => d > 0 ? 1 : 0)]) {
          if (!q.some((v) => v !== 0)) continue;
          const e = dot(q, applyPressureMatrix(grid, open, openFaces, q));
          assert.ok(e > 0, `qᵀAq = ${e}`);
        }
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("after the update D_c ≈ 0 on FLUID cells; WALL = 0, SOLID = us", () => {
    let sealedSkips = 0;
    fc.assert(
      fc.property(labelsArb(1, 7), ({ grid, cells: raw, seed }) => {
        const cells = openToAir(grid, raw);
        const faces = faceClasses(grid, cells);
        const solidVel = randomFaces(grid, seed + 11, 0.7);
        const uStar = setBoundaryVelocities(randomFaces(grid, seed, 2), { faces, solidVel });
        const diag = pressureDiagonal(grid, cells, faces);
        const before = divergence(grid, uStar, cells);
        const rows = diag.reduce((s, d) => s + (d > 0 ? 1 : 0), 0);
        // ‖r‖₂ ≤ tol ‖b‖₂ with tol = 1e-6/√rows gives max|D_after| ≤ 1e-6 max|D_before|.
        const tol = 1e-6 / Math.sqrt(Math.max(1, rows));
        const res = solvePressure(grid, cells, faces, before, {
          tolerance: tol,
          maxIterations: 1000,
        });
        assert.ok(res.relativeResidual <= tol, `relative residual ${res.relativeResidual}`);
        assert.ok(res.iterations <= rows + 5, `iterations ${res.iterations} for ${rows} rows`);
        const uNew = subtractPressureGradient(grid, uStar, { cells, faces, q: res.q, solidVel });
        const after = divergence(grid, uNew, cells);
        let maxBefore = 0;
        for (let c = 0; c < cells.length; c++) {
          if (diag[c] > 0) maxBefore = Math.max(maxBefore, Math.abs(before[c]));
        }
        for (let c = 0; c < cells.length; c++) {
          if (cells[c] !== CELL_FLUID) assert.equal(res.q[c], 0);
          if (cells[c] === CELL_FLUID && diag[c] === 0) {
            assert.equal(res.q[c], 0);
            assert.equal(after[c], before[c]);
            sealedSkips++;
          }
          if (diag[c] > 0) {
            assert.ok(
              Math.abs(after[c]) <= 1e-6 * maxBefore + 1e-14,
              `D_after = ${after[c]}, max D_before = ${maxBefore}`,
            );
          }
        }
        for (const key of AXIS_KEYS) {
          for (let f = 0; f < uNew[key].length; f++) {
            const cls = faces[key][f];
            if (cls === FACE_WALL) assert.equal(uNew[key][f], 0);
            else if (cls === FACE_SOLID) assert.equal(uNew[key][f], solidVel[key][f]);
            else if (cls === FACE_INACTIVE) assert.equal(uNew[key][f], uStar[key][f]);
          }
        }
      }),
      { numRuns: RUNS },
    );
    assert.ok(sealedSkips > 0, "some FLUID cells enclosed by WALL/SOLID faces were generated");
  });

  await t.step("a closed box full of fluid (A singular, Σ D_c = 0) still converges", () => {
    fc.assert(
      fc.property(gridArb(1, 6), fc.integer({ min: 1, max: 2 ** 31 - 2 }), (grid, seed) => {
        const cells = new Uint8Array(cellCount(grid)).fill(CELL_FLUID);
        const faces = faceClasses(grid, cells);
        const zero = { x: new Float64Array(0), y: new Float64Array(0), z: new Float64Array(0) };
        const counts = faceCounts(grid);
        for (const key of AXIS_KEYS) zero[key] = new Float64Array(counts[key]);
        const uStar = setBoundaryVelocities(randomFaces(grid, seed, 1), { faces, solidVel: zero });
        const before = divergence(grid, uStar, cells);
        const res = solvePressure(grid, cells, faces, before, { tolerance: 1e-9 });
        assert.ok(res.relativeResidual <= 1e-9, `residual ${res.relativeResidual}`);
        const uNew = subtractPressureGradient(grid, uStar, {
          cells,
          faces,
          q: res.q,
          solidVel: zero,
        });
        const after = divergence(grid, uNew, cells);
        assert.ok(maxAbs(after) <= 1e-8 * maxAbs(before) + 1e-15);
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("the default tolerance bounds the 2-norm of D_after by 1e-6 ‖D_before‖", () => {
    fc.assert(
      fc.property(labelsArb(2, 7), ({ grid, cells: raw, seed }) => {
        const { cells, faces, solidVel, uStar } = openProjection(grid, raw, seed);
        const diag = pressureDiagonal(grid, cells, faces);
        const before = divergence(grid, uStar, cells).map((d, c) => (diag[c] > 0 ? d : 0));
        const res = solvePressure(grid, cells, faces, before);
        assert.ok(res.relativeResidual <= FLIP_DEFAULTS.tolerance);
        const uNew = subtractPressureGradient(grid, uStar, { cells, faces, q: res.q, solidVel });
        const after = divergence(grid, uNew, cells).map((d, c) => (diag[c] > 0 ? d : 0));
        const nb = Math.sqrt(dot(before, before)), na = Math.sqrt(dot(after, after));
        assert.ok(na <= (FLIP_DEFAULTS.tolerance + 1e-12) * nb + 1e-15, `${na} vs ${nb}`);
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("q is linear in D down to tiny divergences: D·2^-560 gives q·2^-560 exactly", () => {
    // Without the solve's power-of-two scaling, b·b and p·Ap of a divergence ~1e-146 (a blob
    // falling at 6e-146 m/s) fall into subnormals and α = ρ / (p·Ap) threw q out to 1e58.
    fc.assert(
      fc.property(labelsArb(2, 7), ({ grid, cells: raw, seed }) => {
        const { cells, faces, uStar } = openProjection(grid, raw, seed);
        const before = divergence(grid, uStar, cells);
        const tiny = 2 ** -560;
        const q = solvePressure(grid, cells, faces, before).q;
        const qTiny = solvePressure(grid, cells, faces, before.map((d) => d * tiny)).q;
        qTiny.forEach((v, c) => assert.equal(v, q[c] * tiny, `q[${c}]`));
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("volume correction: cell masses, targets only where over-dense, D → target", () => {
    const grid = flipGrid([0, 0, 0], [4, 4, 4], 1);
    // a 2³-cell block, 8 particles of mass 8 per cell, whose weights stay inside the grid
    const list = blockParticles(grid, { lo: [1, 1, 1], hi: [3, 3, 3], v: [0, 0, 0], m: 8 }, true);
    const particles = particlesOf(list);
    const masses = cellMasses(grid, particles);
    const total = list.reduce((a, p) => a + p.m, 0);
    assert.ok(Math.abs(masses.reduce((a, b) => a + b, 0) - total) <= 1e-9 * total, "Σ M_c");
    const cells = classifyCells(grid, particles);
    // ρ0 above the block's density: no target anywhere; below: targets in FLUID cells only
    const none = volumeCorrectionTarget(grid, cells, {
      cellMass: masses,
      rho0: 1e3,
      gamma: 1,
      dt: 0.01,
    });
    assert.ok(none.every((x) => x === 0));
    const some = volumeCorrectionTarget(grid, cells, {
      cellMass: masses,
      rho0: 2,
      gamma: 0.5,
      dt: 0.01,
    });
    for (let c = 0; c < some.length; c++) {
      if (cells[c] !== CELL_FLUID) assert.equal(some[c], 0);
      else assert.ok(some[c] >= 0);
    }
    assert.ok(Math.max(...some) > 0);
    const res = flipStep(grid, particles, {
      dt: 0.01,
      gravity: [0, -9.81, 0],
      tolerance: 1e-10,
      volumeCorrection: 0.5,
      rho0: 2,
    });
    const err = Math.max(...res.divergenceAfter.map((d, c) => Math.abs(d - res.target[c])));
    assert.ok(err <= 1e-8 * Math.max(...res.target), `max |D − D_target| = ${err}`);
    assert.throws(
      () => volumeCorrectionTarget(grid, cells, { cellMass: masses, rho0: 0, gamma: 1, dt: 1 }),
      /options\.rho0/,
    );
  });

  await t.step("separation: pairs closer than the distance pushed apart, momentum kept", () => {
    // FLIP particles 0–1 at 0.5 apart (pushed), 1–2 at 1.5 (not), an OTHER particle 3 at 0.1 from 0
    const particles = {
      x: [0, 0, 0, 0.5, 0, 0, 2, 0, 0, 0, 0.1, 0],
      v: new Array(12).fill(0),
      m: [1, 1, 1, 1],
      isFlip: [1, 1, 1, 0],
    };
    const dv = separationVelocity(particles, { distance: 1, strength: 0.5, dt: 0.1 });
    // 0.5 · (1 − 0.5) / 2 / 0.1 = 1.25 m/s along the pair, opposite for the two
    assert.deepEqual([...dv.slice(0, 6)], [-1.25, 0, 0, 1.25, 0, 0]);
    assert.deepEqual([...dv.slice(6)], [0, 0, 0, 0, 0, 0], "far and OTHER particles untouched");
    assert.throws(
      () => separationVelocity(particles, { distance: 0, strength: 1, dt: 1 }),
      /options\.distance/,
    );
  });
});

Deno.test("FLIP step (Zhu & Bridson 2005; Bridson ch. 5, 7)", async (t) => {
  const g = 9.81;

  await t.step("hydrostatic rest: the projection cancels gravity", () => {
    // 4 × 6 × 4 cells of 0.1 m, water in the bottom 3 layers, 8 particles per cell, at rest.
    const grid = flipGrid([0, 0, 0], [0.4, 0.6, 0.4], 0.1);
    const dt = 0.01, h = 3;
    const particles = particlesOf(
      blockParticles(
        grid,
        { lo: [0, 0, 0], hi: [4, h, 4], v: [0, 0, 0], m: 1000 * 1e-3 / 8 },
        true,
      ),
    );
    // Error bound: A is the 1D operator T = [[1,−1,0],[−1,2,−1],[0,−1,2]] (bottom wall, AIR at
    // j = 3) plus horizontal Neumann Laplacians, so λ_min(A) = λ_min(T) = 4 sin²(π/14) ≈ 0.198.
    // The face-velocity error δu = G δq has ‖δu‖₂² = rᵀA⁻¹r ≤ ‖r‖₂² / λ_min with
    // ‖r‖₂ ≤ τ ‖b‖₂ = τ g dt √16 (b = g dt on the 16 bottom cells). u_old = 0, so v_p' is the
    // normalised interpolation of u_new: a convex combination of WALL and INACTIVE faces (exactly
    // 0) and FLUID faces (0 + δu_f), so |v_p'| ≤ max |δu_f| ≤ 4 τ g dt / √0.198 ≈ 9.0 τ g dt.
    for (const [tol, bound] of [[1e-12, 1e-9], [FLIP_DEFAULTS.tolerance, 1e-5]]) {
      const res = flipStep(grid, particles, { dt, gravity: [0, -g, 0], tolerance: tol });
      assert.ok(res.relativeResidual <= tol, `residual ${res.relativeResidual}`);
      const vmax = maxAbs(res.v);
      assert.ok(vmax <= bound * g * dt, `tol ${tol}: max |v'| = ${vmax} > ${bound}·g·dt`);
      for (let c = 0; c < res.cells.length; c++) {
        const [i, j, k] = cellCoords(grid, c);
        assert.equal(res.cells[c], j < h ? CELL_FLUID : CELL_AIR, `cell ${[i, j, k]}`);
        // Hydrostatic: p_j = ρ g (h − j) dx (the AIR centre above is h − j cells up), so
        // q_j = p_j dt / (ρ dx) = (h − j) g dt.
        if (j < h && tol === 1e-12) {
          assert.ok(Math.abs(res.q[c] - (h - j) * g * dt) <= 1e-9 * g * dt, `q ${res.q[c]}`);
        }
      }
      // The top fluid layer is FLUID with AIR above; its top v-faces are FLUID faces.
      for (let i = 0; i < 4; i++) {
        for (let k = 0; k < 4; k++) {
          assert.equal(res.cells[cellId(grid, [i, h - 1, k])], CELL_FLUID);
          assert.equal(res.cells[cellId(grid, [i, h, k])], CELL_AIR);
          assert.equal(res.faces.y[vFaceId(grid, [i, h, k])], FACE_FLUID);
        }
      }
    }
  });

  await t.step("free fall of an isolated blob: v' = v + dt g exactly, q ≈ 0", () => {
    // A blob of FLIP particles two cells or more from every wall, with one uniform velocity: every
    // face of a FLUID cell has mass (each particle is strictly inside its cell), so every face
    // with mass carries v0 + dt g, D_c = 0 up to rounding, q ≈ 0 and no WALL/SOLID face has weight
    // at any particle: u_new(x_p) = v0 + dt g and Δu(x_p) = dt g for any blend.
    const arb = fc.record({
      dims: dimsArb(5, 8),
      corner: fc.tuple(fc.nat(), fc.nat(), fc.nat()),
      size: fc.tuple(fc.nat(), fc.nat(), fc.nat()),
      fill: fc.array(
        fc.tuple(
          fc.double({ min: 0.05, max: 0.95, noNaN: true }),
          fc.double({ min: 0.05, max: 0.95, noNaN: true }),
          fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        ),
        { minLength: 1, maxLength: 3 },
      ),
      v0: fc.tuple(coord, coord, coord),
      gravity: fc.tuple(coord, fc.double({ min: -20, max: 0, noNaN: true }), coord),
      dt: fc.double({ min: 1e-4, max: 0.05, noNaN: true }),
      flipRatio: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(arb, (s) => {
        const grid: FlipGrid = { min: [-0.3, 0.1, 2], dx: 0.05, dims: s.dims };
        const lo = AXES.map((a) => 1 + (s.corner[a] % (s.dims[a] - 2)));
        const hi = AXES.map((a) => Math.min(s.dims[a] - 1, lo[a] + 1 + (s.size[a] % 3)));
        const list = [];
        for (let k = lo[2]; k < hi[2]; k++) {
          for (let j = lo[1]; j < hi[1]; j++) {
            for (let i = lo[0]; i < hi[0]; i++) {
              for (const f of s.fill) {
                const c = [i, j, k];
                list.push({
                  x: AXES.map((a) => grid.min[a] + (c[a] + f[a]) * grid.dx),
                  v: s.v0,
                  m: 0.01 + f[0],
                  flip: true,
                });
              }
            }
          }
        }
        const particles = particlesOf(list);
        const res = flipStep(grid, particles, {
          dt: s.dt,
          gravity: s.gravity,
          flipRatio: s.flipRatio,
        });
        const scale = Math.max(
          1,
          ...AXES.map((a) => Math.abs(s.v0[a]) + s.dt * Math.abs(s.gravity[a])),
        );
        assert.ok(maxAbs(res.q) <= 1e-12 * scale, `max |q| = ${maxAbs(res.q)}`);
        for (let p = 0; p < list.length; p++) {
          for (const a of AXES) {
            const expected = s.v0[a] + s.dt * s.gravity[a];
            const err = Math.abs(res.v[3 * p + a] - expected);
            assert.ok(err <= 1e-12 * scale, `v'[${p}][${a}] = ${res.v[3 * p + a]} vs ${expected}`);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("PIC/FLIP blend: φ = 0 is u_new(x_p), φ = 1 is v_p + Δu(x_p), linear in φ", () => {
    const arb = fc.record({
      dims: dimsArb(2, 4),
      list: fc.array(
        fc.record({
          t: fc.tuple(
            fc.double({ min: 0, max: 1, noNaN: true }),
            fc.double({ min: 0, max: 1, noNaN: true }),
            fc.double({ min: 0, max: 1, noNaN: true }),
          ),
          v: fc.tuple(coord, coord, coord),
          m: fc.double({ min: 0.1, max: 2, noNaN: true }),
        }),
        { minLength: 1, maxLength: 25 },
      ),
      phi: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(arb, (s) => {
        const grid: FlipGrid = { min: [0, 0, 0], dx: 0.1, dims: s.dims };
        const particles = particlesOf(s.list.map((p) => ({
          x: AXES.map((a) => p.t[a] * grid.dims[a] * grid.dx),
          v: p.v,
          m: p.m,
          flip: true,
        })));
        const opts = {
          dt: 0.01,
          gravity: [0, -g, 0] as [number, number, number],
          tolerance: 1e-10,
        };
        const pic = flipStep(grid, particles, { ...opts, flipRatio: 0 });
        const flip = flipStep(grid, particles, { ...opts, flipRatio: 1 });
        const mix = flipStep(grid, particles, { ...opts, flipRatio: s.phi });
        assert.deepEqual(flip.uNew, pic.uNew);
        const valid = {} as FaceArrays<Uint8Array>;
        const delta = {} as FaceArrays<Float64Array>;
        for (const key of AXIS_KEYS) {
          valid[key] = Uint8Array.from(
            pic.mass[key],
            (m, f) =>
              m > 0 || pic.faces[key][f] === FACE_SOLID || pic.faces[key][f] === FACE_WALL ? 1 : 0,
          );
          delta[key] = pic.uNew[key].map((u, f) => u - pic.uOld[key][f]);
          for (let f = 0; f < valid[key].length; f++) {
            if (!(pic.mass[key][f] > 0)) assert.equal(pic.uOld[key][f], 0);
          }
        }
        const scale = Math.max(1, maxAbs(pic.uNew.x), maxAbs(pic.uNew.y), maxAbs(pic.uNew.z)) +
          maxAbs(particles.v);
        for (let p = 0; p < s.list.length; p++) {
          const uAt = interpolate(grid, particles.x, p, pic.uNew, valid);
          const du = interpolate(grid, particles.x, p, delta, valid);
          for (const a of AXES) {
            const k = 3 * p + a;
            assert.ok(Math.abs(pic.v[k] - uAt[a]) <= 1e-12 * scale, `PIC ${pic.v[k]} vs ${uAt[a]}`);
            const vf = particles.v[k] + du[a];
            assert.ok(Math.abs(flip.v[k] - vf) <= 1e-12 * scale, `FLIP ${flip.v[k]} vs ${vf}`);
            const vm = s.phi * flip.v[k] + (1 - s.phi) * pic.v[k];
            assert.ok(Math.abs(mix.v[k] - vm) <= 1e-12 * scale, `blend ${mix.v[k]} vs ${vm}`);
          }
        }
      }),
      { numRuns: RUNS },
    );
    // On a uniform field (an isolated blob moving as one) PIC and FLIP agree.
    const grid = flipGrid([0, 0, 0], [0.6, 0.6, 0.6], 0.1);
    const particles = particlesOf(
      blockParticles(grid, { lo: [2, 2, 2], hi: [4, 4, 4], v: [0.4, -1.3, 2.2], m: 0.125 }, true),
    );
    const opts = { dt: 0.02, gravity: [1, -g, 0.5] as [number, number, number] };
    const a = flipStep(grid, particles, { ...opts, flipRatio: 0 });
    const b = flipStep(grid, particles, { ...opts, flipRatio: 1 });
    for (let k = 0; k < a.v.length; k++) {
      assert.ok(Math.abs(a.v[k] - b.v[k]) <= 1e-13, `${a.v[k]} vs ${b.v[k]}`);
      assert.ok(Math.abs(a.v[k] - (particles.v[k] + opts.dt * opts.gravity[k % 3])) <= 1e-13);
    }
  });

  await t.step("OTHER particles, solid reading: SOLID cells and faces with their velocity", () => {
    // 6³ cells of 1 m: water in x, z ∈ [1, 5), y ∈ [2, 4) on a moving slab of OTHER particles
    // filling the layer y = 1; one OTHER particle inside a water cell, one alone in the air.
    const grid = flipGrid([0, 0, 0], [6, 6, 6], 1);
    const vs = [0.3, 0.2, -0.1];
    const list = [
      ...blockParticles(grid, { lo: [1, 2, 1], hi: [5, 4, 5], v: [0.05, -0.4, 0.1], m: 125 }, true),
      ...blockParticles(grid, { lo: [0, 1, 0], hi: [6, 2, 6], v: vs, m: 40 }, false),
      { x: [2.5, 2.5, 2.5], v: vs, m: 40, flip: false },
      { x: [0.5, 5.5, 0.5], v: vs, m: 40, flip: false },
    ];
    // Perturb the water's velocities so that the projection has work to do.
    list.forEach((p, i) => {
      if (p.flip) p.v = [p.v[0] + 0.01 * Math.sin(i), p.v[1] + 0.02 * Math.cos(3 * i), p.v[2]];
    });
    const particles = particlesOf(list);
    const res = flipStep(grid, particles, {
      dt: 0.01,
      gravity: [0, -g, 0],
      tolerance: 1e-9,
      occupied: "solid",
    });
    for (let c = 0; c < res.cells.length; c++) {
      const [i, j, k] = cellCoords(grid, c);
      const water = i >= 1 && i < 5 && j >= 2 && j < 4 && k >= 1 && k < 5;
      const expected = water
        ? CELL_FLUID
        : j === 1 || (i === 0 && j === 5 && k === 0)
        ? CELL_SOLID
        : CELL_AIR;
      assert.equal(res.cells[c], expected, `cell ${[i, j, k]}`);
    }
    assert.equal(res.cells[cellId(grid, [2, 2, 2])], CELL_FLUID);
    let solidFaces = 0;
    for (const axis of AXES) {
      const key = AXIS_KEYS[axis];
      for (let f = 0; f < res.faces[key].length; f++) {
        const [a, b] = faceCells(grid, axis, f);
        if (a < 0 || b < 0) continue;
        if (res.cells[a] !== CELL_SOLID && res.cells[b] !== CELL_SOLID) continue;
        solidFaces++;
        assert.equal(res.faces[key][f], FACE_SOLID);
        assert.ok(Math.abs(res.uNew[key][f] - vs[axis]) <= 1e-15, `${key} face ${f}`);
      }
    }
    // The water's bottom faces sit on the slab: SOLID, moving up with it.
    assert.equal(res.faces.y[vFaceId(grid, [2, 2, 2])], FACE_SOLID);
    assert.ok(solidFaces > 0);
    for (let p = 0; p < list.length; p++) {
      if (list[p].flip) continue;
      for (const a of AXES) assert.equal(res.v[3 * p + a], particles.v[3 * p + a]);
    }
    assert.ok(res.relativeResidual <= 1e-9);
    const before = maxAbs(res.divergenceBefore);
    assert.ok(before > 1e-3, `the slab and gravity make D ≠ 0 (${before})`);
    assert.ok(maxAbs(res.divergenceAfter) <= 1e-6 * before, `${maxAbs(res.divergenceAfter)}`);
    for (let p = 0; p < 3 * list.length; p++) assert.ok(Number.isFinite(res.v[p]));
  });

  await t.step(
    "OTHER particles, the paper's reading: occupied cells are FLUID, no SOLID face",
    () => {
      // the same scene: the slab's cells become pressure unknowns, not empty space; no velocity of
      // the other system enters the grid; the projection stays divergence-free over them
      const grid = flipGrid([0, 0, 0], [6, 6, 6], 1);
      const vs = [0.3, 0.2, -0.1];
      const list = [
        ...blockParticles(
          grid,
          { lo: [1, 2, 1], hi: [5, 4, 5], v: [0.05, -0.4, 0.1], m: 125 },
          true,
        ),
        ...blockParticles(grid, { lo: [0, 1, 0], hi: [6, 2, 6], v: vs, m: 40 }, false),
        { x: [0.5, 5.5, 0.5], v: vs, m: 40, flip: false },
      ];
      const particles = particlesOf(list);
      const res = flipStep(grid, particles, { dt: 0.01, gravity: [0, -g, 0], tolerance: 1e-9 });
      for (let c = 0; c < res.cells.length; c++) {
        const [i, j, k] = cellCoords(grid, c);
        const water = i >= 1 && i < 5 && j >= 2 && j < 4 && k >= 1 && k < 5;
        const occupied = j === 1 || (i === 0 && j === 5 && k === 0);
        assert.equal(res.cells[c], water || occupied ? CELL_FLUID : CELL_AIR, `cell ${[i, j, k]}`);
      }
      for (const key of AXIS_KEYS) assert.ok(!res.faces[key].includes(FACE_SOLID), key);
      // the slab's faces carry no velocity of its own: only the water's, projected
      for (let p = 0; p < list.length; p++) {
        if (list[p].flip) continue;
        for (const a of AXES) assert.equal(res.v[3 * p + a], particles.v[3 * p + a]);
      }
      const before = maxAbs(res.divergenceBefore);
      assert.ok(maxAbs(res.divergenceAfter) <= 1e-6 * before, `${maxAbs(res.divergenceAfter)}`);
    },
  );
});
