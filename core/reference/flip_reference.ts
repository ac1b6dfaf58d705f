/**
 * f64 reference of one FLIP fluid step on a MAC grid (Zhu & Bridson 2005, "Animating sand as a
 * fluid", §3–4; Bridson, "Fluid Simulation for Computer Graphics", 2nd ed., ch. 2–5 and 7), with
 * the paper's occupied cells (Truong et al. 2021 §5): cells, P2G, body force, face classes,
 * pressure by Jacobi-preconditioned CG, pressure update and G2P with the PIC/FLIP blend
 * ({@link flipStep}); `gpu/systems/flip/` is tested against it. The conventions both follow
 * exactly (grid layout, face ids, weights, classes, the scaled pressure q, the order of
 * operations) are in `docs/flip.md`.
 *
 * @module
 */
import {
  AXIS_KEYS,
  CELL_FLUID,
  CELL_SOLID,
  cellCount,
  checkAxis,
  checkVec3,
  clampCell,
  FACE_FLUID,
  FACE_INACTIVE,
  FACE_SOLID,
  FACE_WALL,
  type FaceArrays,
  faceCounts,
  faceDims,
  type FlipAxis,
  type FlipGrid,
  type OccupiedReading,
  type Vec3Like,
} from "../model/flip_grid.ts";

/** Defaults of {@link flipStep} (Zhu & Bridson 2005 §4 blend a PIC share of a few percent). */
export const FLIP_DEFAULTS: Readonly<{
  flipRatio: number;
  tolerance: number;
  maxIterations: number;
}> = Object.freeze({ flipRatio: 0.97, tolerance: 1e-6, maxIterations: 500 });

/** Particles of a FLIP step, structure of arrays over N particles. */
export interface FlipParticles {
  /** Positions x_p, xyz interleaved (length 3N, finite). */
  x: ArrayLike<number>;
  /** Velocities v_p, xyz interleaved (length 3N). */
  v: ArrayLike<number>;
  /** Masses m_p (length N, > 0). */
  m: ArrayLike<number>;
  /** 1 for a FLIP (fluid) particle, 0 for an OTHER particle (cloth, solid, SPH) (length N). */
  isFlip: ArrayLike<number>;
}

function checkParticles(
  fn: string,
  p: Partial<FlipParticles>,
  fields: readonly ("x" | "v" | "m" | "isFlip")[],
): number {
  if (!p || !p.isFlip) throw new TypeError(`${fn}: particles.isFlip must be an array`);
  const n = p.isFlip.length;
  for (const f of fields) {
    const arr = p[f];
    const len = f === "x" || f === "v" ? 3 * n : n;
    if (!arr || typeof arr.length !== "number") {
      throw new TypeError(`${fn}: particles.${f} must be an array of length ${len}`);
    }
    if (arr.length !== len) {
      throw new RangeError(
        `${fn}: particles.${f} has length ${arr.length}, expected ${len} (N = ${n} from isFlip)`,
      );
    }
  }
  const x = p.x!;
  for (let k = 0; k < 3 * n; k++) {
    if (!Number.isFinite(x[k])) {
      throw new RangeError(`${fn}: particles.x[${k}] = ${x[k]} must be finite`);
    }
  }
  if (fields.includes("m")) {
    const m = p.m!;
    for (let i = 0; i < n; i++) {
      if (!(m[i] > 0) || !Number.isFinite(m[i])) {
        throw new RangeError(`${fn}: particles.m[${i}] = ${m[i]} must be finite and > 0`);
      }
    }
  }
  return n;
}

/**
 * Step 1, cell classes ({@link CELL_AIR}, {@link CELL_FLUID}, {@link CELL_SOLID}) per cell id:
 * FLUID where a FLIP particle's cell ({@link cellOfPoint}, clamped) is, else FLUID (`occupied:
 * "fluid"`, default) or SOLID (`"solid"`) where an OTHER particle's is, else AIR (Zhu & Bridson §4 marking; Truong et al. 2021 §5 marks the cells of
 * both systems so FLIP fluid does not flow into the cells of a cloth or solid as if empty).
 */
export function classifyCells(
  grid: FlipGrid,
  particles: Pick<FlipParticles, "x" | "isFlip">,
  options: { occupied?: OccupiedReading } = {},
): Uint8Array {
  const other = (options.occupied ?? "fluid") === "fluid" ? CELL_FLUID : CELL_SOLID;
  const n = checkParticles("classifyCells", particles, ["x"]);
  const [nx, ny] = grid.dims;
  const cells = new Uint8Array(cellCount(grid));
  const { x, isFlip } = particles;
  for (let p = 0; p < n; p++) {
    const id = clampCell(grid, 0, x[3 * p]) +
      nx * (clampCell(grid, 1, x[3 * p + 1]) + ny * clampCell(grid, 2, x[3 * p + 2]));
    if (isFlip[p]) cells[id] = CELL_FLUID;
    else if (cells[id] !== CELL_FLUID) cells[id] = other;
  }
  return cells;
}

/**
 * The 2×2×2 transfer stencil of a point on one face lattice: the ids of the up to 8 faces whose
 * hat weight can be nonzero (faces outside the lattice are left out) and their weights
 * w = N((x − f)_x/dx) N((x − f)_y/dx) N((x − f)_z/dx), N(t) = max(0, 1 − |t|) (`docs/flip.md`).
 * The weights sum to 1 when no face is left out.
 */
