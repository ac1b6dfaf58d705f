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
  type BufferTable,
  checkCount,
  checkPassOptions,
  ParticlePass,
} from "../../runtime/particle_pass.ts";
import { defineStruct, type StructLayout } from "../../runtime/struct_layout.ts";

/** WGSL source of the kernel (`gpu/handlers/impulse/impulse.wgsl`). */
export const IMPULSE_WGSL: string = Deno.readTextFileSync(
  new URL("./impulse.wgsl", import.meta.url),
);

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

/** Options of {@link Impulse}. */
export interface ImpulseOptions extends ImpulseKernelParams {
  /** Largest particle count; sizes the checks on bound buffers. */
  capacity: number;
  /** K of the contact slots: the detector's `maxPerParticle` (default 16). */
  maxPerParticle?: number;
  /** Particles processed by the next encode; default `capacity`. */
  count?: number;
  /** `override WORKGROUP_SIZE` (1..256, default 64). */
  workgroupSize?: number;
  /** Label prefix of every GPU object; default "impulse". */
  label?: string;
}

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
export interface ImpulseBindings {
  readonly buffers: Readonly<ImpulseBuffers>;
  readonly group: GPUBindGroup;
}

/** Binding number, element size and element count of each buffer. */
const BINDINGS: BufferTable<ImpulseBuffers> = {
  pos: [1, 16, "N"],
  vel: [2, 16, "N"],
  mass: [3, 4, "N"],
  contacts: [4, 4, "NK"],
  contactCount: [5, 4, "N"],
  velOut: [6, 16, "N"],
};

const OWNER = "Impulse";

function restitution(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new RangeError(`Impulse: ${name} must be a number in [0, 1], got ${value}`);
  }
  return value;
}

/**
 * Impulse pass (see the module comment). Bindings (group 0 of `impulse.wgsl`): 0 `params`
 * uniform; 1 `pos`, 2 `vel`, 3 `mass`, 4 `contacts`, 5 `contactCount` (read-only storage);
 * 6 `velOut` (storage, overwritten).
 */
export class Impulse {
  /** Device the pipeline lives on. */
  readonly device: GPUDevice;
  /** Label prefix of every GPU object. */
  readonly label: string;
  /** Largest particle count. */
  readonly capacity: number;
  /** K of the contact slots. */
  readonly maxPerParticle: number;
  /** Workgroup size of the kernel. */
  readonly workgroupSize: number;
  #params: Readonly<ImpulseKernelParams>;
  #count: number;
  readonly #pass: ParticlePass<ImpulseBuffers>;

  /** Creates the pipeline and the uniform (see {@link ImpulseOptions}). */
  constructor(device: GPUDevice, options: ImpulseOptions) {
    const sizes = checkPassOptions(OWNER, device, options, true);
    this.device = device;
    this.label = options.label ?? "impulse";
    this.capacity = sizes.capacity;
    this.maxPerParticle = sizes.maxPerParticle;
    this.workgroupSize = sizes.workgroupSize;
    this.#params = this.#checkParams(options, "options");
    this.#count = checkCount(OWNER, "options.count", options.count ?? this.capacity, this.capacity);
    this.#pass = new ParticlePass(device, {
      ...sizes,
      owner: OWNER,
      label: this.label,
      code: IMPULSE_WGSL,
      entryPoint: "impulse",
      constants: { WORKGROUP_SIZE: sizes.workgroupSize, MAX_PER_PARTICLE: sizes.maxPerParticle },
      paramsSize: IMPULSE_PARAMS_STRUCT.size,
      buffers: BINDINGS,
      output: "velOut",
    });
    this.#write();
  }

  /** Particles processed by the next encodes. */
  get count(): number {
    return this.#count;
  }

  /** The current restitution. */
  get params(): Readonly<ImpulseKernelParams> {
    return this.#params;
  }

  /** Sets the particle count (≤ capacity); written with `queue.writeBuffer` (next submissions). */
  setCount(count: number): void {
    this.#count = checkCount(OWNER, "count", count, this.capacity);
    this.#write();
  }

  /** Changes the restitution; same timing as {@link setCount}. */
  setParams(params: Partial<ImpulseKernelParams>): void {
    this.#params = this.#checkParams({ ...this.#params, ...params }, "params");
    this.#write();
  }

  /**
   * Creates the bind group of a set of buffers; reuse it across steps. Throws a `TypeError`
   * naming a missing buffer, one without `STORAGE` usage or `velOut` equal to `vel`, and a
   * `RangeError` naming one too small.
   */
  bind(buffers: ImpulseBuffers): ImpulseBindings {
    if (buffers?.vel && buffers.vel === buffers.velOut) {
      throw new TypeError("Impulse.bind: buffers.velOut must not be buffers.vel");
    }
    return this.#pass.bind(buffers);
  }

  /** Encodes one compute pass writing the post-collision velocities into `velOut`. */
  encode(
    encoder: GPUCommandEncoder,
    bindings: ImpulseBindings,
    options: { timestampWrites?: GPUComputePassTimestampWrites } = {},
  ): void {
    this.#pass.encode(encoder, bindings, this.#count, options);
  }

  /** Destroys the uniform buffer (bound buffers belong to the caller). */
  destroy(): void {
    this.#pass.destroy();
  }

  #checkParams(p: ImpulseKernelParams, name: string): Readonly<ImpulseKernelParams> {
    return Object.freeze({ restitution: restitution(p.restitution, `${name}.restitution`) });
  }

  #write(): void {
    this.#pass.writeParams(IMPULSE_PARAMS_STRUCT.pack({ count: this.#count, ...this.#params }));
  }
}
