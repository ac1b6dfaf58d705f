/**
 * What an engine holds of its device while it lives: whether it owns the device (and destroys it
 * at the end), the buffer-memory budget and the peak since it began, and the errors the device
 * reported outside any error scope. One per engine; `buildInSession` builds the engine under it.
 *
 * @module
 */
import type { GpuContext } from "./device.ts";
import {
  type BufferBudget,
  type BufferMemory,
  defaultBufferBudget,
  GpuMemoryError,
  trackBufferMemory,
} from "./buffer_memory.ts";
import type { GpuDeadline } from "./gpu_deadline.ts";
import { clearKernelCache } from "./kernel.ts";
import { buildValidated } from "./validated.ts";

/** An engine's hold on its device (see the module doc). */
export class GpuSession {
  readonly gpu: GpuContext;
  readonly #owns: boolean;
  readonly #memory: BufferMemory;
  /** Bytes alive on the device when the session began (an earlier case's leftovers). */
  readonly #base: number;
  readonly #errors: string[] = [];
  readonly #onError = (e: Event) => {
    this.#errors.push((e as GPUUncapturedErrorEvent).error.message);
  };
  #closed = false;

  /**
   * @param gpu the device
   * @param options.owns whether closing the session destroys the device; options.memoryBudget
   *   the bytes its buffers may take (undefined: `defaultBufferBudget` of the adapter; null: none)
   */
  constructor(
    gpu: GpuContext,
    options: { owns: boolean; memoryBudget?: BufferBudget | null },
  ) {
    this.gpu = gpu;
    this.#owns = options.owns;
    this.#memory = trackBufferMemory(gpu.device);
    this.#memory.resetPeak();
    this.#base = this.#memory.live;
    this.#memory.setBudget(
      options.memoryBudget === undefined ? defaultBufferBudget(gpu.info) : options.memoryBudget,
    );
    gpu.device.addEventListener("uncapturederror", this.#onError);
  }

  /** Peak bytes of buffers alive since the session began, beyond those alive before it. */
  get peakBufferBytes(): number {
    return this.#memory.peak - this.#base;
  }

  /** Throws the first error the device reported outside an error scope, naming `when`. */
  throwReported(when: string): void {
    if (this.#errors.length) throw new Error(`GPU error during ${when}: ${this.#errors[0]}`);
  }

  /** Stops listening, lifts the budget, and destroys the device when the session owns it. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.gpu.device.removeEventListener("uncapturederror", this.#onError);
    this.#memory.setBudget(null);
    if (this.#owns) this.gpu.device.destroy();
  }
}

/**
 * Builds an object that opens a {@link GpuSession} on `gpu` (an engine) under validation
 * (`buildValidated`), its wait raced with `deadline`. A build that fails lifts the budget its
 * session set, clears the device's kernel cache (a pipeline it cached may be invalid), destroys
 * the device when `owns`, and puts `what` before a `GpuMemoryError`'s message.
 */
export async function buildInSession<T>(
  gpu: GpuContext,
  options: {
    what: string;
    owns: boolean;
    deadline: GpuDeadline;
    build: () => T;
    cleanup: (built: T) => void;
  },
): Promise<T> {
  const { what } = options;
  try {
    return await options.deadline.wait(
      buildValidated(gpu.device, { what, build: options.build, cleanup: options.cleanup }),
      { phase: `the build of ${what}`, operation: "popErrorScope of its validation" },
    );
  } catch (e) {
    trackBufferMemory(gpu.device).setBudget(null);
    clearKernelCache(gpu.device);
    if (options.owns) gpu.device.destroy();
    if (e instanceof GpuMemoryError) throw new GpuMemoryError(`${what} ${e.message}`, e);
    throw e;
  }
}