export function faceStencil(
  grid: FlipGrid,
  options: { axis: FlipAxis; point: Vec3Like },
): { ids: number[]; weights: number[] } {
  checkAxis("faceStencil", options.axis);
  const point = checkVec3("faceStencil", "options.point", options.point);
  const ids: number[] = [], weights: number[] = [];
  forEachFaceWeight(grid, options.axis, point, (id, w) => {
    ids.push(id);
    weights.push(w);
  });
  return { ids, weights };
}

/** Calls `visit(faceId, weight)` over the stencil of {@link faceStencil} (no checks). */
function forEachFaceWeight(
  grid: FlipGrid,
  axis: FlipAxis,
  point: ArrayLike<number>,
  visit: (id: number, weight: number) => void,
): void {
  const s = faceDims(grid, axis);
  const base = [0, 0, 0], frac = [0, 0, 0];
  for (let b = 0; b < 3; b++) {
    const t = (point[b] - grid.min[b]) / grid.dx - (b === axis ? 0 : 0.5);
    base[b] = Math.floor(t);
    frac[b] = t - base[b];
  }
  for (let dk = 0; dk < 2; dk++) {
    const k = base[2] + dk;
    if (k < 0 || k >= s[2]) continue;
    const wk = dk ? frac[2] : 1 - frac[2];
    for (let dj = 0; dj < 2; dj++) {
      const j = base[1] + dj;
      if (j < 0 || j >= s[1]) continue;
      const wj = dj ? frac[1] : 1 - frac[1];
      for (let di = 0; di < 2; di++) {
        const i = base[0] + di;
        if (i < 0 || i >= s[0]) continue;
        const wi = di ? frac[0] : 1 - frac[0];
        visit(i + s[0] * (j + s[1] * k), wi * wj * wk);
      }
    }
  }
}

/** Per-face result of {@link particleToGrid} on one lattice. */
export interface FaceTransfer {
  /** M_f = Σ_p w_p m_p. */
  mass: Float64Array;
  /** P_f = Σ_p w_p m_p v_p (this lattice's component). */
  momentum: Float64Array;
  /** u_f = P_f / M_f where M_f > 0, else 0. */
  vel: Float64Array;
}

/**
 * Step 2, particle-to-grid transfer (Zhu & Bridson §4; Bridson §7.6): per lattice, the face mass
 * M_f = Σ w_p m_p, momentum P_f = Σ w_p m_p v_p and velocity P_f / M_f (0 where M_f = 0), over
 * the FLIP particles (`select: "flip"`, the default: the fluid velocity u) or the OTHER particles
 * (`select: "other"`: the solid velocity us_f of the moving-boundary condition).
 */
export function particleToGrid(
  grid: FlipGrid,
  particles: FlipParticles,
  options: { select?: "flip" | "other" } = {},
): FaceArrays<FaceTransfer> {
  const select = options.select ?? "flip";
  if (select !== "flip" && select !== "other") {
    throw new RangeError(
      `particleToGrid: options.select must be "flip" or "other", got ${String(select)}`,
    );
  }
  const n = checkParticles("particleToGrid", particles, ["x", "v", "m"]);
  const counts = faceCounts(grid);
  const want = select === "flip";
  const { x, v, m, isFlip } = particles;
  const point = [0, 0, 0];
  const out = {} as FaceArrays<FaceTransfer>;
  for (const axis of [0, 1, 2] as const) {
    const key = AXIS_KEYS[axis];
    const mass = new Float64Array(counts[key]);
    const momentum = new Float64Array(counts[key]);
    for (let p = 0; p < n; p++) {
      if (!isFlip[p] === want) continue;
      point[0] = x[3 * p];
      point[1] = x[3 * p + 1];
      point[2] = x[3 * p + 2];
      const mp = m[p], mv = m[p] * v[3 * p + axis];
      forEachFaceWeight(grid, axis, point, (id, w) => {
        mass[id] += w * mp;
        momentum[id] += w * mv;
      });
    }
    const vel = new Float64Array(counts[key]);
    for (let f = 0; f < vel.length; f++) if (mass[f] > 0) vel[f] = momentum[f] / mass[f];
    out[key] = { mass, momentum, vel };
  }
  return out;
}

function checkCells(fn: string, grid: FlipGrid, cells: ArrayLike<number>): void {
  if (!cells || cells.length !== cellCount(grid)) {
    throw new RangeError(
      `${fn}: cells has length ${cells?.length}, expected ${cellCount(grid)} (one class per cell)`,
    );
  }
}

function checkFaceArrays(
  fn: string,
  name: string,
  grid: FlipGrid,
  arrays: FaceArrays<ArrayLike<number>>,
): void {
  const counts = faceCounts(grid);
  for (const key of AXIS_KEYS) {
    const arr = arrays?.[key];
    if (!arr || arr.length !== counts[key]) {
      throw new RangeError(
        `${fn}: ${name}.${key} has length ${arr?.length}, expected ${counts[key]}`,
      );
    }
  }
}

