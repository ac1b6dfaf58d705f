/**
 * The paper's brittle-wall family (Figs. 5 and 6): a dense peridynamic ball, its particles 20×
 * heavier than the wall's, hits a brittle peridynamic wall at high speed.
 *
 * Physical choices, fixed before any run and the same at every scale except the particle radius r:
 * - a wall 0.12 m thick, 0.5 m tall, 0.5 m wide standing on the ground (its bottom layer pinned),
 *   density 1000 kg/m³, bulk modulus K = 10⁷ Pa, horizon δ = 3 spacings, bond damping ratio 0.05;
 * - a ball of radius 0.08 m, density 20 000 kg/m³ ("20× heavier particles"), the same K,
 *   unbreakable, flying at 5 m/s into the wall's middle from 0.05 m away;
 * - the fracture energy G0 = 27 J/m² sets the critical stretch s0 = √(5G0/(9Kδ)) halfway (on a log
 *   scale) between the strain of the wall under its own weight, ρgH/K ≈ 5·10⁻⁴, and the strain of
 *   the impact, ρ_ball·v²/K ≈ 5·10⁻²: s0 = 5·10⁻³ at δ = 0.06 m (`small`); G0 is the material's,
 *   so s0 follows δ at other scales (3.5·10⁻³ at `tiny`);
 * - dt from the CFL condition 0.5·r/v_ref, v_ref = 1.2 × 5 m/s;
 * - baselines by the rule of the other scenes: penalty stiffness 3/30/300 × k_ref = m·v²/(2r)² with
 *   the ball's particle mass and the impact speed; SPH-based contact pressure 0.1/1/10 × ρ_ball·v²
 *   with h = 4r; impulse restitution 0.5.
 * - `paper` scale: the lattice spacing that gives Table I's 247.9K solid particles (Fig. 6).
 *
 * @module
 */
import type { Body, Scale, Scene } from "../core/scene.ts";
import { baselineHandlers, impactReferences } from "./baseline_handlers.ts";
import { RADIUS_BY_SCALE } from "./fluid_on_cloth.ts";

/** What varies between the scenes of the family. */
export interface BrittleWallOptions {
  id: string;
  figure: string;
  description: string;
  scale: Scale;
  applicableHandlers: readonly string[];
  /** Seed; default 2021. */
  seed?: number;
}

/** Table I's solid particle count of Fig. 6, the size of the `paper` scale. */
export const FIG6_SOLID_PARTICLES = 247_900;

const WALL = { thickness: 0.12, height: 0.5, width: 0.5, bottom: -0.4 };
const BALL_RADIUS = 0.08;
const SPEED = 5;
const DENSITY = 1000;
const BALL_DENSITY = 20 * DENSITY;
const BULK_MODULUS = 1e7;
const FRACTURE_ENERGY = 27;
const GRAVITY = -9.81;

/** The particle radius of a scale: the family's radius, or Table I's count at `paper`. */
export function wallRadius(scale: Scale): number {
  if (scale !== "paper") return RADIUS_BY_SCALE[scale];
  const volume = WALL.thickness * WALL.height * WALL.width + (4 / 3) * Math.PI * BALL_RADIUS ** 3;
  return Math.cbrt(volume / FIG6_SOLID_PARTICLES) / 2;
}

/** Builds one scale of a brittle-wall scene. */
export function brittleWall(options: BrittleWallOptions): Scene {
  const r = wallRadius(options.scale);
  const spacing = 2 * r;
  const referenceSpeed = 1.2 * SPEED;
  const cflFraction = 0.5;
  const dt = cflFraction * r / referenceSpeed;
  const horizon = 3 * spacing;
  const half = WALL.thickness / 2;
  const centreY = WALL.bottom + WALL.height / 2;
  const material = {
    spacing,
    bulkModulus: BULK_MODULUS,
    fractureEnergy: FRACTURE_ENERGY,
    horizon,
    dampingRatio: 0.05,
  };
  const bodies: Body[] = [
    {
      kind: "solid",
      name: "wall",
      shape: {
        type: "box",
        min: [-half, WALL.bottom, -WALL.width / 2],
        max: [half, WALL.bottom + WALL.height, WALL.width / 2],
      },
      density: DENSITY,
      breakable: true,
      velocity: [0, 0, 0],
      pinned: {
        min: [-half, WALL.bottom, -WALL.width / 2],
        // the lowest lattice layer (the lattice is centred: it lies within [h/2, h) of the bottom)
        max: [half, WALL.bottom + spacing, WALL.width / 2],
      },
      ...material,
    },
    {
      kind: "solid",
      name: "ball",
      shape: {
        type: "sphere",
        center: [-(half + 0.05 + BALL_RADIUS), centreY, 0],
        radius: BALL_RADIUS,
      },
      density: BALL_DENSITY,
      breakable: false,
      velocity: [SPEED, 0, 0],
      ...material,
    },
  ];
  const impactScale = {
    particleMass: BALL_DENSITY * spacing ** 3,
    density: BALL_DENSITY,
    speed: SPEED,
    spacing,
    h: 4 * r,
  };
  const { kRef, pDyn } = impactReferences(impactScale);
  return {
    id: options.id,
    scale: options.scale,
    figure: options.figure,
    description: options.description,
    seed: options.seed ?? 2021,
    gravity: [0, GRAVITY, 0],
    domain: { min: [-0.45, -0.45, -0.45], max: [0.45, 0.75, 0.45] },
    radius: r,
    dt,
    cfl: { referenceSpeed, fraction: cflFraction },
    duration: 0.2,
    metricsEvery: Math.max(1, Math.round(0.005 / dt)),
    bodies,
    systems: { peridynamics: { cgIterations: 16, cgTolerance: 1e-3, drag: 0 } },
    handlers: baselineHandlers(impactScale),
    applicableHandlers: [...options.applicableHandlers],
    notes: `r = ${r.toPrecision(4)} m, spacing 2r, δ = 3 spacings; wall ρ = ${DENSITY}, ball ρ = ` +
      `${BALL_DENSITY} kg/m³ at ${SPEED} m/s; K = ${BULK_MODULUS} Pa, G0 = ${FRACTURE_ENERGY} ` +
      `J/m² (s0 = ${
        Math.sqrt(5 * FRACTURE_ENERGY / (9 * BULK_MODULUS * horizon)).toExponential(2)
      }` +
      `); k_ref = m v²/(2r)² = ${kRef.toFixed(1)} N/m; p_dyn = ${pDyn} Pa; dt = 0.5·r/v_ref.`,
  };
}
