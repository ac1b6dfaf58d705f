/**
 * Fig. 9 (bottom): a FLIP fluid and a brittle peridynamic solid — a block of water thrown at a
 * brittle wall standing on the ground ("solid fracture due to fluid interaction", the paper's
 * abstract), coupled only through particle-level collisions.
 *
 * Physical choices, fixed before any run and the same at every scale except the particle radius r:
 * - the wall of the brittle-wall family (scenes/brittle_wall.ts): 0.12 m thick, 0.5 m tall, 0.5 m
 *   wide, density 1000 kg/m³, K = 10⁷ Pa, δ = 3 spacings, damping ratio 0.05, bottom layer pinned;
 * - water (1000 kg/m³), a block 0.7 m tall and 0.7 m wide (the wall's face and a margin around
 *   it) and as long as Table I's 1.4M fluid particles need at the `paper` radius (0.45 m), 0.3 m
 *   in front of the wall, thrown at it at 5 m/s (a breaking wave's speed), simulated by FLIP
 *   (dx ≈ 2 spacings, PIC/FLIP 0.97); the domain reaches behind the block (whole 0.3 m steps);
 * - the fracture energy by the family's rule: the critical stretch s0 = √(5G0/(9Kδ)) halfway (on a
 *   log scale) between the wall's strain under its own weight, ρgH/K ≈ 5·10⁻⁴, and the strain of
 *   the water's impact, ρ_w·v²/K = 2.5·10⁻³: s0 ≈ 1.1·10⁻³ (G0 follows from δ at each scale);
 * - dt = min(0.5·r/v_ref (CFL, v_ref = 1.2 × 5 m/s), the wall's crack-speed bound 2r/c_R);
 *   baselines by the rule of every scene
 *   (scenes/baseline_handlers.ts) with the water's particle mass, density and speed;
 * - `paper` scale: the radius at which the wall holds Table I's 191K solid particles (Fig. 9,
 *   bottom); the block's length gives its 1.4M fluid particles at that radius.
 *
 * @module
 */
import type { Body, Scale, Scene } from "../core/scene/scene.ts";
import { baselineHandlers, impactReferences } from "./baseline_handlers.ts";
import {
  bodyFractureEnergy,
  type BrittleWallOptions,
  WALL_GRAVITY,
  WALL_IMPACT_SPEED,
  WALL_SIZE,
  wallBody,
  wallImpactScale,
  wallMaterial,
  wallModuli,
  wallSceneFrame,
} from "./brittle_wall.ts";
import { flipCellSize, RADIUS_BY_SCALE } from "./fluid_on_cloth.ts";
import { boxLatticeCount, radiusForCount } from "./paper_radius.ts";

/** Table I's solid particle count of Fig. 9 (bottom), the size of the `paper` scale. */
export const FIG9_SOLID_PARTICLES = 191_000;

const WALL = { bottom: -0.45, x: 0.1 };
const WATER = { height: 0.7, width: 0.7, gap: 0.3 };

/** Table I's fluid particle count of Fig. 9 (bottom), the block's size at the `paper` radius. */
export const FIG9_BOTTOM_FLUID_PARTICLES = 1_400_000;
const WATER_DENSITY = 1000;

/** What varies between scenes of the family: as for the brittle-wall scenes. */
export type FluidOnWallOptions = BrittleWallOptions;

/**
 * The particle radius of a scale: the family's, or at `paper` the radius whose wall lattice holds
 * Table I's solid count (`radiusForCount`).
 */
export function fluidWallRadius(scale: Scale): number {
  if (scale !== "paper") return RADIUS_BY_SCALE[scale];
  const size = [WALL_SIZE.thickness, WALL_SIZE.height, WALL_SIZE.width];
  return radiusForCount(FIG9_SOLID_PARTICLES, {
    guess: Math.cbrt(size[0] * size[1] * size[2] / FIG9_SOLID_PARTICLES) / 2,
    count: (r) => boxLatticeCount(size, r),
  });
}