/**
 * Step 4, face classes ({@link FACE_INACTIVE}, {@link FACE_FLUID}, {@link FACE_SOLID},
 * {@link FACE_WALL}) per lattice, tested in the order WALL (on the box boundary), SOLID (either
 * neighbour cell SOLID: a FLUID–SOLID face is SOLID), FLUID (either neighbour FLUID), INACTIVE.
 */
export function faceClasses(grid: FlipGrid, cells: ArrayLike<number>): FaceArrays<Uint8Array> {
  checkCells("faceClasses", grid, cells);
  const [nx, ny] = grid.dims;
  const stride = [1, nx, nx * ny];
  const out = {} as FaceArrays<Uint8Array>;
  for (const axis of [0, 1, 2] as const) {
    const s = faceDims(grid, axis);
    const cls = new Uint8Array(s[0] * s[1] * s[2]);
    let f = 0;
    for (let k = 0; k < s[2]; k++) {
      for (let j = 0; j < s[1]; j++) {
        for (let i = 0; i < s[0]; i++, f++) {
          const c = axis === 0 ? i : axis === 1 ? j : k;
          if (c === 0 || c === grid.dims[axis]) {
            cls[f] = FACE_WALL;
            continue;
          }
          const hi = i + nx * (j + ny * k);
          const a = cells[hi - stride[axis]], b = cells[hi];
          cls[f] = a === CELL_SOLID || b === CELL_SOLID
            ? FACE_SOLID
            : a === CELL_FLUID || b === CELL_FLUID
            ? FACE_FLUID
            : FACE_INACTIVE;
        }
      }
    }
    out[AXIS_KEYS[axis]] = cls;
  }
  return out;
}

/**
 * D_c = (u_{i+1} − u_i) + (v_{j+1} − v_j) + (w_{k+1} − w_k) per cell (the discrete divergence
 * times dx, Bridson Eq. 5.4), on FLUID cells, 0 elsewhere. The face velocities are used as given:
 * the caller has set WALL faces to 0 and SOLID faces to us_f ({@link setBoundaryVelocities}).
 */
export function divergence(
  grid: FlipGrid,
  u: FaceArrays<ArrayLike<number>>,
  cells: ArrayLike<number>,
): Float64Array {
  checkCells("divergence", grid, cells);
  checkFaceArrays("divergence", "u", grid, u);
  const [nx, ny, nz] = grid.dims;
  const out = new Float64Array(cellCount(grid));
  let c = 0;
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++, c++) {
        if (cells[c] !== CELL_FLUID) continue;
        const fu = i + (nx + 1) * (j + ny * k);
        const fv = i + nx * (j + (ny + 1) * k);
        out[c] = (u.x[fu + 1] - u.x[fu]) + (u.y[fv + nx] - u.y[fv]) + (u.z[c + nx * ny] - u.z[c]);
      }
    }
  }
  return out;
}

/**
 * The FLIP particles' mass around each cell centre c: M_c = Σ_p m_p N((x_p − c)/dx) with the
 * trilinear hat of the transfers, the grid's estimate of the fluid's density ρ_c = M_c / dx³
 * (used by the volume correction, {@link volumeCorrectionTarget}).
 */
export function cellMasses(grid: FlipGrid, particles: FlipParticles): Float64Array {
  const n = checkParticles("cellMasses", particles, ["x", "m"]);
  const [nx, ny, nz] = grid.dims;
  const out = new Float64Array(cellCount(grid));
  const { x, m, isFlip } = particles;
  for (let p = 0; p < n; p++) {
    if (!isFlip[p]) continue;
    // cell-centre lattice coordinates of the particle
    const t = [0, 1, 2].map((a) => (x[3 * p + a] - grid.min[a]) / grid.dx - 0.5);
    const b = t.map(Math.floor);
    for (let corner = 0; corner < 8; corner++) {
      const c = [b[0] + (corner & 1), b[1] + ((corner >> 1) & 1), b[2] + ((corner >> 2) & 1)];
      if (c[0] < 0 || c[1] < 0 || c[2] < 0 || c[0] >= nx || c[1] >= ny || c[2] >= nz) continue;
      const w = [0, 1, 2].reduce((acc, a) => acc * Math.max(0, 1 - Math.abs(t[a] - c[a])), 1);
      out[c[0] + nx * (c[1] + ny * c[2])] += w * m[p];
    }
  }
  return out;
}

/**
 * Volume correction (an optional modification of FLIP, in the spirit of Kugelstadt et al. 2019,
 * "Implicit density projection for volume conserving liquids"): FLIP's grid velocity is
 * divergence-free but the particles it moves drift and bunch, so the fluid loses volume over time.
 * A FLUID cell whose particles are denser than the rest density gets a target divergence that
 * spreads them out within about 1/γ steps: D_target,c = γ · max(0, M_c / (ρ0 dx³) − 1) · dx / dt
 * (m/s, the units of D_c); cells that are not FLUID get 0. The projection then solves for
 * D_c = D_target,c instead of 0.
 */
