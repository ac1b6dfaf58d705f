/**
 * Penalty collision force on WebGPU: the distance-based penalty baseline of paper §6.1 (refs [6]
 * Terzopoulos et al. 1989, [8] Tonnesen 1991). Formula and f64 reference: `penaltyForces` in
 * `core/baselines.ts`.
 *
 * For every partner j in particle i's contact slot (the `contacts` / `contactCount` output of
 * `gpu/state/collision_detection.ts`: Rule 1, Eq. 21, and not excluded), with d = |x_i − x_j|,
 * n̂ = (x_i − x_j)/d, δ = r_i + r_j − d and v_n = (v_i − v_j) · n̂:
 *
 *   f_i += max(k δ − c v_n, 0) · n̂          (nothing for d = 0)
 *
 * Rule 1 is re-tested on the bound positions (nothing for d ≥ r_i + r_j), so a contact list
 * detected on older positions never pushes particles that have separated since.
 *
 * k is the stiffness (N/m), c the optional normal damping (N·s/m, default 0); the clamp keeps the
 * dashpot from pulling separating particles together. The pair force is computed identically on
 * both sides, so f_ji = −f_ij bit for bit and Σ f_i = 0 up to summation rounding, as long as no
 * contact slot overflowed (an overflowed slot drops one side of a pair).
 *
 * The force is **accumulated**: `force[i].xyz += f_i` (w kept), so it can be added onto a
 * system's force buffer before the per-DOF gather; clear the buffer first to get it alone.
 *
 * ```ts
 * const penalty = new PenaltyForce(device, { capacity, maxPerParticle: detect.maxPerParticle,
 *   stiffness: 1e4 });
 * const bindings = penalty.bind({ pos, vel, contacts, contactCount, force });
 * penalty.setCount(n);
 * penalty.encode(encoder, bindings);   // after the detector's encode
 * ```
 *
 * @module
 */

import {
  type BufferTable,
  checkCount,
  checkNonNegative,
  checkPassOptions,
  ParticlePass,
} from "../../runtime/particle_pass.ts";
import { defineStruct, type StructLayout } from "../../runtime/struct_layout.ts";

/** WGSL source of the kernel (`gpu/handlers/penalty/penalty_force.wgsl`). */
export const PENALTY_FORCE_WGSL: string = Deno.readTextFileSync(
  new URL("./penalty_force.wgsl", import.meta.url),
);

/** Uniform `PenaltyParams` of `penalty_force.wgsl`. */
export const PENALTY_PARAMS_STRUCT: StructLayout = defineStruct("PenaltyParams", [
  ["count", "u32"],
  ["stiffness", "f32"],
  ["damping", "f32"],
]);

/** Material parameters of {@link PenaltyForce}. */
export interface PenaltyForceParams {
  /** Stiffness k (N/m, ≥ 0) on the penetration depth r_i + r_j − d. */
  stiffness: number;
  /** Normal damping c (N·s/m, ≥ 0); default 0. */
  damping?: number;
}

/** Options of {@link PenaltyForce}. */
export interface PenaltyForceOptions extends PenaltyForceParams {
  /** Largest particle count; sizes the checks on bound buffers. */
  capacity: number;
  /** K of the contact slots: the detector's `maxPerParticle` (default 16). */
  maxPerParticle?: number;
  /** Particles processed by the next encode; default `capacity`. */
  count?: number;
  /** `override WORKGROUP_SIZE` (1..256, default 64). */
  workgroupSize?: number;
  /** Label prefix of every GPU object; default "penalty force". */
  label?: string;
}

/** Buffers of {@link PenaltyForce.bind} (all `STORAGE`; N = capacity, K = maxPerParticle). */
export interface PenaltyForceBuffers {
  /** `array<vec4f>`, N: xyz member position, w collision radius. */
  pos: GPUBuffer;
  /** `array<vec4f>`, N: xyz member velocity (damping term). */
  vel: GPUBuffer;
  /** `array<u32>`, N·K: contact slots of `CollisionDetection`. */
  contacts: GPUBuffer;
  /** `array<u32>`, N: contact counts of `CollisionDetection`. */
  contactCount: GPUBuffer;
  /** `array<vec4f>`, N: forces, read and accumulated into (xyz). */
  force: GPUBuffer;
}