/**
 * The water block's length along x (m), the same at every scale: a whole number of `paper`
 * spacings such that the block holds {@link FIG9_BOTTOM_FLUID_PARTICLES} at the `paper` radius.
 */
export function fig9WaterLength(): number {
  const r = fluidWallRadius("paper");
  const face = boxLatticeCount([WATER.height, WATER.width], r);
  return Math.round(FIG9_BOTTOM_FLUID_PARTICLES / face) * 2 * r;
}

/** Builds one scale of the FLIP-against-a-brittle-wall scene. */
export function fluidOnWall(options: FluidOnWallOptions): Scene {
  const r = fluidWallRadius(options.scale);
  const spacing = 2 * r;
  const frame = wallSceneFrame(options, r);
  const horizon = 3 * spacing;
  const { density, bulkModulus } = wallModuli(options.material);
  // s0 halfway on a log scale between the static and the impact strain (module doc), or a real
  // material's G0 (options.material)
  const staticStrain = density * -WALL_GRAVITY * WALL_SIZE.height / bulkModulus;
  const impactStrain = WATER_DENSITY * WALL_IMPACT_SPEED * WALL_IMPACT_SPEED / bulkModulus;
  const fractureEnergy = bodyFractureEnergy(
    { static: staticStrain, impact: impactStrain },
    { bulkModulus, horizon, material: options.material },
  );
  const s0 = Math.sqrt(5 * fractureEnergy / (9 * bulkModulus * horizon));
  const length = fig9WaterLength();
  const waterMin = WALL.x - WATER.gap - length;
  // the frame's domain, reaching at least 5 cm behind the block in whole 0.3 m steps, so that
  // every side stays a multiple of 0.3 m and a FLIP cell of about 2 spacings divides them all
  const reach = frame.domain.max[0] - (waterMin - 0.05);
  const domain: Scene["domain"] = {
    min: [
      frame.domain.max[0] - 0.3 * Math.ceil(reach / 0.3 - 1e-9),
      frame.domain.min[1],
      frame.domain.min[2],
    ],
    max: [...frame.domain.max],
  };
  const dx = flipCellSize(domain, spacing);
  const bodies: Body[] = [
    wallBody(wallMaterial(spacing, { fractureEnergy, bulkModulus }), { ...WALL, density }),
    {
      kind: "fluid",
      name: "water",
      system: "flip",
      shape: {
        type: "box",
        min: [waterMin, WALL.bottom, -WATER.width / 2],
        max: [waterMin + length, WALL.bottom + WATER.height, WATER.width / 2],
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
    domain,
    bodies,
    systems: {
      peridynamics: { cgIterations: 16, cgTolerance: 1e-3, drag: 0 },
      flip: { dx, flipRatio: 0.97, cgIterations: 200, cgTolerance: 1e-4 },
    },
    handlers: baselineHandlers(impactScale),
    applicableHandlers: [...options.applicableHandlers],
    notes:
      `r = ${r.toPrecision(4)} m, spacing 2r, δ = 3 spacings; ${
        options.material ? `${options.material.name} (${options.material.id}): ` : ""
      }wall ρ = ${density} kg/m³, ` +
      `K = ${bulkModulus} Pa, s0 = ${s0.toExponential(2)} (G0 = ${
        fractureEnergy.toPrecision(3)
      } J/m²); water ${WATER_DENSITY} kg/m³, a ${
        length.toFixed(3)
      } × ${WATER.height} × ${WATER.width} m block at ${WALL_IMPACT_SPEED} m/s, FLIP dx = ${
        dx.toPrecision(4)
      } m; ` +
      `k_ref = m v²/(2r)² = ${
        kRef.toFixed(1)
      } N/m; p_dyn = ${pDyn} Pa; dt = min(0.5·r/v_ref, 2r/c_R).`,
  };
}
