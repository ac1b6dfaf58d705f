/**
 * A dispatch gate: a region of a step whose dispatches run or not as a flag on the GPU says, with
 * no host sync (e.g. a handler's second integration stage that runs only when a marked pair
 * approaches after the first, §5.1). Inside {@link DispatchGate.run} every {@link dispatch} of `kernel.ts` is recorded as an
 * indirect dispatch from a slot of the gate's argument buffer: a direct one from the slot that
 * {@link DispatchGate.encodeOpen} (encoded before the region) fills with its shape when the flag
 * is nonzero and with zero workgroups otherwise; an indirect one from a slot that a one-invocation
 * copy, encoded just before it, fills from its own arguments under the same rule (its arguments
 * may be written inside the region, e.g. a solver's convergence gate, and hold stale values when
 * the region does not run). An indirect dispatch whose arguments are `rewritten` before every use
 * (`kernel.ts`) needs no copy once the gate has seen it: from the next region on, its buffer is
 * zeroed at the opening when the region does not run. A closed region costs an empty dispatch per
 * dispatch and computes nothing; an open one runs exactly what it would run ungated.
 *
 * Commands other than dispatches (buffer copies, clears) are not gated: a region must not rely
 * on them. The slots are taken in encoding order, so a region must encode the same dispatches
 * every step (their shapes are uploaded again when they change). Kernels: `dispatch_gate.wgsl`.
 *
 * @module
 */
import {
  bindKernel,
  createKernel,
  dispatch,
  type DispatchRedirect,
  type Kernel,
  setDispatchRedirect,
  withDispatchRedirect,
} from "./kernel.ts";
import { defineStruct, type StructLayout } from "./struct_layout.ts";
import dispatchGateWgsl from "./dispatch_gate.wgsl" with { type: "text" };

/** WGSL source of the gate kernels. */
export const DISPATCH_GATE_WGSL: string = dispatchGateWgsl;

/** Layout of `GateParams` in `dispatch_gate.wgsl`. */
export const GATE_PARAMS: StructLayout = defineStruct("GateParams", [
  ["slots", "u32"],
  ["flagWord", "u32"],
]);

/** Layout of `CopyParams` in `dispatch_gate.wgsl`. */
export const COPY_PARAMS: StructLayout = defineStruct("CopyParams", [
  ["srcWord", "u32"],
  ["slot", "u32"],
  ["flagWord", "u32"],
]);

const NOT_IN_REGION = Symbol("not in a region");

/** Byte stride of the copy parameters (minUniformBufferOffsetAlignment ≤ 256). */
const COPY_STRIDE = 256;

/** Options of {@link DispatchGate}. */
export interface DispatchGateOptions {
  /** Label prefix of the GPU objects. */
  label: string;
  /** The `array<u32>` holding the flag (usage STORAGE) and the flag's word index. */
  flag: { buffer: GPUBuffer; word: number };
  /** Most direct dispatches in the region. Default 4096. */
  capacity?: number;
  /** Most indirect dispatches in the region (the first region copies every one). Default 8192. */
  indirectCapacity?: number;
}

/** Gates the dispatches of a region on a GPU flag. */
export class DispatchGate implements DispatchRedirect {
  readonly label: string;
  readonly capacity: number;
  readonly indirectCapacity: number;
  readonly #device: GPUDevice;
  readonly #args: GPUBuffer;
  readonly #shapesBuffer: GPUBuffer;
  readonly #copyParams: GPUBuffer;
  readonly #own: GPUBuffer[] = [];
  readonly #open: Kernel;
  readonly #copy: Kernel;
  readonly #zero: Kernel;
  readonly #openGroup: GPUBindGroup;
  readonly #gateParams: GPUBuffer;
  /** Argument buffers rewritten before every use, seen in earlier regions: zeroed when closed. */
  readonly #rewritten = new Map<GPUBuffer, GPUBindGroup>();
  /** Those zeroed by this region's {@link DispatchGate.encodeOpen}. */
  #zeroedNow = new Set<GPUBuffer>();
  readonly #copyGroups = new Map<GPUBuffer, GPUBindGroup>();
  readonly #flag: { buffer: GPUBuffer; word: number };
  #shapes: number[] = [];
  #uploaded: number[] = [];
  #copies: number[] = [];
  #uploadedCopies: number[] = [];
  #slot = 0;
  #indirectSlot = 0;
  #previous: DispatchRedirect | undefined | typeof NOT_IN_REGION = NOT_IN_REGION;

