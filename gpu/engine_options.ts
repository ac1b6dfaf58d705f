/**
 * The options of `Engine.create`.
 *
 * @module
 */
import type { ParamValues } from "../core/params.ts";
import type { CouplingReading } from "./coupling/coupling.ts";
import type { GpuContext } from "./runtime/device.ts";
import type { BufferBudget } from "./runtime/buffer_memory.ts";
import type { KernelProfiler } from "./runtime/kernel_profiler.ts";
import type { GpuDeadlineOptions } from "./runtime/gpu_deadline.ts";

/** Options of {@link Engine.create}. */
export interface EngineOptions {
  /** Handler id (see `gpu/handlers/registry.ts`). */
  handler: string;
  /** Overrides of the handler's parameters (`--param id.name=value`); not with `handlerParams`. */
  params?: Readonly<Record<string, number>>;
  /**
   * The handler's parameters already resolved and checked (`handlerParams` of
   * `gpu/handlers/registry.ts`, e.g. the bench's `CaseSpec.handlerParams`): the engine runs with
   * them as they are. Without them it resolves `scene.handlers[handler]` with `params` itself.
   */
  handlerParams?: ParamValues;
  /** How systems see a shared meta-particle (default `DEFAULT_COUPLING`, the paper's `whole`; `gpu/coupling/coupling.ts`). */
  coupling?: CouplingReading;
  /** A GPU to use; otherwise one is acquired with `adapter`. */
  gpu?: GpuContext;
  adapter?: "default" | "software";
  /** Time phases with GPU timestamps when available (default true). */
  timing?: boolean;
  /**
   * The most steps this engine will run (the bench's `--steps`, or `--duration` over dt): the
   * metrics' sample storage is sized for them. Default, and at least: the scene's duration / dt.
   */
  steps?: number;
  /** Steps per batch between readbacks of timings (default 100). */
  batchSteps?: number;
  /**
   * Steps encoded into the command buffers of one submit (default 1, at most
   * `MAX_STEPS_PER_SUBMIT`, 64): fewer submits where the host bounds the step. A step that takes a
   * metrics sample is submitted alone, a batch of timings ends with a submit and a profiled run
   * submits every step; per-step parameters land in command order (`StepParamRing`), so the
   * state is the same whatever the count.
   */
  stepsPerSubmit?: number;
  /**
   * Contact (and pair, and marked) slots per particle K (default `contactSlots` of
   * `gpu/state/contact_slots.ts`: 16, fewer where the slots of every particle would not fit one
   * storage binding).
   */
  maxPerParticle?: number;
  /**
   * Let the handler decide on the GPU whether a stage runs (merge-split's stage 2 only when a
   * marked pair approaches; default true). False runs every stage every step, as the paper does.
   */
  stageGates?: boolean;
  /**
   * The loop budget of the one-workgroup kernels (the implicit systems' solves,
   * `gpu/runtime/local_solve.ts`; merge-split's grouping): default the device's
   * (`deviceLoopBudget`: a software adapter's loop cap, none on a GPU); null builds a GPU's plan
   * on any device (its dispatch counts; on llvmpipe and lavapipe its loops would stop at their
   * cap, so only for counting, and on SwiftShader, which has none).
   */
  localBudget?: number | null;
  /**
   * Merge-split's index-order grouping in one workgroup (`io_small`: 2 dispatches a stage, the same
   * groups) wherever it can take the scene (`indexOrderSmall` of
   * `gpu/handlers/merge-split/grouping.ts`: up to 3,072 particles, within a software adapter's loop
   * cap), else its dispatched pass (the default everywhere): to measure whether it pays on a device
   * (`--one-workgroup-grouping`; slower on lavapipe, unmeasured on a GPU).
   */
  oneWorkgroupGrouping?: boolean;
  /**
   * The most bytes of GPU buffers the engine may hold: building past it throws a
   * `GpuMemoryError` naming the buffer and the need before any step runs. Default
   * `defaultBufferBudget` (on a software adapter 90 % of the host memory available); null: none.
   */
  memoryBudget?: BufferBudget | null;
  /**
   * Time every dispatch with this profiler (`gpu/runtime/kernel_profiler.ts`; created on the
   * engine's device): one pass per dispatch and one readback per step, so phase timings are off.
   * A diagnostic (`deno task profile`), never part of a bench case.
   */
  profiler?: KernelProfiler;
  /**
   * Deadlines of the engine's GPU waits (`gpu/runtime/gpu_deadline.ts`): a batch's readback, a
   * read of results, the build's validation. Default: a floor of 60 s, 50 × the slowest ms per
   * step seen × the steps pending, no end. A wait past its deadline throws a `GpuTimeoutError`
   * naming the phase and the operation; the device is unusable after it.
   */
  deadline?: GpuDeadlineOptions;
}
