/**
 * Weakly compressible SPH (Müller, Charypar & Gross 2003, "Particle-based fluid simulation for
 * interactive applications", paper ref. [3]) in plain f64 TypeScript: the reference that
 * `gpu/systems/sph/sph_forces.ts` is tested against. Brute force O(N²), structure-of-arrays inputs.
 *
 * Formulas (support radius h, r = |x_i − x_j|, q = r / h; all kernels are 0 for r > h):
 *
 * - Density kernel, poly6 (Müller Eq. 20): W(r) = 315 / (64 π h⁹) · (h² − r²)³.
 * - Pressure kernel gradient, spiky (Müller Eq. 21): ∇W(r⃗) = −45 / (π h⁶) · (h − r)² · r⃗ / r
 *   (0 at r = 0), r⃗ = x_i − x_j.
 * - Viscosity kernel Laplacian (Müller Eq. 22): ∇²W(r) = 45 / (π h⁶) · (h − r).
 * - Density (notes Eq. 45): ρ_i = Σ_j m_j W(|x_i − x_j|), j over fluid particles, self included.
 * - Equation of state (notes Eq. 47, clipped): p_i = k · max((ρ_i/ρ0)^γ − 1, 0). γ = 1 (default)
 *   is the linear state equation of the notes; γ = 7 is Tait's (Becker & Teschner 2007) with
 *   k = ρ0 c² / γ.
 * - Pressure force (notes Eq. 47 times m_i, symmetric form):
 *   f_i^p = −Σ_{j≠i} m_i m_j (p_i/ρ_i² + p_j/ρ_j²) ∇W(x_i − x_j).
 * - Viscosity force: Müller's Eq. 14 force density μ Σ_j m_j (v_j − v_i)/ρ_j ∇²W_ij multiplied
 *   by the particle volume V_i = m_i / ρ_i, which makes it symmetric in i and j:
 *   f_i^v = μ Σ_{j≠i} m_i m_j (v_j − v_i) / (ρ_i ρ_j) · ∇²W(r_ij), μ the dynamic viscosity
 *   (Pa·s; kinematic ν = μ / ρ0).
 *
 * - Domain walls (optional, {@link SphWalls}): the ghost particles of Randles & Libersky (1996)
 *   and Colagrossi & Landrini (2003): every fluid particle j has a mirror image across each wall
 *   plane (and across two or three at an edge or corner) with j's mass, density and pressure and
 *   j's velocity with the reflected components negated (a free-slip wall). Images within h enter
 *   the density and both force sums like fluid particles (the image of i itself included), so a
 *   lattice resting against a wall reads ρ0 in its wall layer, and the wall pushes back with the
 *   layer's own pressure instead of leaving it to a position clamp.
 *
 * The fluid pair terms are antisymmetric (f_ij = −f_ji), so without walls Σ_i f_i = 0 (linear
 * momentum is conserved). Forces, not accelerations, are returned: the caller sums them per DOF and divides by
 * the DOF mass (paper Eq. 1). Particles not flagged fluid neither receive nor exert SPH forces and
 * get density 0.
 *
 * @module
 */
import { poly6, spikyGradient, viscosityLaplacian } from "../model/sph_kernels.ts";
import { type SphParams, sphPressure } from "../model/sph_params.ts";
import { forEachMirrorImage, type SphWalls } from "../model/sph_walls.ts";

function checkWalls(walls: SphWalls | undefined, fn: string): void {
  if (!walls) return;
  for (let a = 0; a < 3; a++) {
    if (!(walls.max?.[a] > walls.min?.[a])) {
      throw new RangeError(`${fn}: options.walls must have min[${a}] < max[${a}]`);
    }
  }
}

/** Particle state for the reference, structure of arrays over N particles. */
export interface SphParticles {
  /** Positions x_i, xyz interleaved (length 3N). */
  positions: ArrayLike<number>;
  /** Velocities v_i, xyz interleaved (length 3N); only {@link sphForces} reads them. */
  velocities?: ArrayLike<number>;
  /** Masses m_i (length N, > 0 for fluid particles). */
  masses: ArrayLike<number>;
  /** 1 for fluid particles, 0 for particles of other systems; all fluid when omitted. */
  fluid?: ArrayLike<number>;
}

function particleCount(p: SphParticles, fn: string): number {
  const n = p.masses.length;
  if (p.positions.length !== 3 * n) {
    throw new RangeError(`${fn}: positions has length ${p.positions.length}, expected 3·${n}`);
  }
  if (p.fluid && p.fluid.length !== n) {
    throw new RangeError(`${fn}: fluid has length ${p.fluid.length}, expected ${n}`);
  }
  return n;
}

function checkParams(params: SphParams, fn: string): void {
  for (const name of ["h", "rho0"] as const) {
    if (!(params[name] > 0)) throw new RangeError(`${fn}: params.${name} must be > 0`);
  }
  for (const name of ["stiffness", "viscosity"] as const) {
    if (!(params[name] >= 0)) throw new RangeError(`${fn}: params.${name} must be >= 0`);
  }
  if (params.gamma !== undefined && !(params.gamma >= 1)) {
    throw new RangeError(`${fn}: params.gamma must be >= 1`);
  }
}

const point = (x: ArrayLike<number>, i: number) => [x[3 * i], x[3 * i + 1], x[3 * i + 2]];

/**
 * Densities ρ_i = Σ_j m_j W_poly6(|x_i − x_j|, h) over fluid particles j, self term included
 * (notes Eq. 45; Müller et al. 2003, Eq. 3), plus the same sum over the mirror images of every
 * fluid particle (i too) within h of x_i where `options.walls` is given. Non-fluid particles get 0.
 */