export function volumeCorrectionTarget(
  grid: FlipGrid,
  cells: ArrayLike<number>,
  options: { cellMass: ArrayLike<number>; rho0: number; gamma: number; dt: number },
): Float64Array {
  const { cellMass, rho0, gamma, dt } = options;
  if (!(rho0 > 0) || !Number.isFinite(rho0)) {
    throw new RangeError(
      `volumeCorrectionTarget: options.rho0 must be finite and > 0, got ${rho0}`,
    );
  }
  if (!(gamma >= 0 && gamma <= 1)) {
    throw new RangeError(`volumeCorrectionTarget: options.gamma must be in [0, 1], got ${gamma}`);
  }
  const restMass = rho0 * grid.dx ** 3;
  const out = new Float64Array(cellCount(grid));
  for (let c = 0; c < out.length; c++) {
    if (cells[c] !== CELL_FLUID) continue;
    out[c] = gamma * Math.max(0, cellMass[c] / restMass - 1) * grid.dx / dt;
  }
  return out;
}

/**
 * Particle separation (an addition to FLIP, not in the spec; Ando et al. 2012 and production FLIP
 * solvers do the like): FLIP's particles cluster below the cell scale, because the trilinearly
 * interpolated MAC velocity is not divergence-free inside a cell, and the fluid loses volume. Each
 * pair of FLIP particles closer than `distance` gets a velocity that would move each of them by
 * `strength` × half their overlap along the line between them within one step:
 * Δv_i = Σ_j strength · (distance − d_ij) / 2 · (x_i − x_j) / d_ij / dt (FLIP neighbours j only; the
 * pair's momentum is unchanged). Brute force here (the reference); the GPU walks the neighbour grid.
 */
export function separationVelocity(
  particles: FlipParticles,
  options: { distance: number; strength: number; dt: number },
): Float64Array {
  const n = checkParticles("separationVelocity", particles, ["x"]);
  const { distance, strength, dt } = options;
  if (!(distance > 0) || !(strength >= 0) || !(dt > 0)) {
    throw new RangeError(
      `separationVelocity: options.distance and options.dt must be > 0 and options.strength >= 0, ` +
        `got ${distance}, ${dt}, ${strength}`,
    );
  }
  const { x, isFlip } = particles;
  const out = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    if (!isFlip[i]) continue;
    for (let j = 0; j < n; j++) {
      if (j === i || !isFlip[j]) continue;
      const d = [0, 1, 2].map((a) => x[3 * i + a] - x[3 * j + a]);
      const l = Math.hypot(d[0], d[1], d[2]);
      if (!(l > 0) || l >= distance) continue;
      const f = strength * (distance - l) / 2 / l / dt;
      for (let a = 0; a < 3; a++) out[3 * i + a] += f * d[a];
    }
  }
  return out;
}

/**
 * Calls `visit(faceClass, neighbourCell)` for the 6 faces of cell (i, j, k) (neighbourCell −1 on
 * the boundary), in the order −x, +x, −y, +y, −z, +z.
 */
function forEachCellFace(
  grid: FlipGrid,
  faces: FaceArrays<ArrayLike<number>>,
  ijk: readonly [number, number, number],
  visit: (cls: number, nbr: number) => void,
): void {
  const [nx, ny, nz] = grid.dims;
  const [i, j, k] = ijk;
  const c = i + nx * (j + ny * k);
  const fu = i + (nx + 1) * (j + ny * k);
  const fv = i + nx * (j + (ny + 1) * k);
  visit(faces.x[fu], i > 0 ? c - 1 : -1);
  visit(faces.x[fu + 1], i < nx - 1 ? c + 1 : -1);
  visit(faces.y[fv], j > 0 ? c - nx : -1);
  visit(faces.y[fv + nx], j < ny - 1 ? c + nx : -1);
  visit(faces.z[c], k > 0 ? c - nx * ny : -1);
  visit(faces.z[c + nx * ny], k < nz - 1 ? c + nx * ny : -1);
}

/**
 * diag_c of the pressure matrix per cell: on FLUID cells the number of their 6 faces that are
 * neither WALL nor SOLID, 0 elsewhere (a FLUID cell with diag 0 is skipped: q = 0).
 */
export function pressureDiagonal(
  grid: FlipGrid,
  cells: ArrayLike<number>,
  faces: FaceArrays<ArrayLike<number>>,
): Float64Array {
  checkCells("pressureDiagonal", grid, cells);
  checkFaceArrays("pressureDiagonal", "faces", grid, faces);
  const [nx, ny, nz] = grid.dims;
  const diag = new Float64Array(cellCount(grid));
  let c = 0;
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++, c++) {
        if (cells[c] !== CELL_FLUID) continue;
        let d = 0;
        forEachCellFace(grid, faces, [i, j, k], (cls) => {
          if (cls !== FACE_WALL && cls !== FACE_SOLID) d++;
        });
        diag[c] = d;
      }
    }
  }
  return diag;
}

/**
 * The matrix-free pressure operator (Bridson §5.3, times dx² · ρ / dt in the units of q):
 * (A q)_c = Σ_{faces f of c, neither WALL nor SOLID} (q_c − q_nbr(f)) on FLUID cells, with
 * q_nbr = q of a FLUID neighbour and 0 for any other (AIR; Dirichlet p = 0), and 0 on non-FLUID
 * cells. Symmetric, positive semi-definite, and positive definite on every set of FLUID cells
 * connected to an AIR cell through faces that are neither WALL nor SOLID.
 */
