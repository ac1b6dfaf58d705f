/**
 * Deterministic GPU reductions of `array<vec4f>` over masked DOF slots: dot products Σ a_i·b_i and
 * vector sums Σ a_i, computed entirely on the GPU by a fixed-order tree (one workgroup tree per
 * pass, passes until one value is left) and written into a storage buffer for later kernels, with
 * no readback. Used for the CG scalars rᵀz and pᵀAp of the implicit cloth solve (Baraff & Witkin
 * 1998 §5.3; Shewchuk 1994, "An Introduction to the Conjugate Gradient Method", B2–B3).
 *
 * ```ts
 * const reduce = new MaskedReduction(device, { length: n });
 * const rz = reduce.createDot({ a: r, b: z, mask: flags, maskBits: 1, dst: state, dstIndex: 2 });
 * reduce.encode(pass, rz); // later dispatches in the same pass read state[2]
 * ```
 *
 * @module
 */

import { bindKernel, createKernel, dispatch, type GroupBindings, type Kernel } from "./kernel.ts";
import { defineStruct, type StructLayout } from "./struct_layout.ts";

/** WGSL source of the reduction kernels (`gpu/runtime/reduce.wgsl`). */
export const REDUCE_WGSL: string = Deno.readTextFileSync(new URL("./reduce.wgsl", import.meta.url));

/**
 * Uniform `ReduceParams` of `reduce.wgsl`: slots read by the pass, mask bits selecting slots
 * (first pass only), first destination float and floats written per workgroup.
 */
export const REDUCE_PARAMS_STRUCT: StructLayout = defineStruct("ReduceParams", [
  ["count", "u32"],
  ["maskBits", "u32"],
  ["dstIndex", "u32"],
  ["dstWidth", "u32"],
]);

/** Options of {@link MaskedReduction}. */
export interface MaskedReductionOptions {
  /** Slots N reduced (≥ 1). */
  length: number;
  /** `override WORKGROUP_SIZE`: a power of two in 2..256 (default 256). */
  workgroupSize?: number;
  /** Label prefix of every GPU object (default "reduce"). */
  label?: string;
}

/** A buffer or a range of one (offset a multiple of 256 bytes), as bound to a storage binding. */
export type BufferRange = GPUBuffer | { buffer: GPUBuffer; offset?: number; size?: number };

/** Inputs and destination of {@link MaskedReduction.createDot}. */
export interface DotTask {
  /** `array<vec4f>` of at least N elements. */
  a: BufferRange;
  /** `array<vec4f>` of at least N elements (may be the same range as `a`). */
  b: BufferRange;
  /** `array<u32>` of N slot flags; slot i counts when `(mask[i] & maskBits) != 0`. */
  mask: BufferRange;
  /** Mask bits (default 0xffffffff: every slot with a nonzero flag). */
  maskBits?: number;
  /** `array<f32>` receiving the scalar at `dst[dstIndex]`. Must not alias the inputs. */
  dst: GPUBuffer;
  /** Float index of the result in `dst`. */
  dstIndex: number;
}

/** Inputs and destination of {@link MaskedReduction.createSum}: writes 4 floats at dstIndex. */
export type SumTask = Omit<DotTask, "b">;

/** Bind groups and uniforms of one reduction, from {@link MaskedReduction.createDot}/createSum. */
export interface ReductionTask {
  /** Dot product (1 float out) or vector sum (4 floats out). */
  readonly mode: "dot" | "sum";
  /** One bind group per pass. */
  readonly groups: readonly GPUBindGroup[];
  /** Uniforms of the passes (owned by the task; destroyed with {@link MaskedReduction.destroy}). */
  readonly params: GPUBuffer;
}

/** Indirect dispatch arguments of the passes: consecutive (x, 1, 1) u32 triples from `offset`. */
export interface IndirectArgs {
  /** Buffer with `GPUBufferUsage.INDIRECT`. */
  buffer: GPUBuffer;
  /** Byte offset of the first pass's triple (multiple of 4). */
  offset: number;
  /** The triples are written by a dispatch before every use (see `kernel.ts` `dispatch`). */
  rewritten?: boolean;
}

function isPowerOfTwo(v: number): boolean {
  return Number.isInteger(v) && v >= 2 && (v & (v - 1)) === 0;
}

