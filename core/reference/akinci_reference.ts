/**
 * Two-way fluid–solid coupling with boundary particles (Akinci, Ihmsen, Akinci, Solenthaler &
 * Teschner 2012, "Versatile rigid-fluid coupling for incompressible SPH", ACM TOG 31(4)) in plain
 * f64 TypeScript: the reference that `gpu/handlers/akinci/akinci_coupling.ts` is tested against.
 * Brute force O(N²), structure-of-arrays inputs. The kernels are the fluid's
 * (`core/model/sph_kernels.ts`): poly6 W for densities, the spiky gradient ∇W for forces.
 *
 * Formulas (Akinci's equation numbers):
 *
 * - Boundary volume and its density contribution (Eqs. 4–5): δ_b = Σ_k W(x_b − x_k) over the
 *   boundary particles k (b itself included), V_b = 1/δ_b, Ψ_b(ρ0) = ρ0 V_b. A boundary sampled
 *   coarsely or finely contributes the same density: Ψ_b corrects for the sampling.
 * - Fluid density (Eq. 6): ρ_i = Σ_j m_j W_ij + Σ_b Ψ_b W_ib; {@link boundaryDensity} is the second
 *   sum, which the SPH system adds to its own.
 * - Pressure force of boundary b on fluid i (Eq. 10): F_{i←b}^p = −m_i Ψ_b (p_i/ρ_i²) ∇W_ib.
 * - Friction (Eqs. 11–13): F_{i←b}^v = −m_i Ψ_b Π_ib ∇W_ib with
 *   Π_ib = −ν min(v_ib · x_ib, 0) / (|x_ib|² + ε h²), ν = σ h c_s / (2 ρ_i), ε = 0.01,
 *   v_ib = v_i − v_b, x_ib = x_i − x_b (Monaghan's artificial viscosity with the boundary).
 * - Reaction (Eq. 14): the boundary particle receives F_{b←i} = −F_{i←b}, so the fluid's
 *   momentum loss is the solid's gain (Σ F = 0).
 *
 * @module
 */
import { poly6, spikyGradient } from "../model/sph_kernels.ts";
import { AKINCI_EPSILON, type AkinciParams } from "../model/akinci_params.ts";

/** Points with positions and velocities, structure of arrays (all arrays of one length). */
export interface MovingPoints {
  /** x coordinates (m). */
  x: ArrayLike<number>;
  /** y coordinates (m). */
  y: ArrayLike<number>;
  /** z coordinates (m). */
  z: ArrayLike<number>;
  /** x velocities (m/s). */
  vx: ArrayLike<number>;
  /** y velocities (m/s). */
  vy: ArrayLike<number>;
  /** z velocities (m/s). */
  vz: ArrayLike<number>;
}

/** Boundary particles with their Ψ_b (from {@link boundaryPsi}). */
export interface BoundaryPoints extends MovingPoints {
  /** Ψ_b = ρ0 / Σ_k W_bk (kg/m³ · m³ = kg). */
  psi: ArrayLike<number>;
}

/** Fluid particles with their mass, density and pressure. */
export interface FluidPoints extends MovingPoints {
  /** m_i (kg, > 0). */
  mass: ArrayLike<number>;
  /** ρ_i, boundary term included (kg/m³); a particle with ρ_i ≤ 0 feels no force. */
  density: ArrayLike<number>;
  /** p_i (Pa) from the fluid's state equation. */
  pressure: ArrayLike<number>;
}

/** Forces of {@link akinciForces}, xyz interleaved. */
export interface AkinciForces {
  /** Σ_b F_{i←b} per fluid particle (length 3·N_fluid). */
  fluid: Float64Array;
  /** −Σ_i F_{i←b} per boundary particle (length 3·N_boundary). */
  boundary: Float64Array;
}

function checkParams(params: AkinciParams, fn: string): void {
  if (!params) throw new TypeError(`${fn}: params are required`);
  for (const name of ["h", "rho0"] as const) {
    if (!(params[name] > 0) || !Number.isFinite(params[name])) {
      throw new RangeError(
        `${fn}: params.${name} must be a finite number > 0, got ${params[name]}`,
      );
    }
  }
  for (const name of ["soundSpeed", "friction"] as const) {
    if (!(params[name] >= 0) || !Number.isFinite(params[name])) {
      throw new RangeError(
        `${fn}: params.${name} must be a finite number >= 0, got ${params[name]}`,
      );
    }
  }
}

function countOf(p: MovingPoints, name: string, fn: string, extra: readonly string[] = []): number {
  if (!p) throw new TypeError(`${fn}: ${name} is required`);
  const n = p.x?.length;
  if (n === undefined) throw new TypeError(`${fn}: ${name}.x is missing`);
  for (const key of ["y", "z", "vx", "vy", "vz", ...extra]) {
    const arr = (p as unknown as Record<string, ArrayLike<number> | undefined>)[key];
    if (!arr || arr.length !== n) {
      throw new RangeError(`${fn}: ${name}.${key} must have length ${n} (as ${name}.x)`);
    }
  }
  return n;
}

