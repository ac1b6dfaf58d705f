/**
 * The handler parameters of a scene by the one rule every scene family uses (fixed before any
 * run, never tuned on outcomes; docs/scenes.md): penalty stiffness in units of k_ref, the larger of
 * k_impact = m·v²/(2r)², the stiffness that stops one particle of mass m arriving at the impact
 * speed v within one diameter 2r (½·k·(2r)² = ½·m·v²), and k_load = W/(n·r), the stiffness that
 * holds the impacting body's weight W at rest on the n particles within one diameter of its bottom,
 * each overlapping by r — the levels `PENALTY_LEVELS` (weak/medium/strong = 1/10/100·k_ref, decades
 * apart as the paper's levels; an earlier 3/30/300·k_ref had been placed by looking at outcomes;
 * these are kept whatever the runs show); SPH-based contact pressure in units of p_ref, the larger
 * of the dynamic pressure ρ·v² and W/(n·(2r)²) — `KERNEL_REPULSION_LEVELS` (0.1/1/10·p_ref). One
 * value per figure: the scenes of one experiment that differ in one parameter (Fig. 3's two
 * heights, Fig. 7's three mass ratios) share the levels of the most demanding of them
 * ({@link figureReferences}), so that they see the same spring; the rule per scene alone is the
 * setup `per-scene-levels` (`core/setups.ts`). Impulse
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
import { ARTIFICIAL_VISCOSITY_ALPHA } from "../core/model/sph_params.ts";

/** The static load of {@link ImpactScale}: the impacting body's weight at rest on the other. */
export interface StaticLoad {
  /** The body's weight W (N). */
  weight: number;
  /** The particles n within one diameter of its bottom that carry it. */
  bearing: number;
}

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
  /** The body's weight at rest on the other, where it comes to rest on it under gravity. */
  load?: StaticLoad;
}

/** The references of the rule: k_ref and p_ref, and the terms they are the larger of. */
export interface ImpactReferences {
  /** k_ref = max(k_impact, k_load) (N/m). */
  kRef: number;
  /** p_ref = max(p_dyn, p_load) (Pa). */
  pDyn: number;
  /** k_impact = m·v²/(2r)² (N/m). */
  kImpact: number;
  /** p_dyn = ρ·v² (Pa). */
  pImpact: number;
  /** k_load = W/(n·r), 0 without a static load (N/m). */
  kLoad: number;
  /** p_load = W/(n·(2r)²), 0 without a static load (Pa). */
  pLoad: number;
}

/** k_ref = max(m·v²/(2r)², W/(n·r)) and p_ref = max(ρ·v², W/(n·(2r)²)) of an impact. */
export function impactReferences(s: ImpactScale): ImpactReferences {
  const kImpact = s.particleMass * s.speed * s.speed / (s.spacing * s.spacing);
  const pImpact = s.density * s.speed * s.speed;
  const perParticle = s.load ? s.load.weight / s.load.bearing : 0;
  const kLoad = perParticle / (s.spacing / 2);
  const pLoad = perParticle / (s.spacing * s.spacing);
  return {
    kRef: Math.max(kImpact, kLoad),
    pDyn: Math.max(pImpact, pLoad),
    kImpact,
    pImpact,
    kLoad,
    pLoad,
  };
}

/**
 * The levels' references of a figure: the largest k_ref and p_ref of its scenes' impacts, the
 * terms of the scene that set each.
 */
export function figureReferences(scenes: readonly ImpactScale[]): ImpactReferences {
  if (scenes.length === 0) throw new RangeError("figureReferences: no scene given");
  const refs = scenes.map(impactReferences);
  const k = refs.reduce((a, b) => (b.kRef > a.kRef ? b : a));
  const p = refs.reduce((a, b) => (b.pDyn > a.pDyn ? b : a));
  return { ...k, pDyn: p.pDyn, pImpact: p.pImpact, pLoad: p.pLoad };
}

/**
 * The particles within one diameter 2r of a ball's bottom: the volume of that cap of a ball of
 * radius R, π·(2r)²·(R − 2r/3), over a particle's (2r)³.
 */
export function ballBearing(radius: number, spacing: number): number {
  return Math.PI * spacing * spacing * (radius - spacing / 3) / spacing ** 3;
}

/**
 * The levels of `refs` that cannot hold the body's weight at rest: penalty levels below k_load,
 * SPH-based levels below p_load, as `family-level` ids (none without a static load).
 */
export function levelsBelowLoad(refs: ImpactReferences): string[] {
  const below = (
    family: string,
    levels: Readonly<Record<string, number>>,
    ref: number,
    load: number,
  ) => Object.entries(levels).filter(([, f]) => f * ref < load).map(([l]) => `${family}-${l}`);
  return [
    ...below("penalty", PENALTY_LEVELS, refs.kRef, refs.kLoad),
    ...below("kernel-repulsion", KERNEL_REPULSION_LEVELS, refs.pDyn, refs.pLoad),
  ];
}

/** Options of {@link baselineHandlers}. */
export interface BaselineHandlerOptions {
  /** Merge-split's parameters where they differ from the paper's defaults. */
  mergeSplit?: MergeSplitValues;
  /** The SPH fluid of the scene, if any: Akinci's coupling takes its parameters. */
  fluid?: { h: number; rho0: number; soundSpeed: number };
  /** The levels' references when not the scene's own (its figure's: {@link figureReferences}). */
  references?: ImpactReferences;
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
  const { kRef, pDyn } = options.references ?? impactReferences(s);
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