export function applyPressureMatrix(
  grid: FlipGrid,
  cells: ArrayLike<number>,
  faces: FaceArrays<ArrayLike<number>>,
  q: ArrayLike<number>,
): Float64Array {
  checkCells("applyPressureMatrix", grid, cells);
  checkFaceArrays("applyPressureMatrix", "faces", grid, faces);
  if (!q || q.length !== cellCount(grid)) {
    throw new RangeError(
      `applyPressureMatrix: q has length ${q?.length}, expected ${cellCount(grid)}`,
    );
  }
  const out = new Float64Array(cellCount(grid));
  applyA(grid, cells, faces, q, out);
  return out;
}

function applyA(
  grid: FlipGrid,
  cells: ArrayLike<number>,
  faces: FaceArrays<ArrayLike<number>>,
  q: ArrayLike<number>,
  out: Float64Array,
): void {
  const [nx, ny, nz] = grid.dims;
  let c = 0;
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++, c++) {
        if (cells[c] !== CELL_FLUID) {
          out[c] = 0;
          continue;
        }
        const qc = q[c];
        let acc = 0;
        forEachCellFace(grid, faces, [i, j, k], (cls, nbr) => {
          if (cls === FACE_WALL || cls === FACE_SOLID) return;
          acc += qc - (nbr >= 0 && cells[nbr] === CELL_FLUID ? q[nbr] : 0);
        });
        out[c] = acc;
      }
    }
  }
}

/** Options of {@link solvePressure}. */
export interface PressureSolveOptions {
  /** Stop when ‖r‖₂ ≤ tolerance · ‖b‖₂ (default {@link FLIP_DEFAULTS}.tolerance). */
  tolerance?: number;
  /** At most this many CG iterations (default {@link FLIP_DEFAULTS}.maxIterations). */
  maxIterations?: number;
}

/** Result of {@link solvePressure}. */
export interface PressureSolveResult {
  /** Scaled pressure q = p dt / (ρ dx) per cell (m/s); 0 on non-FLUID and diag-0 cells. */
  q: Float64Array;
  /** CG iterations done (matrix products). */
  iterations: number;
  /** ‖r‖₂ / ‖b‖₂ of the CG-updated residual at exit (0 when b = 0). */
  relativeResidual: number;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k] * b[k];
  return s;
}

/**
 * Step 5: solves A q = b, b_c = −D_c on FLUID cells with diag_c > 0 ({@link applyPressureMatrix},
 * {@link pressureDiagonal}), by conjugate gradients with the Jacobi preconditioner 1/diag_c
 * (Bridson §5.4 with the simplest preconditioner; Saad, "Iterative Methods", Alg. 9.1), in f64,
 * from q = 0:
 *
 *   r = b, z = r / diag, p = z, ρ = r·z; for it = 0, 1, …: stop if ‖r‖ ≤ tol ‖b‖ or
 *   it = maxIterations; s = A p; stop if p·s ≤ 0; α = ρ / (p·s); q += α p; r −= α s;
 *   z = r / diag; ρ' = r·z; p = z + (ρ'/ρ) p; ρ = ρ'.
 *
 * The test ‖r‖ ≤ tol ‖b‖ (2-norms, r the CG-updated residual) comes first, so `iterations` counts
 * matrix products and is 0 when b = 0. Cells with diag 0 (FLUID cells enclosed by WALL/SOLID
 * faces) keep q = 0, as do non-FLUID cells. A connected group of FLUID cells that reaches no AIR
 * cell makes A singular (only q up to a constant): CG still converges when Σ D_c over the group is
 * 0 (e.g. fluid filling the whole closed box) but not otherwise (fluid sealed in by moving solid
 * cells); no null-space projection is done, the iteration count then runs out.
 */
export function solvePressure(
  grid: FlipGrid,
  cells: ArrayLike<number>,
  faces: FaceArrays<ArrayLike<number>>,
  rhsDivergence: ArrayLike<number>,
  options: PressureSolveOptions = {},
): PressureSolveResult {
  const fn = "solvePressure";
  const tol = options.tolerance ?? FLIP_DEFAULTS.tolerance;
  const maxIter = options.maxIterations ?? FLIP_DEFAULTS.maxIterations;
  if (!(tol >= 0) || !Number.isFinite(tol)) {
    throw new RangeError(`${fn}: options.tolerance must be a finite number ≥ 0, got ${tol}`);
  }
  if (!Number.isInteger(maxIter) || maxIter < 0) {
    throw new RangeError(`${fn}: options.maxIterations must be an integer ≥ 0, got ${maxIter}`);
  }
  const nc = cellCount(grid);
  if (!rhsDivergence || rhsDivergence.length !== nc) {
    throw new RangeError(
      `${fn}: rhsDivergence has length ${rhsDivergence?.length}, expected ${nc}`,
    );
  }
  const diag = pressureDiagonal(grid, cells, faces);
  const invD = new Float64Array(nc);
  const b = new Float64Array(nc);
  for (let c = 0; c < nc; c++) {
    if (diag[c] > 0) {
      invD[c] = 1 / diag[c];
      b[c] = -rhsDivergence[c];
      if (!Number.isFinite(b[c])) {
        throw new RangeError(`${fn}: rhsDivergence[${c}] = ${rhsDivergence[c]} must be finite`);
      }
    }
  }
  const q = new Float64Array(nc);
  // Solve for q / 2^e with b / 2^e, |b| ≤ 1: a power of two scales exactly, so this changes no
  // result in f64's normal range, but keeps tiny right-hand sides (|b| ~ 1e-146) from underflowing
  // in b·b and p·Ap, where α = ρ / (p·Ap) would come out of subnormals (|q| ~ 1e58).
  const scale = powerOfTwoAbove(b);
  if (scale === 0) return { q, iterations: 0, relativeResidual: 0 };
  for (let c = 0; c < nc; c++) b[c] /= scale;
  const bNorm = Math.sqrt(dot(b, b));
  const r = b.slice();
  const z = r.map((v, c) => v * invD[c]);
  const p = z.slice();
  const s = new Float64Array(nc);
  let rz = dot(r, z);
  let rNorm = bNorm;
  let it = 0;
  while (rNorm > tol * bNorm && it < maxIter) {
    applyA(grid, cells, faces, p, s);
    const ps = dot(p, s);
    if (!(ps > 0)) break;
    const alpha = rz / ps;
    for (let c = 0; c < nc; c++) {
      q[c] += alpha * p[c];
      r[c] -= alpha * s[c];
      z[c] = r[c] * invD[c];
    }
    it++;
    rNorm = Math.sqrt(dot(r, r));
    const rzNew = dot(r, z);
    const beta = rzNew / rz;
    rz = rzNew;
    for (let c = 0; c < nc; c++) p[c] = z[c] + beta * p[c];
  }
  for (let c = 0; c < nc; c++) q[c] *= scale;
  return { q, iterations: it, relativeResidual: rNorm / bNorm };
}