function dist2(a: MovingPoints, i: number, b: MovingPoints, j: number): number {
  const dx = a.x[i] - b.x[j];
  const dy = a.y[i] - b.y[j];
  const dz = a.z[i] - b.z[j];
  return dx * dx + dy * dy + dz * dz;
}

/**
 * Ψ_b = ρ0 / Σ_k W(x_b − x_k) of every boundary particle (Akinci Eqs. 4–5), k over all boundary
 * particles, b itself included (so the sum is ≥ W(0) > 0).
 */
export function boundaryPsi(boundary: MovingPoints, params: AkinciParams): Float64Array {
  checkParams(params, "boundaryPsi");
  const n = countOf(boundary, "boundary", "boundaryPsi");
  const psi = new Float64Array(n);
  for (let b = 0; b < n; b++) {
    let delta = 0;
    for (let k = 0; k < n; k++) delta += poly6(dist2(boundary, b, boundary, k), params.h);
    psi[b] = params.rho0 / delta;
  }
  return psi;
}

/** The boundary term Σ_b Ψ_b W(x_i − x_b) of each fluid particle's density (Akinci Eq. 6). */
export function boundaryDensity(
  fluid: MovingPoints,
  boundary: BoundaryPoints,
  params: AkinciParams,
): Float64Array {
  checkParams(params, "boundaryDensity");
  const nf = countOf(fluid, "fluid", "boundaryDensity");
  const nb = countOf(boundary, "boundary", "boundaryDensity", ["psi"]);
  const out = new Float64Array(nf);
  for (let i = 0; i < nf; i++) {
    let sum = 0;
    for (let b = 0; b < nb; b++) {
      sum += boundary.psi[b] * poly6(dist2(fluid, i, boundary, b), params.h);
    }
    out[i] = sum;
  }
  return out;
}

/**
 * F_{i←b} = −m_i Ψ_b (p_i/ρ_i² + Π_ib) ∇W_spiky(x_i − x_b) (Akinci Eqs. 10–13), the force of
 * boundary particle b on fluid particle i; zero beyond h, for coincident points and for ρ_i ≤ 0.
 */
export function akinciPairForce(
  fluid: FluidPoints,
  i: number,
  boundary: BoundaryPoints,
  b: number,
  params: AkinciParams,
): [number, number, number] {
  const dx = fluid.x[i] - boundary.x[b];
  const dy = fluid.y[i] - boundary.y[b];
  const dz = fluid.z[i] - boundary.z[b];
  const r2 = dx * dx + dy * dy + dz * dz;
  const rho = fluid.density[i];
  const h = params.h;
  if (r2 >= h * h || r2 === 0 || !(rho > 0)) return [0, 0, 0];
  const r = Math.sqrt(r2);
  const vd = (fluid.vx[i] - boundary.vx[b]) * dx + (fluid.vy[i] - boundary.vy[b]) * dy +
    (fluid.vz[i] - boundary.vz[b]) * dz;
  const nu = (params.friction * h * params.soundSpeed) / (2 * rho);
  const pi = (-nu * Math.min(vd, 0)) / (r2 + AKINCI_EPSILON * h * h);
  // ∇W = −spikyGradient(r) x_ib / r, so −m Ψ (p/ρ² + Π) ∇W = m Ψ (p/ρ² + Π) spikyGradient / r x_ib
  const s = (fluid.mass[i] * boundary.psi[b] * (fluid.pressure[i] / (rho * rho) + pi) *
    spikyGradient(r, h)) / r;
  return [s * dx, s * dy, s * dz];
}

/**
 * Every pair force of {@link akinciPairForce}: each fluid particle's sum over the boundary, and
 * each boundary particle's reaction −Σ_i F_{i←b} (Akinci Eq. 14), so the total is zero.
 */
export function akinciForces(
  points: { fluid: FluidPoints; boundary: BoundaryPoints },
  params: AkinciParams,
): AkinciForces {
  checkParams(params, "akinciForces");
  if (!points) throw new TypeError("akinciForces: points are required");
  const { fluid, boundary } = points;
  const nf = countOf(fluid, "points.fluid", "akinciForces", ["mass", "density", "pressure"]);
  const nb = countOf(boundary, "points.boundary", "akinciForces", ["psi"]);
  const ff = new Float64Array(3 * nf);
  const fb = new Float64Array(3 * nb);
  for (let i = 0; i < nf; i++) {
    for (let b = 0; b < nb; b++) {
      const f = akinciPairForce(fluid, i, boundary, b, params);
      for (let a = 0; a < 3; a++) {
        ff[3 * i + a] += f[a];
        fb[3 * b + a] -= f[a];
      }
    }
  }
  return { fluid: ff, boundary: fb };
}
