/**
 * Fig. 8 (bottom), `fig8-bowl`: a brittle peridynamic bowl falls onto a pool of SPH water and
 * breaks; in the paper the reflected waves lift its bottom part with the water gathered on it.
 * Two systems (explicit SPH, implicit peridynamics) coupled by particle collisions alone.
 *
 * Physical choices, fixed before any run and the same at every scale except the particle radius r:
 * - the pool is the domain's floor, 0.8 × 0.8 m, 0.21 m deep, at rest (inelastic frictionless
 *   walls; SPH by `sph_water.ts`);
 * - a hemispherical bowl open upward, outer radius 0.12 m, wall 0.04 m thick (two lattice layers
 *   at `small`, one at `tiny`), its bottom 0.3 m above the water, released at rest: it hits at
 *   √(2g·0.3) ≈ 2.4 m/s; the brittle-wall family's material (ρ = 1000 kg/m³, K = 10⁷ Pa,
 *   δ = 3 spacings, damping ratio 0.05) and fracture rule (`fractureEnergyBetween`): s0 halfway on
 *   a log scale between the bowl's static strain ρgR/K and the impact's ρ_w·v²/K;
 * - reference speed 1.2 × the impact speed; 1 s simulated (the bowl lands after about 0.25 s; the
 *   waves cross the pool and come back in about 0.6 s at √(g·depth) ≈ 1.4 m/s);
 * - baselines by the rule of every scene with the water's particle mass, density and the impact
 *   speed;
 * - sizes: the `paper` scale's radius gives Table I's 121.9K solid particles; the pool's depth is
 *   chosen so that the same radius gives its 6.5M fluid particles.
 *
 * @module
 */
import type { Body, Scale, Scene } from "../core/scene/scene.ts";
import { brittleInWater } from "./brittle_in_water.ts";
import type { BrittleMaterial } from "./brittle_materials.ts";
import { RADIUS_BY_SCALE } from "./fluid_on_cloth.ts";
import { CFL_FRACTION, FIG8_GRAVITY } from "./sph_water.ts";

/** What varies between builds of the scene. */
export interface BowlOnWaterOptions {
  id: string;
  scale: Scale;
  applicableHandlers: readonly string[];
  /** Seed (lattice jitter); default 2021. */
  seed?: number;
  /** `suggestSphParams`' F for the water (`sph_water.ts`); default `SOUND_SPEED_FACTOR`. */
  soundSpeedFactor?: number;
  /**
   * A real brittle material for the bowl (`brittle_materials.ts`): its density, bulk modulus and
   * fracture energy replace the family's material and fracture rule; the crack-speed step follows.
   */
  material?: BrittleMaterial;
}

/** Table I's solid particle count of Fig. 8 (bottom), the size of the `paper` scale. */
export const FIG8_BOWL_SOLID_PARTICLES = 121_900;

const POOL = { half: 0.4, depth: 0.21 } as const;
const BOWL = { radius: 0.12, thickness: 0.04, drop: 0.3 } as const;

/** The particle radius of a scale: the catalogue's, or Table I's solid count at `paper`. */
export function bowlRadius(scale: Scale): number {
  if (scale !== "paper") return RADIUS_BY_SCALE[scale];
  const inner = BOWL.radius - BOWL.thickness;
  const volume = (2 / 3) * Math.PI * (BOWL.radius ** 3 - inner ** 3);
  return Math.cbrt(volume / FIG8_BOWL_SOLID_PARTICLES) / 2;
}

/** Builds one scale of `fig8-bowl`. */
export function bowlOnWater(options: BowlOnWaterOptions): Scene {
  const r = bowlRadius(options.scale);
  const g = -FIG8_GRAVITY;
  const impact = Math.sqrt(2 * g * BOWL.drop);
  const b = brittleInWater(r, {
    impactSpeed: impact,
    depth: POOL.depth,
    staticHeight: BOWL.radius,
    soundSpeedFactor: options.soundSpeedFactor,
    material: options.material,
  });
  const rim = POOL.depth + BOWL.drop + BOWL.radius;
  const bodies: Body[] = [
    {
      kind: "solid",
      name: "bowl",
      shape: { type: "bowl", center: [0, rim, 0], radius: BOWL.radius, thickness: BOWL.thickness },
      density: b.density,
      breakable: true,
      velocity: [0, 0, 0],
      ...b.material,
    },
    {
      kind: "fluid",
      name: "water",
      shape: {
        type: "box",
        min: [-POOL.half, 0, -POOL.half],
        max: [POOL.half, POOL.depth, POOL.half],
      },
      spacing: b.spacing,
      jitter: 0.05,
      velocity: [0, 0, 0],
      particleMass: b.water.sph.mass,
    },
  ];
  return {
    id: options.id,
    scale: options.scale,
    figure: "Fig. 8",
    description:
      "A brittle peridynamic bowl falls onto a pool of SPH water and breaks (Table I: Fig. 8 bottom).",
    seed: options.seed ?? 2021,
    domain: { min: [-POOL.half, 0, -POOL.half], max: [POOL.half, rim + 0.08, POOL.half] },
    ...b.fields,
    bodies,
    applicableHandlers: [...options.applicableHandlers],
    notes: `r = ${r.toPrecision(4)} m, spacing 2r, δ = 3 spacings; bowl R = ${BOWL.radius} m, ` +
      `t = ${BOWL.thickness} m, ${
        options.material ? `${options.material.name} (${options.material.id}): ` : ""
      }ρ = ${b.density} kg/m³, K = ${b.bulkModulus} Pa, ` +
      `s0 = ${b.s0.toExponential(2)} (G0 = ${b.fractureEnergy.toPrecision(3)} J/m²); pool ${
        2 * POOL.half
      } × ` +
      `${2 * POOL.half} × ${POOL.depth} m; impact ${
        impact.toFixed(2)
      } m/s; SPH c = ${b.water.sph.soundSpeed} m/s; ` +
      `k_ref = ${b.kRef.toFixed(1)} N/m; dt = min(${CFL_FRACTION}·r/v_ref, SPH limit, 2r/c_R).`,
  };
}
