/**
 * The parameters of the `akinci` handlers (Akinci et al. 2012 boundary-particle coupling), defined
 * once: the fluid's h, ρ0 and speed of sound, the boundary friction σ, and the boundary volume
 * scale with its levels. `akinci` runs as published (volume scale 1); `akinci-weak` and
 * `akinci-strong` scale the boundary volume Ψ_b by 0.1 and 10, a decade apart as the other
 * families' levels, fixed before any run.
 *
 * @module
 */
import type { ParamSchema } from "../params.ts";

/** The Akinci handlers' parameter schema (the published method and its levels share it). */
export const AKINCI_SCHEMA = {
  h: { description: "the fluid's kernel support radius h (m)", gt: 0 },
  rho0: { description: "the fluid's rest density ρ0 (kg/m³)", gt: 0 },
  soundSpeed: { description: "the fluid's speed of sound c_s (m/s)", gt: 0 },
  friction: { description: "boundary friction σ of Eq. 13 (the fluid's α)", min: 0 },
  volumeScale: {
    description:
      "scale of the boundary volume Ψ_b (Eq. 5; 1 as published): the coupling's stiffness, for sweeps",
    gt: 0,
    default: 1,
  },
} as const satisfies ParamSchema;

/** The boundary-volume scale of `akinci-<level>` (`akinci` itself: the schema's default, 1). */
export const AKINCI_VOLUME_LEVELS = { weak: 0.1, strong: 10 } as const;

/** A stiffness level of the Akinci coupling. */
export type AkinciLevel = keyof typeof AKINCI_VOLUME_LEVELS;
