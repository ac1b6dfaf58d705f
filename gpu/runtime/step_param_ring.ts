/**
 * Per-step parameters that land in command order, so that several steps may share one submit.
 *
 * `queue.writeBuffer` lands before the next submit: when k steps are encoded into the command
 * buffers of one submit, a uniform written once per step holds the last step's value for all k.
 * A {@link StepParamRing} writes each step's values into the next slot of a ring (still
 * `queue.writeBuffer`, each slot its own bytes) and encodes a copy of that slot into the uniform
 * on the step's command encoder: a transfer command, not a dispatch, executed in order with the
 * step's passes. Slots come round again only after {@link StepParamRing.slots} writes, so at most
 * that many steps may share a submit (queue order makes a later write wait for every earlier
 * submit). With one step per submit the uniform holds what a direct write would have put there.
 *
 * ```ts
 * const ring = new StepParamRing(device, { label: "grouping params", targets: [u1, u2], bytes: 32 });
 * ring.write([packStage1(step), packStage2(step)], encoder); // before the step's passes
 * ```
 *
 * @module
 */

/** Most steps one submit may hold (the engine's `stepsPerSubmit` at most; the ring's default slots). */
export const MAX_STEPS_PER_SUBMIT = 64;

/** Options of the {@link StepParamRing} constructor. */
export interface StepParamRingOptions {
  /** Label of the ring buffer (and of its errors). */
  label: string;
  /** The uniforms it fills, each `bytes` long at offset 0 (usage COPY_DST). */
  targets: readonly GPUBuffer[];
  /** Bytes of each target's values: a multiple of 4. */
  bytes: number;
  /** Slots (steps) before the ring comes round (default {@link MAX_STEPS_PER_SUBMIT}). */
  slots?: number;
}

/** A ring of per-step parameter slots copied into uniforms in command order. */
export class StepParamRing {
  readonly label: string;
  readonly slots: number;
  readonly #device: GPUDevice;
  readonly #targets: readonly GPUBuffer[];
  readonly #bytes: number;
  readonly #ring: GPUBuffer;
  #next = 0;

  /** A ring for `options.targets` on `device`; throws a `RangeError` on a bad size. */
  constructor(device: GPUDevice, options: StepParamRingOptions) {
    const { label, targets, bytes } = options;
    const slots = options.slots ?? MAX_STEPS_PER_SUBMIT;
    if (!Number.isInteger(bytes) || bytes <= 0 || bytes % 4 !== 0) {
      throw new RangeError(`${label}: bytes must be a positive multiple of 4, got ${bytes}`);
    }
    if (!Number.isInteger(slots) || slots < 1) {
      throw new RangeError(`${label}: slots must be a positive integer, got ${slots}`);
    }
    this.label = label;
    this.slots = slots;
    this.#device = device;
    this.#targets = targets;
    this.#bytes = bytes;
    this.#ring = device.createBuffer({
      label: `${label} ring`,
      size: slots * targets.length * bytes,
      usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
  }

  /**
   * Writes `values[t]` of each target into the next slot and encodes its copies into `encoder`
   * (outside any pass): the commands encoded after it on `encoder` see the values. Without an
   * encoder the copies go in a submit of their own, at once: the values hold from the next submit.
   */
  write(values: readonly ArrayBuffer[], encoder?: GPUCommandEncoder): void {
    if (values.length !== this.#targets.length) {
      throw new RangeError(
        `${this.label}: ${values.length} values for ${this.#targets.length} targets`,
      );
    }
    const own = encoder ?? this.#device.createCommandEncoder({ label: `${this.label} copies` });
    const base = this.#next * this.#targets.length * this.#bytes;
    this.#next = (this.#next + 1) % this.slots;
    this.#targets.forEach((target, t) => {
      const data = values[t];
      if (data.byteLength !== this.#bytes) {
        throw new RangeError(
          `${this.label}: values for "${target.label}" have ${data.byteLength} bytes, not ${this.#bytes}`,
        );
      }
      const at = base + t * this.#bytes;
      this.#device.queue.writeBuffer(this.#ring, at, data);
      own.copyBufferToBuffer(this.#ring, at, target, 0, this.#bytes);
    });
    if (!encoder) this.#device.queue.submit([own.finish()]);
  }

  /** Frees the ring buffer (not the targets). */
  destroy(): void {
    this.#ring.destroy();
  }
}
