/**
 * f64 reference for the implicit mass-spring cloth on DOFs (meta-particles): spring forces and
 * their Jacobians, and one linearised backward-Euler step solved with Jacobi-preconditioned CG.
 *
 * Spring model (background notes §2.3 "relative damping"; Baraff & Witkin 1998, "Large steps in
 * cloth simulation", §4–5). For a spring (i, j) with rest length L, stiffness ks and damping kd, let
 * `d = x_j − x_i`, `l = |d|`, `u = d / l`:
 *
 *   f_i = ks (l − L) u + kd ((v_j − v_i)·u) u,        f_j = −f_i
 *   ∂f_i/∂x_j = K = ks [u uᵀ + c (I − u uᵀ)],  c = max(0, 1 − L/l),   ∂f_i/∂x_i = −K
 *   ∂f_i/∂v_j = kd u uᵀ,                                               ∂f_i/∂v_i = −kd u uᵀ
 *
 * The exact geometric-stiffness factor is `1 − L/l`, negative for a compressed spring (l < L),
 * where it can make −∂f/∂x indefinite. It is clamped at 0 (Choi & Ko 2002 style), so −∂f/∂x is
 * positive semi-definite, the system matrix below is symmetric positive definite and CG applies.
 * The position derivative of the damping force is dropped, as in Baraff & Witkin.
 *
 * Backward Euler, linearised once (Baraff & Witkin Eq. 16; background notes Eqs. 16–19), on DOFs:
 *
 *   (M − dt ∂f/∂v − dt² ∂f/∂x) Δv = dt (f + dt ∂f/∂x v + f_ext + M g),   v' = v + Δv
 *
 * Every particle i is at `x_i = X_dof(i) + offset_i` and moves with `V_dof(i)` (merging-and-
 * splitting, Truong et al. 2021, Eqs. 2–3, 6–7), so forces are evaluated per particle and summed
 * per DOF, and the DOF matrix is `Jᵀ A J` with J the DOF→particle map. Springs whose two ends lie in
 * the same DOF contribute nothing (their forces cancel and `J` makes their blocks vanish); they are
 * skipped. A DOF is fixed when any member is pinned: its velocity is zeroed before the step and its
 * Δv is kept at 0 by filtering CG (Baraff & Witkin §5.3 with z = 0), so it leaves with v' = 0.
 *
 * @module
 */

import type { Vec3 } from "../vec3.ts";
import type { Spring } from "../model/spring.ts";
import { DOF_ACTIVE, DOF_FIXED } from "../model/dof_flags.ts";

/** Force on end i of a spring and its Jacobians (3×3, row-major). */
export interface SpringForce {
  /** f_i; the force on j is −f_i. */
  f: [number, number, number];
  /** ∂f_i/∂x_j = K (clamped, symmetric PSD); ∂f_i/∂x_i = −K, ∂f_j/∂x_j = −K, ∂f_j/∂x_i = K. */
  dfdx: number[];
  /** ∂f_i/∂v_j = kd u uᵀ; ∂f_i/∂v_i = −kd u uᵀ. */
  dfdv: number[];
}

/**
 * Force on end i of a damped spring and its Jacobians (Baraff & Witkin §4, with the geometric
 * term clamped for compressed springs; see the module doc). A zero-length spring has no direction
 * and yields zero force and Jacobians.
 */
export function springForce(
  ends: { xi: Vec3; xj: Vec3; vi: Vec3; vj: Vec3 },
  spring: Pick<Spring, "restLength" | "ks" | "kd">,
): SpringForce {
  const { xi, xj, vi, vj } = ends;
  const d = [xj[0] - xi[0], xj[1] - xi[1], xj[2] - xi[2]];
  const l = Math.hypot(d[0], d[1], d[2]);
  if (l === 0) return { f: [0, 0, 0], dfdx: new Array(9).fill(0), dfdv: new Array(9).fill(0) };
  const u = [d[0] / l, d[1] / l, d[2] / l];
  const { restLength: L, ks, kd } = spring;
  const vrel = (vj[0] - vi[0]) * u[0] + (vj[1] - vi[1]) * u[1] + (vj[2] - vi[2]) * u[2];
  const s = ks * (l - L) + kd * vrel;
  const c = Math.max(0, 1 - L / l);
  const dfdx: number[] = [];
  const dfdv: number[] = [];
  for (let a = 0; a < 3; a++) {
    for (let b = 0; b < 3; b++) {
      const uu = u[a] * u[b];
      dfdx.push(ks * ((1 - c) * uu + (a === b ? c : 0)));
      dfdv.push(kd * uu);
    }
  }
  return { f: [s * u[0], s * u[1], s * u[2]], dfdx, dfdv };
}

