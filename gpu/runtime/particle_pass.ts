/**
 * Host side shared by the per-particle collision-handler passes (the kernels of the baseline
 * handlers in gpu/handlers/<id>/): one WGSL entry point, a params uniform at binding 0,
 * storage buffers at bindings 1.., one invocation per particle in a single compute pass.
 *
 * {@link ParticlePass} owns the uniform and the kernel (`kernel.ts`: explicit layout, labelled
 * pipeline), validates bound buffers and encodes the pass; error messages name the owner class
 * (`"<Owner>.bind: buffers.pos is missing"`). Each owner keeps its parameters, their checks
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

/** What a {@link CountedPass} runs: its kernel, buffers and parameters. */
export interface CountedPassSpec<B, P> {
  /** Class name that prefixes every error message. */
  owner: string;
  /** Label prefix of every GPU object when the options give none. */
  label: string;
  /** WGSL source and entry point. */
  code: string;
  entryPoint: string;
  /** Whether the pass reads contact slots (sizes `maxPerParticle`, `override MAX_PER_PARTICLE`). */
  contacts: boolean;
  /** `override` constants beside `WORKGROUP_SIZE` (and `MAX_PER_PARTICLE`). */
  constants?: Record<string, number>;
  /** Size of the params uniform in bytes. */
  paramsSize: number;
  /** The storage buffers, in binding (and checking) order. */
  buffers: BufferTable<B>;
  /** The one buffer bound as read-write `storage`. */
  output: keyof B;
  /** The checked, frozen parameters of `p`; `name` prefixes error paths (`options`, `params`). */
  checkParams(p: P, name: string): Readonly<P>;
  /** The uniform's bytes for `count` particles and `params`. */
  pack(count: number, params: Readonly<P>): ArrayBuffer;
  /** Checks beyond the table's at bind (e.g. an output that must not alias an input). */
  checkBuffers?(buffers: B): void;
}

/** Options every {@link CountedPass} takes beside its parameters. */
export interface CountedPassOptions {
  /** Largest particle count; sizes the checks on bound buffers. */
  capacity: number;
  /** K of the contact slots: the detector's `maxPerParticle` (default 16). */
  maxPerParticle?: number;
  /** Particles processed by the next encode; default `capacity`. */
  count?: number;
  /** `override WORKGROUP_SIZE` (1..256, default 64). */
  workgroupSize?: number;
  /** Label prefix of every GPU object. */
  label?: string;
}

/**
 * A per-particle pass with a particle count and checked parameters in its uniform: the host
 * pattern every per-particle handler kernel shares (gpu/handlers/<id>/: each baseline's).
 * A handler's class extends it with its spec; `write` repacks the uniform after any change.
 */
export class CountedPass<B extends { [K in keyof B]: GPUBuffer }, P extends object> {
  /** Device the pipeline lives on. */
  readonly device: GPUDevice;
  /** Label prefix of every GPU object. */
  readonly label: string;
  /** Largest particle count. */
  readonly capacity: number;
  /** K of the contact slots (1 for a pass that reads none). */
  readonly maxPerParticle: number;
  /** Workgroup size of the kernel. */
  readonly workgroupSize: number;
  readonly #spec: CountedPassSpec<B, P>;
  #params: Readonly<P>;
  #count: number;
  readonly #pass: ParticlePass<B>;

  /** Creates the pipeline and the uniform; checks the sizes, the parameters and the count. */
  constructor(device: GPUDevice, spec: CountedPassSpec<B, P>, options: CountedPassOptions & P) {
    const { owner } = spec;
    const sizes = checkPassOptions(owner, device, options, spec.contacts);
    this.device = device;
    this.#spec = spec;
    this.label = options.label ?? spec.label;
    this.capacity = sizes.capacity;
    this.maxPerParticle = sizes.maxPerParticle;
    this.workgroupSize = sizes.workgroupSize;
    this.#params = spec.checkParams(options, "options");
    this.#count = checkCount(owner, "options.count", options.count ?? this.capacity, this.capacity);
    const k: Record<string, number> = spec.contacts
      ? { MAX_PER_PARTICLE: sizes.maxPerParticle }
      : {};
    this.#pass = new ParticlePass(device, {
      ...sizes,
      owner,
      label: this.label,
      code: spec.code,
      entryPoint: spec.entryPoint,
      constants: { WORKGROUP_SIZE: sizes.workgroupSize, ...k, ...spec.constants },
      paramsSize: spec.paramsSize,
      buffers: spec.buffers,
      output: spec.output,
    });
    this.write();
  }

  /** Particles processed by the next encodes. */
  get count(): number {
    return this.#count;
  }

  /** The current parameters. */
  get params(): Readonly<P> {
    return this.#params;
  }

  /** Sets the particle count (≤ capacity); written with `queue.writeBuffer` (next submissions). */
  setCount(count: number): void {
    this.#count = checkCount(this.#spec.owner, "count", count, this.capacity);
    this.write();
  }

  /** Changes some parameters (checked with the others); same timing as {@link setCount}. */
  setParams(params: Partial<P>): void {
    this.#params = this.checkNext({ ...this.#params, ...params });
    this.write();
  }

  /**
   * Creates the bind group of a set of buffers; reuse it across steps. Throws a `TypeError`
   * naming a missing buffer or one without `STORAGE` usage (or what the spec's `checkBuffers`
   * refuses) and a `RangeError` naming one too small.
   */
  bind(buffers: B): ParticlePassBindings<B> {
    if (buffers) this.#spec.checkBuffers?.(buffers);
    return this.#pass.bind(buffers);
  }

  /** Encodes one compute pass over the first `count` particles. */
  encode(
    encoder: GPUCommandEncoder,
    bindings: ParticlePassBindings<B>,
    options: { timestampWrites?: GPUComputePassTimestampWrites } = {},
  ): void {
    this.#pass.encode(encoder, bindings, this.#count, options);
  }

  /** Destroys the uniform buffer (bound buffers belong to the caller). */
  destroy(): void {
    this.#pass.destroy();
  }

  /** The checked parameters `next` would set (a subclass adds its own cross-checks). */
  protected checkNext(next: P): Readonly<P> {
    return this.#spec.checkParams(next, "params");
  }

  /** The uniform's bytes now (a subclass with more state than count and params packs it too). */
  protected packUniform(count: number, params: Readonly<P>): ArrayBuffer {
    return this.#spec.pack(count, params);
  }

  /** Repacks and writes the uniform. */
  protected write(): void {
    this.#pass.writeParams(this.packUniform(this.#count, this.#params));
  }
}
