/**
 * The dam-break scenes (`dam-break-sph`, `dam-break-flip`): a column of water released against the
 * back wall of a tank, the classic validation of a free-surface fluid solver (Martin & Moyce 1952,
 * "An experimental study of the collapse of liquid columns on a rigid horizontal plane", Part IV:
 * the two-dimensional columns). The front position and the residual column height over time are
 * measured on the GPU (`frontX`, `columnHeight` of `gpu/metrics/fluid_metrics.ts`) and compared with
 * the experiment outside the project, in its dimensionless form Z = frontX / a against
 * T = t·√(2g/a) and η = columnHeight / a against τ = t·√(g/a).
 *
 * Physical choices, the same at every scale except the particle radius r (the scale sets the
 * resolution, not the physics); none is tuned towards the experiment:
 * - water: ρ0 = 1000 kg/m³, g = 9.81 m/s²;
 * - the column: width a = {@link DAM_BREAK_COLUMN_WIDTH} along the tank (x), height 2a (y), and a
 *   across (z), the full width of the tank: a square base a × a, a quasi-two-dimensional column
 *   like Martin & Moyce's, which spanned their channel (the side walls are frictionless);
 * - the tank: the scene's domain, a wall on every side (inelastic, frictionless), 8a long
 *   (at least 5a asked), 3a high, a wide; the column stands against the back wall x = 0 on the
 *   floor y = 0. 8a leaves the front room to run well past the range of the classic
 *   measurements before it meets the far wall;
 * - duration 4·√(a/g) (at least 3.5·√(a/g) asked), i.e. T = 4√2 ≈ 5.7;
 * - reference speed √(2g·2a), the free-fall speed from the column's top, which bounds the speeds
 *   of the collapse; dt = 0.5·r / referenceSpeed (CFL, paper §5.1) and, for SPH, the SPH limit;
 * - SPH (`suggestSphParams`): h = 4r, the speed of sound of every SPH scene (F =
 *   `SOUND_SPEED_FACTOR` = 10: c = max(F·v_ref, √(F·g·2a)) = 10·v_ref, the standard weakly
 *   compressible choice, which holds a front's acoustic jump v/c to 10 %), linear state equation,
 *   Monaghan's artificial viscosity (α = 0.1); the particle mass makes a resting lattice read ρ0;
 * - FLIP: MAC cell dx = 2·spacing = 4r (2 × 2 × 2 particles per cell), PIC/FLIP blend 0.97,
 *   CG at most 100 iterations to a relative residual of 1e-4 (the system's defaults); particle
 *   mass ρ0·spacing³ (each particle's share of the column's volume);
 * - a is the same at every scale, chosen so that `tiny` has a few hundred particles (6 × 12 × 6
 *   = 432) and `small` a few thousand (3456): the default suite stays fast.
 *
 * A dam break has a single body, so no collision handler has anything to act on (a handler acts
 * between bodies, and the particles of one fluid body do not collide with each other: pressure
 * keeps them apart). The scenes list `merge-split` alone, which runs as the identity (no
 * collisions, no meta-particles): the scenes validate the fluid systems that the paper's coupling
 * builds on.
 *
 * @module
 */
import { suggestSphParams } from "../core/model/sph_params.ts";
import { mergeSplitSceneDefaults } from "../core/handler_schemas/merge_split_schema.ts";
import type { PluginParams, Scale, Scene } from "../core/scene/scene.ts";
import { RADIUS_BY_SCALE, rejectFlipSoundSpeed, SOUND_SPEED_FACTOR } from "./fluid_on_cloth.ts";

/** Width a of the water column (m), the same at every scale. */
export const DAM_BREAK_COLUMN_WIDTH = 0.24;

/** The fluid system of a dam-break scene. */
export type DamBreakFluid = "sph" | "flip";

/** What varies between the dam-break scenes. */
export interface DamBreakOptions {
  id: string;
  scale: Scale;
  /** The system that integrates the water: `sph` (explicit) or `flip` (semi-implicit). */
  fluidSystem: DamBreakFluid;
  /** Seed (lattice jitter); default 2021. */
  seed?: number;
  /** `suggestSphParams`' F for the SPH water; default `SOUND_SPEED_FACTOR`. SPH only. */
  soundSpeedFactor?: number;
}

const G = 9.81;
const RHO0 = 1000;
/** Tank length, height and width in units of a. */
const TANK = [8, 3, 1] as const;
const CFL_FRACTION = 0.5;
/** Seconds between metrics samples (rounded to whole steps). */
const SAMPLE_PERIOD = 0.01;