/**
 * Masked dot products and sums of vec4 arrays, by passes of workgroup trees. The slot count is
 * fixed at construction; {@link workgroupCounts} gives the workgroups of each pass (for
 * indirect dispatch arguments). Tasks share this object's partial-sum buffers, so tasks must be
 * encoded one after the other (as dispatches of one queue always are).
 */
export class MaskedReduction {
  /** Device of the pipelines. */
  readonly device: GPUDevice;
  /** Slots reduced. */
  readonly length: number;
  /** Workgroup size (power of two). */
  readonly workgroupSize: number;
  /** Label prefix. */
  readonly label: string;
  /** Workgroups of each pass; the last is 1. */
  readonly workgroupCounts: readonly number[];
  readonly #partials: GPUBuffer[];
  readonly #kernels: Record<"dot" | "sum" | "partials", Kernel>;
  readonly #owned: GPUBuffer[] = [];

  /** Creates the pipelines and the partial-sum buffers (see {@link MaskedReductionOptions}). */
  constructor(device: GPUDevice, options: MaskedReductionOptions) {
    if (!device) throw new TypeError("MaskedReduction: device is required");
    const length = options?.length;
    if (!Number.isInteger(length) || length < 1) {
      throw new RangeError(
        `MaskedReduction: options.length must be an integer >= 1, got ${length}`,
      );
    }
    const wg = options.workgroupSize ?? 256;
    if (!isPowerOfTwo(wg) || wg > 256) {
      throw new RangeError(
        `MaskedReduction: options.workgroupSize must be a power of two in 2..256, got ${wg}`,
      );
    }
    if (Math.ceil(length / wg) > 65535) {
      throw new RangeError(
        `MaskedReduction: options.length ${length} needs more than 65535 workgroups`,
      );
    }
    this.device = device;
    this.length = length;
    this.workgroupSize = wg;
    const label = this.label = options.label ?? "reduce";
    const counts: number[] = [];
    for (let n = length;;) {
      n = Math.ceil(n / wg);
      counts.push(n);
      if (n === 1) break;
    }
    this.workgroupCounts = Object.freeze(counts);
    this.#partials = counts.slice(0, -1).map((n, k) =>
      device.createBuffer({
        label: `${label} partial sums ${k}`,
        size: 16 * n,
        usage: GPUBufferUsage.STORAGE,
      })
    );
    const kernel = (name: string, entryPoint: string, mode: number, bindings: GroupBindings) =>
      createKernel(device, {
        label: `${label} ${name}`,
        code: REDUCE_WGSL,
        entryPoint,
        bindings,
        constants: { WORKGROUP_SIZE: wg, MODE: mode },
      });
    const dot = kernel("dot", "reduce_first", 0, [
      "uniform",
      "read-only-storage",
      "read-only-storage",
      "read-only-storage",
      [5, "storage"],
    ]);
    this.#kernels = {
      dot,
      sum: kernel("sum", "reduce_first", 1, dot.groups[0]),
      partials: kernel("partials", "reduce_partials", 0, [
        "uniform",
        [4, "read-only-storage"],
        "storage",
      ]),
    };
  }

  /** A task writing Σ over masked slots of a_i·b_i (all four components) to `dst[dstIndex]`. */
  createDot(task: DotTask): ReductionTask {
    return this.#create("dot", task, task?.b, 1);
  }

  /** A task writing Σ over masked slots of a_i (a vec4) to `dst[dstIndex .. dstIndex + 4)`. */
  createSum(task: SumTask): ReductionTask {
    return this.#create("sum", task, task?.a, 4);
  }

  #range(
    method: string,
    name: string,
    r: BufferRange | undefined,
    elementBytes: number,
  ): GPUBufferBinding {
    if (!r) throw new TypeError(`MaskedReduction.${method}: task.${name} is missing`);
    const binding: GPUBufferBinding = r instanceof GPUBuffer ? { buffer: r } : { ...r };
    const offset = binding.offset ?? 0;
    if (!(binding.buffer.usage & GPUBufferUsage.STORAGE)) {
      throw new TypeError(`MaskedReduction.${method}: task.${name} needs GPUBufferUsage.STORAGE`);
    }
    if (offset % 256 !== 0) {
      throw new RangeError(
        `MaskedReduction.${method}: task.${name} offset ${offset} is not a multiple of 256`,
      );
    }
    const size = binding.size ?? binding.buffer.size - offset;
    if (size < elementBytes * this.length || offset + size > binding.buffer.size) {
      throw new RangeError(
        `MaskedReduction.${method}: task.${name} spans ${size} bytes, needs ${
          elementBytes * this.length
        }`,
      );
    }
    return binding;
  }

  #create(
    mode: "dot" | "sum",
    task: DotTask | SumTask,
    b: BufferRange | undefined,
    width: number,
  ): ReductionTask {
    const method = mode === "dot" ? "createDot" : "createSum";
    if (!task) throw new TypeError(`MaskedReduction.${method}: task is required`);
    const a = this.#range(method, "a", task.a, 16);
    const bb = this.#range(method, "b", b, 16);
    const mask = this.#range(method, "mask", task.mask, 4);
    const { dst, dstIndex } = task;
    if (!dst || !(dst.usage & GPUBufferUsage.STORAGE)) {
      throw new TypeError(
        `MaskedReduction.${method}: task.dst must be a buffer with GPUBufferUsage.STORAGE`,
      );
    }
    if (!Number.isInteger(dstIndex) || dstIndex < 0 || 4 * (dstIndex + width) > dst.size) {
      throw new RangeError(
        `MaskedReduction.${method}: task.dstIndex ${dstIndex} does not fit ${width} floats in task.dst (${dst.size} bytes)`,
      );
    }
    const maskBits = task.maskBits ?? 0xffffffff;
    const passes = this.workgroupCounts.length;
    const stride = 256;
    const params = this.device.createBuffer({
      label: `${this.label} ${mode} params`,
      size: stride * passes,
      usage: GPUBufferUsage.UNIFORM,
      mappedAtCreation: true,
    });
    const bytes = new Uint8Array(params.getMappedRange());
    for (let k = 0; k < passes; k++) {
      const last = k === passes - 1;
      bytes.set(
        new Uint8Array(REDUCE_PARAMS_STRUCT.pack({
          count: k === 0 ? this.length : this.workgroupCounts[k - 1],
          maskBits,
          dstIndex: last ? dstIndex : 0,
          dstWidth: last ? width : 4,
        })),
        k * stride,
      );
    }
    params.unmap();
    this.#owned.push(params);
    const groups: GPUBindGroup[] = [];
    for (let k = 0; k < passes; k++) {
      const last = k === passes - 1;
      const out = { buffer: last ? dst : this.#partials[k] };
      const uniform = { buffer: params, offset: k * stride, size: REDUCE_PARAMS_STRUCT.size };
      groups.push(bindKernel(
        this.device,
        k === 0 ? this.#kernels[mode] : this.#kernels.partials,
        k === 0 ? [uniform, a, bb, mask, out] : [uniform, { buffer: this.#partials[k - 1] }, out],
        { label: `${this.label} ${mode} pass ${k} bind group` },
      ));
    }
    return Object.freeze({ mode, groups: Object.freeze(groups), params });
  }

  /**
   * Records the passes of `task` into `pass`. With `indirect`, pass k is dispatched with
   * `dispatchWorkgroupsIndirect(indirect.buffer, indirect.offset + 12 k)`, so a kernel can skip
   * the reduction on the GPU by writing 0 workgroups there (the caller fills the triples with
   * {@link workgroupCounts} otherwise).
   */
  encode(pass: GPUComputePassEncoder, task: ReductionTask, indirect?: IndirectArgs): void {
    task.groups.forEach((bindGroup, k) => {
      const kernel = k === 0 ? this.#kernels[task.mode] : this.#kernels.partials;
      dispatch(
        pass,
        kernel,
        indirect
          ? {
            bindGroup,
            indirect: indirect.buffer,
            indirectOffset: indirect.offset + 12 * k,
            rewritten: indirect.rewritten,
          }
          : { bindGroup, workgroups: this.workgroupCounts[k] },
      );
    });
  }

  /** Destroys the partial-sum buffers and the uniforms of the tasks created so far. */
  destroy(): void {
    for (const b of [...this.#partials, ...this.#owned]) b.destroy();
  }
}