/**
 * DOF state of a step, in the conventions of gpu/README.md with xyz-packed f64 arrays (3 numbers
 * per particle or slot). DOF slots are indexed like particles; slot d is live when `dof[d] == d`.
 */
export interface DofState {
  /** Per particle: its DOF (root particle index; i when unmerged). */
  dof: ArrayLike<number>;
  /** Per particle, 3N: x_i − X_dof(i) (paper Eqs. 6–7); 0 when unmerged. */
  offset: ArrayLike<number>;
  /** Per slot, 3N: DOF position (Eq. 2). */
  dofX: ArrayLike<number>;
  /** Per slot, 3N: DOF velocity (Eq. 3). */
  dofV: ArrayLike<number>;
  /** Per slot: DOF mass (Eq. 1), > 0 for live slots. */
  dofM: ArrayLike<number>;
  /** Per particle: nonzero when pinned; a DOF with a pinned member is fixed. */
  pinned?: ArrayLike<number | boolean>;
  /** Per particle: nonzero for cloth particles (default: all). Only DOFs with a cloth member move. */
  cloth?: ArrayLike<number | boolean>;
}

/** Options of {@link backwardEulerStep}. */
export interface BackwardEulerOptions {
  /** Time step (s, > 0). */
  dt: number;
  /** Gravity acceleration (default 0). */
  gravity?: Vec3;
  /** Per slot, 3N: external force on each DOF (default 0). */
  extForce?: ArrayLike<number>;
  /** CG stop: sqrt(rᵀzᵢ / rᵀz₀) ≤ tolerance (preconditioned residual; default 1e-12). */
  tolerance?: number;
  /** CG iteration cap (default 20 · 3N + 100). */
  maxIterations?: number;
  /**
   * Linear drag coefficient c (1/s, default 0): a force −c·M·v on every system DOF, integrated
   * implicitly (adds dt·c·M to the diagonal of A and −dt·c·M·v̂ to the right-hand side).
   */
  drag?: number;
}

/** Result of {@link backwardEulerStep}. */
export interface BackwardEulerResult {
  /** 3N: new DOF velocities v' = v + Δv for system DOFs; unchanged for the others. */
  dofV: Float64Array;
  /** 3N: X + dt v' for system DOFs (the position update a caller would do); unchanged otherwise. */
  dofX: Float64Array;
  /** Per slot: 1 when the DOF is in the system (live with a cloth member), plus 2 when fixed. */
  flags: Uint8Array;
  /** CG iterations run. */
  iterations: number;
  /** sqrt(rᵀz / r₀ᵀz₀) at the end (0 when the right-hand side is 0). */
  relativeResidual: number;
}

/** Per-particle spring lists (CSR) built from a spring list: entries (spring index, sign). */
function springsByParticle(
  springs: readonly Spring[],
  n: number,
): { start: Int32Array; list: Int32Array } {
  const count = new Int32Array(n + 1);
  for (const [k, s] of springs.entries()) {
    if (
      !Number.isInteger(s.i) || !Number.isInteger(s.j) || s.i < 0 || s.j < 0 || s.i >= n ||
      s.j >= n || s.i === s.j
    ) {
      throw new RangeError(`springs[${k}] has ends (${s.i}, ${s.j}) outside 0..${n - 1} or equal`);
    }
    count[s.i + 1]++;
    count[s.j + 1]++;
  }
  for (let i = 0; i < n; i++) count[i + 1] += count[i];
  const fill = count.slice(0, n);
  const list = new Int32Array(2 * springs.length);
  springs.forEach((s, k) => {
    list[fill[s.i]++] = k;
    list[fill[s.j]++] = k;
  });
  return { start: count, list };
}

/** Classifies DOF slots: active (live with a cloth member) and fixed (a pinned member). */
export function classifyDofs(state: Pick<DofState, "dof" | "pinned" | "cloth">): Uint8Array {
  const n = state.dof.length;
  const flags = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const d = state.dof[i];
    if (!(d >= 0 && d < n) || state.dof[d] !== d) {
      throw new RangeError(
        `state.dof[${i}] = ${d} is not a live DOF slot (dof[dof[i]] must equal dof[i])`,
      );
    }
    if (state.cloth === undefined || state.cloth[i]) flags[d] |= DOF_ACTIVE;
  }
  for (let i = 0; i < n; i++) {
    const d = state.dof[i];
    if ((flags[d] & DOF_ACTIVE) && state.pinned?.[i]) flags[d] |= DOF_FIXED;
  }
  return flags;
}

