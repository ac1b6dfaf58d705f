/**
 * Real brittle materials for the breakable bodies of the catalogue: measured
 * density, Young's modulus and mode-I fracture toughness (or fracture energy), each with its
 * source, turned into what bond-based peridynamics takes (Silling 2000; Silling & Askari 2005):
 * - Poisson's ratio is fixed at ν = 1/4 in bond-based peridynamics, so the bulk modulus is
 *   K = E / (3(1 − 2ν)) = E / 1.5 (the material's own ν, 0.2–0.33 for these, is not representable);
 * - the critical energy release rate of a plane-strain mode-I crack, G0 = K_Ic²(1 − ν²)/E (Irwin),
 *   with ν = 1/4, where the source gives a toughness; the critical stretch follows from the horizon
 *   δ of the lattice, s0 = √(5G0/(9Kδ)) (`peridynamics` system; `brittle_wall.ts`).
 *
 * The catalogue's scenes keep the brittle-wall family's material (ρ = 1000 kg/m³, K = 10⁷ Pa, G0
 * from `fractureEnergyBetween`) unless a material is named (`getScene`'s `material`, `deno task
 * scene --material`). A real material's Rayleigh speed sets the crack-speed step (`crackSpeedTimeStep`):
 * ice, concrete and glass step 26–43× shorter than the family (c_R 1,852–3,077 m/s against 71), so
 * their runs cost as many times more steps.
 *
 * @module
 */

/** A brittle material as measured: what a `solid` body's peridynamic fields come from. */
export interface BrittleMaterial {
  /** Id, as `--material` names it. */
  id: string;
  /** What it is, in words. */
  name: string;
  /** Density ρ (kg/m³). */
  density: number;
  /** Young's modulus E (Pa). */
  youngsModulus: number;
  /** Fracture energy G0 (J/m²), the critical energy release rate of a mode-I crack. */
  fractureEnergy: number;
  /** Where the figures come from, and how G0 was derived. */
  source: string;
}

/** Poisson's ratio of bond-based peridynamics (Silling 2000). */
export const BOND_BASED_POISSON = 0.25;

/** G0 = K_Ic²(1 − ν²)/E (J/m²) of a toughness K_Ic (Pa·m^½), with bond-based ν = 1/4. */
export function fractureEnergyOfToughness(toughness: number, youngsModulus: number): number {
  return toughness * toughness * (1 - BOND_BASED_POISSON ** 2) / youngsModulus;
}

/** The real brittle materials, by id. */
export const BRITTLE_MATERIALS: Readonly<Record<string, BrittleMaterial>> = {
  ice: {
    id: "ice",
    name: "polycrystalline freshwater ice at about −10 °C",
    density: 917,
    youngsModulus: 9.3e9,
    fractureEnergy: fractureEnergyOfToughness(0.1e6, 9.3e9),
    source: "E = 9.3 GPa (Gammon et al. 1983, J. Glaciol. 29(103), the single-crystal moduli " +
      "averaged; Petrenko & Whitworth 1999, 'Physics of Ice', §11); K_Ic ≈ 0.1 MPa·m^½ " +
      "(Schulson & Duval 2009, 'Creep and Fracture of Ice', §10.2: 0.05–0.15 measured); " +
      "G0 = K_Ic²(1 − ν²)/E = 1.0 J/m²",
  },
  concrete: {
    id: "concrete",
    name: "plain normal-strength concrete (C30)",
    density: 2400,
    youngsModulus: 30e9,
    fractureEnergy: 100,
    source: "E ≈ 30 GPa and G_F ≈ 100 J/m² for f_cm ≈ 38 MPa (CEB-FIP Model Code 1990, " +
      "§2.1.4.3 and §2.1.3.3: G_F = 0.03–0.15 N/mm with aggregate size)",
  },
  glass: {
    id: "glass",
    name: "soda-lime glass",
    density: 2500,
    youngsModulus: 70e9,
    fractureEnergy: fractureEnergyOfToughness(0.75e6, 70e9),
    source: "E ≈ 70 GPa, K_Ic ≈ 0.75 MPa·m^½ (Wiederhorn 1969, J. Am. Ceram. Soc. 52(2), " +
      "'Fracture surface energy of glass'); G0 = K_Ic²(1 − ν²)/E = 7.5 J/m²",
  },
  snow: {
    id: "snow",
    name: "dense dry snow (300 kg/m³)",
    density: 300,
    youngsModulus: 15e6,
    fractureEnergy: fractureEnergyOfToughness(1000, 15e6),
    source: "E ≈ 15 MPa at 300 kg/m³ (Reuter et al. 2019, J. Glaciol., spread over an order of " +
      "magnitude with the method); K_Ic ≈ 1000 Pa·m^½, the top of 500–1000 measured for 100–300 " +
      "kg/m³ (Schweizer, Michot & Kirchner 2004, Ann. Glaciol. 38); G0 = 0.0625 J/m²",
  },
};

/**
 * The material `id`, or a `RangeError` naming the known ids.
 */
export function brittleMaterial(id: string): BrittleMaterial {
  const m = Object.hasOwn(BRITTLE_MATERIALS, id) ? BRITTLE_MATERIALS[id] : undefined;
  if (!m) {
    throw new RangeError(
      `unknown brittle material "${id}"; known: ${Object.keys(BRITTLE_MATERIALS).join(", ")}`,
    );
  }
  return m;
}

/**
 * What bond-based peridynamics takes of `material` (module doc): density ρ, bulk modulus K = E/1.5
 * and fracture energy G0.
 */
export function peridynamicModuli(
  material: BrittleMaterial,
): { density: number; bulkModulus: number; fractureEnergy: number } {
  return {
    density: material.density,
    bulkModulus: material.youngsModulus / (3 * (1 - 2 * BOND_BASED_POISSON)),
    fractureEnergy: material.fractureEnergy,
  };
}
