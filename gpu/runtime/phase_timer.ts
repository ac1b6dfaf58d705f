/**
 * GPU timestamp timing of named phases of a step, read back in batches.
 *
 * A batch covers up to `capacitySteps` steps. For phase `p` of step `s` (both counted from 0
 * within the batch) {@link PhaseTimer.writes} gives the `timestampWrites` of a compute pass. A
 * phase that spans several passes in a step is timed from the beginning of its first pass
 * (`part: "begin"`) to the end of its last pass (`part: "end"`): the duration then includes
 * whatever the GPU ran between those passes. After the batch's last step,
 * {@link PhaseTimer.resolve} records the resolve and copy into an encoder; once that encoder is
 * submitted, {@link PhaseTimer.read} maps the one readback buffer and returns milliseconds per
 * phase per step, and starts the next batch.
 *
 * Without the `timestamp-query` feature on the device (or with `enabled: false`) the timer is
 * disabled: `enabled` is false, `reason` says why, `writes` returns `undefined` (so it can be
 * passed as `timestampWrites` unconditionally) and callers time with the wall clock instead.
 *
 * Units: WebGPU defines resolved timestamps in nanoseconds, but wgpu (under Deno) resolves raw
 * GPU ticks; on Vulkan for NVIDIA, AMD and llvmpipe a tick is 1 ns. Pass `tickNs` where it is not.
 *
 * @module
 */

/** Most queries in one `GPUQuerySet` (WebGPU). */
const MAX_QUERIES = 4096;

/** Options of the {@link PhaseTimer} constructor. */
export interface PhaseTimerOptions {
  /** Names of the phases of a step, distinct, in report order. */
  phases: readonly string[];
  /** Steps per batch (between two reads). `2 * phases.length * capacitySteps` must be ≤ 4096. */
  capacitySteps: number;
  /** Time on the GPU when the device allows it. Default true. */
  enabled?: boolean;
  /** Label prefix of the query set and buffers. Default `"phase timer"`. */
  label?: string;
  /** Nanoseconds per resolved timestamp unit. Default 1. */
  tickNs?: number;
}

/** Options of {@link PhaseTimer.writes}. */
export interface PhaseWritesOptions {
  /**
   * Which timestamps this pass writes: `"both"` (default, the pass is the whole phase),
   * `"begin"` (first of several passes of the phase) or `"end"` (last of several passes).
   */
  part?: "both" | "begin" | "end";
}

/** Durations of one batch. */
export interface PhaseDurations {
  /** Steps in the batch: one more than the highest step index given to `writes`. */
  steps: number;
  /**
   * Milliseconds per phase name, one entry per step; `NaN` where the phase did not get both a
   * begin and an end timestamp in that step; 0 where the GPU reported end before begin.
   */
  ms: Record<string, number[]>;
}

/**
 * Times named phases of steps with GPU timestamp queries; one query set, one resolve buffer and
 * one readback buffer, mapped once per batch.
 *
 * @example
 * const timer = new PhaseTimer(device, { phases: ["grid", "solve"], capacitySteps: 100 });
 * for (let s = 0; s < 100; s++) {
 *   const pass = encoder.beginComputePass({ label: "grid", timestampWrites: timer.writes("grid", s) });
 *   // ...
 * }
 * timer.resolve(encoder);
 * device.queue.submit([encoder.finish()]);
 * const { ms } = await timer.read(); // ms.grid[s]
 */
export class PhaseTimer {
  /** True when phases are timed on the GPU; false: callers fall back to the wall clock. */
  readonly enabled: boolean;
  /** Why the timer is disabled; empty when enabled. */
  readonly reason: string;
  /** Phase names, in report order. */
  readonly phases: readonly string[];
  /** Steps per batch. */
  readonly capacitySteps: number;
  /** Label prefix of the GPU objects. */
  readonly label: string;
  /** Nanoseconds per timestamp unit. */
  readonly tickNs: number;

  readonly #index = new Map<string, number>();
  readonly #querySet: GPUQuerySet | undefined;
  readonly #resolveBuffer: GPUBuffer | undefined;
  readonly #readback: GPUBuffer | undefined;
  /** Per (step, phase): bit 1 begin requested, bit 2 end requested. */
  readonly #requested: Uint8Array;
  #steps = 0;
  /** A pass was timed since the last resolve. */
  #dirty = false;
  #reading = false;