export function sphDensity(
  particles: SphParticles,
  params: Pick<SphParams, "h">,
  options: { walls?: SphWalls } = {},
): Float64Array {
  const n = particleCount(particles, "sphDensity");
  if (!(params.h > 0)) throw new RangeError("sphDensity: params.h must be > 0");
  const { walls } = options;
  checkWalls(walls, "sphDensity");
  const { positions: x, masses: m, fluid } = particles;
  const h = params.h;
  const rho = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (fluid && !fluid[i]) continue;
    const xi = point(x, i);
    let sum = 0;
    for (let j = 0; j < n; j++) {
      if (fluid && !fluid[j]) continue;
      const dx = x[3 * i] - x[3 * j];
      const dy = x[3 * i + 1] - x[3 * j + 1];
      const dz = x[3 * i + 2] - x[3 * j + 2];
      sum += m[j] * poly6(dx * dx + dy * dy + dz * dz, h);
      if (!walls) continue;
      forEachMirrorImage(xi, point(x, j), {
        walls,
        h,
        visit: (y) =>
          sum += m[j] * poly6((xi[0] - y[0]) ** 2 + (xi[1] - y[1]) ** 2 + (xi[2] - y[2]) ** 2, h),
      });
    }
    rho[i] = sum;
  }
  return rho;
}

/** Result of {@link sphForces}. */
export interface SphForcesResult {
  /** ρ_i (length N; 0 for non-fluid). */
  density: Float64Array;
  /** p_i (length N; 0 for non-fluid). */
  pressure: Float64Array;
  /** Total SPH force f_i^p + f_i^v, xyz interleaved (length 3N; 0 for non-fluid). */
  force: Float64Array;
  /** Pressure part f_i^p (length 3N). */
  pressureForce: Float64Array;
  /** Viscosity part f_i^v (length 3N). */
  viscosityForce: Float64Array;
}

/**
 * Pressure and viscosity forces by brute force over all fluid pairs (see the module doc):
 * f_i = −Σ_{j≠i} m_i m_j (p_i/ρ_i² + p_j/ρ_j²) ∇W_spiky(x_i − x_j)
 *       + μ Σ_{j≠i} m_i m_j (v_j − v_i)/(ρ_i ρ_j) ∇²W_visc(|x_i − x_j|)
 * (notes Eq. 47; Müller et al. 2003, Eqs. 10 and 14 times V_i = m_i/ρ_i). Densities are computed
 * with {@link sphDensity} unless given. Coincident pairs (r = 0) get no pressure term (the
 * gradient direction is undefined) but keep their viscosity term. With `options.walls`, the
 * mirror images of every fluid particle j (i too) within h of x_i add the same terms with j's
 * pressure and density and j's velocity reflected (module doc).
 */
export function sphForces(
  particles: SphParticles,
  params: SphParams,
  options: { density?: ArrayLike<number>; walls?: SphWalls } = {},
): SphForcesResult {
  const n = particleCount(particles, "sphForces");
  checkParams(params, "sphForces");
  const { walls } = options;
  checkWalls(walls, "sphForces");
  const { positions: x, masses: m, fluid } = particles;
  const v = particles.velocities;
  if (!v || v.length !== 3 * n) {
    throw new RangeError(`sphForces: velocities must have length 3·${n}`);
  }
  const density = new Float64Array(options.density ?? sphDensity(particles, params, { walls }));
  if (density.length !== n) {
    throw new RangeError(`sphForces: options.density must have length ${n}`);
  }
  const h = params.h;
  const mu = params.viscosity;
  const pressure = new Float64Array(n);
  const pOverRho2 = new Float64Array(n);
  const invRho = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (fluid && !fluid[i]) continue;
    const rho = density[i];
    if (!(rho > 0)) continue;
    pressure[i] = sphPressure(rho, params);
    pOverRho2[i] = pressure[i] / (rho * rho);
    invRho[i] = 1 / rho;
  }
  const fp = new Float64Array(3 * n);
  const fv = new Float64Array(3 * n);
  // the pair term of i and a particle (or image) of j at y moving at vj
  const pair = (i: number, j: number, y: readonly number[], vj: readonly number[]) => {
    const dx = x[3 * i] - y[0];
    const dy = x[3 * i + 1] - y[1];
    const dz = x[3 * i + 2] - y[2];
    const r = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (r >= h) return;
    const mm = m[i] * m[j];
    if (r > 0) {
      // −m_i m_j (P_i + P_j) ∇W, ∇W = −g (x_i − x_j)/r.
      const s = (mm * (pOverRho2[i] + pOverRho2[j]) * spikyGradient(r, h)) / r;
      fp[3 * i] += s * dx;
      fp[3 * i + 1] += s * dy;
      fp[3 * i + 2] += s * dz;
    }
    const c = mu * mm * invRho[i] * invRho[j] * viscosityLaplacian(r, h);
    for (let a = 0; a < 3; a++) fv[3 * i + a] += c * (vj[a] - v[3 * i + a]);
  };
  for (let i = 0; i < n; i++) {
    if (fluid && !fluid[i]) continue;
    const xi = point(x, i);
    for (let j = 0; j < n; j++) {
      if (fluid && !fluid[j]) continue;
      const vj = point(v, j);
      if (j !== i) pair(i, j, point(x, j), vj);
      if (!walls) continue;
      forEachMirrorImage(xi, point(x, j), {
        walls,
        h,
        // the image's velocity: the reflected components negated (free slip)
        visit: (y, mask) => pair(i, j, y, vj.map((c, a) => (mask >> a) & 1 ? -c : c)),
      });
    }
  }
  const force = new Float64Array(3 * n);
  for (let k = 0; k < 3 * n; k++) force[k] = fp[k] + fv[k];
  return { density, pressure, force, pressureForce: fp, viscosityForce: fv };
}
