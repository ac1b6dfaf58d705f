/**
 * The constants of a bond-based PMB solid (Silling 2000; Silling & Askari 2005) from its material
 * and its lattice: the micromodulus c = 18 K / (π δ⁴), the critical stretch s0 = √(5 G0 / (9 K δ)),
 * the elastic moduli at Poisson's ratio ν = 1/4 (fixed by the bond-based model), the particle
 * volume and mass, the family size and the explicit stability limit. Scenes size their solids
 * with them; the scene builder gives each bond its stiffness and breaking stretch from them.
 *
 * @module
 */
import { HORIZON_TOLERANCE } from "./peridynamic_bonds.ts";
import { positiveFinite } from "./peridynamic_inputs.ts";

/** Micromodulus c = 18 K / (π δ⁴) (N/m⁶) of a 3D bond-based PMB solid (Silling & Askari 2005). */
export function micromodulus(bulkModulus: number, horizon: number): number {
  if (!positiveFinite(bulkModulus)) {
    throw new RangeError(`micromodulus: bulkModulus must be finite and > 0, got ${bulkModulus}`);
  }
  if (!positiveFinite(horizon)) {
    throw new RangeError(`micromodulus: horizon must be finite and > 0, got ${horizon}`);
  }
  return (18 * bulkModulus) / (Math.PI * horizon ** 4);
}

/**
 * Critical stretch s0 = √(5 G0 / (9 K δ)) of a 3D PMB solid of fracture energy G0 (J/m²), bulk
 * modulus K and horizon δ: the stretch at which breaking every bond across a plane releases G0
 * per unit area (Silling & Askari 2005).
 */
export function criticalStretch(
  fractureEnergy: number,
  options: { bulkModulus: number; horizon: number },
): number {
  const fn = "criticalStretch";
  if (!positiveFinite(fractureEnergy)) {
    throw new RangeError(`${fn}: fractureEnergy must be finite and > 0, got ${fractureEnergy}`);
  }
  for (const name of ["bulkModulus", "horizon"] as const) {
    if (!positiveFinite(options?.[name])) {
      throw new RangeError(`${fn}: options.${name} must be finite and > 0, got ${options?.[name]}`);
    }
  }
  return Math.sqrt((5 * fractureEnergy) / (9 * options.bulkModulus * options.horizon));
}

/** Inputs of {@link peridynamicConstants}. */
export interface PeridynamicConstantsInput {
  /** Bulk modulus K (Pa, > 0). */
  bulkModulus: number;
  /** Horizon δ (m, > 0). */
  horizon: number;
  /** Lattice spacing h (m, > 0) of the simple cubic sampling. */
  spacing: number;
  /** Density ρ (kg/m³, > 0). */
  density: number;
  /** Fracture energy G0 (J/m², > 0); omitted: no critical stretch (an unbreakable body). */
  fractureEnergy?: number;
  /** Whether bonds carry the partial-volume factor (as with `buildBonds` volumeCorrection). */
  volumeCorrection?: boolean;
}

/** Scene-level derived quantities, from {@link peridynamicConstants}. */
export interface PeridynamicConstants {
  /** c = 18 K / (π δ⁴) (N/m⁶). */
  micromodulus: number;
  /** s0 = √(5 G0 / (9 K δ)), or undefined without a fracture energy. */
  criticalStretch?: number;
  /** V = h³ (m³). */
  volume: number;
  /** m = ρ h³ (kg). */
  mass: number;
  /** ν = 1/4, fixed by the bond-based model (Silling 2000). */
  poissonRatio: number;
  /** E = 3 K (1 − 2ν) = 1.5 K (Pa). */
  youngModulus: number;
  /** μ = 3 K (1 − 2ν) / (2 (1 + ν)) = 0.6 K (Pa). */
  shearModulus: number;
  /** P-wave speed √((K + 4μ/3) / ρ) = √(1.8 K / ρ) (m/s). */
  waveSpeed: number;
  /** Bonds per interior particle of the lattice (its family size). */
  familySize: number;
  /** k = c V² / h: stiffness of a nearest-neighbour bond (N/m). */
  nearestBondStiffness: number;
  /**
   * Stable explicit (central-difference / velocity-Verlet) step of an interior lattice particle,
   * Δt = √(2 ρ / Σ_j V_j β_j c / |ξ_j|) (Silling & Askari 2005, von Neumann stability of the PMB
   * model), over its lattice family. Implicit steps may be much larger.
   */
  explicitTimeStep: number;
}

/**
 * Scene-level constants of a PMB solid sampled on a simple cubic lattice (`core/model/peridynamic_bonds.ts`): elastic
 * moduli at ν = 1/4, micromodulus, critical stretch, particle volume and mass, interior family
 * size, and the explicit stability limit of Silling & Askari 2005.
 */
export function peridynamicConstants(input: PeridynamicConstantsInput): PeridynamicConstants {
  const fn = "peridynamicConstants";
  for (const name of ["bulkModulus", "horizon", "spacing", "density"] as const) {
    if (!positiveFinite(input?.[name])) {
      throw new RangeError(`${fn}: input.${name} must be finite and > 0, got ${input?.[name]}`);
    }
  }
  const { bulkModulus: K, horizon: delta, spacing: h, density: rho } = input;
  const c = micromodulus(K, delta);
  const s0 = input.fractureEnergy === undefined
    ? undefined
    : criticalStretch(input.fractureEnergy, { bulkModulus: K, horizon: delta });
  const V = h * h * h;
  // Lattice family of an interior particle: Σ β / |n| and its size.
  const corr = input.volumeCorrection ?? false;
  const reach = (delta + (corr ? h / 2 : 0)) / h;
  const R = Math.ceil(reach);
  let invSum = 0, family = 0;
  for (let a = -R; a <= R; a++) {
    for (let b = -R; b <= R; b++) {
      for (let q = -R; q <= R; q++) {
        const r = Math.hypot(a, b, q);
        if (r === 0 || r > reach * (1 + HORIZON_TOLERANCE)) continue;
        let beta = 1;
        if (corr && r > delta / h - 0.5) beta = Math.min(1, delta / h + 0.5 - r);
        if (!(beta > HORIZON_TOLERANCE)) continue;
        family++;
        invSum += beta / (r * h);
      }
    }
  }
  const mu = 0.6 * K;
  return {
    micromodulus: c,
    criticalStretch: s0,
    volume: V,
    mass: rho * V,
    poissonRatio: 0.25,
    youngModulus: 1.5 * K,
    shearModulus: mu,
    waveSpeed: Math.sqrt((K + (4 / 3) * mu) / rho),
    familySize: family,
    nearestBondStiffness: (c * V * V) / h,
    explicitTimeStep: Math.sqrt((2 * rho) / (V * c * invSum)),
  };
}
