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

/** Poly6 normalisation 315 / (64 π h³) (the h⁻⁶ of (h² − r²)³ is folded into (1 − q²)³). */
export function poly6Coefficient(h: number): number {
  return 315 / (64 * Math.PI * h * h * h);
}

/**
 * Poly6 density kernel W(r, h) = 315 / (64 π h⁹) (h² − r²)³ for 0 ≤ r ≤ h, else 0
 * (Müller et al. 2003, Eq. 20). Takes r² to avoid a square root.
 */
export function poly6(r2: number, h: number): number {
  const h2 = h * h;
  if (r2 >= h2) return 0;
  const s = 1 - r2 / h2;
  return poly6Coefficient(h) * s * s * s;
}

/**
 * Magnitude factor of the spiky kernel gradient: ∇W(r⃗) = −spikyGradient(r, h) · r⃗ / r with
 * spikyGradient(r, h) = 45 / (π h⁶) (h − r)² for 0 ≤ r ≤ h, else 0 (Müller et al. 2003, Eq. 21).
 */
export function spikyGradient(r: number, h: number): number {
  if (r >= h) return 0;
  const s = 1 - r / h;
  return (45 / (Math.PI * h * h * h * h)) * s * s;
}

/**
 * Spiky kernel W(r, h) = 15 / (π h⁶) (h − r)³ (Müller et al. 2003, Eq. 21), of which
 * {@link spikyGradient} is the radial derivative; exported for the normalisation test.
 */
export function spiky(r: number, h: number): number {
  if (r >= h) return 0;
  const s = 1 - r / h;
  return (15 / (Math.PI * h * h * h)) * s * s * s;
}

/**
 * Viscosity kernel Laplacian ∇²W(r, h) = 45 / (π h⁶) (h − r) for 0 ≤ r ≤ h, else 0
 * (Müller et al. 2003, Eq. 22).
 */
export function viscosityLaplacian(r: number, h: number): number {
  if (r >= h) return 0;
  return (45 / (Math.PI * h * h * h * h * h)) * (1 - r / h);
}

/**
 * Viscosity kernel W(r, h) = 15 / (2 π h³) (−r³/(2h³) + r²/h² + h/(2r) − 1) (Müller et al. 2003,
 * Eq. 22), of which {@link viscosityLaplacian} is the Laplacian; exported for the normalisation
 * test.
 */
export function viscosityKernel(r: number, h: number): number {
  if (r >= h) return 0;
  const q = r / h;
  return (15 / (2 * Math.PI * h * h * h)) * (-q * q * q / 2 + q * q + 1 / (2 * q) - 1);
}

/** SPH material parameters (all SI, positive). */
export interface SphParams {
  /** Kernel support radius h (m). */
  h: number;
  /** Rest density ρ0 (kg/m³). */
  rho0: number;
  /** Stiffness k of the state equation p = k·max((ρ/ρ0)^γ − 1, 0) (Pa). */
  stiffness: number;
  /** Dynamic viscosity μ (Pa·s). */
  viscosity: number;
  /** Exponent γ of the state equation; 1 (linear, notes Eq. 47) by default, 7 for Tait. */
  gamma?: number;
}

/**
 * Pressure from the clipped state equation p = k · max((ρ/ρ0)^γ − 1, 0) (notes Eq. 47; γ = 7 is
 * Tait's equation). Zero for ρ ≤ 0.
 */
export function sphPressure(rho: number, params: SphParams): number {
  if (!(rho > 0)) return 0;
  const gamma = params.gamma ?? 1;
  const ratio = rho / params.rho0;
  const p = params.stiffness * ((gamma === 1 ? ratio : Math.pow(ratio, gamma)) - 1);
  return p > 0 ? p : 0;
}

/**
 * The walls of an axis-aligned box (the scene's domain): the planes x_a = min[a] and
 * x_a = max[a]. The fluid lies inside; its particles are mirrored across every plane (see the
 * module doc).
 */
export interface SphWalls {
  /** Lower corner (m). */
  min: readonly number[];
  /** Upper corner (m). */
  max: readonly number[];
}

/**
 * The mirror images of a point y across the walls that lie within `h` of x (Randles & Libersky
 * 1996 ghost particles): for each non-empty set of axes, y reflected across one plane per axis
 * of the set (min or max), with the set as a bit mask (bit a: axis a reflected). Calls `visit`
 * with each image and mask whose distance to x is below h, by brute force over the 26
 * reflections: the reference of the kernels' choice of the nearer plane per axis.
 */
export function forEachMirrorImage(
  x: readonly number[],
  y: readonly number[],
  options: { walls: SphWalls; h: number; visit: (image: number[], mask: number) => void },
): void {
  const { walls, h, visit } = options;
  const image = [0, 0, 0];
  // choice per axis: 0 none, 1 across min, 2 across max
  for (let code = 1; code < 27; code++) {
    let mask = 0;
    let r2 = 0;
    for (let a = 0, c = code; a < 3; a++, c = Math.floor(c / 3)) {
      const choice = c % 3;
      image[a] = choice === 0 ? y[a] : 2 * (choice === 1 ? walls.min[a] : walls.max[a]) - y[a];
      if (choice !== 0) mask |= 1 << a;
      r2 += (x[a] - image[a]) ** 2;
    }
    if (r2 < h * h) visit([...image], mask);
  }
}

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

