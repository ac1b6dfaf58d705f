/**
 * Fig. 9 (bottom): a FLIP fluid and a brittle peridynamic solid — a block of water thrown at a
 * brittle wall standing on the ground ("solid fracture due to fluid interaction", the paper's
 * abstract), coupled only through particle-level collisions.
 *
 * Physical choices, fixed before any run and the same at every scale except the particle radius r:
 * - the wall of the brittle-wall family (scenes/brittle_wall.ts): 0.12 m thick, 0.5 m tall, 0.5 m
 *   wide, density 1000 kg/m³, K = 10⁷ Pa, δ = 3 spacings, damping ratio 0.05, bottom layer pinned;
 * - water (1000 kg/m³), a 0.2 × 0.4 × 0.5 m block 0.3 m in front of the wall, thrown at it at
 *   5 m/s (a breaking wave's speed), simulated by FLIP (dx ≈ 2 spacings, PIC/FLIP 0.97);
 * - the fracture energy by the family's rule: the critical stretch s0 = √(5G0/(9Kδ)) halfway (on a
 *   log scale) between the wall's strain under its own weight, ρgH/K ≈ 5·10⁻⁴, and the strain of
 *   the water's impact, ρ_w·v²/K = 2.5·10⁻³: s0 ≈ 1.1·10⁻³ (G0 follows from δ at each scale);
 * - dt = min(0.5·r/v_ref (CFL, v_ref = 1.2 × 5 m/s), the wall's crack-speed bound 2r/c_R);
 *   baselines by the rule of every scene
 *   (scenes/baseline_handlers.ts) with the water's particle mass, density and speed;
 * - `paper` scale: the radius that gives Table I's 191K solid particles (Fig. 9, bottom).
 *
 * @module
 */
import type { Body, Scale, Scene } from "../core/scene.ts";
import { baselineHandlers, impactReferences } from "./baseline_handlers.ts";
import {
  type BrittleWallOptions,
  fractureEnergyBetween,
  WALL_BULK_MODULUS,
  WALL_DENSITY,
  WALL_GRAVITY,
  WALL_IMPACT_SPEED,
  WALL_SIZE,
  wallBody,
  wallImpactScale,
  wallMaterial,
  wallSceneFrame,
} from "./brittle_wall.ts";
import { flipCellSize, RADIUS_BY_SCALE } from "./fluid_on_cloth.ts";

/** Table I's solid particle count of Fig. 9 (bottom), the size of the `paper` scale. */
export const FIG9_SOLID_PARTICLES = 191_000;

const WALL = { bottom: -0.45, x: 0.1 };
const WATER = { length: 0.2, height: 0.4, width: 0.5, gap: 0.3 };
const WATER_DENSITY = 1000;

/** What varies between scenes of the family: as for the brittle-wall scenes. */
export type FluidOnWallOptions = BrittleWallOptions;

/** The particle radius of a scale: the family's, or Table I's solid count at `paper`. */
export function fluidWallRadius(scale: Scale): number {
  if (scale !== "paper") return RADIUS_BY_SCALE[scale];
  const volume = WALL_SIZE.thickness * WALL_SIZE.height * WALL_SIZE.width;
  return Math.cbrt(volume / FIG9_SOLID_PARTICLES) / 2;
}

/** Builds one scale of the FLIP-against-a-brittle-wall scene. */
export function fluidOnWall(options: FluidOnWallOptions): Scene {
  const r = fluidWallRadius(options.scale);
  const spacing = 2 * r;
  const frame = wallSceneFrame(options, r);
  const horizon = 3 * spacing;
  // s0 halfway on a log scale between the static and the impact strain (module doc)
  const staticStrain = WALL_DENSITY * -WALL_GRAVITY * WALL_SIZE.height / WALL_BULK_MODULUS;
  const impactStrain = WATER_DENSITY * WALL_IMPACT_SPEED * WALL_IMPACT_SPEED / WALL_BULK_MODULUS;
  const s0 = Math.sqrt(staticStrain * impactStrain);
  const fractureEnergy = fractureEnergyBetween(
    { static: staticStrain, impact: impactStrain },
    { bulkModulus: WALL_BULK_MODULUS, horizon },
  );
  const dx = flipCellSize(frame.domain, spacing);
  const waterMin = WALL.x - WATER.gap - WATER.length;
  const bodies: Body[] = [
    wallBody(wallMaterial(spacing, { fractureEnergy }), WALL),
    {
      kind: "fluid",
      name: "water",
      system: "flip",
      shape: {
        type: "box",
        min: [waterMin, WALL.bottom, -WATER.width / 2],
        max: [waterMin + WATER.length, WALL.bottom + WATER.height, WATER.width / 2],
      },
      spacing,
      jitter: 0.05,
      velocity: [WALL_IMPACT_SPEED, 0, 0],
      particleMass: WATER_DENSITY * spacing ** 3,
    },
  ];
  const impactScale = wallImpactScale(r, { density: WATER_DENSITY });
  const { kRef, pDyn } = impactReferences(impactScale);
  return {
    ...frame,
    bodies,
    systems: {
      peridynamics: { cgIterations: 16, cgTolerance: 1e-3, drag: 0 },
      flip: { dx, flipRatio: 0.97, cgIterations: 200, cgTolerance: 1e-4 },
    },
    handlers: baselineHandlers(impactScale),
    applicableHandlers: [...options.applicableHandlers],
    notes:
      `r = ${r.toPrecision(4)} m, spacing 2r, δ = 3 spacings; wall ρ = ${WALL_DENSITY} kg/m³, ` +
      `K = ${WALL_BULK_MODULUS} Pa, s0 = ${s0.toExponential(2)} (G0 = ${
        fractureEnergy.toPrecision(3)
      } J/m²); water ${WATER_DENSITY} kg/m³ at ${WALL_IMPACT_SPEED} m/s, FLIP dx = ${
        dx.toPrecision(4)
      } m; ` +
      `k_ref = m v²/(2r)² = ${
        kRef.toFixed(1)
      } N/m; p_dyn = ${pDyn} Pa; dt = min(0.5·r/v_ref, 2r/c_R).`,
  };
}