  /** Creates the argument buffers and pipelines; throws a `RangeError` naming a bad option. */
  constructor(device: GPUDevice, options: DispatchGateOptions) {
    const { label } = options;
    this.label = label;
    this.#device = device;
    this.#flag = options.flag;
    this.capacity = options.capacity ?? 4096;
    this.indirectCapacity = options.indirectCapacity ?? 8192;
    for (
      const [name, v] of [["capacity", this.capacity], [
        "indirectCapacity",
        this.indirectCapacity,
      ]] as const
    ) {
      if (!Number.isInteger(v) || v < 1) {
        throw new RangeError(`${label}: ${name} must be a positive integer, got ${v}`);
      }
    }
    if (!Number.isInteger(options.flag.word) || options.flag.word < 0) {
      throw new RangeError(`${label}: flag.word must be an integer >= 0, got ${options.flag.word}`);
    }
    const buffer = (name: string, size: number, usage: number) => {
      const b = device.createBuffer({ label: `${label} ${name}`, size, usage });
      this.#own.push(b);
      return b;
    };
    const slots = this.capacity + this.indirectCapacity;
    this.#args = buffer("args", 12 * slots, GPUBufferUsage.STORAGE | GPUBufferUsage.INDIRECT);
    this.#shapesBuffer = buffer(
      "shapes",
      8 * this.capacity,
      GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    );
    const gateParams = this.#gateParams = buffer(
      "params",
      16,
      GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    );
    device.queue.writeBuffer(
      gateParams,
      0,
      GATE_PARAMS.pack({ slots: this.capacity, flagWord: options.flag.word }),
    );
    this.#copyParams = buffer(
      "copy params",
      COPY_STRIDE * this.indirectCapacity,
      GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    );
    const kernel = (entryPoint: string, dynamic: boolean) =>
      createKernel(device, {
        label: `${label} ${entryPoint}`,
        code: DISPATCH_GATE_WGSL,
        entryPoint,
        bindings: [
          { type: "uniform", hasDynamicOffset: dynamic },
          "read-only-storage",
          "read-only-storage",
          "storage",
        ],
      });
    this.#open = kernel("gate_open", false);
    this.#copy = kernel("gate_copy", true);
    this.#zero = createKernel(device, {
      label: `${label} gate_zero`,
      code: DISPATCH_GATE_WGSL,
      entryPoint: "gate_zero",
      bindings: ["uniform", "read-only-storage", "storage"],
    });
    this.#openGroup = bindKernel(device, this.#open, [
      gateParams,
      options.flag.buffer,
      this.#shapesBuffer,
      this.#args,
    ]);
  }

  /**
   * Encodes the decision (before the region, in any pass): fills the direct slots, and zeroes the
   * rewritten argument buffers seen in earlier regions when the region does not run.
   */
  encodeOpen(pass: GPUComputePassEncoder): void {
    withDispatchRedirect(undefined, () => {
      dispatch(pass, this.#open, {
        bindGroup: this.#openGroup,
        invocations: this.capacity,
        workgroupSize: 64,
      });
      for (const group of this.#rewritten.values()) {
        dispatch(pass, this.#zero, { bindGroup: group, workgroups: 1 });
      }
    });
    this.#zeroedNow = new Set(this.#rewritten.keys());
  }

  /**
   * Encodes `region` gated (its dispatches redirected), then uploads the slots' shapes and copy
   * parameters when they changed (queue writes, before the next submit).
   */
  run<T>(region: () => T): T {
    this.begin();
    try {
      return region();
    } finally {
      this.end();
    }
  }

  /**
   * Opens a region spanning several passes (every {@link dispatch} until {@link DispatchGate.end}
   * is gated); `run` is the scoped form.
   */
  begin(): void {
    if (this.#previous !== NOT_IN_REGION) {
      throw new Error(`${this.label}: begin() inside a region; call end() first`);
    }
    this.#slot = 0;
    this.#indirectSlot = 0;
    this.#shapes = [];
    this.#copies = [];
    this.#previous = setDispatchRedirect(this);
  }

  /** Closes the region and uploads the slots' shapes and copy parameters when they changed. */
  end(): void {
    if (this.#previous === NOT_IN_REGION) {
      throw new Error(`${this.label}: end() without begin()`);
    }
    setDispatchRedirect(this.#previous);
    this.#previous = NOT_IN_REGION;
    if (!same(this.#shapes, this.#uploaded)) {
      this.#device.queue.writeBuffer(this.#shapesBuffer, 0, new Uint32Array(this.#shapes));
      this.#uploaded = this.#shapes;
    }
    if (!same(this.#copies, this.#uploadedCopies)) {
      const data = new Uint8Array(COPY_STRIDE * this.#copies.length / 3);
      for (let k = 0; k < this.#copies.length / 3; k++) {
        data.set(
          new Uint8Array(COPY_PARAMS.pack({
            srcWord: this.#copies[3 * k],
            slot: this.#copies[3 * k + 1],
            flagWord: this.#copies[3 * k + 2],
          })),
          k * COPY_STRIDE,
        );
      }
      if (data.length) this.#device.queue.writeBuffer(this.#copyParams, 0, data);
      this.#uploadedCopies = this.#copies;
    }
  }

  /** @internal {@link DispatchRedirect}: the slot of a direct dispatch. */
  direct(shape: readonly [number, number]): { buffer: GPUBuffer; offset: number } {
    if (this.#slot >= this.capacity) {
      throw new RangeError(
        `${this.label}: the gated region encodes more than ${this.capacity} direct dispatches; ` +
          "construct the gate with a larger capacity",
      );
    }
    const s = this.#slot++;
    this.#shapes.push(shape[0], shape[1]);
    return { buffer: this.#args, offset: 12 * s };
  }

  /** @internal {@link DispatchRedirect}: copies an indirect dispatch's arguments into its slot. */
  indirect(
    pass: GPUComputePassEncoder,
    buffer: GPUBuffer,
    options: { offset: number; rewritten?: boolean },
  ): { buffer: GPUBuffer; offset: number } {
    const { offset } = options;
    if (options.rewritten) {
      // zeroed at this region's opening when it does not run: dispatch from it as it is
      if (this.#zeroedNow.has(buffer)) return { buffer, offset };
      if (!this.#rewritten.has(buffer)) {
        this.#rewritten.set(
          buffer,
          bindKernel(this.#device, this.#zero, [this.#gateParams, this.#flag.buffer, buffer], {
            label: `${this.label} zero "${buffer.label}" bind group`,
          }),
        );
      }
    }
    if (this.#indirectSlot >= this.indirectCapacity) {
      throw new RangeError(
        `${this.label}: the gated region encodes more than ${this.indirectCapacity} indirect ` +
          "dispatches; construct the gate with a larger indirectCapacity",
      );
    }
    const k = this.#indirectSlot++;
    const slot = this.capacity + k;
    this.#copies.push(offset / 4, slot, this.#flag.word);
    let group = this.#copyGroups.get(buffer);
    if (!group) {
      group = bindKernel(this.#device, this.#copy, [
        { buffer: this.#copyParams, size: COPY_PARAMS.size },
        this.#flag.buffer,
        buffer,
        this.#args,
      ], { label: `${this.label} copy from "${buffer.label}" bind group` });
      this.#copyGroups.set(buffer, group);
    }
    dispatch(pass, this.#copy, {
      bindGroup: group,
      workgroups: 1,
      dynamicOffsets: [[k * COPY_STRIDE]],
    });
    return { buffer: this.#args, offset: 12 * slot };
  }

  /** Frees the gate's buffers. */
  destroy(): void {
    for (const b of this.#own) b.destroy();
  }
}

function same(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, k) => x === b[k]);
}