/** Bind group of one set of {@link PenaltyForceBuffers}, from {@link PenaltyForce.bind}. */
export interface PenaltyForceBindings {
  readonly buffers: Readonly<PenaltyForceBuffers>;
  readonly group: GPUBindGroup;
}

/** Binding number, element size and element count of each buffer. */
const BINDINGS: BufferTable<PenaltyForceBuffers> = {
  pos: [1, 16, "N"],
  vel: [2, 16, "N"],
  contacts: [3, 4, "NK"],
  contactCount: [4, 4, "N"],
  force: [5, 16, "N"],
};

const OWNER = "PenaltyForce";

/**
 * Penalty force pass (see the module comment). Bindings (group 0 of `penalty_force.wgsl`):
 * 0 `params` uniform; 1 `pos`, 2 `vel`, 3 `contacts`, 4 `contactCount` (read-only storage);
 * 5 `force` (storage, accumulated).
 */
export class PenaltyForce {
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
  #params: Readonly<Required<PenaltyForceParams>>;
  #count: number;
  readonly #pass: ParticlePass<PenaltyForceBuffers>;

  /** Creates the pipeline and the uniform (see {@link PenaltyForceOptions}). */
  constructor(device: GPUDevice, options: PenaltyForceOptions) {
    const sizes = checkPassOptions(OWNER, device, options, true);
    this.device = device;
    this.label = options.label ?? "penalty force";
    this.capacity = sizes.capacity;
    this.maxPerParticle = sizes.maxPerParticle;
    this.workgroupSize = sizes.workgroupSize;
    this.#params = this.#checkParams(options, "options");
    this.#count = checkCount(OWNER, "options.count", options.count ?? this.capacity, this.capacity);
    this.#pass = new ParticlePass(device, {
      ...sizes,
      owner: OWNER,
      label: this.label,
      code: PENALTY_FORCE_WGSL,
      entryPoint: "penalty_force",
      constants: { WORKGROUP_SIZE: sizes.workgroupSize, MAX_PER_PARTICLE: sizes.maxPerParticle },
      paramsSize: PENALTY_PARAMS_STRUCT.size,
      buffers: BINDINGS,
      output: "force",
    });
    this.#write();
  }

  /** Particles processed by the next encodes. */
  get count(): number {
    return this.#count;
  }

  /** The current stiffness and damping. */
  get params(): Readonly<Required<PenaltyForceParams>> {
    return this.#params;
  }

  /** Sets the particle count (≤ capacity); written with `queue.writeBuffer` (next submissions). */
  setCount(count: number): void {
    this.#count = checkCount(OWNER, "count", count, this.capacity);
    this.#write();
  }

  /** Changes stiffness and/or damping; same timing as {@link setCount}. */
  setParams(params: Partial<PenaltyForceParams>): void {
    this.#params = this.#checkParams({ ...this.#params, ...params }, "params");
    this.#write();
  }

  /**
   * Creates the bind group of a set of buffers; reuse it across steps. Throws a `TypeError`
   * naming a missing buffer or one without `STORAGE` usage and a `RangeError` naming one too
   * small.
   */
  bind(buffers: PenaltyForceBuffers): PenaltyForceBindings {
    return this.#pass.bind(buffers);
  }

  /** Encodes one compute pass adding the penalty forces into `force`. */
  encode(
    encoder: GPUCommandEncoder,
    bindings: PenaltyForceBindings,
    options: { timestampWrites?: GPUComputePassTimestampWrites } = {},
  ): void {
    this.#pass.encode(encoder, bindings, this.#count, options);
  }

  /** Destroys the uniform buffer (bound buffers belong to the caller). */
  destroy(): void {
    this.#pass.destroy();
  }

  #checkParams(p: PenaltyForceParams, name: string): Readonly<Required<PenaltyForceParams>> {
    return Object.freeze({
      stiffness: checkNonNegative(OWNER, `${name}.stiffness`, p.stiffness),
      damping: checkNonNegative(OWNER, `${name}.damping`, p.damping ?? 0),
    });
  }

  #write(): void {
    this.#pass.writeParams(PENALTY_PARAMS_STRUCT.pack({ count: this.#count, ...this.#params }));
  }
}
