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
 * - dt = min(0.5·r/v_ref (CFL, v_ref = 1.2 × 5 m/s), 2r/c_R (the crack-speed bound,
 *   {@link crackSpeedTimeStep}));
 * - baselines by the rule of the other scenes: penalty stiffness 1/10/100 × k_ref = m·v²/(2r)² with
 *   the ball's particle mass and the impact speed; SPH-based contact pressure 0.1/1/10 × ρ_ball·v²
 *   with h = 4r; impulse restitution 0.5.
 * - `paper` scale: the lattice spacing at which wall and ball hold Table I's 247.9K solid particles
 *   (Fig. 6).
 *
 * @module
 */
import type { Body, Scale, Scene } from "../core/scene/scene.ts";
import { baselineHandlers, impactReferences, type ImpactScale } from "./baseline_handlers.ts";
import { RADIUS_BY_SCALE } from "./fluid_on_cloth.ts";
import { boxLatticeCount, radiusForCount } from "./paper_radius.ts";
import { sampleSolid } from "../core/scene/scene_builder.ts";
import { type BrittleMaterial, peridynamicModuli } from "./brittle_materials.ts";

/** What varies between the scenes of the family. */
export interface BrittleWallOptions {
  id: string;
  figure: string;
  description: string;
  scale: Scale;
  applicableHandlers: readonly string[];
  /** Seed; default 2021. */
  seed?: number;
  /**
   * A real brittle material for the wall (`brittle_materials.ts`) in place of the family's: its
   * density, bulk modulus and fracture energy; the ball stays 20× as dense and as stiff, and the
   * crack-speed step follows.
   */
  material?: BrittleMaterial;
}

/** Table I's solid particle count of Fig. 6, the size of the `paper` scale. */
export const FIG6_SOLID_PARTICLES = 247_900;

/** The family's wall (m): 0.12 thick along x, 0.5 tall, 0.5 wide along z. */
export const WALL_SIZE = { thickness: 0.12, height: 0.5, width: 0.5 } as const;
/** Density of the wall (kg/m³). */
export const WALL_DENSITY = 1000;
/** Bulk modulus K of the wall and of the ball (Pa). */
export const WALL_BULK_MODULUS = 1e7;
/** Impact speed of the family (m/s); the CFL reference speed is 1.2 × this. */
export const WALL_IMPACT_SPEED = 5;
/** Gravity along y (m/s²). */
export const WALL_GRAVITY = -9.81;

const WALL = { ...WALL_SIZE, bottom: -0.4 };
const BALL_RADIUS = 0.08;
const BALL_DENSITY = 20 * WALL_DENSITY;
const FRACTURE_ENERGY = 27;

/** The peridynamic material of the family's solids (fields of a `solid` body). */
export interface WallMaterial {
  spacing: number;
  bulkModulus: number;
  fractureEnergy: number;
  horizon: number;
  dampingRatio: number;
}

/**
 * The family's peridynamic material at lattice spacing `spacing`: K = {@link WALL_BULK_MODULUS}
 * (or `options.bulkModulus`), horizon δ = 3 spacings, bond damping ratio 0.05, and the given
 * fracture energy G0 (J/m²).
 */
export function wallMaterial(
  spacing: number,
  options: { fractureEnergy: number; bulkModulus?: number },
): WallMaterial {
  return {
    spacing,
    bulkModulus: options.bulkModulus ?? WALL_BULK_MODULUS,
    fractureEnergy: options.fractureEnergy,
    horizon: 3 * spacing,
    dampingRatio: 0.05,
  };
}

/**
 * Rayleigh wave speed c_R (m/s) of the family's bond-based peridynamic material of bulk modulus K
 * and density ρ: Poisson's ratio is 1/4 (Silling 2000), so the shear modulus is μ = 0.6 K and
 * c_R = √(2 − 2/√3) · √(μ/ρ) ≈ 0.9194 · √(μ/ρ), the root of the Rayleigh equation for ν = 1/4. It
 * is the limiting speed of a running crack (Freund 1990, "Dynamic Fracture Mechanics", §5).
 */
export function rayleighSpeed(material: { bulkModulus: number; density: number }): number {
  const { bulkModulus, density } = material;
  if (!(bulkModulus > 0) || !(density > 0)) {
    throw new RangeError(
      `rayleighSpeed: bulkModulus and density must be > 0, got ${bulkModulus} and ${density}`,
    );
  }
  return Math.sqrt(2 - 2 / Math.sqrt(3)) * Math.sqrt((0.6 * bulkModulus) / density);
}