/** The least power of two at least max |v_c| (0 when v is 0): an exact scale for a solve. */
function powerOfTwoAbove(v: ArrayLike<number>): number {
  let m = 0;
  for (let c = 0; c < v.length; c++) m = Math.max(m, Math.abs(v[c]));
  return m === 0 ? 0 : 2 ** Math.ceil(Math.log2(m));
}

/**
 * Boundary velocities, in place: WALL faces = 0, SOLID faces = us_f (the OTHER particles'
 * velocity, the moving-boundary condition of Bridson §5.2). Returns `u`.
 */
export function setBoundaryVelocities(
  u: FaceArrays<Float64Array>,
  options: { faces: FaceArrays<ArrayLike<number>>; solidVel: FaceArrays<ArrayLike<number>> },
): FaceArrays<Float64Array> {
  for (const key of AXIS_KEYS) {
    const cls = options.faces[key], us = options.solidVel[key], a = u[key];
    if (cls.length !== a.length || us.length !== a.length) {
      throw new RangeError(
        `setBoundaryVelocities: u.${key}, options.faces.${key} and options.solidVel.${key} ` +
          `must have the same length, got ${a.length}, ${cls.length}, ${us.length}`,
      );
    }
    for (let f = 0; f < a.length; f++) {
      if (cls[f] === FACE_WALL) a[f] = 0;
      else if (cls[f] === FACE_SOLID) a[f] = us[f];
    }
  }
  return u;
}

/**
 * Step 6, on a copy of u: u_f −= q_b − q_a on FLUID faces between cells a (low side) and b (high
 * side), with q = 0 on non-FLUID cells (Bridson Eq. 5.1 times dt/ρ, in the units of q); then
 * WALL faces = 0 and SOLID faces = us_f ({@link setBoundaryVelocities}).
 */
export function subtractPressureGradient(
  grid: FlipGrid,
  u: FaceArrays<ArrayLike<number>>,
  options: {
    cells: ArrayLike<number>;
    faces: FaceArrays<ArrayLike<number>>;
    q: ArrayLike<number>;
    solidVel: FaceArrays<ArrayLike<number>>;
  },
): FaceArrays<Float64Array> {
  const fn = "subtractPressureGradient";
  const { cells, faces, q, solidVel } = options;
  checkCells(fn, grid, cells);
  checkFaceArrays(fn, "u", grid, u);
  checkFaceArrays(fn, "options.faces", grid, faces);
  checkFaceArrays(fn, "options.solidVel", grid, solidVel);
  if (!q || q.length !== cellCount(grid)) {
    throw new RangeError(`${fn}: options.q has length ${q?.length}, expected ${cellCount(grid)}`);
  }
  const [nx, ny] = grid.dims;
  const stride = [1, nx, nx * ny];
  const qOf = (c: number) => (cells[c] === CELL_FLUID ? q[c] : 0);
  const out = {} as FaceArrays<Float64Array>;
  for (const axis of [0, 1, 2] as const) {
    const key = AXIS_KEYS[axis];
    const s = faceDims(grid, axis);
    const a = Float64Array.from(u[key]);
    const cls = faces[key];
    let f = 0;
    for (let k = 0; k < s[2]; k++) {
      for (let j = 0; j < s[1]; j++) {
        for (let i = 0; i < s[0]; i++, f++) {
          if (cls[f] !== FACE_FLUID) continue;
          const c = axis === 0 ? i : axis === 1 ? j : k;
          if (c === 0 || c === grid.dims[axis]) continue; // on the boundary: never FLUID
          const hi = i + nx * (j + ny * k);
          a[f] -= qOf(hi) - qOf(hi - stride[axis]);
        }
      }
    }
    out[key] = a;
  }
  return setBoundaryVelocities(out, { faces, solidVel });
}

