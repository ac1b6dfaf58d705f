/**
 * The SPH water of the coupled Fig. 8 scenes, by the rule of every SPH scene of the catalogue
 * (`fluid_on_cloth.ts`): ρ0 = 1000 kg/m³, `suggestSphParams`' speed of sound at F =
 * {@link SOUND_SPEED_FACTOR} (the larger of F × the scene's reference speed and √(F·g·H) for the
 * water's depth H), Monaghan's artificial viscosity (α = 0.1), and dt = min(0.5·r/v_ref (CFL,
 * paper §5.1), the SPH limit).
 *
 * @module
 */
import { type SuggestedSphParams, suggestSphParams } from "../core/model/sph_params.ts";
import type { PluginParams } from "../core/scene/scene.ts";
import { SOUND_SPEED_FACTOR } from "./fluid_on_cloth.ts";
import type { ImpactScale } from "./baseline_handlers.ts";

/** Rest density of the water (kg/m³). */
export const WATER_RHO0 = 1000;

/** Gravity along y (m/s²) of the Fig. 8 scenes. */
export const FIG8_GRAVITY = -9.81;

/** The fraction of a radius a particle at the reference speed moves per step (CFL). */
export const CFL_FRACTION = 0.5;

/** SPH water at particle radius r for a scene whose fastest particle moves at `referenceSpeed`. */
export interface SphWater {
  /** The suggested parameters (h, mass, stiffness, viscosity, speed of sound, dtMax). */
  sph: SuggestedSphParams;
  /** The scene's time step: min(CFL_FRACTION·r/v_ref, sph.dtMax). */
  dt: number;
  /** The `sph` system's parameters. */
  system: PluginParams[string];
  /** What Akinci's coupling takes from the fluid (`baselineHandlers`' `fluid`). */
  coupling: { h: number; rho0: number; soundSpeed: number };
  /** The baseline rule's impact quantities for this water arriving at `speed` (m/s). */
  impactScale(speed: number): ImpactScale;
}

/** What {@link sphWater} takes beside the radius. */
export interface SphWaterOptions {
  /** The scene's reference speed (m/s): the fastest the water is expected to move. */
  referenceSpeed: number;
  /** The water's depth at rest (m): a column's height, a pool's depth. */
  depth: number;
  /** `suggestSphParams`' F; default {@link SOUND_SPEED_FACTOR}. */
  soundSpeedFactor?: number;
}

/** The SPH water of a Fig. 8 scene at radius `r` (m). */
export function sphWater(r: number, options: SphWaterOptions): SphWater {
  const sph = suggestSphParams({
    radius: r,
    rho0: WATER_RHO0,
    maxSpeed: options.referenceSpeed,
    gravity: FIG8_GRAVITY,
    depth: options.depth,
    soundSpeedFactor: options.soundSpeedFactor ?? SOUND_SPEED_FACTOR,
  });
  return {
    sph,
    dt: Math.min(CFL_FRACTION * r / options.referenceSpeed, sph.dtMax),
    system: { h: sph.h, rho0: WATER_RHO0, stiffness: sph.stiffness, viscosity: sph.viscosity },
    coupling: { h: sph.h, rho0: WATER_RHO0, soundSpeed: sph.soundSpeed },
    impactScale: (speed) => ({
      particleMass: sph.mass,
      density: WATER_RHO0,
      speed,
      spacing: 2 * r,
      h: sph.h,
    }),
  };
}
