/**
 * Fig. 8 (middle), `fig8-dam-break-wall`: an SPH dam break hits a brittle peridynamic wall that
 * stands in the tank; the paper's wall cracks at the first impact, then breaks, its pieces carried
 * by the flow: solid fracture driven by the fluid, two systems (explicit SPH, implicit
 * peridynamics) coupled by particle collisions alone.
 *
 * Physical choices, fixed before any run and the same at every scale except the particle radius r:
 * - the tank is the domain, 1.0 m along x, 0.6 m high, 0.4 m wide (inelastic frictionless walls);
 *   the water column stands against the back wall x = −0.5: 0.25 m along x, 0.3 m high, the
 *   tank's width (SPH by `sph_water.ts`);
 * - the wall, 0.35 m downstream of the column (x = 0.1 to 0.16), 0.29 m tall, 0.3 m wide (the
 *   water flows around it too), standing on the floor, its lowest lattice layer pinned; the
 *   brittle-wall family's material (ρ = 1000 kg/m³, K = 10⁷ Pa, δ = 3 spacings, damping ratio
 *   0.05) and its fracture rule (`fractureEnergyBetween`): s0 halfway on a log scale between the
 *   wall's static strain ρgH/K and the strain of the surge's dynamic pressure ρ_w·v²/K, v = 2√(gH_c)
 *   (the dam-break front's speed, H_c the column's height);
 * - reference speed 1.2 × 2√(gH_c); 1 s simulated (the front reaches the wall after about 0.2 s);
 * - baselines by the rule of every scene with the water's particle mass, density and front speed;
 * - sizes: the `paper` scale's radius is the one that gives Table I's 112.5K solid particles; the
 *   column's volume is chosen so that the same radius gives its 655K fluid particles.
 *
 * @module
 */
import type { Body, Scale, Scene } from "../core/scene/scene.ts";
import { brittleInWater } from "./brittle_in_water.ts";
import type { BrittleMaterial } from "./brittle_materials.ts";
import { RADIUS_BY_SCALE } from "./fluid_on_cloth.ts";
import { boxLatticeCount, radiusForCount } from "./paper_radius.ts";
import { CFL_FRACTION, FIG8_GRAVITY } from "./sph_water.ts";

/** What varies between builds of the scene. */
export interface DamBreakWallOptions {
  id: string;
  scale: Scale;
  applicableHandlers: readonly string[];
  /** Seed (lattice jitter); default 2021. */
  seed?: number;
  /** `suggestSphParams`' F for the water (`sph_water.ts`); default `SOUND_SPEED_FACTOR`. */
  soundSpeedFactor?: number;
  /**
   * A real brittle material for the wall (`brittle_materials.ts`): its density, bulk modulus and
   * fracture energy replace the family's material and fracture rule; the crack-speed step follows.
   */
  material?: BrittleMaterial;
}

/** Table I's solid particle count of Fig. 8 (middle), the size of the `paper` scale. */
export const FIG8_DAM_BREAK_SOLID_PARTICLES = 112_500;

const TANK = { min: [-0.5, 0, -0.2], max: [0.5, 0.6, 0.2] } as const;
const COLUMN = { length: 0.25, height: 0.3 } as const;
const WALL = { x: 0.1, thickness: 0.06, height: 0.29, width: 0.3 } as const;

/**
 * The particle radius of a scale: the catalogue's, or at `paper` the radius whose wall lattice
 * holds Table I's solid count (`radiusForCount`).
 */
export function damBreakWallRadius(scale: Scale): number {
  if (scale !== "paper") return RADIUS_BY_SCALE[scale];
  const size = [WALL.thickness, WALL.height, WALL.width];
  return radiusForCount(FIG8_DAM_BREAK_SOLID_PARTICLES, {
    guess: Math.cbrt(size[0] * size[1] * size[2] / FIG8_DAM_BREAK_SOLID_PARTICLES) / 2,
    count: (r) => boxLatticeCount(size, r),
  });
}

/** Builds one scale of `fig8-dam-break-wall`. */
export function damBreakWall(options: DamBreakWallOptions): Scene {
  const r = damBreakWallRadius(options.scale);
  const g = -FIG8_GRAVITY;
  const front = 2 * Math.sqrt(g * COLUMN.height);
  const b = brittleInWater(r, {
    impactSpeed: front,
    depth: COLUMN.height,
    staticHeight: WALL.height,
    soundSpeedFactor: options.soundSpeedFactor,
    material: options.material,
  });
  const spacing = b.spacing;
  const wallMin: [number, number, number] = [WALL.x, TANK.min[1], -WALL.width / 2];
  const bodies: Body[] = [
    {
      kind: "solid",
      name: "wall",
      shape: {
        type: "box",
        min: wallMin,
        max: [WALL.x + WALL.thickness, TANK.min[1] + WALL.height, WALL.width / 2],
      },
      density: b.density,
      breakable: true,
      velocity: [0, 0, 0],
      // the lowest lattice layer (the lattice is centred: it lies within [h/2, h) of the bottom)
      pinned: {
        min: wallMin,
        max: [WALL.x + WALL.thickness, TANK.min[1] + spacing, WALL.width / 2],
      },
      ...b.material,
    },
    {
      kind: "fluid",
      name: "water",
      shape: {
        type: "box",
        min: [...TANK.min],
        max: [TANK.min[0] + COLUMN.length, TANK.min[1] + COLUMN.height, TANK.max[2]],
      },
      spacing,
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
      "An SPH dam break hits a brittle peridynamic wall, which cracks and breaks (Table I: Fig. 8 " +
      "middle).",
    seed: options.seed ?? 2021,
    domain: { min: [...TANK.min], max: [...TANK.max] },
    ...b.fields,
    bodies,
    applicableHandlers: [...options.applicableHandlers],
    notes:
      `r = ${r.toPrecision(4)} m, spacing 2r, δ = 3 spacings; ${
        options.material ? `${options.material.name} (${options.material.id}): ` : ""
      }wall ρ = ${b.density} kg/m³, ` +
      `K = ${b.bulkModulus} Pa, s0 = ${b.s0.toExponential(2)} (G0 = ${
        b.fractureEnergy.toPrecision(3)
      } J/m²); ` +
      `water column ${COLUMN.length} × ${COLUMN.height} m, front speed 2√(gH) = ${
        front.toFixed(2)
      } m/s; ` +
      `SPH c = ${b.water.sph.soundSpeed} m/s; k_ref = ${
        b.kRef.toFixed(1)
      } N/m; dt = min(${CFL_FRACTION}·r/v_ref, SPH limit, 2r/c_R).`,
  };
}