/** VALID faces for G2P: 1 where M_f > 0, or the face is SOLID or WALL; else 0. */
export function validFaces(
  faces: FaceArrays<ArrayLike<number>>,
  mass: FaceArrays<ArrayLike<number>>,
): FaceArrays<Uint8Array> {
  const out = {} as FaceArrays<Uint8Array>;
  for (const key of AXIS_KEYS) {
    const cls = faces[key], m = mass[key];
    if (cls.length !== m.length) {
      throw new RangeError(
        `validFaces: faces.${key} has length ${cls.length} but mass.${key} has ${m.length}`,
      );
    }
    out[key] = Uint8Array.from(
      { length: cls.length },
      (_, f) => (m[f] > 0 || cls[f] === FACE_SOLID || cls[f] === FACE_WALL ? 1 : 0),
    );
  }
  return out;
}

/** Options of {@link gridToParticle}. */
export interface GridToParticleOptions {
  /** Face velocities after the projection (step 6). */
  uNew: FaceArrays<ArrayLike<number>>;
  /** Face velocities of step 2 (before the body force; 0 where M_f = 0). */
  uOld: FaceArrays<ArrayLike<number>>;
  /** VALID faces ({@link validFaces}). */
  valid: FaceArrays<ArrayLike<number>>;
  /** PIC/FLIP blend φ in [0, 1] (default {@link FLIP_DEFAULTS}.flipRatio). */
  flipRatio?: number;
}

/**
 * Step 7, grid-to-particle with the PIC/FLIP blend (Zhu & Bridson 2005 §4): at each FLIP
 * particle, per component, u_new(x_p) = Σ_valid w u_new / Σ_valid w and
 * Δu(x_p) = Σ_valid w (u_new − u_old) / Σ_valid w (both 0 when no valid face has weight), and
 * v_p' = φ (v_p + Δu(x_p)) + (1 − φ) u_new(x_p). OTHER particles' entries are copied unchanged.
 * Returns the new 3N velocities.
 */
export function gridToParticle(
  grid: FlipGrid,
  particles: FlipParticles,
  options: GridToParticleOptions,
): Float64Array {
  const fn = "gridToParticle";
  const n = checkParticles(fn, particles, ["x", "v"]);
  const phi = options.flipRatio ?? FLIP_DEFAULTS.flipRatio;
  if (!(phi >= 0 && phi <= 1)) {
    throw new RangeError(`${fn}: options.flipRatio must be in [0, 1], got ${phi}`);
  }
  checkFaceArrays(fn, "options.uNew", grid, options.uNew);
  checkFaceArrays(fn, "options.uOld", grid, options.uOld);
  checkFaceArrays(fn, "options.valid", grid, options.valid);
  const { x, v, isFlip } = particles;
  const out = Float64Array.from(v);
  const point = [0, 0, 0];
  for (let p = 0; p < n; p++) {
    if (!isFlip[p]) continue;
    point[0] = x[3 * p];
    point[1] = x[3 * p + 1];
    point[2] = x[3 * p + 2];
    for (const axis of [0, 1, 2] as const) {
      const key = AXIS_KEYS[axis];
      const un = options.uNew[key], uo = options.uOld[key], ok = options.valid[key];
      let sw = 0, su = 0, sd = 0;
      forEachFaceWeight(grid, axis, point, (id, w) => {
        if (!ok[id]) return;
        sw += w;
        su += w * un[id];
        sd += w * (un[id] - uo[id]);
      });
      const uAt = sw > 0 ? su / sw : 0;
      const du = sw > 0 ? sd / sw : 0;
      out[3 * p + axis] = phi * (v[3 * p + axis] + du) + (1 - phi) * uAt;
    }
  }
  return out;
}

/** Options of {@link flipStep}. */
export interface FlipStepOptions {
  /** Time step (s, finite, > 0). */
  dt: number;
  /** Gravity g (m/s², 3 finite numbers), e.g. [0, −9.81, 0]. */
  gravity: Vec3Like;
  /** PIC/FLIP blend φ in [0, 1] (default 0.97: 97 % FLIP, 3 % PIC). */
  flipRatio?: number;
  /** Relative residual tolerance of the pressure solve (default 1e-6). */
  tolerance?: number;
  /** Iteration cap of the pressure solve (default 500). */
  maxIterations?: number;
  /** Cells holding only other systems' particles: `fluid` (default, the paper) or `solid`. */
  occupied?: OccupiedReading;
  /**
   * Volume correction γ in [0, 1] ({@link volumeCorrectionTarget}; default 0: classic FLIP, every
   * FLUID cell divergence-free).
   */
  volumeCorrection?: number;
  /** Rest density ρ0 (kg/m³) of the volume correction (default 1000). */
  rho0?: number;
  /** Particle separation after G2P ({@link separationVelocity}; default none). */
  separation?: { distance: number; strength: number };
}

