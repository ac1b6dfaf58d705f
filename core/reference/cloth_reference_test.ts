import assert from "node:assert/strict";
import fc from "fast-check";
import {
  backwardEulerStep,
  dofStateFromGroups,
  particleSpringForces,
  springForce,
} from "./cloth_reference.ts";
import { buildClothSprings } from "../model/cloth_springs.ts";
import { DOF_ACTIVE, DOF_FIXED } from "../model/dof_flags.ts";
import type { Spring } from "../model/spring.ts";
import type { Vec3 } from "../vec3.ts";

/** Flat grid in the x–z plane (y up), row-major, with seeded perturbations. */
function grid(rows: number, cols: number, spacing: number, jitter: number, seed: number) {
  let s = seed >>> 0 || 1;
  const rnd = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) / 4294967296) * 2 - 1;
  };
  const n = rows * cols;
  const x = new Float64Array(3 * n), v = new Float64Array(3 * n);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      x[3 * i] = c * spacing + jitter * rnd();
      x[3 * i + 1] = jitter * rnd();
      x[3 * i + 2] = r * spacing + jitter * rnd();
      for (let a = 0; a < 3; a++) v[3 * i + a] = 0.3 * rnd();
    }
  }
  return { x, v, m: new Float64Array(n).fill(0.01), rnd };
}

function springEnergy(springs: readonly Spring[], px: ArrayLike<number>): number {
  let e = 0;
  for (const s of springs) {
    const l = Math.hypot(
      px[3 * s.j] - px[3 * s.i],
      px[3 * s.j + 1] - px[3 * s.i + 1],
      px[3 * s.j + 2] - px[3 * s.i + 2],
    );
    e += 0.5 * s.ks * (l - s.restLength) ** 2;
  }
  return e;
}

Deno.test("springForce", async (t) => {
  const v3 = fc.tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  );
  await t.step("∂f/∂x matches finite differences for stretched springs; ∂f/∂v is exact", () => {
    fc.assert(
      fc.property(
        v3,
        v3,
        v3,
        fc.double({ min: 0.1, max: 0.9, noNaN: true }),
        (dir, vi, vj, shrink) => {
          const len = Math.hypot(...dir);
          fc.pre(len > 0.2);
          const xi: Vec3 = [0.1, -0.2, 0.3];
          const xj: Vec3 = [xi[0] + dir[0], xi[1] + dir[1], xi[2] + dir[2]];
          const spring = { restLength: shrink * len, ks: 30, kd: 0.7 };
          const base = springForce({ xi, xj, vi, vj }, spring);
          const h = 1e-6;
          for (let b = 0; b < 3; b++) {
            const xp = [...xj] as [number, number, number],
              xm = [...xj] as [number, number, number];
            xp[b] += h;
            xm[b] -= h;
            const vp = [...vj] as [number, number, number];
            vp[b] += 1;
            // Position FD with damping off (the damping position derivative is dropped by design).
            const fp = springForce({ xi, xj: xp, vi, vj: vi }, spring).f;
            const fm = springForce({ xi, xj: xm, vi, vj: vi }, spring).f;
            const fv = springForce({ xi, xj, vi, vj: vp }, spring).f;
            for (let a = 0; a < 3; a++) {
              assert.ok(Math.abs((fp[a] - fm[a]) / (2 * h) - base.dfdx[3 * a + b]) < 1e-5);
              assert.ok(Math.abs(fv[a] - base.f[a] - base.dfdv[3 * a + b]) < 1e-9);
            }
          }
        },
      ),
      { numRuns: 100 },
    );
  });
  await t.step("clamped ∂f/∂x is symmetric PSD, also when compressed", () => {
    fc.assert(
      fc.property(v3, v3, fc.double({ min: 0.01, max: 5, noNaN: true }), (dir, w, rest) => {
        fc.pre(Math.hypot(...dir) > 1e-3);
        const K = springForce({ xi: [0, 0, 0], xj: dir, vi: [0, 0, 0], vj: [0, 0, 0] }, {
          restLength: rest,
          ks: 10,
          kd: 0,
        }).dfdx;
        let q = 0;
        for (let a = 0; a < 3; a++) {
          for (let b = 0; b < 3; b++) {
            assert.ok(Math.abs(K[3 * a + b] - K[3 * b + a]) < 1e-12);
            q += w[a] * K[3 * a + b] * w[b];
          }
        }
        assert.ok(q >= -1e-12);
      }),
    );
  });
});

