/**
 * Deadlines for the GPU waits of a case, so that GPU work that never completes (a driver or
 * wgpu bug, a lost device that never says so) ends the case instead of hanging the suite.
 *
 * A {@link GpuDeadline} learns how long the case's steps take from the batches it has seen
 * ({@link GpuDeadline.observe}: the wall clock from a batch's first encode to its completion)
 * and races every wait ({@link GpuDeadline.wait}: a timestamp readback, `onSubmittedWorkDone`,
 * a metrics or state readback) against a timer of
 *
 *     max(floor, factor × ms per step × steps pending)
 *
 * where ms per step is the slowest batch seen so far (per step), so one slow batch only makes
 * the deadlines longer. Before any batch finished only the floor applies: the first batch
 * includes the lazy work of the driver (shader compilation on first use), which may take tens
 * of seconds on a real GPU. The defaults are generous on purpose — a wait is cut only when it
 * has lasted {@link DEFAULT_DEADLINE_FACTOR} times what the GPU needed so far, and never before
 * {@link DEFAULT_DEADLINE_FLOOR_SECONDS}: a false timeout costs a case, a late one only time.
 * An optional end (`notAfter`, the case's own time limit) cuts any wait at that moment.
 *
 * A wait past its deadline rejects with a {@link GpuTimeoutError} naming the phase (e.g.
 * "step batch 3 (steps 40–59)") and the pending operation (e.g. "mapAsync of the phase timer
 * readback"); the work itself is not cancelled (WebGPU cannot), so the device is unusable after
 * it: destroy it and acquire another.
 *
 * @module
 */

/** Seconds every wait gets at least (and all a wait gets before any batch finished). */
export const DEFAULT_DEADLINE_FLOOR_SECONDS = 60;

/** A wait may last this many times the slowest ms per step seen, times its steps pending. */
export const DEFAULT_DEADLINE_FACTOR = 50;

/** Options of {@link GpuDeadline}. */
export interface GpuDeadlineOptions {
  /** Seconds every wait gets at least (default {@link DEFAULT_DEADLINE_FLOOR_SECONDS}); > 0. */
  floorSeconds?: number;
  /** Multiple of the learned step time a wait may last (default {@link DEFAULT_DEADLINE_FACTOR}). */
  factor?: number;
  /**
   * `performance.now()` (ms) past which no wait lasts, whatever its deadline: the case's own time
   * limit. A wait cut there rejects with `reason` `"case time limit"`.
   */
  notAfter?: number;
}

/** What a wait waits for, for the message of a {@link GpuTimeoutError}. */
export interface GpuWait {
  /** Where in the case, e.g. `step batch 3 (steps 40–59)`, `metrics readback`. */
  phase: string;
  /** The pending operation, e.g. `mapAsync of the phase timer readback`, `onSubmittedWorkDone`. */
  operation: string;
  /** Steps submitted and not yet known complete that the wait covers (default 1). */
  steps?: number;
}

/**
 * A GPU wait that did not complete by its deadline: the case's GPU work is stuck (or far slower
 * than its own earlier steps). The device is unusable afterwards: destroy it.
 */
export class GpuTimeoutError extends Error {
  /** Where in the case the wait was (see {@link GpuWait.phase}). */
  readonly phase: string;
  /** The operation that did not complete. */
  readonly operation: string;
  /** The deadline the wait had, in seconds. */
  readonly seconds: number;
  /** `deadline`: the GPU deadline passed; `case time limit`: the case's `notAfter` came first. */
  readonly reason: "deadline" | "case time limit";
  /** @param wait what was awaited; @param options the deadline (s) and which limit ended it */
  constructor(
    wait: GpuWait,
    options: { seconds: number; reason: "deadline" | "case time limit"; basis: string },
  ) {
    super(
      `GPU work did not complete: ${wait.operation} in ${wait.phase} was still pending after ` +
        `${formatSeconds(options.seconds)} (${options.basis}). A GPU or driver that hangs is ` +
        "the likely cause, and the device cannot be trusted after it: rerun the case alone to " +
        "see whether it recurs, and report it with the adapter and its backend",
    );
    this.name = "GpuTimeoutError";
    this.phase = wait.phase;
    this.operation = wait.operation;
    this.seconds = options.seconds;
    this.reason = options.reason;
  }
}

/** Deadlines for one case's GPU waits, scaled from its own step times (module doc). */
export class GpuDeadline {
  readonly floorSeconds: number;
  readonly factor: number;
  /** The case's end (`performance.now()` ms), if any. */
  readonly notAfter: number | undefined;
  #msPerStep = 0;
  #batches = 0;

  /** Throws a `RangeError` for a floor or factor that is not a positive number. */
  constructor(options: GpuDeadlineOptions = {}) {
    const floor = options.floorSeconds ?? DEFAULT_DEADLINE_FLOOR_SECONDS;
    const factor = options.factor ?? DEFAULT_DEADLINE_FACTOR;
    if (!(floor > 0)) {
      throw new RangeError(`GpuDeadline: floorSeconds must be > 0 (seconds), got ${floor}`);
    }
    if (!(factor > 0)) throw new RangeError(`GpuDeadline: factor must be > 0, got ${factor}`);
    this.floorSeconds = floor;
    this.factor = factor;
    this.notAfter = options.notAfter;
  }

  /** Records a finished batch of `steps` steps that took `ms` of wall clock in all. */
  observe(steps: number, ms: number): void {
    if (!(steps > 0) || !(ms >= 0)) return;
    this.#msPerStep = Math.max(this.#msPerStep, ms / steps);
    this.#batches++;
  }

  /** The slowest ms per step seen (0 before any batch finished). */
  get msPerStep(): number {
    return this.#msPerStep;
  }

  /** Batches observed so far. */
  get batches(): number {
    return this.#batches;
  }

  /** The deadline (s) of a wait covering `steps` pending steps, before the case's end. */
  seconds(steps = 1): number {
    return Math.max(this.floorSeconds, (this.factor * this.#msPerStep * Math.max(1, steps)) / 1000);
  }

  /**
   * `work`, or a rejection with a {@link GpuTimeoutError} when it has not settled by its
   * deadline ({@link GpuDeadline.seconds} of `wait.steps`, cut at `notAfter`). A rejection of
   * `work` after the deadline is swallowed.
   */
  wait<T>(work: Promise<T>, wait: GpuWait): Promise<T> {
    const steps = wait.steps ?? 1;
    let seconds = this.seconds(steps);
    let reason: "deadline" | "case time limit" = "deadline";
    let basis = this.#batches
      ? `${this.factor} × ${this.#msPerStep.toFixed(1)} ms/step × ${steps} step(s), at least ` +
        `${formatSeconds(this.floorSeconds)}`
      : `the ${formatSeconds(this.floorSeconds)} floor: no batch of this case had finished yet`;
    if (this.notAfter !== undefined) {
      const left = Math.max(0, (this.notAfter - performance.now()) / 1000);
      if (left < seconds) {
        seconds = left;
        reason = "case time limit";
        basis = "the case's time limit ran out";
      }
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new GpuTimeoutError(wait, { seconds, reason, basis })),
        // setTimeout's largest delay (about 24.8 days); a longer one would fire at once
        Math.min(seconds * 1000, 2 ** 31 - 1),
      );
    });
    // the race subscribes to `work`, so a rejection of it after the deadline is handled
    return Promise.race([work, expired]).finally(() => clearTimeout(timer));
  }
}

function formatSeconds(s: number): string {
  return s >= 10 ? `${s.toFixed(0)} s` : `${s.toPrecision(2)} s`;
}
