/**
 * The paper's ball-on-cloth family (Figs. 3 and 7): a peridynamic ball (implicit, with "a high
 * threshold that prevents fracturing") falls onto a single-layer mass-spring cloth pinned at its
 * edges; the cloth is integrated "within the same implicit integration system used for
 * peridynamics" (its body names the `peridynamics` system).
 *
 * Physical choices, fixed before any run and the same at every scale except the particle radius r:
 * - the cloth of the fluid scenes (0.6 m × 0.6 m at y = 0, spacing 2r, the same springs), and a
 *   ball of radius 0.1 m on the same lattice, density 1000 kg/m³, so that "all particles have
 *   identical mass" (Fig. 3) — Fig. 7 multiplies the ball's density by 10 and 100;
 * - the ball is a bond-based peridynamic solid with horizon δ = 3 spacings and bulk modulus
 *   K = 10⁶ Pa: its strain under the impact's dynamic pressure ρv² (≤ 10⁴ Pa at 3 m/s) stays
 *   about 1 %, a stiff elastic ball; it never breaks; bond damping ratio 0.05;
 * - two heights (Fig. 3 top and bottom): the ball's bottom 0.05 m or 0.4 m above the cloth, at
 *   rest, so it hits at about 1.0 or 2.8 m/s;
 * - dt from the CFL condition 0.5·r / v_ref (paper §5.1), v_ref = 1.2 × the impact speed;
 * - baselines by the rule of the fluid scenes: penalty stiffness in units of k_ref = m·v²/(2r)²
 *   (the stiffness that stops one particle arriving at the impact speed v within one diameter),
 *   weak/medium/strong = 1/10/100·k_ref; SPH-based contact pressure p_dyn = ρ·v² × 0.1/1/10 with
 *   h = 4r; impulse restitution 0.5.
 *
 * @module
 */
import type { Body, Scale, Scene } from "../core/scene.ts";
import { baselineHandlers, impactReferences } from "./baseline_handlers.ts";
import { RADIUS_BY_SCALE } from "./fluid_on_cloth.ts";

/** What varies between the scenes of the family. */
export interface SolidOnClothOptions {
  id: string;
  figure: string;
  description: string;
  scale: Scale;
  /** Height of the ball's bottom above the cloth at rest (m). */
  drop: number;
  /** Density of the ball as a multiple of the cloth's (1 for Fig. 3; 1, 10, 100 for Fig. 7). */
  massRatio: number;
  applicableHandlers: readonly string[];
  /** Seed; default 2021. */
  seed?: number;
}

const CLOTH_HALF = 0.3;
const BALL_RADIUS = 0.1;
const DENSITY = 1000;
const BULK_MODULUS = 1e6;
const GRAVITY = -9.81;

/** Builds one scale of a ball-on-cloth scene. */
export function solidOnCloth(options: SolidOnClothOptions): Scene {
  const r = RADIUS_BY_SCALE[options.scale];
  const spacing = 2 * r;
  const impact = Math.sqrt(2 * -GRAVITY * options.drop);
  const referenceSpeed = Math.ceil(1.2 * impact * 10) / 10;
  const cflFraction = 0.5;
  const dt = cflFraction * r / referenceSpeed;
  const n = Math.round((2 * CLOTH_HALF) / spacing) + 1;
  const clothSize = (n - 1) * spacing;
  const mass = DENSITY * spacing ** 3;
  const ballDensity = DENSITY * options.massRatio;
  const horizon = 3 * spacing;
  const bodies: Body[] = [
    {
      kind: "cloth",
      name: "cloth",
      system: "peridynamics",
      origin: [-clothSize / 2, 0, -clothSize / 2],
      rows: n,
      cols: n,
      spacing,
      particleMass: mass,
      stretch: 2e4,
      shear: 1e4,
      bend: 2e3,
      damping: 0.02,
      pinned: "edges",
    },
    {
      kind: "solid",
      name: "ball",
      shape: {
        type: "sphere",
        center: [0, spacing + options.drop + BALL_RADIUS, 0],
        radius: BALL_RADIUS,
      },
      spacing,
      density: ballDensity,
      bulkModulus: BULK_MODULUS,
      fractureEnergy: 100,
      horizon,
      breakable: false,
      dampingRatio: 0.05,
      velocity: [0, 0, 0],
    },
  ];
  // The rule of the fluid scenes, with the ball's particle mass and density.
  const impactScale = {
    particleMass: mass * options.massRatio,
    density: ballDensity,
    speed: impact,
    spacing,
    h: 4 * r,
  };
  const { kRef, pDyn } = impactReferences(impactScale);
  const fallTime = Math.sqrt(2 * options.drop / -GRAVITY);
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
    // the fall, then 0.25 s of impact and rebound
    duration: Math.ceil((fallTime + 0.25) * 100) / 100,
    metricsEvery: Math.max(1, Math.round(0.01 / dt)),
    bodies,
    systems: { peridynamics: { cgIterations: 16, cgTolerance: 1e-3, drag: 0 } },
    handlers: baselineHandlers(impactScale),
    applicableHandlers: [...options.applicableHandlers],
    notes: `r = ${r} m, spacing 2r; ball ${BALL_RADIUS} m, ρ = ${ballDensity} kg/m³, K = ` +
      `${BULK_MODULUS} Pa, δ = 3 spacings, unbreakable; drop ${options.drop} m, impact ` +
      `${impact.toFixed(2)} m/s; k_ref = m v²/(2r)² = ${kRef.toFixed(1)} N/m; ` +
      `p_dyn = ρ v² = ${pDyn.toFixed(0)} Pa; dt = ${cflFraction}·r/v_ref.`,
  };
}
