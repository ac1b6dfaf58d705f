/**
 * Per-phase step timings in batches: GPU timestamps around the phases' compute passes when the
 * adapter has `timestamp-query` (one readback per batch), the wall clock per batch otherwise
 * (one `onSubmittedWorkDone` per batch). Never a host sync per step.
 *
 * @module
 */
import { PhaseTimer } from "./phase_timer.ts";

/** Per-step durations (ms) of each phase, from timestamps or (total only) the wall clock. */
export interface StepTimings<P extends string = string> {
  /** `timestamp` when the adapter has `timestamp-query`, else `wall-clock`. */
  source: "timestamp" | "wall-clock";
  /** ms per step for each phase (timestamp source), one entry per measured step (0 when the phase did not run in that step). */
  phases: Partial<Record<P, number[]>>;
  /** ms per step in total: the sum of the phases, or the wall clock of a batch / its steps. */
  total: number[];
  /** Host↔GPU transfers: bytes read back and ms spent waiting on readbacks. */
  transfer: { bytes: number; ms: number };
  /**
   * The host's wall clock over whole batches: steps, and ms from each batch's first encoding to
   * its readback (encoding, submission and the one wait per batch included). A cross-check of the
   * timestamps: on a GPU that waits for the host it is the larger.
   */
  wall: { steps: number; ms: number };
  /**
   * The host's own time per step: ms from the start of the encoding of each submit's first step
   * to the return of the submit (`StepClock.beginStep` to `StepClock.submitted`), summed over the
   * `steps` steps the submits held; no GPU wait is inside it, so where the GPU runs
   * asynchronously (Vulkan, Metal, D3D12) it is the encode-and-submit cost a step adds to the GPU
   * time. Where a submit blocks until the GPU is done (a GL backend) it includes GPU time.
   */
  host: { steps: number; ms: number };
}

/**
 * Races a GPU wait against a deadline (e.g. `GpuDeadline.wait` of `gpu_deadline.ts`), told the
 * pending operation in words.
 */
export type GpuWaitGuard = <T>(work: Promise<T>, operation: string) => Promise<T>;

/** Times the phases of steps submitted in batches. */
export class StepClock<P extends string> {
  readonly #device: GPUDevice;
  readonly #phases: readonly P[];
  readonly #timer: PhaseTimer | null;
  readonly batchSteps: number;
  #timings: StepTimings<P>;
  #inBatch = 0;
  #batchStart = 0;
  /** When the encoding of the steps not yet submitted began. */
  #submitStart = 0;
  /** Steps encoded since the last submit. */
  #unsubmitted = 0;
  /** Host syncs so far (one per batch, plus those {@link StepClock.countTransfer} records). */
  hostSyncs = 0;

  /**
   * @param device the GPU device
   * @param options.phases the phases, in step order; options.timestamps whether to use GPU
   *   timestamps; options.batchSteps steps per batch
   */
  constructor(
    device: GPUDevice,
    options: { phases: readonly P[]; timestamps: boolean; batchSteps: number },
  ) {
    this.#device = device;
    this.#phases = options.phases;
    this.batchSteps = options.batchSteps;
    this.#timer = options.timestamps
      ? new PhaseTimer(device, {
        phases: [...options.phases],
        capacitySteps: options.batchSteps,
        label: "phase timer",
      })
      : null;
    this.#timings = {
      source: this.#timer ? "timestamp" : "wall-clock",
      phases: {},
      total: [],
      transfer: { bytes: 0, ms: 0 },
      wall: { steps: 0, ms: 0 },
      host: { steps: 0, ms: 0 },
    };
  }

  /** Timestamp writes of `phase` in the current step (or of its begin/end part). */
  writes(phase: P, part?: "begin" | "end"): GPUComputePassTimestampWrites | undefined {
    return this.#timer?.writes(phase, this.#inBatch, part ? { part } : undefined);
  }

  /** Call before encoding a step. */
  beginStep(): void {
    const now = performance.now();
    if (this.#unsubmitted++ === 0) this.#submitStart = now;
    if (this.#inBatch === 0) this.#batchStart = now;
  }

  /**
   * Call when a submit has returned: the encode-and-submit time (`host`) of the steps it held
   * (those begun since the last submit) is counted.
   */
  submitted(): void {
    this.#timings.host.steps += this.#unsubmitted;
    this.#timings.host.ms += performance.now() - this.#submitStart;
    this.#unsubmitted = 0;
  }

  /**
   * Call after encoding a step, before submitting it; returns whether the batch ends with it
   * (then resolve is encoded, and {@link StepClock.endBatch} must follow the submit).
   */
  endStep(encoder: GPUCommandEncoder, last: boolean): boolean {
    this.#inBatch++;
    const ends = last || this.#inBatch === this.batchSteps;
    if (ends && this.#timer) this.#timer.resolve(encoder);
    return ends;
  }

  /**
   * Reads the batch's timings (the one host sync of a batch), its one GPU wait raced by
   * `options.guard` when given. Returns the batch's steps and the wall clock (ms) from its first
   * step's encoding to its completion.
   */
  async endBatch(options: { guard?: GpuWaitGuard } = {}): Promise<{ steps: number; ms: number }> {
    const steps = this.#inBatch;
    const t0 = performance.now();
    const guard: GpuWaitGuard = options.guard ?? ((work) => work);
    this.hostSyncs++;
    if (this.#timer) {
      const d = await guard(this.#timer.read(), "mapAsync of the phase timer readback");
      for (let s = 0; s < steps; s++) {
        let total = 0;
        for (const ph of this.#phases) {
          // A phase that did not run in a step (stage 2 of a one-stage handler, metrics between
          // samples) costs 0 ms in that step, so means are per step, amortised.
          const raw = d.ms[ph]?.[s];
          const v = raw === undefined || Number.isNaN(raw) ? 0 : raw;
          (this.#timings.phases[ph] ??= []).push(v);
          total += v;
        }
        this.#timings.total.push(total);
      }
      this.#timings.transfer.bytes += 16 * this.#phases.length * steps;
    } else {
      await guard(this.#device.queue.onSubmittedWorkDone(), "onSubmittedWorkDone");
      const per = (performance.now() - this.#batchStart) / steps;
      for (let s = 0; s < steps; s++) this.#timings.total.push(per);
    }
    const now = performance.now();
    this.#timings.transfer.ms += now - t0;
    this.#timings.wall.steps += steps;
    this.#timings.wall.ms += now - this.#batchStart;
    this.#inBatch = 0;
    return { steps, ms: now - this.#batchStart };
  }

  /** Records a readback outside the batches: its bytes and the ms waited. */
  countTransfer(bytes: number, ms: number, syncs = 1): void {
    this.hostSyncs += syncs;
    this.#timings.transfer.bytes += bytes;
    this.#timings.transfer.ms += ms;
  }

  /** Timings measured so far. */
  get timings(): StepTimings<P> {
    return this.#timings;
  }

  /** Forgets the timings measured so far (e.g. after warm-up steps). */
  reset(): void {
    this.#timings = {
      ...this.#timings,
      phases: {},
      total: [],
      transfer: { bytes: 0, ms: 0 },
      wall: { steps: 0, ms: 0 },
      host: { steps: 0, ms: 0 },
    };
  }

  /** Frees the timer. */
  destroy(): void {
    this.#timer?.destroy();
  }
}