/**
 * The crack-speed time step of a breakable body on a lattice of spacing h: dt = h / c_R
 * ({@link rayleighSpeed}), the longest step in which a crack running at the Rayleigh speed advances
 * at most one spacing. Breaking is decided once per step on the positions of one implicit solve
 * (Silling & Askari 2005), so a longer step lets one solve overstretch, and break at once, bonds
 * that a crack could reach only over several steps: the cascade of an implicit step. Every scene
 * with a breakable body takes dt at most this, for every handler alike.
 */
export function crackSpeedTimeStep(
  spacing: number,
  material: { bulkModulus: number; density: number },
): number {
  if (!(spacing > 0)) {
    throw new RangeError(`crackSpeedTimeStep: spacing must be > 0, got ${spacing}`);
  }
  return spacing / rayleighSpeed(material);
}

/**
 * The family's fracture rule, fixed before any run: the fracture energy G0 (J/m²) whose critical
 * stretch s0 = √(5G0/(9Kδ)) lies halfway, on a log scale, between a body's strain under its own
 * weight and the strain of the impact it meets: s0 = √(static · impact), G0 = 9Kδ·s0²/5.
 */
export function fractureEnergyBetween(
  strain: { static: number; impact: number },
  material: { bulkModulus: number; horizon: number },
): number {
  const s0 = Math.sqrt(strain.static * strain.impact);
  return s0 * s0 * 9 * material.bulkModulus * material.horizon / 5;
}

/**
 * The fracture energy G0 (J/m²) of a breakable body under a load of `strain`: a real material's own
 * (`options.material`, `brittle_materials.ts`), else the family's rule ({@link fractureEnergyBetween}).
 */
export function bodyFractureEnergy(
  strain: { static: number; impact: number },
  options: { bulkModulus: number; horizon: number; material?: BrittleMaterial },
): number {
  if (options.material) return peridynamicModuli(options.material).fractureEnergy;
  return fractureEnergyBetween(strain, options);
}

/**
 * The family's breakable wall of `material` standing on the ground at y = `bottom`: the box
 * [x, x + thickness] × [bottom, bottom + height] × [−width/2, width/2] ({@link WALL_SIZE}), density
 * {@link WALL_DENSITY} (or `position.density`), at rest, its lowest lattice layer pinned.
 */
export function wallBody(
  material: WallMaterial,
  position: { x: number; bottom: number; density?: number },
): Body {
  const { x, bottom } = position;
  const { thickness, height, width } = WALL_SIZE;
  return {
    kind: "solid",
    name: "wall",
    shape: {
      type: "box",
      min: [x, bottom, -width / 2],
      max: [x + thickness, bottom + height, width / 2],
    },
    density: position.density ?? WALL_DENSITY,
    breakable: true,
    velocity: [0, 0, 0],
    pinned: {
      min: [x, bottom, -width / 2],
      // the lowest lattice layer (the lattice is centred: it lies within [h/2, h) of the bottom)
      max: [x + thickness, bottom + material.spacing, width / 2],
    },
    ...material,
  };
}

/**
 * The scene fields the family's scenes share at particle radius `r`, bodies and plug-ins aside:
 * identity, seed (default 2021), gravity, the domain, dt = min(0.5·r/v_ref with v_ref = 1.2 ×
 * {@link WALL_IMPACT_SPEED}, the wall's {@link crackSpeedTimeStep}: the family's material or
 * `options.material`), 0.2 s simulated and a metrics sample every 5 ms.
 */
export function wallSceneFrame(
  options: BrittleWallOptions,
  r: number,
): Omit<Scene, "bodies" | "systems" | "handlers" | "applicableHandlers" | "notes"> {
  const referenceSpeed = 1.2 * WALL_IMPACT_SPEED;
  const fraction = 0.5;
  const dt = Math.min(
    fraction * r / referenceSpeed,
    crackSpeedTimeStep(2 * r, wallModuli(options.material)),
  );
  return {
    id: options.id,
    scale: options.scale,
    figure: options.figure,
    description: options.description,
    seed: options.seed ?? 2021,
    gravity: [0, WALL_GRAVITY, 0],
    domain: { min: [-0.45, -0.45, -0.45], max: [0.45, 0.75, 0.45] },
    radius: r,
    dt,
    cfl: { referenceSpeed, fraction },
    duration: 0.2,
    metricsEvery: Math.max(1, Math.round(0.005 / dt)),
  };
}

/**
 * The impact quantities of the baseline rule (`baseline_handlers.ts`) for an impactor of
 * `density` on the family's lattice at radius `r` (spacing 2r): particle mass ρ·(2r)³, speed
 * {@link WALL_IMPACT_SPEED}, SPH support h = 4r.
 */
