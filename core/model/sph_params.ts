/**
 * The parameters of a weakly compressible SPH fluid: its material (support h, rest density ρ0,
 * stiffness, viscosity, state-equation exponent) and the clipped state equation they define; the
 * rest mass and rest density of a particle lattice under the poly6 kernel; and the parameters
 * suggested for a stable fluid of a given particle radius (Monaghan 1994/2005; Becker & Teschner
 * 2007), with Monaghan's artificial viscosity α. Scenes size their fluids with them; the FLIP
 * system and the fluid metrics read a body's lattice rest density.
 *
 * @module
 */
import { poly6 } from "./sph_kernels.ts";

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