/** Result of {@link flipStep}; face arrays are per lattice, cell arrays per cell id. */
export interface FlipStepResult {
  /** New velocities (3N): v_p' for FLIP particles, the input for OTHER particles. */
  v: Float64Array;
  /** Cell classes (step 1). */
  cells: Uint8Array;
  /** Face classes (step 4). */
  faces: FaceArrays<Uint8Array>;
  /** FLIP face mass M_f (step 2). */
  mass: FaceArrays<Float64Array>;
  /** Solid velocity us_f from the OTHER particles (step 2; 0 where they have no mass). */
  solidVel: FaceArrays<Float64Array>;
  /** u_old: the P2G face velocities of step 2 (0 where M_f = 0). */
  uOld: FaceArrays<Float64Array>;
  /** u*: after the body force (step 3) with WALL = 0, SOLID = us_f; the projection's input. */
  uStar: FaceArrays<Float64Array>;
  /** u_new: after the pressure update (step 6). */
  uNew: FaceArrays<Float64Array>;
  /** Scaled pressure q = p dt / (ρ dx) (m/s) per cell. */
  q: Float64Array;
  /** D_c of u* (0 on non-FLUID cells). */
  divergenceBefore: Float64Array;
  /** D_c of u_new (0 on non-FLUID cells; the target where the volume correction acts). */
  divergenceAfter: Float64Array;
  /** The volume correction's target divergence per cell (0 without it). */
  target: Float64Array;
  /** CG iterations. */
  iterations: number;
  /** Relative residual of the pressure solve at exit. */
  relativeResidual: number;
}

/**
 * One FLIP velocity step, steps 1–7 of `docs/flip.md` (Zhu & Bridson 2005 §4; Bridson ch. 5, 7):
 * classify cells, P2G of the FLIP particles (u, u_old) and of the OTHER particles (us), gravity on
 * faces with mass, face classes with WALL = 0 and SOLID = us, pressure by Jacobi-PCG, pressure
 * update, G2P with the PIC/FLIP blend. Positions are not advected.
 */
export function flipStep(
  grid: FlipGrid,
  particles: FlipParticles,
  options: FlipStepOptions,
): FlipStepResult {
  const fn = "flipStep";
  const { dt } = options;
  if (typeof dt !== "number" || !Number.isFinite(dt) || !(dt > 0)) {
    throw new RangeError(`${fn}: options.dt must be a finite number > 0, got ${dt}`);
  }
  const g = checkVec3(fn, "options.gravity", options.gravity);
  const flipRatio = options.flipRatio ?? FLIP_DEFAULTS.flipRatio;
  if (!(flipRatio >= 0 && flipRatio <= 1)) {
    throw new RangeError(`${fn}: options.flipRatio must be in [0, 1], got ${flipRatio}`);
  }
  checkParticles(fn, particles, ["x", "v", "m"]);
  // 1. Cells.
  const cells = classifyCells(grid, particles, { occupied: options.occupied });
  // 2. P2G: fluid and solid velocities.
  const fluid = particleToGrid(grid, particles, { select: "flip" });
  const solid = particleToGrid(grid, particles, { select: "other" });
  const mass = {} as FaceArrays<Float64Array>;
  const solidVel = {} as FaceArrays<Float64Array>;
  const uOld = {} as FaceArrays<Float64Array>;
  const uStar = {} as FaceArrays<Float64Array>;
  for (const axis of [0, 1, 2] as const) {
    const key = AXIS_KEYS[axis];
    mass[key] = fluid[key].mass;
    solidVel[key] = solid[key].vel;
    uOld[key] = fluid[key].vel;
    // 3. Body force on faces with mass.
    const u = Float64Array.from(fluid[key].vel);
    const m = fluid[key].mass;
    const dv = dt * g[axis];
    for (let f = 0; f < u.length; f++) if (m[f] > 0) u[f] += dv;
    uStar[key] = u;
  }
  // 4. Face classes and boundary velocities.
  const faces = faceClasses(grid, cells);
  setBoundaryVelocities(uStar, { faces, solidVel });
  // 5. Pressure (towards the volume correction's target divergence, 0 by default).
  const divergenceBefore = divergence(grid, uStar, cells);
  const gamma = options.volumeCorrection ?? 0;
  const target = gamma > 0
    ? volumeCorrectionTarget(grid, cells, {
      cellMass: cellMasses(grid, particles),
      rho0: options.rho0 ?? 1000,
      gamma,
      dt,
    })
    : new Float64Array(cellCount(grid));
  const rhs = divergenceBefore.map((d, c) => d - target[c]);
  const solve = solvePressure(grid, cells, faces, rhs, {
    tolerance: options.tolerance,
    maxIterations: options.maxIterations,
  });
  // 6. Pressure update.
  const uNew = subtractPressureGradient(grid, uStar, { cells, faces, q: solve.q, solidVel });
  const divergenceAfter = divergence(grid, uNew, cells);
  // 7. G2P, then the optional particle separation.
  const v = gridToParticle(grid, particles, {
    uNew,
    uOld,
    valid: validFaces(faces, mass),
    flipRatio,
  });
  if (options.separation && options.separation.strength > 0) {
    const sep = separationVelocity(particles, { ...options.separation, dt });
    for (let k = 0; k < v.length; k++) v[k] += sep[k];
  }
  return {
    v,
    cells,
    faces,
    mass,
    solidVel,
    uOld,
    uStar,
    uNew,
    q: solve.q,
    divergenceBefore,
    divergenceAfter,
    target,
    iterations: solve.iterations,
    relativeResidual: solve.relativeResidual,
  };
}