export function wallImpactScale(r: number, options: { density: number }): ImpactScale {
  const spacing = 2 * r;
  return {
    particleMass: options.density * spacing ** 3,
    density: options.density,
    speed: WALL_IMPACT_SPEED,
    spacing,
    h: 4 * r,
  };
}

let paperRadius: number | undefined;

/**
 * The particle radius of a scale: the family's radius, or at `paper` the radius whose lattices
 * (wall and ball) hold Table I's {@link FIG6_SOLID_PARTICLES} (`radiusForCount`).
 */
export function wallRadius(scale: Scale): number {
  if (scale !== "paper") return RADIUS_BY_SCALE[scale];
  const volume = WALL.thickness * WALL.height * WALL.width + (4 / 3) * Math.PI * BALL_RADIUS ** 3;
  paperRadius ??= radiusForCount(FIG6_SOLID_PARTICLES, {
    guess: Math.cbrt(volume / FIG6_SOLID_PARTICLES) / 2,
    count: (q) =>
      boxLatticeCount([WALL.thickness, WALL.height, WALL.width], q) +
      sampleSolid(ballBody(wallMaterial(2 * q, { fractureEnergy: FRACTURE_ENERGY }))).length / 3,
  });
  return paperRadius;
}

/**
 * The wall's density, bulk modulus and fracture energy: a real material's (`brittle_materials.ts`)
 * or the family's ({@link WALL_DENSITY}, {@link WALL_BULK_MODULUS}, G0 = 27 J/m², which only the
 * ball-impact scenes take: the others set G0 by {@link fractureEnergyBetween}).
 */
export function wallModuli(
  material?: BrittleMaterial,
): { density: number; bulkModulus: number; fractureEnergy: number } {
  if (material) return peridynamicModuli(material);
  return { density: WALL_DENSITY, bulkModulus: WALL_BULK_MODULUS, fractureEnergy: FRACTURE_ENERGY };
}

/**
 * The family's ball: a sphere of radius 0.08 m, 0.05 m in front of the wall's middle, unbreakable,
 * of `density` (20× the wall's).
 */
function ballBody(material: WallMaterial, density = BALL_DENSITY): Body & { kind: "solid" } {
  return {
    kind: "solid",
    name: "ball",
    shape: {
      type: "sphere",
      center: [-(WALL.thickness / 2 + 0.05 + BALL_RADIUS), WALL.bottom + WALL.height / 2, 0],
      radius: BALL_RADIUS,
    },
    density,
    breakable: false,
    velocity: [WALL_IMPACT_SPEED, 0, 0],
    ...material,
  };
}

/** Builds one scale of a brittle-wall scene. */
export function brittleWall(options: BrittleWallOptions): Scene {
  const r = wallRadius(options.scale);
  const spacing = 2 * r;
  const frame = wallSceneFrame(options, r);
  const moduli = wallModuli(options.material);
  const ballDensity = (BALL_DENSITY / WALL_DENSITY) * moduli.density;
  const material = wallMaterial(spacing, moduli);
  const bodies: Body[] = [
    wallBody(material, { x: -WALL.thickness / 2, bottom: WALL.bottom, density: moduli.density }),
    ballBody(material, ballDensity),
  ];
  const impactScale = wallImpactScale(r, { density: ballDensity });
  const { kRef, pDyn } = impactReferences(impactScale);
  return {
    ...frame,
    bodies,
    systems: { peridynamics: { cgIterations: 16, cgTolerance: 1e-3, drag: 0 } },
    handlers: baselineHandlers(impactScale),
    applicableHandlers: [...options.applicableHandlers],
    notes:
      `r = ${r.toPrecision(4)} m, spacing 2r, δ = 3 spacings; ${
        options.material ? `${options.material.name} (${options.material.id}): ` : ""
      }wall ρ = ${moduli.density}, ball ρ = ${ballDensity} kg/m³ at ${WALL_IMPACT_SPEED} m/s; ` +
      `K = ${moduli.bulkModulus} Pa, G0 = ${
        options.material ? moduli.fractureEnergy.toPrecision(3) : moduli.fractureEnergy
      } J/m² (s0 = ${
        Math.sqrt(5 * moduli.fractureEnergy / (9 * moduli.bulkModulus * material.horizon))
          .toExponential(2)
      }` +
      `); k_ref = m v²/(2r)² = ${
        kRef.toFixed(1)
      } N/m; p_dyn = ${pDyn} Pa; dt = min(0.5·r/v_ref, 2r/c_R).`,
  };
}
