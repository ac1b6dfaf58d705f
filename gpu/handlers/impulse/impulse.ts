/**
 * Impulse-based collision response on WebGPU: the impulse baseline of paper §6.1 (refs [39]–[43];
 * Hahn 1988, Mirtich & Canny 1995). Formula and f64 reference: `impulseVelocities` in
 * `core/baselines.ts`.
 *
 * One Jacobi sweep over the contact slots of `gpu/state/collision_detection.ts` (Rule 1, Eq. 21, not
 * excluded; Rule 1 is re-tested on the bound positions, so an older list is safe). For every
 * partner j that approaches, n · (v_j − v_i) < 0 with n = x_j − x_i (Rule 2, Eq. 22, evaluated
 * with the bound `vel`), n̂ = n/|n|:
 *
 *   Δv_ij = (1 + e) m_j / (m_i + m_j) · ((v_j − v_i) · n̂) n̂,
 *   velOut_i = v_i + (1/a_i) Σ_j Δv_ij,   a_i = number of approaching contacts of i
 *
 * (velOut_i = v_i when a_i = 0; w copied). e ∈ [0, 1] is the restitution: a single pair leaves
 * with relative normal velocity −e times the approach one, momentum conserved for any masses, and
 * e = 1 with equal masses exchanges the normal velocities. **Jacobi averaging**: all contacts are
 * resolved from the same pre-collision velocities in parallel, so summing the full impulses of
 * simultaneous contacts over-corrects (a particle squeezed between two approaching neighbours
 * would get both full corrections and fly off); dividing by a_i keeps each update a convex
 * combination of pair resolutions (the constraint averaging of Macklin et al. 2014). The price:
 * with a_i ≠ a_j momentum is not exactly conserved, and a sweep may leave some pairs
 * approaching; call {@link Impulse.encode} again (ping-ponging vel/velOut) for more sweeps. No
 * position correction, as in the paper's comparison.
 *
 * `vel` is read and `velOut` written (they must be different buffers):
 *
 * ```ts
 * const impulse = new Impulse(device, { capacity, maxPerParticle: detect.maxPerParticle,
 *   restitution: 0.5 });
 * const bindings = impulse.bind({ pos, vel, mass, contacts, contactCount, velOut });
 * impulse.setCount(n);
 * impulse.encode(encoder, bindings);   // after the detector's encode
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
import impulseWgsl from "./impulse.wgsl" with { type: "text" };

/** WGSL source of the kernel (`gpu/handlers/impulse/impulse.wgsl`). */
export const IMPULSE_WGSL: string = impulseWgsl;

/** Uniform `ImpulseParams` of `impulse.wgsl`. */
export const IMPULSE_PARAMS_STRUCT: StructLayout = defineStruct("ImpulseParams", [
  ["count", "u32"],
  ["restitution", "f32"],
]);

/** Material parameters of {@link Impulse}. */
export interface ImpulseKernelParams {
  /** Coefficient of restitution e in [0, 1]. */
  restitution: number;
}

/** Options of {@link Impulse} (default label "impulse"). */
export interface ImpulseOptions extends CountedPassOptions, ImpulseKernelParams {}

/** Buffers of {@link Impulse.bind} (all `STORAGE`; N = capacity, K = maxPerParticle). */
export interface ImpulseBuffers {
  /** `array<vec4f>`, N: xyz member position, w collision radius. */
  pos: GPUBuffer;
  /** `array<vec4f>`, N: xyz velocity before the collisions. */
  vel: GPUBuffer;
  /** `array<f32>`, N: particle mass (> 0). */
  mass: GPUBuffer;
  /** `array<u32>`, N·K: contact slots of `CollisionDetection`. */
  contacts: GPUBuffer;
  /** `array<u32>`, N: contact counts of `CollisionDetection`. */
  contactCount: GPUBuffer;
  /** `array<vec4f>`, N: output velocities (overwritten for the first `count` particles). */
  velOut: GPUBuffer;
}

/** Bind group of one set of {@link ImpulseBuffers}, from {@link Impulse.bind}. */
export type ImpulseBindings = ParticlePassBindings<ImpulseBuffers>;

function restitution(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new RangeError(`Impulse: ${name} must be a number in [0, 1], got ${value}`);
  }
  return value;
}

const SPEC: CountedPassSpec<ImpulseBuffers, ImpulseKernelParams> = {
  owner: "Impulse",
  label: "impulse",
  code: IMPULSE_WGSL,
  entryPoint: "impulse",
  contacts: true,
  paramsSize: IMPULSE_PARAMS_STRUCT.size,
  buffers: {
    pos: [1, 16, "N"],
    vel: [2, 16, "N"],
    mass: [3, 4, "N"],
    contacts: [4, 4, "NK"],
    contactCount: [5, 4, "N"],
    velOut: [6, 16, "N"],
  },
  output: "velOut",
  checkParams: (p, name) =>
    Object.freeze({ restitution: restitution(p.restitution, `${name}.restitution`) }),
  pack: (count, params) => IMPULSE_PARAMS_STRUCT.pack({ count, ...params }),
  checkBuffers(buffers) {
    if (buffers.vel && buffers.vel === buffers.velOut) {
      throw new TypeError("Impulse.bind: buffers.velOut must not be buffers.vel");
    }
  },
};

/**
 * Impulse pass (see the module comment), writing the post-collision velocities into `velOut`
 * (which must not be `vel`). Bindings (group 0 of `impulse.wgsl`): 0 `params` uniform; 1 `pos`,
 * 2 `vel`, 3 `mass`, 4 `contacts`, 5 `contactCount` (read-only storage); 6 `velOut` (storage,
 * overwritten).
 */
export class Impulse extends CountedPass<ImpulseBuffers, ImpulseKernelParams> {
  /** Creates the pipeline and the uniform (see {@link ImpulseOptions}). */
  constructor(device: GPUDevice, options: ImpulseOptions) {
    super(device, SPEC, options);
  }
}
