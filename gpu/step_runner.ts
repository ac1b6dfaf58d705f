/**
 * The engine's run of steps: each step encoded (`step_encoder.ts`), `stepsPerSubmit` of them to a
 * submit, timings resolved and read back once per batch of the clock (the only host sync), the
 * deadlines of those waits and a stop asked between steps. `Engine.run` delegates here.
 *
 * @module
 */
import type { Phase } from "./phases.ts";
import { RunStopped } from "./run_stopped.ts";
import type { StepEncoder } from "./step_encoder.ts";
import type { GpuDeadline, GpuWait } from "./runtime/gpu_deadline.ts";
import type { GpuSession } from "./runtime/gpu_session.ts";
import type { KernelProfiler } from "./runtime/kernel_profiler.ts";
import type { StepClock } from "./runtime/step_clock.ts";
import { MAX_STEPS_PER_SUBMIT } from "./runtime/step_param_ring.ts";

/** `EngineOptions.stepsPerSubmit`, checked: an integer in [1, MAX_STEPS_PER_SUBMIT]. */
export function checkStepsPerSubmit(k: number): void {
  if (!Number.isInteger(k) || k < 1 || k > MAX_STEPS_PER_SUBMIT) {
    throw new RangeError(
      `options.stepsPerSubmit must be an integer in [1, ${MAX_STEPS_PER_SUBMIT}] (the steps ` +
        `per-step parameter rings hold), got ${k}`,
    );
  }
}

/** What a {@link StepRunner} drives: the engine's parts that run steps. */
export interface StepRunnerParts {
  device: GPUDevice;
  steps: StepEncoder;
  clock: StepClock<Phase>;
  deadline: GpuDeadline;
  session: GpuSession;
  profiler?: KernelProfiler;
  stepsPerSubmit: number;
}

/** Options of {@link StepRunner.run}. */
export interface RunOptions {
  onProgress?: (done: number) => void;
  /** Asked after every step; a non-null reason stops the run with a {@link RunStopped}. */
  shouldStop?: () => string | null;
}

/** Runs an engine's steps in submits and batches. */
export class StepRunner {
  readonly #p: StepRunnerParts;
  /** Batches of steps run so far (for the phase a GPU wait names). */
  #batches = 0;

  /** A runner of `parts`' steps. */
  constructor(parts: StepRunnerParts) {
    this.#p = parts;
  }

  /**
   * Runs `steps` steps, each numbered by `next()` (which advances the engine's count). A batch
   * whose wait does not complete by its deadline throws a `GpuTimeoutError` naming the batch, its
   * steps and the pending operation. `shouldStop` is asked after every step (a GL submit blocks,
   * so no timer fires in a batch): a reason makes the next step the batch's last, then
   * {@link RunStopped}.
   */
  async run(steps: number, next: () => number, options: RunOptions = {}): Promise<void> {
    const { device, steps: encoder, clock, deadline, profiler } = this.#p;
    let first = -1;
    let stopping: string | null = null;
    const pending: GPUCommandBuffer[] = [];
    for (let s = 0; s < steps; s++) {
      clock.beginStep();
      const step = next();
      if (first < 0) first = step;
      const commands = encoder.encode(step);
      const ends = clock.endStep(commands, s === steps - 1 || stopping !== null);
      profiler?.resolve(commands);
      pending.push(commands.finish());
      if (ends || this.#submitsAfter(step, pending.length)) {
        device.queue.submit(pending.splice(0));
        clock.submitted();
      }
      if (profiler) {
        await deadline.wait(profiler.read(), {
          phase: `profiled step ${step}`,
          operation: "mapAsync of the kernel profiler readback",
        });
      }
      if (!ends) {
        stopping = options.shouldStop?.() ?? null;
        continue;
      }
      const batch: Omit<GpuWait, "operation"> = {
        phase: `step batch ${++this.#batches} (steps ${first}–${step})`,
        steps: step + 1 - first,
      };
      const done = await clock.endBatch({
        guard: (work, operation) => deadline.wait(work, { ...batch, operation }),
      });
      deadline.observe(done.steps, done.ms);
      first = -1;
      this.#p.session.throwReported(`steps up to ${step + 1}`);
      options.onProgress?.(s + 1);
      const reason = stopping ?? options.shouldStop?.() ?? null;
      if (reason !== null) throw new RunStopped(reason, s + 1);
    }
  }

  /**
   * Whether the steps encoded up to `step` (`pending` of them) go to the queue now: `stepsPerSubmit`
   * of them, or before and after a step that samples (its writes of the metrics' parameters and
   * the stage gates' shapes land before its submit and hold for that step alone), or every step
   * of a profiled run (one readback per step).
   */
  #submitsAfter(step: number, pending: number): boolean {
    const { steps, profiler, stepsPerSubmit } = this.#p;
    return pending >= stepsPerSubmit || profiler !== undefined || steps.samples(step) ||
      steps.samples(step + 1);
  }
}