/** Builds one scale of a dam-break scene. */
export function damBreak(options: DamBreakOptions): Scene {
  const { scale, fluidSystem } = options;
  if (fluidSystem !== "sph" && fluidSystem !== "flip") {
    throw new RangeError(
      `damBreak: fluidSystem must be "sph" or "flip", got ${JSON.stringify(fluidSystem)}`,
    );
  }
  const r = RADIUS_BY_SCALE[scale];
  const spacing = 2 * r;
  const a = DAM_BREAK_COLUMN_WIDTH;
  const referenceSpeed = Math.sqrt(2 * G * 2 * a);
  const duration = 4 * Math.sqrt(a / G);
  const cflDt = CFL_FRACTION * r / referenceSpeed;
  const isSph = fluidSystem === "sph";
  if (!isSph) rejectFlipSoundSpeed(options.id, options.soundSpeedFactor);
  const factor = options.soundSpeedFactor ?? SOUND_SPEED_FACTOR;
  const sph = suggestSphParams({
    radius: r,
    rho0: RHO0,
    maxSpeed: referenceSpeed,
    gravity: -G,
    depth: 2 * a,
    soundSpeedFactor: factor,
  });
  const dt = isSph ? Math.min(cflDt, sph.dtMax) : cflDt;
  const particleMass = isSph ? sph.mass : RHO0 * spacing ** 3;
  const dx = 2 * spacing;
  const systems: PluginParams = isSph
    ? { sph: { h: sph.h, rho0: RHO0, stiffness: sph.stiffness, viscosity: sph.viscosity } }
    : { flip: { dx, flipRatio: 0.97, cgIterations: 100, cgTolerance: 1e-4 } };
  const solver = isSph
    ? `SPH h = ${sph.h} m, c = ${sph.soundSpeed.toFixed(2)} m/s (${factor}× v_ref), k = ${
      sph.stiffness.toExponential(3)
    } Pa, mu = ${sph.viscosity.toFixed(4)} Pa·s (artificial, α = 0.1), particle mass ${
      particleMass.toExponential(4)
    } kg (a resting lattice reads rho0); dt = min(${CFL_FRACTION}·r/v_ref, SPH limit ${
      sph.dtMax.toExponential(3)
    } s)`
    : `FLIP dx = ${dx} m (4r), flipRatio 0.97, CG 100 iterations to 1e-4, particle mass ` +
      `rho0·spacing³ = ${particleMass.toExponential(4)} kg; dt = ${CFL_FRACTION}·r/v_ref`;
  return {
    id: options.id,
    scale,
    figure: "validation (Martin & Moyce 1952)",
    description: `A column of water (a × 2a × a, a = ${a} m) collapses along a tank 8a long ` +
      `(${fluidSystem.toUpperCase()}); front and column height over time, for comparison with ` +
      "the classic dam-break experiment.",
    seed: options.seed ?? 2021,
    gravity: [0, -G, 0],
    domain: { min: [0, 0, 0], max: [TANK[0] * a, TANK[1] * a, TANK[2] * a] },
    radius: r,
    dt,
    cfl: { referenceSpeed, fraction: CFL_FRACTION },
    duration,
    metricsEvery: Math.max(1, Math.round(SAMPLE_PERIOD / dt)),
    bodies: [{
      kind: "fluid",
      name: "water",
      ...(isSph ? {} : { system: "flip" }),
      shape: { type: "box", min: [0, 0, 0], max: [a, 2 * a, a] },
      spacing,
      jitter: 0.05,
      velocity: [0, 0, 0],
      particleMass,
    }],
    systems,
    handlers: { "merge-split": mergeSplitSceneDefaults() },
    applicableHandlers: ["merge-split"],
    damBreak: { backWallX: 0, floorY: 0, columnWidth: a },
    notes: `Water rho0 = ${RHO0} kg/m³, g = ${G} m/s²; column a = ${a} m wide (x), 2a high (y), ` +
      `a across (z, the tank's full width); tank ${TANK[0]}a × ${TANK[1]}a × ${TANK[2]}a, ` +
      `walls inelastic and frictionless; r = ${r} m, spacing 2r; v_ref = sqrt(2g·2a) = ${
        referenceSpeed.toFixed(3)
      } m/s; duration 4·sqrt(a/g) = ${duration.toFixed(4)} s; ${solver}. ` +
      "A single body: no handler has pairs to act on (a handler acts between bodies; one fluid " +
      "body's particles do not collide with each other), so only merge-split is listed, and it " +
      "runs as the identity.",
  };
}
