/**
 * Host side shared by the per-particle collision-handler passes (`penalty_force.ts`,
 * `impulse.ts`, `kernel_repulsion.ts`): one WGSL entry point, a params uniform at binding 0,
 * storage buffers at bindings 1.., one invocation per particle in a single compute pass.
 *
 * {@link ParticlePass} owns the uniform and the kernel (`kernel.ts`: explicit layout, labelled
 * pipeline), validates bound buffers and encodes the pass; error messages name the owner class
 * (`"PenaltyForce.bind: buffers.pos is missing"`). Each owner keeps its parameters, their checks
 * and the packing of its uniform.
 *
 * @module
 */

import { type BindingKind, bindKernel, createKernel, dispatch, type Kernel } from "./kernel.ts";

/** Elements a buffer must hold: N = capacity, NK = capacity · maxPerParticle, or a fixed count. */
export type BufferExtent = "N" | "NK" | number;

/** Binding number, element size (bytes) and element count of each buffer of a pass. */
export type BufferTable<B> = {
  readonly [K in keyof B]: readonly [binding: number, stride: number, extent: BufferExtent];
};

/** Options of {@link ParticlePass} (sizes from {@link checkPassOptions}). */
export interface ParticlePassOptions<B> extends PassSizes {
  /** Class name that prefixes every error message. */
  owner: string;
  /** Label prefix of every GPU object. */
  label: string;
  /** WGSL source. */
  code: string;
  entryPoint: string;
  /** Values of `override` constants. */
  constants: Record<string, number>;
  /** Size of the params uniform in bytes. */
  paramsSize: number;
  /** The storage buffers, in binding (and checking) order. */
  buffers: BufferTable<B>;
  /** The one buffer bound as read-write `storage`; the others are `read-only-storage`. */
  output: keyof B;
}

/** Bind group of one set of buffers, from {@link ParticlePass.bind}. */
export interface ParticlePassBindings<B> {
  readonly buffers: Readonly<B>;
  readonly group: GPUBindGroup;
}

/** Throws a `RangeError` unless `value` is an integer in `min..max` (or `>= min`). */
export function checkInteger(
  owner: string,
  name: string,
  value: number,
  min: number,
  max?: number,
): number {
  if (!Number.isInteger(value) || value < min || (max !== undefined && value > max)) {
    const range = max === undefined ? `>= ${min}` : `in ${min}..${max}`;
    throw new RangeError(`${owner}: ${name} must be an integer ${range}, got ${value}`);
  }
  return value;
}

/** Throws a `RangeError` unless `count` is an integer in `0..capacity`. */
export function checkCount(owner: string, name: string, count: number, capacity: number): number {
  if (!Number.isInteger(count) || count < 0 || count > capacity) {
    throw new RangeError(
      `${owner}: ${name} must be an integer in 0..${capacity} (capacity), got ${count}`,
    );
  }
  return count;
}

/** Throws a `RangeError` unless `value` is a finite number ≥ 0. */
export function checkNonNegative(owner: string, name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`${owner}: ${name} must be a finite number >= 0, got ${value}`);
  }
  return value;
}

/** Sizes shared by the pass options: capacity, maxPerParticle (when used) and workgroupSize. */
export interface PassSizes {
  capacity: number;
  maxPerParticle: number;
  workgroupSize: number;
}

/**
 * Checks the device, the options object and the shared sizes, in this order: `capacity`
 * (integer ≥ 1), `maxPerParticle` (integer in 1..1024, default 16; only when `withK`) and
 * `workgroupSize` (integer in 1..256, default 64).
 */
export function checkPassOptions(
  owner: string,
  device: GPUDevice,
  options: { capacity: number; maxPerParticle?: number; workgroupSize?: number },
  withK: boolean,
): PassSizes {
  if (!device) throw new TypeError(`${owner}: device is required`);
  if (!options) throw new TypeError(`${owner}: options are required`);
  const capacity = checkInteger(owner, "options.capacity", options.capacity, 1);
  const maxPerParticle = withK
    ? checkInteger(owner, "options.maxPerParticle", options.maxPerParticle ?? 16, 1, 1024)
    : 1;
  const workgroupSize = checkInteger(
    owner,
    "options.workgroupSize",
    options.workgroupSize ?? 64,
    1,
    256,
  );
  return { capacity, maxPerParticle, workgroupSize };
}