/**
 * Particle mass that makes the poly6 density of an interior particle of a simple cubic lattice of
 * the given spacing equal ρ0 exactly: m = ρ0 / Σ_{n ∈ ℤ³, |n|·spacing < h} W_poly6(|n|·spacing, h).
 *
 * The naive choice m = ρ0 · spacing³ (notes §3.4) over- or under-estimates the lattice density
 * because the kernel sum is not the kernel integral; the correction factor is
 * (ρ0 · spacing³) / m = spacing³ · Σ W: 0.949 at h = 1.5 · spacing, 1.0098 at h = 2 · spacing
 * (h = 4r, the suggested setting), 0.9954 at 2.5, 1.0022 at 3 and within 1e-4 of 1 for
 * h ≥ 4 · spacing.
 */
export function restMassForSpacing(spacing: number, h: number, rho0: number): number {
  if (!(spacing > 0)) {
    throw new RangeError(`restMassForSpacing: spacing must be > 0, got ${spacing}`);
  }
  if (!(h > 0)) throw new RangeError(`restMassForSpacing: h must be > 0, got ${h}`);
  if (!(rho0 > 0)) throw new RangeError(`restMassForSpacing: rho0 must be > 0, got ${rho0}`);
  const reach = Math.ceil(h / spacing);
  let sum = 0;
  for (let a = -reach; a <= reach; a++) {
    for (let b = -reach; b <= reach; b++) {
      for (let c = -reach; c <= reach; c++) {
        sum += poly6((a * a + b * b + c * c) * spacing * spacing, h);
      }
    }
  }
  return rho0 / sum;
}

/**
 * The rest density ρ0 of a body of particle mass m built on a simple cubic lattice of spacing s:
 * m Σ_{n ∈ ℤ³} W_poly6(|n| s, h), what the density of an interior particle of the lattice reads
 * (Müller et al. 2003 Eq. 3 over the lattice; {@link restMassForSpacing}). The FLIP density
 * correction's and the fluid metrics' rest density.
 * Throws a RangeError naming the bad argument when m, s or h is not finite and > 0.
 */
export function latticeRestDensity(particleMass: number, spacing: number, h: number): number {
  if (!(particleMass > 0) || !Number.isFinite(particleMass)) {
    throw new RangeError(
      `latticeRestDensity: particleMass must be finite and > 0, got ${particleMass}`,
    );
  }
  if (!(spacing > 0) || !Number.isFinite(spacing)) {
    throw new RangeError(`latticeRestDensity: spacing must be finite and > 0, got ${spacing}`);
  }
  if (!(h > 0) || !Number.isFinite(h)) {
    throw new RangeError(`latticeRestDensity: h must be finite and > 0, got ${h}`);
  }
  return particleMass / restMassForSpacing(spacing, h, 1);
}

/**
 * Monaghan's artificial viscosity coefficient α of {@link suggestSphParams} (Monaghan 1992/2005;
 * 0.01–0.1 in the WCSPH literature for free-surface water, e.g. Becker & Teschner 2007): kinematic
 * ν = α h_s c / 10 in 3D with the smoothing length h_s = h/2.
 */
export const ARTIFICIAL_VISCOSITY_ALPHA = 0.1;

/** Inputs of {@link suggestSphParams}. */
export interface SuggestSphParamsInput {
  /** Particle (collision) radius r (m); the rest spacing is 2r. */
  radius: number;
  /** Rest density ρ0 (kg/m³), e.g. 1000 for water. */
  rho0: number;
  /** Largest speed expected in the scene (m/s), e.g. √(2 g H) for a column of height H. */
  maxSpeed: number;
  /** Gravity (m/s²): its magnitude, or the vector. 0 when omitted. */
  gravity?: number | readonly number[];
  /** State-equation exponent γ (1 linear, 7 Tait). Default 1. */
  gamma?: number;
  /**
   * Depth H (m) of the deepest fluid at rest, e.g. a column's height or a pool's depth: its
   * hydrostatic head sets a floor on the speed of sound (see {@link suggestSphParams}). 0 when
   * omitted.
   */
  depth?: number;
  /**
   * F = 1/δ, the inverse of the density error δ the speed of sound is chosen for (default 10, so
   * δ = 10 %): c = max(F · maxSpeed, √(F · |g| · depth)). Lower values allow larger time steps at
   * the price of compressibility.
   */
  soundSpeedFactor?: number;
}

