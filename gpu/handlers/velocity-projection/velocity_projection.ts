/**
 * Velocity projection on WebGPU: the fluid–solid penetration prevention of Gao et al. 2018 (FLIP
 * and shape matching, §5.2, Eqs. 19–20), a baseline collision handler. Formula, generalisation to
 * particles and f64 reference: `velocityProjection` in `core/reference/velocity_projection_reference.ts`.
 *
 * One Jacobi sweep over the contact slots of `gpu/state/collision_detection.ts`, one invocation
 * per particle, gathered (no atomics). For every pair of a fluid particle p (not pinned) and a
 * non-fluid particle c that still intersect (Rule 1, Eq. 21, re-tested on the bound positions)
 * and approach (Rule 2, Eq. 22, with the bound `vel`), n̂ = (x_p − x_c)/|x_p − x_c| and
 * w = (v_p − v_c) · n̂ < 0; with a_p the number of such pairs of p:
 *
 *   velOut_p = v_p − (1/a_p) Σ_c w n̂                      (Eq. 19, the mean over p's contacts)
 *   velOut_c = v_c + Σ_p m_p/(a_p m_c) · w n̂               (Eq. 20: the momentum p lost via c)
 *
 * so the momentum of every pair, and the total, is conserved for any contact counts. A solid
 * particle reads a_p by walking p's contact slot (K² work per solid particle in contact with
 * fluid) and takes the pair only if p's slot holds it, so a slot that overflowed on one side
 * changes neither. Pinned solid particles keep their velocity (infinitely heavy); pinned fluid
 * particles process nothing; fluid–fluid and solid–solid pairs are untouched; `w` is copied. The
 * body kinds come from the `kind` buffer ({@link KIND_BITS}, passed as `override`s).
 *
 * `vel` is read and `velOut` written (they must be different buffers):
 *
 * ```ts
 * const vp = new VelocityProjection(device, { capacity, maxPerParticle: detect.maxPerParticle });
 * const bindings = vp.bind({ pos, vel, mass, kind, contacts, contactCount, velOut });
 * vp.setCount(n);
 * vp.encode(encoder, bindings);   // after the step's integration
 * ```
 *
 * @module
 */

import {
  CountedPass,
  type CountedPassOptions,
  type CountedPassSpec,
  type ParticlePassBindings,
} from "../../runtime/particle_pass.ts";
import { defineStruct, type StructLayout } from "../../runtime/struct_layout.ts";
import { KIND_BITS } from "../../state/particle_state.ts";
import velocityProjectionWgsl from "./velocity_projection.wgsl" with { type: "text" };

/** WGSL source of the kernel (`gpu/handlers/velocity-projection/velocity_projection.wgsl`). */
export const VELOCITY_PROJECTION_WGSL: string = velocityProjectionWgsl;

/** Uniform `VelocityProjectionParams` of `velocity_projection.wgsl`. */
export const VELOCITY_PROJECTION_PARAMS_STRUCT: StructLayout = defineStruct(
  "VelocityProjectionParams",
  [["count", "u32"]],
);

/** Options of {@link VelocityProjection} (default label "velocity projection"). */
export type VelocityProjectionOptions = CountedPassOptions;

/** Buffers of {@link VelocityProjection.bind} (all `STORAGE`; N = capacity, K = maxPerParticle). */
export interface VelocityProjectionBuffers {
  /** `array<vec4f>`, N: xyz member position, w collision radius. */
  pos: GPUBuffer;
  /** `array<vec4f>`, N: xyz velocity before the projection. */
  vel: GPUBuffer;
  /** `array<f32>`, N: particle mass (> 0). */
  mass: GPUBuffer;
  /** `array<u32>`, N: body-kind bits ({@link KIND_BITS}: fluid, pinned). */
  kind: GPUBuffer;
  /** `array<u32>`, N·K: contact slots of `CollisionDetection`. */
  contacts: GPUBuffer;
  /** `array<u32>`, N: contact counts of `CollisionDetection`. */
  contactCount: GPUBuffer;
  /** `array<vec4f>`, N: output velocities (overwritten for the first `count` particles). */
  velOut: GPUBuffer;
}

/** Bind group of one set of {@link VelocityProjectionBuffers}, from {@link VelocityProjection.bind}. */
export type VelocityProjectionBindings = ParticlePassBindings<VelocityProjectionBuffers>;

/** The projection has no parameters of its own. */
type NoParams = Record<never, never>;

// a uniform binding of at least 16 bytes, whatever the struct's size
const PARAMS_SIZE = Math.max(16, VELOCITY_PROJECTION_PARAMS_STRUCT.size);

const SPEC: CountedPassSpec<VelocityProjectionBuffers, NoParams> = {
  owner: "VelocityProjection",
  label: "velocity projection",
  code: VELOCITY_PROJECTION_WGSL,
  entryPoint: "velocity_projection",
  contacts: true,
  constants: { KIND_FLUID: KIND_BITS.fluid, KIND_PINNED: KIND_BITS.pinned },
  paramsSize: PARAMS_SIZE,
  buffers: {
    pos: [1, 16, "N"],
    vel: [2, 16, "N"],
    mass: [3, 4, "N"],
    kind: [4, 4, "N"],
    contacts: [5, 4, "NK"],
    contactCount: [6, 4, "N"],
    velOut: [7, 16, "N"],
  },
  output: "velOut",
  checkParams: () => Object.freeze({}),
  pack(count) {
    const data = new ArrayBuffer(PARAMS_SIZE);
    new Uint8Array(data).set(new Uint8Array(VELOCITY_PROJECTION_PARAMS_STRUCT.pack({ count })));
    return data;
  },
  checkBuffers(buffers) {
    if (buffers.vel && buffers.vel === buffers.velOut) {
      throw new TypeError(
        "VelocityProjection.bind: buffers.velOut must not be buffers.vel (the sweep reads every " +
          "partner's old velocity); pass a scratch buffer and copy back",
      );
    }
  },
};

/**
 * Velocity-projection pass (see the module comment), writing the projected velocities into
 * `velOut` (which must not be `vel`). Bindings (group 0 of `velocity_projection.wgsl`): 0 `params`
 * uniform; 1 `pos`, 2 `vel`, 3 `mass`, 4 `kind`, 5 `contacts`, 6 `contactCount` (read-only
 * storage); 7 `velOut` (storage, overwritten).
 */
export class VelocityProjection extends CountedPass<VelocityProjectionBuffers, NoParams> {
  /** Creates the pipeline and the uniform (see {@link VelocityProjectionOptions}). */
  constructor(device: GPUDevice, options: VelocityProjectionOptions) {
    super(device, SPEC, options);
  }
}