/** The uniform and the kernel of one per-particle pass (see the module comment). */
export class ParticlePass<B extends { [K in keyof B]: GPUBuffer }> {
  readonly device: GPUDevice;
  readonly uniform: GPUBuffer;
  readonly kernel: Kernel;
  readonly #options: ParticlePassOptions<B>;

  constructor(device: GPUDevice, options: ParticlePassOptions<B>) {
    this.device = device;
    this.#options = options;
    const { label, buffers, output } = options;
    this.uniform = device.createBuffer({
      label: `${label} params`,
      size: options.paramsSize,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    const storage = Object.entries<BufferTable<B>[keyof B]>(buffers)
      .map(([name, [binding]]): [number, BindingKind] => [
        binding,
        name === output ? "storage" : "read-only-storage",
      ])
      .sort((a, b) => a[0] - b[0]);
    this.kernel = createKernel(device, {
      label,
      code: options.code,
      entryPoint: options.entryPoint,
      bindings: [[0, "uniform"], ...storage],
      constants: options.constants,
    });
  }

  /** Writes the packed params into the uniform (`queue.writeBuffer`: next submissions). */
  writeParams(data: ArrayBuffer): void {
    this.device.queue.writeBuffer(this.uniform, 0, data);
  }

  /**
   * Creates the bind group of a set of buffers. Throws a `TypeError` naming a missing buffer or
   * one without `STORAGE` usage and a `RangeError` naming one too small.
   */
  bind(buffers: B): ParticlePassBindings<B> {
    const { owner, capacity, maxPerParticle } = this.#options;
    if (!buffers) throw new TypeError(`${owner}.bind: buffers are required`);
    const byBinding = new Map<number, GPUBuffer>([[0, this.uniform]]);
    const table = Object.entries<BufferTable<B>[keyof B]>(this.#options.buffers);
    for (const [name, [binding, stride, extent]] of table) {
      const buffer = buffers[name as keyof B];
      if (!buffer) throw new TypeError(`${owner}.bind: buffers.${name} is missing`);
      if (!(buffer.usage & GPUBufferUsage.STORAGE)) {
        throw new TypeError(`${owner}.bind: buffers.${name} needs GPUBufferUsage.STORAGE`);
      }
      const elements = extent === "N"
        ? capacity
        : extent === "NK"
        ? capacity * maxPerParticle
        : extent;
      const need = stride * elements;
      if (buffer.size < need) {
        throw new RangeError(
          `${owner}.bind: buffers.${name} has ${buffer.size} bytes, needs at least ${need}`,
        );
      }
      byBinding.set(binding, buffer);
    }
    return Object.freeze({
      buffers: Object.freeze({ ...buffers }),
      group: bindKernel(this.device, this.kernel, byBinding),
    });
  }

  /** Encodes one compute pass of `count` invocations (one per particle). */
  encode(
    encoder: GPUCommandEncoder,
    bindings: ParticlePassBindings<B>,
    count: number,
    options: { timestampWrites?: GPUComputePassTimestampWrites } = {},
  ): void {
    if (!bindings?.group) {
      throw new TypeError(`${this.#options.owner}: bindings must come from bind()`);
    }
    const pass = encoder.beginComputePass({
      label: `${this.#options.label} pass`,
      timestampWrites: options.timestampWrites,
    });
    dispatch(pass, this.kernel, {
      bindGroup: bindings.group,
      invocations: count,
      workgroupSize: this.#options.workgroupSize,
    });
    pass.end();
  }

  /** Destroys the uniform buffer (bound buffers belong to the caller). */
  destroy(): void {
    this.uniform.destroy();
  }
}