/**
 * Per-particle spring forces at the DOF state (x_i = X_dof(i) + offset_i, v_i = V_dof(i)), as a
 * 3N array; springs with both ends in one DOF are skipped. Their sum over all particles is zero
 * (internal forces, background notes §2.2).
 */
export function particleSpringForces(springs: readonly Spring[], state: DofState): Float64Array {
  const n = state.dof.length;
  const out = new Float64Array(3 * n);
  for (const s of springs) {
    const di = state.dof[s.i], dj = state.dof[s.j];
    if (di === dj) continue;
    const sf = springForce({
      xi: particleVec(state.dofX, state.offset, di, s.i),
      xj: particleVec(state.dofX, state.offset, dj, s.j),
      vi: vec(state.dofV, di),
      vj: vec(state.dofV, dj),
    }, s);
    for (let a = 0; a < 3; a++) {
      out[3 * s.i + a] += sf.f[a];
      out[3 * s.j + a] -= sf.f[a];
    }
  }
  return out;
}

function vec(a: ArrayLike<number>, k: number): Vec3 {
  return [a[3 * k], a[3 * k + 1], a[3 * k + 2]];
}

function particleVec(x: ArrayLike<number>, offset: ArrayLike<number>, d: number, i: number): Vec3 {
  return [
    x[3 * d] + offset[3 * i],
    x[3 * d + 1] + offset[3 * i + 1],
    x[3 * d + 2] + offset[3 * i + 2],
  ];
}

/**
 * One linearised backward-Euler step of the mass-spring system on DOFs (module doc; Baraff &
 * Witkin 1998 Eq. 16 with filtered PCG, §5.3), in f64. Solves
 * `(M − dt ∂f/∂v − dt² ∂f/∂x) Δv = dt (f + dt ∂f/∂x v + f_ext + M g)` over the free system DOFs
 * with Jacobi-preconditioned CG, matrix-free: Ap = M p + Σ over members i and their springs (i, j)
 * of −(dt kd u uᵀ + dt² K)(p_dof(j) − p_dof(i)).
 */
