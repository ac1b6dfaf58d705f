/**
 * GPU buffer memory of a device: the bytes of the buffers alive now and the peak since tracking
 * began (or the last {@link BufferMemory.resetPeak}). Tracking wraps the device's `createBuffer`
 * and each buffer's `destroy`, so every buffer of the harness counts, whoever creates it; a
 * buffer that is only garbage-collected (never destroyed) stays counted, which is the honest
 * upper bound of what the adapter holds.
 *
 * @module
 */

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
}

const trackers = new WeakMap<GPUDevice, BufferMemory>();

/** Starts tracking `device`'s buffers (idempotent) and returns its tracker. */
export function trackBufferMemory(device: GPUDevice): BufferMemory {
  const known = trackers.get(device);
  if (known) return known;
  const state = { live: 0, peak: 0, created: 0 };
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
  };
  const create = device.createBuffer.bind(device);
  device.createBuffer = (descriptor: GPUBufferDescriptor): GPUBuffer => {
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
