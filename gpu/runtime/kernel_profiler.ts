/**
 * Per-kernel GPU timing: where a step's time goes, dispatch by dispatch.
 *
 * WebGPU timestamps only mark the beginning and end of a pass, so the profiler hands the code
 * that encodes a step a stand-in command encoder ({@link KernelProfiler.wrap}) whose compute
 * passes record their pipeline and bind groups and open one real pass per dispatch, with
 * timestamps around it. Everything else (clears, copies) goes to the real encoder unchanged, in
 * order, so the GPU runs the same work; only the pass boundaries differ (one pass per dispatch
 * instead of a few), which adds each pass's fixed cost to the kernel it holds. The totals are
 * therefore an upper bound on a kernel's share in the timed step; use them to rank kernels, and
 * the phase timer (`phase_timer.ts`) for the step itself.
 *
 * Each dispatch is attributed to the phase set in {@link KernelProfiler.phase} when it was
 * encoded and to its pipeline's label. Reading back is one map per step (`read`): the profiler
 * is a diagnostic, not part of a timed run.
 *
 * @module
 */

/** Queries in one `GPUQuerySet` (WebGPU's limit). */
const QUERIES_PER_SET = 4096;

/** Accumulated time of one kernel in one phase. */
export interface KernelProfileRow {
  /** Phase the dispatches were encoded in. */
  phase: string;
  /** Pipeline label (the kernel). */
  kernel: string;
  /** Dispatches recorded in all profiled steps. */
  dispatches: number;
  /** Of those, indirect dispatches (their workgroup counts are decided on the GPU). */
  indirect: number;
  /** GPU time of those dispatches, ms, summed over the profiled steps. */
  ms: number;
}

/** Options of the {@link KernelProfiler} constructor. */
export interface KernelProfilerOptions {
  /** Label prefix of the query sets and buffers. Default `"kernel profiler"`. */
  label?: string;
  /** Nanoseconds per resolved timestamp unit (1 on Vulkan; see `phase_timer.ts`). Default 1. */
  tickNs?: number;
}

interface Pending {
  phase: string;
  kernel: string;
  indirect: boolean;
}

interface QuerySlab {
  set: GPUQuerySet;
  resolve: GPUBuffer;
  readback: GPUBuffer;
}

/**
 * Times every dispatch of the steps encoded through {@link KernelProfiler.wrap}; needs the
 * `timestamp-query` feature (throws a `TypeError` naming it otherwise).
 *
 * @example
 * const profiler = new KernelProfiler(device);
 * const encoder = profiler.wrap(device.createCommandEncoder());
 * profiler.phase = "solve";
 * // ... encode passes on `encoder` ...
 * profiler.resolve(encoder);
 * device.queue.submit([encoder.finish()]);
 * await profiler.read();
 * console.table(profiler.rows());
 */
export class KernelProfiler {
  /** Phase that the next dispatches are attributed to. */
  phase = "step";
  /** Steps read back so far (one per {@link KernelProfiler.read}). */
  steps = 0;
  /** Label prefix of the query sets and buffers. */
  readonly label: string;
  /** Nanoseconds per resolved timestamp unit. */
  readonly tickNs: number;
  readonly #device: GPUDevice;
  readonly #slabs: QuerySlab[] = [];
  #pending: Pending[] = [];
  #resolved = 0;
  readonly #rows = new Map<string, KernelProfileRow>();

  /** A profiler on `device`; throws a `TypeError` without `timestamp-query`. */
  constructor(device: GPUDevice, options: KernelProfilerOptions = {}) {
    this.label = options.label ?? "kernel profiler";
    this.tickNs = options.tickNs ?? 1;
    if (!device.features.has("timestamp-query")) {
      throw new TypeError(
        `${this.label}: the device lacks the "timestamp-query" feature, which per-kernel ` +
          "timing needs; acquire the GPU with acquireGpu({ timestamps: true }) on an adapter " +
          "that offers it",
      );
    }
    this.#device = device;
  }