Deno.test("particleSpringForces: internal forces sum to zero, also with merged DOFs", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 2, max: 6 }),
      fc.integer({ min: 2, max: 6 }),
      fc.integer({ min: 1, max: 1e9 }),
      fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 4 }),
      (rows, cols, seed, pairs) => {
        const g = grid(rows, cols, 0.1, 0.03, seed);
        const n = rows * cols;
        const used = new Set<number>();
        const groups: number[][] = [];
        for (const [a, b] of pairs) {
          const [i, j] = [a % n, b % n];
          if (i === j || used.has(i) || used.has(j)) continue;
          used.add(i).add(j);
          groups.push([i, j]);
        }
        const springs = buildClothSprings({
          rows,
          cols,
          spacing: 0.1,
          structural: 500,
          shear: 100,
          bend: 20,
          damping: 0.5,
        });
        const f = particleSpringForces(springs, dofStateFromGroups({ ...g, groups }));
        for (let a = 0; a < 3; a++) {
          let sum = 0, mag = 0;
          for (let i = 0; i < n; i++) {
            sum += f[3 * i + a];
            mag += Math.abs(f[3 * i + a]);
          }
          assert.ok(Math.abs(sum) <= 1e-12 * (1 + mag), `axis ${a}: sum ${sum}`);
        }
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("backwardEulerStep", async (t) => {
  const springs = buildClothSprings({
    rows: 5,
    cols: 4,
    spacing: 0.1,
    structural: 800,
    shear: 200,
    bend: 40,
    damping: 0.2,
  });
  const n = 20;

  await t.step(
    "one DOF holding the whole cloth follows the closed form v + dt (g + f_ext / M)",
    () => {
      const g = grid(5, 4, 0.1, 0.02, 3);
      const state = dofStateFromGroups({
        ...g,
        groups: [Array.from({ length: n }, (_, i) => n - 1 - i)],
      });
      const extForce = new Float64Array(3 * n);
      extForce.set([0.3, -0.1, 0.2], 0);
      const dt = 1e-2;
      const gravity: Vec3 = [0, -9.81, 1];
      const res = backwardEulerStep(springs, state, { dt, gravity, extForce });
      const M = state.dofM[0];
      assert.ok(Math.abs(M - 0.2) < 1e-15);
      for (let a = 0; a < 3; a++) {
        const want = state.dofV[a] + dt * (gravity[a] + extForce[a] / M);
        assert.ok(Math.abs(res.dofV[a] - want) < 1e-12, `axis ${a}: ${res.dofV[a]} vs ${want}`);
        assert.ok(Math.abs(res.dofX[a] - (state.dofX[a] + dt * res.dofV[a])) < 1e-15);
      }
      assert.equal(res.flags[0], DOF_ACTIVE);
      assert.equal(res.flags[1], 0);
    },
  );

  await t.step("a spring to a pinned particle matches the scalar closed forms", () => {
    const [m, ks, kd, L, l, dt, vx, vy, gx] = [0.5, 40, 0.3, 1, 1.25, 0.05, 0.7, -0.4, 2];
    const res = backwardEulerStep([{ i: 0, j: 1, restLength: L, ks, kd }], {
      dof: [0, 1],
      offset: new Float64Array(6),
      dofX: [0, 0, 0, l, 0, 0],
      dofV: [0.1, 0.2, 0.3, vx, vy, 0],
      dofM: [1, m],
      pinned: [1, 0],
    }, { dt, gravity: [gx, 0, 0] });
    // Along the spring: (m + dt kd + dt² ks) Δv = dt (−ks (l − L) − kd vx − dt ks vx + m gx).
    const dvx = (dt * (-ks * (l - L) - kd * vx - dt * ks * vx + m * gx)) /
      (m + dt * kd + dt * dt * ks);
    // Across: geometric stiffness ks c with c = 1 − L/l: (m + dt² ks c) Δv = −dt² ks c vy.
    const c = 1 - L / l;
    const dvy = (-dt * dt * ks * c * vy) / (m + dt * dt * ks * c);
    assert.ok(Math.abs(res.dofV[3] - (vx + dvx)) < 1e-12);
    assert.ok(Math.abs(res.dofV[4] - (vy + dvy)) < 1e-12);
    assert.equal(res.dofV[5], 0);
    assert.deepEqual([...res.dofV.slice(0, 3)], [0, 0, 0]);
    assert.equal(res.flags[0], DOF_ACTIVE | DOF_FIXED);
  });

  await t.step("the CG solution solves the assembled DOF system (merged + pinned)", () => {
    const g = grid(5, 4, 0.1, 0.03, 11);
    const pinned = new Uint8Array(n);
    pinned[0] = pinned[3] = 1;
    const state = dofStateFromGroups({ ...g, groups: [[5, 6], [9, 13, 14], [3, 7]], pinned });
    const dt = 5e-3;
    const gravity: Vec3 = [0, -9.81, 0];
    const extForce = Float64Array.from({ length: 3 * n }, (_, k) => 0.01 * Math.sin(k));
    const res = backwardEulerStep(springs, state, { dt, gravity, extForce });
    // Dense assembly of Jᵀ (M − dt ∂f/∂v − dt² ∂f/∂x) J and the right-hand side, free DOFs only.
    const free = (d: number) => res.flags[d] === DOF_ACTIVE;
    const vHat = (d: number, a: number) => (free(d) ? state.dofV[3 * d + a] : 0);
    const A = Array.from({ length: 3 * n }, () => new Float64Array(3 * n));
    const b = new Float64Array(3 * n);
    for (let d = 0; d < n; d++) {
      for (let a = 0; a < 3; a++) {
        A[3 * d + a][3 * d + a] += state.dofM[d];
        b[3 * d + a] += dt * (extForce[3 * d + a] + state.dofM[d] * gravity[a]);
      }
    }
    for (const s of springs) {
      const [di, dj] = [state.dof[s.i], state.dof[s.j]];
      if (di === dj) continue;
      const px = (i: number, d: number): Vec3 =>
        [0, 1, 2].map((a) => state.dofX[3 * d + a] + state.offset[3 * i + a]) as unknown as Vec3;
      const pv = (d: number): Vec3 => [0, 1, 2].map((a) => vHat(d, a)) as unknown as Vec3;
      const sf = springForce({ xi: px(s.i, di), xj: px(s.j, dj), vi: pv(di), vj: pv(dj) }, s);
      for (let a = 0; a < 3; a++) {
        let kw = 0;
        for (let q = 0; q < 3; q++) kw += sf.dfdx[3 * a + q] * (vHat(dj, q) - vHat(di, q));
        b[3 * di + a] += dt * (sf.f[a] + dt * kw);
        b[3 * dj + a] -= dt * (sf.f[a] + dt * kw);
        for (let q = 0; q < 3; q++) {
          const B = dt * sf.dfdv[3 * a + q] + dt * dt * sf.dfdx[3 * a + q];
          A[3 * di + a][3 * di + q] += B;
          A[3 * dj + a][3 * dj + q] += B;
          A[3 * di + a][3 * dj + q] -= B;
          A[3 * dj + a][3 * di + q] -= B;
        }
      }
    }
    const idx = [...Array(3 * n).keys()].filter((k) => free(Math.floor(k / 3)));
    const sub = idx.map((r) => idx.map((c) => A[r][c]));
    const rhs = idx.map((r) => b[r]);
    // Gaussian elimination with partial pivoting.
    const m = idx.length;
    for (let col = 0; col < m; col++) {
      let piv = col;
      for (let r = col + 1; r < m; r++) {
        if (Math.abs(sub[r][col]) > Math.abs(sub[piv][col])) piv = r;
      }
      [sub[col], sub[piv]] = [sub[piv], sub[col]];
      [rhs[col], rhs[piv]] = [rhs[piv], rhs[col]];
      for (let r = col + 1; r < m; r++) {
        const f = sub[r][col] / sub[col][col];
        for (let c = col; c < m; c++) sub[r][c] -= f * sub[col][c];
        rhs[r] -= f * rhs[col];
      }
    }
    const dv = new Float64Array(m);
    for (let r = m - 1; r >= 0; r--) {
      let s = rhs[r];
      for (let c = r + 1; c < m; c++) s -= sub[r][c] * dv[c];
      dv[r] = s / sub[r][r];
    }
    let worst = 0, scale = 0;
    idx.forEach((k, r) => {
      const d = Math.floor(k / 3);
      worst = Math.max(worst, Math.abs(res.dofV[k] - (vHat(d, k % 3) + dv[r])));
      scale = Math.max(scale, Math.abs(dv[r]));
    });
    assert.ok(worst < 1e-10 * (1 + scale), `max |Δv − direct| = ${worst}`);
    assert.ok(res.relativeResidual <= 1e-12);
    // Fixed DOFs (pinned 0; DOF 3 holds pinned 3 and 7) leave with zero velocity.
    for (const d of [0, 3]) {
      assert.equal(res.flags[d], DOF_ACTIVE | DOF_FIXED);
      assert.deepEqual([...res.dofV.slice(3 * d, 3 * d + 3)], [0, 0, 0]);
    }
  });

  await t.step("energy of a free cloth without gravity never grows over many steps", () => {
    const rows = 6, cols = 6;
    const cloth = buildClothSprings({
      rows,
      cols,
      spacing: 0.1,
      structural: 2000,
      shear: 500,
      bend: 50,
      damping: 0,
    });
    const g = grid(rows, cols, 0.1, 0.02, 5);
    const state = dofStateFromGroups({ ...g, groups: [[7, 8], [20, 26, 27]] });
    const energy = () => {
      let e = 0;
      for (let d = 0; d < rows * cols; d++) {
        if (state.dof[d] !== d) continue;
        e += 0.5 * state.dofM[d] *
          (state.dofV[3 * d] ** 2 + state.dofV[3 * d + 1] ** 2 + state.dofV[3 * d + 2] ** 2);
      }
      const px = state.dof.length;
      const pos = new Float64Array(3 * px);
      for (let i = 0; i < px; i++) {
        for (let a = 0; a < 3; a++) {
          pos[3 * i + a] = state.dofX[3 * state.dof[i] + a] + state.offset[3 * i + a];
        }
      }
      return e + springEnergy(cloth, pos);
    };
    let e = energy();
    const e0 = e;
    for (let step = 0; step < 200; step++) {
      const res = backwardEulerStep(cloth, state, { dt: 4e-3, tolerance: 1e-13 });
      state.dofV.set(res.dofV);
      state.dofX.set(res.dofX);
      const next = energy();
      assert.ok(next <= e * (1 + 1e-12), `step ${step}: energy ${e} -> ${next}`);
      e = next;
    }
    assert.ok(e < 0.5 * e0, `energy ${e0} -> ${e}: backward Euler dissipates`);
  });

  await t.step("DOFs without cloth members are left alone", () => {
    const res = backwardEulerStep([{ i: 0, j: 1, restLength: 1, ks: 1, kd: 0 }], {
      dof: [0, 1, 2],
      offset: new Float64Array(9),
      dofX: [0, 0, 0, 2, 0, 0, 5, 5, 5],
      dofV: [0, 0, 0, 0, 0, 0, 1, 2, 3],
      dofM: [1, 1, 1],
      cloth: [1, 1, 0],
    }, { dt: 0.1, gravity: [0, -10, 0] });
    assert.deepEqual([...res.dofV.slice(6)], [1, 2, 3]);
    assert.deepEqual([...res.dofX.slice(6)], [5, 5, 5]);
    assert.equal(res.flags[2], 0);
  });

  await t.step("errors name the bad argument", () => {
    const state = {
      dof: [0, 1],
      offset: new Float64Array(6),
      dofX: new Float64Array(6),
      dofV: new Float64Array(6),
      dofM: [1, 1],
    };
    assert.throws(() => backwardEulerStep([], state, { dt: 0 }), /options\.dt/);
    assert.throws(() => backwardEulerStep([], { ...state, dofX: [0] }, { dt: 1 }), /state\.dofX/);
    assert.throws(
      () => backwardEulerStep([], { ...state, dof: [1, 0] }, { dt: 1 }),
      /state\.dof\[0\]/,
    );
    assert.throws(
      () => backwardEulerStep([], { ...state, dofM: [0, 1] }, { dt: 1 }),
      /state\.dofM\[0\]/,
    );
    assert.throws(
      () => backwardEulerStep([{ i: 0, j: 5, restLength: 1, ks: 1, kd: 0 }], state, { dt: 1 }),
      /springs\[0\]/,
    );
  });
});