/** Parameters returned by {@link suggestSphParams}. */
export interface SuggestedSphParams {
  /** Kernel support h = 4r (two rest spacings, ≈ 30 neighbours). */
  h: number;
  /** Rest spacing 2r. */
  spacing: number;
  /** Particle mass {@link restMassForSpacing}(2r, h, ρ0). */
  mass: number;
  /** Numerical speed of sound c = max(F · maxSpeed, √(F · |g| · depth)), F = soundSpeedFactor. */
  soundSpeed: number;
  /** Stiffness k = ρ0 c² / γ, so that dp/dρ = c² at ρ0. */
  stiffness: number;
  /** Exponent γ used for the stiffness. */
  gamma: number;
  /** Dynamic viscosity μ = ρ0 · 0.005 · h · c (artificial viscosity, see the function doc). */
  viscosity: number;
  /** Largest stable explicit time step (s), see the function doc. */
  dtMax: number;
}

/**
 * Suggests parameters for a stable weakly compressible SPH fluid of particle radius r
 * (Monaghan 1994/2005 "Smoothed particle hydrodynamics"; Becker & Teschner 2007 "Weakly
 * compressible SPH for free surface flows"):
 *
 * - spacing 2r, support h = 4r, mass from {@link restMassForSpacing} so a resting lattice has ρ0;
 * - speed of sound from one rule for the two ways a weakly compressible fluid compresses, each
 *   held to the density error δ = 1/F (F = `soundSpeedFactor`, default 10):
 *   - a front arriving at speed v against a wall or a sheet compresses by the acoustic jump
 *     Δρ/ρ = Δp/(ρ0 c²) = v/c (the water hammer, Δp = ρ0 c v: linear in the Mach number, not
 *     Mach² as for steady flow), so c ≥ v/δ = F · maxSpeed;
 *   - a resting column of depth H compresses at its foot by its hydrostatic head, Δρ/ρ = |g| H/c²,
 *     so c ≥ √(|g| H/δ) = √(F · |g| · depth);
 *   c = max(F · maxSpeed, √(F · |g| · depth)); stiffness k = ρ0 c² / γ (linear state equation for
 *   γ = 1, Tait for γ = 7). These are bounds: the worst errors measured in the catalogue's scenes
 *   fall faster than 1/F, as 1/F to 1/F² (docs/findings/dam-breaks.md: `--sweep`);
 * - viscosity: Monaghan's artificial viscosity α h_s c / 10 in 3D with α = 0.1 and smoothing
 *   length h_s = h/2, i.e. kinematic ν = 0.005 h c and μ = ρ0 ν; lower it for less damping at the
 *   risk of particle noise;
 * - dtMax = min(0.4 · 2r / (c + maxSpeed) (CFL), 0.25 √(h_s / |g|) (body force),
 *   0.125 h_s² / ν (viscous diffusion), r / maxSpeed), so dtMax · maxSpeed ≤ r.
 *
 * A fluid that falls from rest through its own height H reaches √(2 |g| H), so where maxSpeed is at
 * least that the impact term binds: F v ≥ √(F |g| H) whenever F ≥ 1/2.
 */
export function suggestSphParams(input: SuggestSphParamsInput): SuggestedSphParams {
  const { radius, rho0, maxSpeed } = input;
  if (!(radius > 0)) throw new RangeError(`suggestSphParams: radius must be > 0, got ${radius}`);
  if (!(rho0 > 0)) throw new RangeError(`suggestSphParams: rho0 must be > 0, got ${rho0}`);
  if (!(maxSpeed > 0)) {
    throw new RangeError(`suggestSphParams: maxSpeed must be > 0, got ${maxSpeed}`);
  }
  const gamma = input.gamma ?? 1;
  if (!(gamma >= 1)) throw new RangeError(`suggestSphParams: gamma must be >= 1, got ${gamma}`);
  const g = input.gravity === undefined
    ? 0
    : typeof input.gravity === "number"
    ? Math.abs(input.gravity)
    : Math.hypot(...input.gravity);
  if (!Number.isFinite(g)) throw new RangeError("suggestSphParams: gravity must be finite");
  const spacing = 2 * radius;
  const h = 4 * radius;
  const hs = h / 2;
  const factor = input.soundSpeedFactor ?? 10;
  if (!(factor > 1)) {
    throw new RangeError(`suggestSphParams: soundSpeedFactor must be > 1, got ${factor}`);
  }
  const depth = input.depth ?? 0;
  if (!(depth >= 0) || !Number.isFinite(depth)) {
    throw new RangeError(`suggestSphParams: depth must be a finite number >= 0 (m), got ${depth}`);
  }
  const c = Math.max(factor * maxSpeed, Math.sqrt(factor * g * depth));
  const nu = (ARTIFICIAL_VISCOSITY_ALPHA * hs * c) / 10;
  let dtMax = Math.min((0.4 * spacing) / (c + maxSpeed), (0.125 * hs * hs) / nu, radius / maxSpeed);
  if (g > 0) dtMax = Math.min(dtMax, 0.25 * Math.sqrt(hs / g));
  return {
    h,
    spacing,
    mass: restMassForSpacing(spacing, h, rho0),
    soundSpeed: c,
    stiffness: (rho0 * c * c) / gamma,
    gamma,
    viscosity: rho0 * nu,
    dtMax,
  };
}
