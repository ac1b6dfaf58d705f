/**
 * A brittle peridynamic body meeting SPH water, the physics Fig. 8's two scenes share (the dam
 * break against a wall, `dam_break_wall.ts`; the bowl falling into a pool, `bowl_on_water.ts`):
 * the water (`sph_water.ts`) at a reference speed of 1.2 × the impact speed, the time step at most
 * the crack-speed bound of the breakable solid (`brittle_wall.ts`), a horizon of 3 spacings, the
 * fracture energy halfway on a log scale between the body's static strain ρ·g·H/K and the impact's
 * ρ_w·v²/K (`bodyFractureEnergy`), and the baselines by the rule of every scene
 * (`baseline_handlers.ts`). Each scene adds its bodies and its notes.
 *
 * @module
 */
import type { Scene } from "../core/scene/scene.ts";
import { baselineHandlers, impactReferences } from "./baseline_handlers.ts";
import type { BrittleMaterial } from "./brittle_materials.ts";
import {
  bodyFractureEnergy,
  crackSpeedTimeStep,
  type WallMaterial,
  wallMaterial,
  wallModuli,
} from "./brittle_wall.ts";
import { CFL_FRACTION, FIG8_GRAVITY, type SphWater, sphWater, WATER_RHO0 } from "./sph_water.ts";

/** What a brittle body in water depends on besides the particle radius. */
export interface BrittleInWaterOptions {
  /** The speed at which the water and the body meet (m/s): the impact's, or the front's. */
  impactSpeed: number;
  /** The water's depth (m), for the SPH parameters. */
  depth: number;
  /** The body's height under its own weight (m): the static strain ρ·g·H/K. */
  staticHeight: number;
  /** The SPH speed of sound as a multiple of the reference speed (default `sph_water.ts`'s). */
  soundSpeedFactor?: number;
  /** The body's material (default the brittle-wall family's). */
  material?: BrittleMaterial;
}

/** The shared quantities of a brittle body in water, and the scene fields they set. */
export interface BrittleInWater {
  /** Lattice spacing 2r (m). */
  spacing: number;
  water: SphWater;
  /** Reference speed: 1.2 × the impact speed, rounded up to 0.1 m/s. */
  referenceSpeed: number;
  /** The body's density (kg/m³) and bulk modulus K (Pa). */
  density: number;
  bulkModulus: number;
  /** Peridynamic horizon δ = 3 spacings (m). */
  horizon: number;
  /** Fracture energy G0 (J/m²) and the critical stretch s0 it gives. */
  fractureEnergy: number;
  s0: number;
  /** The body's peridynamic material (its bodies' spread). */
  material: WallMaterial;
  /** The baseline rule's stiffness reference k_ref (N/m). */
  kRef: number;
  /** The scene's fields these fix. */
  fields: Pick<
    Scene,
    "gravity" | "radius" | "dt" | "cfl" | "duration" | "metricsEvery" | "systems" | "handlers"
  >;
}

/** The shared physics of a brittle body of particle radius `r` meeting SPH water. */
export function brittleInWater(r: number, options: BrittleInWaterOptions): BrittleInWater {
  const spacing = 2 * r;
  const g = -FIG8_GRAVITY;
  const speed = options.impactSpeed;
  const referenceSpeed = Math.ceil(1.2 * speed * 10) / 10;
  const water = sphWater(r, {
    referenceSpeed,
    depth: options.depth,
    soundSpeedFactor: options.soundSpeedFactor,
  });
  const { density, bulkModulus } = wallModuli(options.material);
  // the SPH step, at most the crack-speed bound of the breakable solid (brittle_wall.ts)
  const dt = Math.min(water.dt, crackSpeedTimeStep(spacing, { bulkModulus, density }));
  const horizon = 3 * spacing;
  const fractureEnergy = bodyFractureEnergy(
    {
      static: density * g * options.staticHeight / bulkModulus,
      impact: WATER_RHO0 * speed * speed / bulkModulus,
    },
    { bulkModulus, horizon, material: options.material },
  );
  const impactScale = water.impactScale(speed);
  return {
    spacing,
    water,
    referenceSpeed,
    density,
    bulkModulus,
    horizon,
    fractureEnergy,
    s0: Math.sqrt(5 * fractureEnergy / (9 * bulkModulus * horizon)),
    material: wallMaterial(spacing, { fractureEnergy, bulkModulus }),
    kRef: impactReferences(impactScale).kRef,
    fields: {
      gravity: [0, FIG8_GRAVITY, 0],
      radius: r,
      dt,
      cfl: { referenceSpeed, fraction: CFL_FRACTION },
      duration: 1,
      metricsEvery: Math.max(1, Math.round(0.01 / dt)),
      systems: {
        peridynamics: { cgIterations: 16, cgTolerance: 1e-3, drag: 0 },
        sph: water.system,
      },
      handlers: baselineHandlers(impactScale, { fluid: water.coupling }),
    },
  };
}
