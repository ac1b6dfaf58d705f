/**
 * The handler parameters of a scene by the one rule every scene family uses (fixed before any
 * run, never tuned on outcomes): penalty stiffness in units of k_ref = m·v²/(2r)², the stiffness
 * that stops one particle of mass m arriving at the impact speed v within one diameter 2r (½·k·(2r)²
 * = ½·m·v²) — the levels `PENALTY_LEVELS` (weak/medium/strong = 1/10/100·k_ref: stopped within 2r,
 * 2r/√10 and 2r/10, decades apart as the paper's levels; an earlier 3/30/300·k_ref had been placed
 * by looking at outcomes; these are kept whatever the runs show); SPH-based contact pressure in
 * units of the dynamic pressure p_dyn = ρ·v² — `KERNEL_REPULSION_LEVELS` (0.1/1/10·p_dyn); impulse
 * and merge-split with their schemas' defaults (restitution 0.5; α = 1, β = 0, n in [8, 64], §6)
 * unless given; Akinci's coupling (scenes with an SPH fluid) with the fluid's own h, ρ0 and speed
 * of sound and, as boundary friction σ, the fluid's artificial viscosity coefficient α
 * ({@link ARTIFICIAL_VISCOSITY_ALPHA}): the boundary is as viscous as the fluid (Akinci's Eq. 13 is
 * Monaghan's artificial viscosity); its levels `akinci-weak`/`akinci-strong` scale the boundary
 * volume Ψ_b by `AKINCI_VOLUME_LEVELS` (0.1/10).
 *
 * The level factors and the defaults are the plug-ins' own (`core/handler_schemas/`); this file
 * computes only what depends on the scene (k_ref, p_dyn, the fluid's parameters). The defaults are
 * written into the scene's data as before, so a scene (and the configuration hash of its cases)
 * is unchanged by where they are defined.
 *
 * @module
 */
import { AKINCI_VOLUME_LEVELS } from "../core/handler_schemas/akinci_schema.ts";
import { IMPULSE_SCHEMA } from "../core/handler_schemas/impulse_schema.ts";
import {
  KERNEL_REPULSION_FAMILY_LEVEL,
  KERNEL_REPULSION_LEVELS,
} from "../core/handler_schemas/kernel_repulsion_schema.ts";
import {
  mergeSplitSceneDefaults,
  type MergeSplitValues,
} from "../core/handler_schemas/merge_split_schema.ts";
import { PENALTY_FAMILY_LEVEL, PENALTY_LEVELS } from "../core/handler_schemas/penalty_schema.ts";
import { paramDefaults } from "../core/params.ts";
import type { PluginParams } from "../core/scene/scene.ts";
import { ARTIFICIAL_VISCOSITY_ALPHA } from "../core/reference/sph_reference.ts";

/** The quantities of the rule. */
export interface ImpactScale {
  /** Mass m of the impacting particles (kg). */
  particleMass: number;
  /** Density ρ of the impacting body (kg/m³). */
  density: number;
  /** Impact speed v (m/s). */
  speed: number;
  /** Particle spacing 2r (m). */
  spacing: number;
  /** Kernel support h of the SPH-based force (m). */
  h: number;
}

/** k_ref = m·v²/(2r)² and p_dyn = ρ·v² of an impact. */
export function impactReferences(s: ImpactScale): { kRef: number; pDyn: number } {
  return {
    kRef: s.particleMass * s.speed * s.speed / (s.spacing * s.spacing),
    pDyn: s.density * s.speed * s.speed,
  };
}

/** Options of {@link baselineHandlers}. */
export interface BaselineHandlerOptions {
  /** Merge-split's parameters where they differ from the paper's defaults. */
  mergeSplit?: MergeSplitValues;
  /** The SPH fluid of the scene, if any: Akinci's coupling takes its parameters. */
  fluid?: { h: number; rho0: number; soundSpeed: number };
}

/** `family-<level>` → parameters, for each level of a family, in the levels' order. */
function levelled(
  family: string,
  levels: Readonly<Record<string, number>>,
  params: (factor: number) => Record<string, number>,
): PluginParams {
  const entries = Object.entries(levels);
  return Object.fromEntries(entries.map(([level, f]) => [`${family}-${level}`, params(f)]));
}

/** Every handler's parameters by the rule above. */
export function baselineHandlers(
  s: ImpactScale,
  options: BaselineHandlerOptions = {},
): PluginParams {
  const { kRef, pDyn } = impactReferences(s);
  const mergeSplit = Object.entries(options.mergeSplit ?? {}).filter(([, v]) => v !== undefined);
  const fluid = options.fluid;
  const penalty = (f: number) => ({ stiffness: f * kRef });
  const kernelRepulsion = (f: number) => ({ stiffness: f * pDyn, h: s.h, rho0: s.density });
  const akinci = fluid ? { ...fluid, friction: ARTIFICIAL_VISCOSITY_ALPHA } : undefined;
  return {
    "merge-split": { ...mergeSplitSceneDefaults(), ...Object.fromEntries(mergeSplit) },
    ...levelled("penalty", PENALTY_LEVELS, penalty),
    // the families run at explicit values (`--param`, `--sweep`); by default the medium level
    penalty: penalty(PENALTY_LEVELS[PENALTY_FAMILY_LEVEL]),
    "kernel-repulsion": kernelRepulsion(KERNEL_REPULSION_LEVELS[KERNEL_REPULSION_FAMILY_LEVEL]),
    ...levelled("kernel-repulsion", KERNEL_REPULSION_LEVELS, kernelRepulsion),
    impulse: paramDefaults(IMPULSE_SCHEMA),
    ...(akinci
      ? {
        akinci,
        ...levelled("akinci", AKINCI_VOLUME_LEVELS, (f) => ({ ...akinci, volumeScale: f })),
      }
      : {}),
  };
}
