/**
 * Fig. 8 (top), `fig8-cloth-tori`: SPH water poured onto a single-layer cloth that holds three
 * peridynamic tori: fluid–cloth and cloth–tori two-way coupling, three systems of three kinds in
 * one scene (explicit SPH, implicit mass-spring, implicit peridynamics), coupled by particle
 * collisions alone.
 *
 * Physical choices, fixed before any run and the same at every scale except the particle radius r:
 * - the cloth of the fluid-on-cloth scenes (`fluid_on_cloth.ts`): stretch/shear/bend 2·10⁴, 10⁴,
 *   2·10³ N/m, damping 0.02, air drag 3 s⁻¹, edges pinned, particle mass the water's, here
 *   0.6 m wide at y = 0, integrated by its own `mass-spring` system;
 * - three tori lying on it (major radius 0.045 m, tube radius 0.025 m, their centres 0.13 m from
 *   the cloth's centre at 120°), at rest just clear of it (2r), of the brittle-wall family's
 *   material (ρ = 1000 kg/m³, K = 10⁷ Pa, δ = 3 spacings, damping ratio 0.05) and unbreakable:
 *   the paper's tori hold together;
 * - a water column (radius 0.12 m, height 0.5 m, SPH by `sph_water.ts`) released at rest 0.12 m
 *   above the cloth over its centre: it lands at up to √(2g·0.62) ≈ 3.5 m/s; reference speed
 *   1.2 × that;
 * - 0.6 s simulated (the column has landed by about 0.35 s);
 * - baselines by the rule of every scene (`baseline_handlers.ts`) with the water's particle mass,
 *   density and impact speed;
 * - sizes: the `paper` scale (r = 1.5 mm, the catalogue's) gives Table I's counts, 102K solid
 *   (201² cloth + 3 tori) and 838K fluid particles (Table I: 102K and 845K).
 *
 * @module
 */
import type { Body, Scale, Scene } from "../core/scene/scene.ts";
import { baselineHandlers, impactReferences } from "./baseline_handlers.ts";
import { WALL_BULK_MODULUS, WALL_DENSITY, wallMaterial } from "./brittle_wall.ts";
import { RADIUS_BY_SCALE } from "./fluid_on_cloth.ts";
import { CFL_FRACTION, FIG8_GRAVITY, sphWater } from "./sph_water.ts";

/** What varies between builds of the scene. */
export interface ClothToriOptions {
  id: string;
  scale: Scale;
  applicableHandlers: readonly string[];
  /** Seed (lattice jitter); default 2021. */
  seed?: number;
  /** `suggestSphParams`' F for the water (`sph_water.ts`); default `SOUND_SPEED_FACTOR`. */
  soundSpeedFactor?: number;
}

const CLOTH_WIDTH = 0.6;
const TORUS = { major: 0.045, minor: 0.025, ring: 0.13 } as const;
const COLUMN = { radius: 0.12, height: 0.5, gap: 0.12 } as const;

/** Builds one scale of `fig8-cloth-tori`. */
export function clothTori(options: ClothToriOptions): Scene {
  const r = RADIUS_BY_SCALE[options.scale];
  const spacing = 2 * r;
  const impact = Math.sqrt(2 * -FIG8_GRAVITY * (COLUMN.gap + COLUMN.height));
  const referenceSpeed = Math.ceil(1.2 * impact * 10) / 10;
  const water = sphWater(r, {
    referenceSpeed,
    depth: COLUMN.height,
    soundSpeedFactor: options.soundSpeedFactor,
  });
  const n = Math.round(CLOTH_WIDTH / spacing) + 1;
  const half = (n - 1) * spacing / 2;
  const material = wallMaterial(spacing, { fractureEnergy: 1 });
  const tori: Body[] = [90, 210, 330].map((deg, k) => {
    const a = (deg * Math.PI) / 180;
    return {
      kind: "solid",
      name: `torus ${k + 1}`,
      shape: {
        type: "torus",
        center: [TORUS.ring * Math.cos(a), TORUS.minor + spacing, TORUS.ring * Math.sin(a)],
        majorRadius: TORUS.major,
        minorRadius: TORUS.minor,
      },
      density: WALL_DENSITY,
      breakable: false,
      velocity: [0, 0, 0],
      ...material,
    };
  });
  const bodies: Body[] = [
    {
      kind: "cloth",
      name: "cloth",
      system: "mass-spring",
      origin: [-half, 0, -half],
      rows: n,
      cols: n,
      spacing,
      particleMass: water.sph.mass,
      stretch: 2e4,
      shear: 1e4,
      bend: 2e3,
      damping: 0.02,
      pinned: "edges",
    },
    ...tori,
    {
      kind: "fluid",
      name: "water",
      shape: {
        type: "cylinder",
        base: [0, COLUMN.gap, 0],
        radius: COLUMN.radius,
        height: COLUMN.height,
      },
      spacing,
      jitter: 0.05,
      velocity: [0, 0, 0],
      particleMass: water.sph.mass,
    },
  ];
  const impactScale = water.impactScale(impact);
  const { kRef } = impactReferences(impactScale);
  return {
    id: options.id,
    scale: options.scale,
    figure: "Fig. 8",
    description:
      "SPH water poured onto a pinned cloth holding three peridynamic tori (Table I: Fig. 8 top); " +
      "fluid–cloth and cloth–tori two-way coupling, three systems.",
    seed: options.seed ?? 2021,
    gravity: [0, FIG8_GRAVITY, 0],
    domain: { min: [-0.45, -0.45, -0.45], max: [0.45, 0.75, 0.45] },
    radius: r,
    dt: water.dt,
    cfl: { referenceSpeed, fraction: CFL_FRACTION },
    duration: 0.6,
    metricsEvery: Math.max(1, Math.round(0.01 / water.dt)),
    bodies,
    systems: {
      "mass-spring": { cgIterations: 12, cgTolerance: 1e-3, drag: 3 },
      peridynamics: { cgIterations: 16, cgTolerance: 1e-3, drag: 0 },
      sph: water.system,
    },
    handlers: baselineHandlers(impactScale, { fluid: water.coupling }),
    applicableHandlers: [...options.applicableHandlers],
    notes:
      `r = ${r} m, spacing 2r; cloth ${n}×${n}; tori R = ${TORUS.major} m, a = ${TORUS.minor} m, ` +
      `ρ = ${WALL_DENSITY} kg/m³, K = ${WALL_BULK_MODULUS} Pa, unbreakable; water column ` +
      `${COLUMN.radius} × ${COLUMN.height} m, impact ${
        impact.toFixed(2)
      } m/s; SPH c = ${water.sph.soundSpeed} m/s; ` +
      `k_ref = m v²/(2r)² = ${kRef.toFixed(1)} N/m; dt = min(${CFL_FRACTION}·r/v_ref, SPH limit).`,
  };
}
