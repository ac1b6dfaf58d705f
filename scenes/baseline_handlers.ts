/**
 * The handler parameters of a scene by the one rule every scene family uses (fixed before any
 * run, never tuned on outcomes): penalty stiffness in units of k_ref = m·v²/(2r)², the stiffness
 * that stops one particle of mass m arriving at the impact speed v within one diameter 2r (½·k·(2r)²
 * = ½·m·v²) — weak/medium/strong = 1/10/100·k_ref: stopped within 2r, 2r/√10 and 2r/10, decades
 * apart as the paper's levels (an earlier 3/30/300·k_ref had been placed by looking at outcomes;
 * these are kept whatever the runs show); SPH-based contact pressure in units of the dynamic
 * pressure p_dyn = ρ·v² — 0.1/1/10·p_dyn; impulse restitution 0.5; merge-split with the paper's
 * defaults (α = 1, β = 0, n in [8, 64], §6) unless given; Akinci's coupling (scenes with an SPH
 * fluid) with the fluid's own h, ρ0 and speed of sound and, as boundary friction σ, the fluid's
 * artificial viscosity coefficient α ({@link ARTIFICIAL_VISCOSITY_ALPHA}): the boundary is as
 * viscous as the fluid (Akinci's Eq. 13 is Monaghan's artificial viscosity); its levels
 * `akinci-weak`/`akinci-strong` scale the boundary volume Ψ_b by 0.1/10 ({@link AKINCI_VOLUME_LEVELS}).
 *
 * @module
 */
import type { PluginParams } from "../core/scene.ts";
import { ARTIFICIAL_VISCOSITY_ALPHA } from "../core/sph_reference.ts";

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

/**
 * Akinci's stiffness levels beside the published coupling (`akinci`, volume scale 1): the boundary
 * volume Ψ_b × 0.1 (`akinci-weak`) and × 10 (`akinci-strong`), a decade apart as the other
 * families' levels, fixed before any run.
 */
export const AKINCI_VOLUME_LEVELS = { weak: 0.1, strong: 10 } as const;

/** Options of {@link baselineHandlers}. */
export interface BaselineHandlerOptions {
  /** Merge-split's parameters where they differ from the paper's defaults. */
  mergeSplit?: { alpha?: number; beta?: number; nMin?: number; nMax?: number };
  /** The SPH fluid of the scene, if any: Akinci's coupling takes its parameters. */
  fluid?: { h: number; rho0: number; soundSpeed: number };
}

/** Every handler's parameters by the rule above. */
export function baselineHandlers(
  s: ImpactScale,
  options: BaselineHandlerOptions = {},
): PluginParams {
  const { kRef, pDyn } = impactReferences(s);
  const mergeSplit = options.mergeSplit ?? {};
  const fluid = options.fluid;
  const kernelRepulsion = (f: number) => ({ stiffness: f * pDyn, h: s.h, rho0: s.density });
  return {
    "merge-split": {
      alpha: mergeSplit.alpha ?? 1,
      beta: mergeSplit.beta ?? 0,
      nMin: mergeSplit.nMin ?? 8,
      nMax: mergeSplit.nMax ?? 64,
    },
    "penalty-weak": { stiffness: 1 * kRef },
    "penalty-medium": { stiffness: 10 * kRef },
    "penalty-strong": { stiffness: 100 * kRef },
    // the families run at explicit values (`--param`, `--sweep`); by default the medium level
    penalty: { stiffness: 10 * kRef },
    "kernel-repulsion": kernelRepulsion(1),
    "kernel-repulsion-weak": kernelRepulsion(0.1),
    "kernel-repulsion-medium": kernelRepulsion(1),
    "kernel-repulsion-strong": kernelRepulsion(10),
    impulse: { restitution: 0.5 },
    ...(fluid
      ? {
        akinci: { ...fluid, friction: ARTIFICIAL_VISCOSITY_ALPHA },
        "akinci-weak": {
          ...fluid,
          friction: ARTIFICIAL_VISCOSITY_ALPHA,
          volumeScale: AKINCI_VOLUME_LEVELS.weak,
        },
        "akinci-strong": {
          ...fluid,
          friction: ARTIFICIAL_VISCOSITY_ALPHA,
          volumeScale: AKINCI_VOLUME_LEVELS.strong,
        },
      }
      : {}),
  };
}
