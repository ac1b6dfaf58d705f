/**
 * GPU buffer memory of a device: the bytes of the buffers alive now and the peak since tracking
 * began (or the last {@link BufferMemory.resetPeak}). Tracking wraps the device's `createBuffer`
 * and each buffer's `destroy`, so every buffer of the harness counts, whoever creates it; a
 * buffer that is only garbage-collected (never destroyed) stays counted, which is the honest
 * upper bound of what the adapter holds.
 *
 * @module
 */

/** A limit on the bytes of the buffers alive at once, and what it stands for (for messages). */
export interface BufferBudget {
  bytes: number;
  /** What the limit is, e.g. "the host memory available to the software adapter". */
  what: string;
}

/**
 * A buffer that would take the buffers alive on a device past its {@link BufferBudget}: thrown by
 * `createBuffer` before anything is allocated, naming the buffer, what it asked for, the total
 * it would reach and the budget.
 */
export class GpuMemoryError extends Error {
  /** Bytes alive plus the buffer asked for. */
  readonly needed: number;
  readonly budget: BufferBudget;
  constructor(message: string, options: { needed: number; budget: BufferBudget }) {
    super(message);
    this.name = "GpuMemoryError";
    this.needed = options.needed;
    this.budget = options.budget;
  }
}

const GIB = 2 ** 30;

/** Bytes in the largest binary unit that keeps the number at least 1 (KiB, MiB, GiB). */
export function formatBytes(bytes: number): string {
  if (bytes >= GIB) return `${(bytes / GIB).toFixed(2)} GiB`;
  if (bytes >= 2 ** 20) return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** Live and peak buffer bytes of one device. */
export interface BufferMemory {
  /** Bytes of buffers created and not destroyed. */
  readonly live: number;
  /** Largest `live` since tracking began or the last reset. */
  readonly peak: number;
  /** Buffers created since tracking began. */
  readonly created: number;
  /** Starts a new peak from the current live bytes. */
  resetPeak(): void;
  /**
   * Sets (or with null removes) the budget: from now on a `createBuffer` that would take the live
   * bytes past it throws a {@link GpuMemoryError} instead of allocating.
   */
  setBudget(budget: BufferBudget | null): void;
}

const trackers = new WeakMap<GPUDevice, BufferMemory>();

/** Starts tracking `device`'s buffers (idempotent) and returns its tracker. */
export function trackBufferMemory(device: GPUDevice): BufferMemory {
  const known = trackers.get(device);
  if (known) return known;
  const state = { live: 0, peak: 0, created: 0, budget: null as BufferBudget | null };
  const tracker: BufferMemory = {
    get live() {
      return state.live;
    },
    get peak() {
      return state.peak;
    },
    get created() {
      return state.created;
    },
    resetPeak() {
      state.peak = state.live;
    },
    setBudget(budget) {
      if (budget && !(budget.bytes > 0)) {
        throw new RangeError(`setBudget: bytes must be > 0, got ${budget.bytes}`);
      }
      state.budget = budget;
    },
  };
  const create = device.createBuffer.bind(device);
  device.createBuffer = (descriptor: GPUBufferDescriptor): GPUBuffer => {
    const budget = state.budget;
    if (budget && state.live + descriptor.size > budget.bytes) {
      const needed = state.live + descriptor.size;
      throw new GpuMemoryError(
        `needs more than ${formatBytes(needed)} of GPU buffers, over ${
          formatBytes(budget.bytes)
        } (${budget.what}): buffer "${descriptor.label ?? "unlabelled"}" of ${
          formatBytes(descriptor.size)
        } with ${formatBytes(state.live)} already allocated; run a smaller scale`,
        { needed, budget },
      );
    }
    const buffer = create(descriptor);
    const size = buffer.size;
    state.live += size;
    state.created++;
    state.peak = Math.max(state.peak, state.live);
    const destroy = buffer.destroy.bind(buffer);
    let destroyed = false;
    buffer.destroy = () => {
      if (!destroyed) {
        destroyed = true;
        state.live -= size;
      }
      destroy();
    };
    return buffer;
  };
  trackers.set(device, tracker);
  return tracker;
}

/**
 * The budget an engine sets on its device by default: on a software (fallback) adapter, which
 * allocates GPU buffers in host memory, 90 % of the host memory available now; on a hardware
 * adapter, or outside Deno, none (WebGPU does not expose its memory; an allocation it cannot serve
 * fails with an out-of-memory error at run time).
 */
export function defaultBufferBudget(adapter: { isFallbackAdapter: boolean }): BufferBudget | null {
  // outside Deno (a browser page) host memory cannot be read: no budget
  if (!adapter.isFallbackAdapter || typeof Deno === "undefined") return null;
  const available = Deno.systemMemoryInfo().available;
  return {
    bytes: 0.9 * available,
    what: `90 % of the ${
      (available / GIB).toFixed(1)
    } GiB of host memory available: the software adapter keeps GPU buffers in RAM`,
  };
}