export function backwardEulerStep(
  springs: readonly Spring[],
  state: DofState,
  options: BackwardEulerOptions,
): BackwardEulerResult {
  const n = state.dof.length;
  const { dt } = options;
  if (!(dt > 0) || !Number.isFinite(dt)) {
    throw new RangeError(`backwardEulerStep: options.dt must be finite and > 0, got ${dt}`);
  }
  for (
    const [name, arr, len] of [
      ["offset", state.offset, 3 * n],
      ["dofX", state.dofX, 3 * n],
      ["dofV", state.dofV, 3 * n],
      ["dofM", state.dofM, n],
    ] as const
  ) {
    if (arr.length !== len) {
      throw new RangeError(
        `backwardEulerStep: state.${name} has length ${arr.length}, expected ${len}`,
      );
    }
  }
  if (options.extForce && options.extForce.length !== 3 * n) {
    throw new RangeError(
      `backwardEulerStep: options.extForce has length ${options.extForce.length}, expected ${
        3 * n
      }`,
    );
  }
  const g = options.gravity ?? [0, 0, 0];
  const drag = options.drag ?? 0;
  if (!(drag >= 0) || !Number.isFinite(drag)) {
    throw new RangeError(
      `backwardEulerStep: options.drag must be a finite number >= 0, got ${drag}`,
    );
  }
  const tol = options.tolerance ?? 1e-12;
  const maxIter = options.maxIterations ?? 20 * 3 * n + 100;
  const flags = classifyDofs(state);
  const free = (d: number) => (flags[d] & (DOF_ACTIVE | DOF_FIXED)) === DOF_ACTIVE;
  for (let d = 0; d < n; d++) {
    if ((flags[d] & DOF_ACTIVE) && !(state.dofM[d] > 0)) {
      throw new RangeError(
        `backwardEulerStep: state.dofM[${d}] = ${state.dofM[d]} must be > 0 for a system DOF`,
      );
    }
  }
  // v̂: velocities with fixed DOFs zeroed.
  const vHat = new Float64Array(3 * n);
  for (let d = 0; d < n; d++) {
    if (free(d)) { for (let a = 0; a < 3; a++) vHat[3 * d + a] = state.dofV[3 * d + a]; }
  }
  const { start, list } = springsByParticle(springs, n);
  // Per-spring blocks B = dt kd uuᵀ + dt² K = α uuᵀ + β I, and the right-hand side.
  const m = springs.length;
  const U = new Float64Array(3 * m), alpha = new Float64Array(m), beta = new Float64Array(m);
  const b = new Float64Array(3 * n);
  const diag = new Float64Array(3 * n);
  springs.forEach((s, k) => {
    const di = state.dof[s.i], dj = state.dof[s.j];
    if (di === dj) return;
    const xi = particleVec(state.dofX, state.offset, di, s.i);
    const xj = particleVec(state.dofX, state.offset, dj, s.j);
    const sf = springForce({ xi, xj, vi: vec(vHat, di), vj: vec(vHat, dj) }, s);
    const l = Math.hypot(xj[0] - xi[0], xj[1] - xi[1], xj[2] - xi[2]);
    if (l === 0) return;
    const c = Math.max(0, 1 - s.restLength / l);
    for (let a = 0; a < 3; a++) U[3 * k + a] = (xj[a] - xi[a]) / l;
    alpha[k] = dt * s.kd + dt * dt * s.ks * (1 - c);
    beta[k] = dt * dt * s.ks * c;
    // g_i = f_i + dt K (v_j − v_i); g_j = −g_i.
    const w = [0, 1, 2].map((a) => vHat[3 * dj + a] - vHat[3 * di + a]);
    for (let a = 0; a < 3; a++) {
      let kw = 0;
      for (let q = 0; q < 3; q++) kw += sf.dfdx[3 * a + q] * w[q];
      const gi = sf.f[a] + dt * kw;
      b[3 * di + a] += dt * gi;
      b[3 * dj + a] -= dt * gi;
      const dd = alpha[k] * U[3 * k + a] * U[3 * k + a] + beta[k];
      diag[3 * di + a] += dd;
      diag[3 * dj + a] += dd;
    }
  });
  const invD = new Float64Array(3 * n);
  for (let d = 0; d < n; d++) {
    for (let a = 0; a < 3; a++) {
      const k = 3 * d + a;
      if (!free(d)) {
        b[k] = 0;
        continue;
      }
      const ext = options.extForce ? options.extForce[k] : 0;
      const dragMass = dt * drag * state.dofM[d];
      b[k] += dt * (ext + state.dofM[d] * g[a]) - dragMass * vHat[k];
      invD[k] = 1 / (state.dofM[d] + dragMass + diag[k]);
    }
  }
  const applyA = (p: Float64Array, out: Float64Array) => {
    for (let d = 0; d < n; d++) {
      const m = state.dofM[d] * (1 + (free(d) ? dt * drag : 0));
      for (let a = 0; a < 3; a++) out[3 * d + a] = m * p[3 * d + a];
    }
    for (let i = 0; i < n; i++) {
      const di = state.dof[i];
      for (let e = start[i]; e < start[i + 1]; e++) {
        const k = list[e];
        const s = springs[k];
        const j = s.i === i ? s.j : s.i;
        const dj = state.dof[j];
        if (dj === di) continue;
        const w = [0, 1, 2].map((a) => p[3 * dj + a] - p[3 * di + a]);
        const uw = U[3 * k] * w[0] + U[3 * k + 1] * w[1] + U[3 * k + 2] * w[2];
        for (let a = 0; a < 3; a++) {
          out[3 * di + a] -= alpha[k] * uw * U[3 * k + a] + beta[k] * w[a];
        }
      }
    }
    for (let d = 0; d < n; d++) if (!free(d)) out[3 * d] = out[3 * d + 1] = out[3 * d + 2] = 0;
  };
  const dot = (a: Float64Array, c: Float64Array) => {
    let s = 0;
    for (let k = 0; k < a.length; k++) s += a[k] * c[k];
    return s;
  };
  const x = new Float64Array(3 * n);
  const r = b.slice();
  const z = r.map((v, k) => v * invD[k]);
  const p = z.slice();
  const Ap = new Float64Array(3 * n);
  const rz0 = dot(r, z);
  let rz = rz0;
  let it = 0;
  while (it < maxIter && rz > tol * tol * rz0) {
    applyA(p, Ap);
    const pAp = dot(p, Ap);
    if (!(pAp > 0)) break;
    const a = rz / pAp;
    for (let k = 0; k < 3 * n; k++) {
      x[k] += a * p[k];
      r[k] -= a * Ap[k];
      z[k] = r[k] * invD[k];
    }
    const rzNew = dot(r, z);
    const bt = rzNew / rz;
    rz = rzNew;
    for (let k = 0; k < 3 * n; k++) p[k] = z[k] + bt * p[k];
    it++;
  }
  const dofV = Float64Array.from(state.dofV);
  const dofX = Float64Array.from(state.dofX);
  for (let d = 0; d < n; d++) {
    if (!(flags[d] & DOF_ACTIVE)) continue;
    for (let a = 0; a < 3; a++) {
      const k = 3 * d + a;
      dofV[k] = vHat[k] + x[k];
      dofX[k] += dt * dofV[k];
    }
  }
  return { dofV, dofX, flags, iterations: it, relativeResidual: rz0 > 0 ? Math.sqrt(rz / rz0) : 0 };
}