  /**
   * Creates the query set and buffers when enabled. Throws a `RangeError` for duplicate or empty
   * phase lists and for a batch larger than one query set holds.
   */
  constructor(device: GPUDevice, options: PhaseTimerOptions) {
    const label = options.label ?? "phase timer";
    const phases = [...options.phases];
    const { capacitySteps } = options;
    if (phases.length === 0) throw new RangeError(`${label}: phases must name at least one phase`);
    phases.forEach((p, k) => {
      if (this.#index.has(p)) throw new RangeError(`${label}: phase "${p}" is listed twice`);
      this.#index.set(p, k);
    });
    if (!Number.isInteger(capacitySteps) || capacitySteps < 1) {
      throw new RangeError(
        `${label}: capacitySteps must be a positive integer, got ${capacitySteps}`,
      );
    }
    const queries = 2 * phases.length * capacitySteps;
    if (queries > MAX_QUERIES) {
      throw new RangeError(
        `${label}: ${phases.length} phases × ${capacitySteps} steps need ${queries} timestamp ` +
          `queries, more than one query set holds (${MAX_QUERIES}); read back more often ` +
          `(capacitySteps ≤ ${Math.floor(MAX_QUERIES / (2 * phases.length))})`,
      );
    }
    const tickNs = options.tickNs ?? 1;
    if (!(tickNs > 0) || !Number.isFinite(tickNs)) {
      throw new RangeError(`${label}: tickNs must be positive and finite, got ${tickNs}`);
    }
    this.label = label;
    this.phases = phases;
    this.capacitySteps = capacitySteps;
    this.tickNs = tickNs;
    this.#requested = new Uint8Array(phases.length * capacitySteps);

    if (options.enabled === false) {
      this.enabled = false;
      this.reason = "GPU timing was disabled by the caller (enabled: false)";
    } else if (!device.features.has("timestamp-query")) {
      this.enabled = false;
      this.reason = 'the device lacks the "timestamp-query" feature; phases are timed by the ' +
        "wall clock (request the feature with acquireGpu({ timestamps: true }) on an adapter " +
        "that offers it)";
    } else {
      this.enabled = true;
      this.reason = "";
      this.#querySet = device.createQuerySet({
        label: `${label} queries`,
        type: "timestamp",
        count: queries,
      });
      this.#resolveBuffer = device.createBuffer({
        label: `${label} resolve`,
        // room for every run of written queries at a 256-byte aligned offset (see resolve())
        size: queries * 8 + (queries / 2 + 1) * 256,
        usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
      });
      this.#readback = device.createBuffer({
        label: `${label} readback`,
        size: queries * 8,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      });
    }
  }

  /**
   * Timestamp writes timing phase `phase` of step `step` (0-based within the batch) with a compute
   * pass; `undefined` when disabled. Throws a `RangeError` for an unknown phase or a step outside
   * `[0, capacitySteps)`.
   */
  writes(
    phase: string,
    step: number,
    options: PhaseWritesOptions = {},
  ): GPUComputePassTimestampWrites | undefined {
    const p = this.#index.get(phase);
    if (p === undefined) {
      throw new RangeError(
        `${this.label}: unknown phase "${phase}"; the phases are ${JSON.stringify(this.phases)}`,
      );
    }
    if (!Number.isInteger(step) || step < 0 || step >= this.capacitySteps) {
      throw new RangeError(
        `${this.label}: step ${step} is outside [0, ${this.capacitySteps}); call resolve() and ` +
          "read() to start a new batch, or raise capacitySteps",
      );
    }
    if (!this.enabled) return undefined;
    const part = options.part ?? "both";
    const slot = step * this.phases.length + p;
    const begin = 2 * slot;
    this.#steps = Math.max(this.#steps, step + 1);
    this.#dirty = true;
    const writes: GPUComputePassTimestampWrites = { querySet: this.#querySet! };
    if (part === "both" || part === "begin") {
      writes.beginningOfPassWriteIndex = begin;
      this.#requested[slot] |= 1;
    }
    if (part === "both" || part === "end") {
      writes.endOfPassWriteIndex = begin + 1;
      this.#requested[slot] |= 2;
    }
    return writes;
  }

  /**
   * Records the resolve of the batch's timestamps and their copy into the readback buffer. Submit
   * `encoder` before {@link PhaseTimer.read}. Does nothing when disabled or when no step was timed.
   * Throws an `Error` while a `read()` is in flight (await it first).
   */
  resolve(encoder: GPUCommandEncoder): void {
    if (!this.enabled || this.#steps === 0) return;
    if (this.#reading) {
      throw new Error(
        `${this.label}: resolve() called while read() is mapping; await read() first`,
      );
    }
    // Only the queries written in this batch are resolved, each maximal run of them with one
    // resolve: wgpu 29 (Deno 2.9) resolves on Vulkan with a WAIT flag, so a query that no pass
    // wrote (a phase that did not run in a step) would never become available and the queue would
    // wait forever (gfx-rs/wgpu#3612). The slots left out keep stale bytes; read() ignores them.
    // Each run lands at a 256-byte aligned offset of the resolve buffer (WebGPU's rule for
    // resolveQuerySet), then is copied to its own place in the readback buffer.
    let at = 0;
    for (const [first, count] of writtenRuns(this.#requested, this.phases.length * this.#steps)) {
      encoder.resolveQuerySet(this.#querySet!, first, count, this.#resolveBuffer!, at);
      encoder.copyBufferToBuffer(this.#resolveBuffer!, at, this.#readback!, first * 8, count * 8);
      at += Math.ceil((count * 8) / 256) * 256;
    }
    this.#dirty = false;
  }

  /**
   * Maps the readback buffer (once) and returns the batch's durations in milliseconds, then starts
   * a new batch. When disabled, returns `{ steps: 0 }` with empty lists. Throws an `Error` when
   * a pass was timed after the last `resolve()` (resolve after the batch's last timed pass).
   */
  async read(): Promise<PhaseDurations> {
    const ms: Record<string, number[]> = {};
    for (const p of this.phases) ms[p] = [];
    if (!this.enabled) return { steps: 0, ms };
    const steps = this.#steps;
    if (steps === 0) return { steps: 0, ms };
    if (this.#dirty) {
      throw new Error(
        `${this.label}: read() needs the batch resolved first: call resolve(encoder) after the ` +
          "batch's last timed pass and submit that encoder",
      );
    }
    if (this.#reading) throw new Error(`${this.label}: read() is already in flight; await it`);
    this.#reading = true;
    const nPhases = this.phases.length;
    const bytes = 2 * nPhases * steps * 8;
    let stamps: BigUint64Array;
    try {
      await this.#readback!.mapAsync(GPUMapMode.READ, 0, bytes);
      stamps = new BigUint64Array(this.#readback!.getMappedRange(0, bytes).slice(0));
      this.#readback!.unmap();
    } finally {
      this.#reading = false;
    }
    const nsToMs = this.tickNs / 1e6;
    for (let s = 0; s < steps; s++) {
      this.phases.forEach((name, p) => {
        const slot = s * nPhases + p;
        if (this.#requested[slot] !== 3) {
          ms[name].push(NaN);
          return;
        }
        const begin = stamps[2 * slot], end = stamps[2 * slot + 1];
        ms[name].push(end > begin ? Number(end - begin) * nsToMs : 0);
      });
    }
    this.#requested.fill(0);
    this.#steps = 0;
    return { steps, ms };
  }

  /** Destroys the query set and buffers. */
  destroy(): void {
    this.#querySet?.destroy();
    this.#resolveBuffer?.destroy();
    this.#readback?.destroy();
  }
}

/**
 * The maximal runs `[first, count]` of query indices that were written, from the per-slot bits of
 * `requested` (bit 1: the slot's begin query `2·slot`, bit 2: its end query `2·slot + 1`) over its
 * first `slots` slots. Exported for its test.
 */
export function writtenRuns(requested: Uint8Array, slots: number): [number, number][] {
  const runs: [number, number][] = [];
  let start = -1;
  for (let q = 0; q <= 2 * slots; q++) {
    const written = q < 2 * slots && (requested[q >> 1] & (1 << (q & 1))) !== 0;
    if (written && start < 0) start = q;
    else if (!written && start >= 0) {
      runs.push([start, q - start]);
      start = -1;
    }
  }
  return runs;
}
