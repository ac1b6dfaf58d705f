/**
 * The device the cases of a bench run share: acquired for the first case and kept, so that the
 * pipelines one case compiled serve the next (`gpu/runtime/kernel.ts` caches them per device);
 * replaced when it is lost or cannot be trusted (GPU work that never completed, a failed case),
 * given back at the end of the run.
 *
 * @module
 */
import { acquireGpu, type AdapterChoice, type GpuContext } from "../gpu/runtime/device.ts";

/** Options of {@link DeviceLease}. */
export interface DeviceLeaseOptions {
  adapter: AdapterChoice;
  /** Label prefix of the devices (numbered from 1). Default `"mergesplit bench device"`. */
  label?: string;
}

/** One device at a time for a sequence of cases. */
export class DeviceLease {
  readonly adapter: AdapterChoice;
  readonly label: string;
  #gpu: GpuContext | undefined;
  #lost: string | null = null;
  #acquired = 0;

  constructor(options: DeviceLeaseOptions) {
    this.adapter = options.adapter;
    this.label = options.label ?? "mergesplit bench device";
  }

  /**
   * The current device, or a new one when there is none or the current one was lost (then it is
   * destroyed first). Throws what `acquireGpu` throws.
   */
  async get(): Promise<GpuContext> {
    if (this.#gpu && this.#lost === null) return this.#gpu;
    this.replace();
    const gpu = await acquireGpu({
      adapter: this.adapter,
      label: `${this.label} ${this.#acquired + 1}`,
    });
    this.#acquired++;
    this.#gpu = gpu;
    this.#lost = null;
    gpu.device.lost.then((info) => {
      if (this.#gpu === gpu) this.#lost = info.message || info.reason || "lost";
    });
    return gpu;
  }

  /** Why the current device was lost, or null (also when there is none). */
  get lost(): string | null {
    return this.#lost;
  }

  /** Devices acquired so far. */
  get acquired(): number {
    return this.#acquired;
  }

  /** Destroys the current device (if any): the next {@link DeviceLease.get} acquires another. */
  replace(): void {
    const gpu = this.#gpu;
    this.#gpu = undefined;
    this.#lost = null;
    gpu?.device.destroy();
  }

  /** Gives the device back at the end of a run (the same as {@link DeviceLease.replace}). */
  release(): void {
    this.replace();
  }
}
