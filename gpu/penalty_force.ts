/**
 * Penalty collision force on WebGPU: the distance-based penalty baseline of paper §6.1 (refs [6]
 * Terzopoulos et al. 1989, [8] Tonnesen 1991). Formula and f64 reference: `penaltyForces` in
 * `core/baselines.ts`.
 *
 * For every partner j in particle i's contact slot (the `contacts` / `contactCount` output of
 * `gpu/collision_detection.ts`: Rule 1, Eq. 21, and not excluded), with d = |x_i − x_j|,
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

import { defineStruct, type StructLayout } from "./struct_layout.ts";

/** WGSL source of the kernel (`gpu/penalty_force.wgsl`). */
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

/** Binding number, element size and element count ("N" or "NK") of each buffer. */
const BINDINGS: Record<keyof PenaltyForceBuffers, [number, number, "N" | "NK"]> = {
  pos: [1, 16, "N"],
  vel: [2, 16, "N"],
  contacts: [3, 4, "NK"],
  contactCount: [4, 4, "N"],
  force: [5, 16, "N"],
};

function nonNegative(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`PenaltyForce: ${name} must be a finite number >= 0, got ${value}`);
  }
  return value;
}

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
  readonly #uniform: GPUBuffer;
  readonly #layout: GPUBindGroupLayout;
  readonly #pipeline: GPUComputePipeline;

  /** Creates the pipeline and the uniform (see {@link PenaltyForceOptions}). */
  constructor(device: GPUDevice, options: PenaltyForceOptions) {
    if (!device) throw new TypeError("PenaltyForce: device is required");
    if (!options) throw new TypeError("PenaltyForce: options are required");
    this.device = device;
    this.label = options.label ?? "penalty force";
    const capacity = options.capacity;
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(
        `PenaltyForce: options.capacity must be an integer >= 1, got ${capacity}`,
      );
    }
    this.capacity = capacity;
    const k = options.maxPerParticle ?? 16;
    if (!Number.isInteger(k) || k < 1 || k > 1024) {
      throw new RangeError(
        `PenaltyForce: options.maxPerParticle must be an integer in 1..1024, got ${k}`,
      );
    }
    this.maxPerParticle = k;
    const wg = options.workgroupSize ?? 64;
    if (!Number.isInteger(wg) || wg < 1 || wg > 256) {
      throw new RangeError(
        `PenaltyForce: options.workgroupSize must be an integer in 1..256, got ${wg}`,
      );
    }
    this.workgroupSize = wg;
    this.#params = this.#checkParams(options, "options");
    this.#count = this.#checkCount(options.count ?? capacity, "options.count");
    const label = this.label;
    this.#uniform = device.createBuffer({
      label: `${label} params`,
      size: PENALTY_PARAMS_STRUCT.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.#layout = device.createBindGroupLayout({
      label: `${label} bind group layout`,
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: "uniform" } },
        ...Object.entries(BINDINGS).map(([name, [binding]]) => ({
          binding,
          visibility: GPUShaderStage.COMPUTE,
          buffer: {
            type: (name === "force" ? "storage" : "read-only-storage") as GPUBufferBindingType,
          },
        })),
      ],
    });
    this.#pipeline = device.createComputePipeline({
      label: `${label} pipeline`,
      layout: device.createPipelineLayout({
        label: `${label} pipeline layout`,
        bindGroupLayouts: [this.#layout],
      }),
      compute: {
        module: device.createShaderModule({
          label: `${label} penalty_force.wgsl`,
          code: PENALTY_FORCE_WGSL,
        }),
        entryPoint: "penalty_force",
        constants: { WORKGROUP_SIZE: wg, MAX_PER_PARTICLE: k },
      },
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
    this.#count = this.#checkCount(count, "count");
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
    if (!buffers) throw new TypeError("PenaltyForce.bind: buffers are required");
    const entries: GPUBindGroupEntry[] = [{ binding: 0, resource: { buffer: this.#uniform } }];
    for (const [name, [binding, stride, count]] of Object.entries(BINDINGS)) {
      const buffer = buffers[name as keyof PenaltyForceBuffers];
      if (!buffer) throw new TypeError(`PenaltyForce.bind: buffers.${name} is missing`);
      if (!(buffer.usage & GPUBufferUsage.STORAGE)) {
        throw new TypeError(`PenaltyForce.bind: buffers.${name} needs GPUBufferUsage.STORAGE`);
      }
      const need = stride * this.capacity * (count === "NK" ? this.maxPerParticle : 1);
      if (buffer.size < need) {
        throw new RangeError(
          `PenaltyForce.bind: buffers.${name} has ${buffer.size} bytes, needs at least ${need}`,
        );
      }
      entries.push({ binding, resource: { buffer } });
    }
    return Object.freeze({
      buffers: Object.freeze({ ...buffers }),
      group: this.device.createBindGroup({
        label: `${this.label} bind group`,
        layout: this.#layout,
        entries,
      }),
    });
  }

  /** Encodes one compute pass adding the penalty forces into `force`. */
  encode(
    encoder: GPUCommandEncoder,
    bindings: PenaltyForceBindings,
    options: { timestampWrites?: GPUComputePassTimestampWrites } = {},
  ): void {
    if (!bindings?.group) throw new TypeError("PenaltyForce: bindings must come from bind()");
    const pass = encoder.beginComputePass({
      label: `${this.label} pass`,
      timestampWrites: options.timestampWrites,
    });
    pass.setPipeline(this.#pipeline);
    pass.setBindGroup(0, bindings.group);
    const groups = Math.ceil(this.#count / this.workgroupSize);
    if (groups > 0) pass.dispatchWorkgroups(groups);
    pass.end();
  }

  /** Destroys the uniform buffer (bound buffers belong to the caller). */
  destroy(): void {
    this.#uniform.destroy();
  }

  #checkParams(p: PenaltyForceParams, name: string): Readonly<Required<PenaltyForceParams>> {
    return Object.freeze({
      stiffness: nonNegative(p.stiffness, `${name}.stiffness`),
      damping: nonNegative(p.damping ?? 0, `${name}.damping`),
    });
  }

  #checkCount(count: number, name: string): number {
    if (!Number.isInteger(count) || count < 0 || count > this.capacity) {
      throw new RangeError(
        `PenaltyForce: ${name} must be an integer in 0..${this.capacity} (capacity), got ${count}`,
      );
    }
    return count;
  }

  #write(): void {
    this.device.queue.writeBuffer(
      this.#uniform,
      0,
      PENALTY_PARAMS_STRUCT.pack({ count: this.#count, ...this.#params }),
    );
  }
}