/** Particles and the groups to merge, for {@link dofStateFromGroups}. */
export interface ParticleGroups {
  /** 3N particle positions. */
  x: ArrayLike<number>;
  /** 3N particle velocities. */
  v: ArrayLike<number>;
  /** N particle masses (> 0). */
  m: ArrayLike<number>;
  /** Disjoint groups of particle indices merged into one DOF each; other particles stay single. */
  groups?: ReadonlyArray<readonly number[]>;
  /** Per particle pinned flags, copied into the state. */
  pinned?: ArrayLike<number | boolean>;
  /** Per particle cloth flags, copied into the state. */
  cloth?: ArrayLike<number | boolean>;
}

/**
 * Builds the DOF state of merged particles (Truong et al. 2021 Eqs. 1–3, 6–7): each group becomes
 * one DOF rooted at its lowest index with summed mass, mass-weighted position and velocity, and
 * member offsets `x_i − X`; other particles are their own DOF with zero offset.
 */
export function dofStateFromGroups(
  particles: ParticleGroups,
): DofState & {
  dof: Int32Array;
  offset: Float64Array;
  dofX: Float64Array;
  dofV: Float64Array;
  dofM: Float64Array;
} {
  const n = particles.m.length;
  if (particles.x.length !== 3 * n || particles.v.length !== 3 * n) {
    throw new RangeError(`dofStateFromGroups: particles.x and particles.v need length ${3 * n}`);
  }
  const dof = Int32Array.from({ length: n }, (_, i) => i);
  const offset = new Float64Array(3 * n);
  const dofX = Float64Array.from(particles.x);
  const dofV = Float64Array.from(particles.v);
  const dofM = Float64Array.from(particles.m);
  const seen = new Uint8Array(n);
  for (const [gi, group] of (particles.groups ?? []).entries()) {
    if (group.length === 0) continue;
    for (const i of group) {
      if (!(i >= 0 && i < n) || seen[i]) {
        throw new RangeError(
          `dofStateFromGroups: particles.groups[${gi}] has index ${i} out of range or in two groups`,
        );
      }
      seen[i] = 1;
    }
    const root = Math.min(...group);
    let M = 0;
    const X = [0, 0, 0], V = [0, 0, 0];
    for (const i of group) {
      M += particles.m[i];
      for (let a = 0; a < 3; a++) {
        X[a] += particles.m[i] * particles.x[3 * i + a];
        V[a] += particles.m[i] * particles.v[3 * i + a];
      }
    }
    for (const i of group) {
      dof[i] = root;
      if (i !== root) dofM[i] = 0;
    }
    dofM[root] = M;
    for (let a = 0; a < 3; a++) {
      dofX[3 * root + a] = X[a] / M;
      dofV[3 * root + a] = V[a] / M;
    }
    for (const i of group) {
      for (let a = 0; a < 3; a++) offset[3 * i + a] = particles.x[3 * i + a] - dofX[3 * root + a];
    }
    for (const i of group) {
      if (i === root) continue;
      for (let a = 0; a < 3; a++) dofX[3 * i + a] = dofV[3 * i + a] = 0;
    }
  }
  return { dof, offset, dofX, dofV, dofM, pinned: particles.pinned, cloth: particles.cloth };
}