  /**
   * A stand-in for `encoder` whose compute passes put each dispatch in a real pass of its own,
   * timed; every other call goes to `encoder`. Finish and submit the real encoder.
   */
  wrap(encoder: GPUCommandEncoder): GPUCommandEncoder {
    const begin = (descriptor?: GPUComputePassDescriptor) =>
      new ProfiledPass(encoder, this, descriptor?.label ?? "");
    return new Proxy(encoder, {
      get(target, key) {
        if (key === "beginComputePass") return begin;
        const value = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }

  /** The timestamp writes of the next dispatch, and records what it is (internal). */
  next(kernel: string, indirect: boolean): GPUComputePassTimestampWrites {
    const k = this.#pending.length;
    const perSet = QUERIES_PER_SET / 2;
    const s = Math.floor(k / perSet);
    const slab = this.#slabs[s] ?? this.#slab(s);
    this.#pending.push({ phase: this.phase, kernel, indirect });
    const q = 2 * (k - s * perSet);
    return { querySet: slab.set, beginningOfPassWriteIndex: q, endOfPassWriteIndex: q + 1 };
  }

  #slab(index: number): QuerySlab {
    const label = `${this.label} ${index}`;
    const slab = {
      set: this.#device.createQuerySet({ label, type: "timestamp", count: QUERIES_PER_SET }),
      resolve: this.#device.createBuffer({
        label: `${label} resolve`,
        size: QUERIES_PER_SET * 8,
        usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
      }),
      readback: this.#device.createBuffer({
        label: `${label} readback`,
        size: QUERIES_PER_SET * 8,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      }),
    };
    this.#slabs[index] = slab;
    return slab;
  }

  /** Records the resolve of the dispatches timed since the last read into `encoder` (the real one or the wrapped one). */
  resolve(encoder: GPUCommandEncoder): void {
    const perSet = QUERIES_PER_SET / 2;
    let left = this.#pending.length;
    for (let s = 0; left > 0; s++, left -= perSet) {
      const count = 2 * Math.min(left, perSet);
      const slab = this.#slabs[s];
      encoder.resolveQuerySet(slab.set, 0, count, slab.resolve, 0);
      encoder.copyBufferToBuffer(slab.resolve, 0, slab.readback, 0, count * 8);
    }
    this.#resolved = this.#pending.length;
  }

  /**
   * Maps the timestamps of the resolved dispatches (submit the encoder given to `resolve` first)
   * and adds them to the rows; counts one step. Throws an `Error` when dispatches were recorded
   * after the last `resolve`.
   */
  async read(): Promise<void> {
    if (this.#resolved !== this.#pending.length) {
      throw new Error(
        `${this.label}: ${this.#pending.length - this.#resolved} dispatches were recorded after ` +
          "the last resolve(encoder); resolve after the step's last dispatch and submit first",
      );
    }
    const perSet = QUERIES_PER_SET / 2;
    const ms = this.tickNs / 1e6;
    for (let s = 0; s * perSet < this.#pending.length; s++) {
      const n = Math.min(this.#pending.length - s * perSet, perSet);
      const slab = this.#slabs[s];
      await slab.readback.mapAsync(GPUMapMode.READ, 0, n * 16);
      const stamps = new BigUint64Array(slab.readback.getMappedRange(0, n * 16).slice(0));
      slab.readback.unmap();
      for (let k = 0; k < n; k++) {
        const p = this.#pending[s * perSet + k];
        const key = `${p.phase}\u0000${p.kernel}`;
        const row = this.#rows.get(key) ??
          { phase: p.phase, kernel: p.kernel, dispatches: 0, indirect: 0, ms: 0 };
        const begin = stamps[2 * k], end = stamps[2 * k + 1];
        row.dispatches++;
        if (p.indirect) row.indirect++;
        row.ms += end > begin ? Number(end - begin) * ms : 0;
        this.#rows.set(key, row);
      }
    }
    this.#pending = [];
    this.#resolved = 0;
    this.steps++;
  }

  /** Forgets the rows and steps read so far (e.g. after warm-up). */
  reset(): void {
    this.#rows.clear();
    this.steps = 0;
  }

  /** The rows so far, most time first. */
  rows(): KernelProfileRow[] {
    return [...this.#rows.values()].map((r) => ({ ...r })).sort((a, b) => b.ms - a.ms);
  }

  /** Destroys the query sets and buffers. */
  destroy(): void {
    for (const s of this.#slabs) {
      s.set.destroy();
      s.resolve.destroy();
      s.readback.destroy();
    }
    this.#slabs.length = 0;
  }
}

/**
 * A compute pass that records its state and opens a timed real pass per dispatch. Debug groups
 * and markers are dropped (they would have to span real passes).
 */
class ProfiledPass {
  label: string;
  readonly #encoder: GPUCommandEncoder;
  readonly #profiler: KernelProfiler;
  #pipeline: GPUComputePipeline | null = null;
  readonly #groups: { group: GPUBindGroup | null; offsets?: number[] }[] = [];

  constructor(encoder: GPUCommandEncoder, profiler: KernelProfiler, label: string) {
    this.#encoder = encoder;
    this.#profiler = profiler;
    this.label = label;
  }

  setPipeline(pipeline: GPUComputePipeline): void {
    this.#pipeline = pipeline;
  }

  setBindGroup(index: number, group: GPUBindGroup | null, offsets?: Iterable<number>): void {
    this.#groups[index] = { group, offsets: offsets ? [...offsets] : undefined };
  }

  dispatchWorkgroups(x: number, y = 1, z = 1): void {
    this.#run(false, (pass) => pass.dispatchWorkgroups(x, y, z));
  }

  dispatchWorkgroupsIndirect(buffer: GPUBuffer, offset: number): void {
    this.#run(true, (pass) => pass.dispatchWorkgroupsIndirect(buffer, offset));
  }

  pushDebugGroup(_label: string): void {}
  popDebugGroup(): void {}
  insertDebugMarker(_label: string): void {}
  end(): void {}

  #run(indirect: boolean, dispatch: (pass: GPUComputePassEncoder) => void): void {
    if (!this.#pipeline) {
      throw new Error(`${this.label}: a dispatch before setPipeline (profiled pass)`);
    }
    const kernel = this.#pipeline.label || this.label || "(unlabelled kernel)";
    const pass = this.#encoder.beginComputePass({
      label: `${this.label} (profiled: ${kernel})`,
      timestampWrites: this.#profiler.next(kernel, indirect),
    });
    pass.setPipeline(this.#pipeline);
    this.#groups.forEach((g, i) => {
      if (!g) return;
      if (g.offsets) pass.setBindGroup(i, g.group, g.offsets);
      else pass.setBindGroup(i, g.group);
    });
    dispatch(pass);
    pass.end();
  }
}
