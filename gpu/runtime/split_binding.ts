/**
 * One storage array bound as two ranges of the same buffer, for arrays past the device's
 * `maxStorageBufferBindingSize` (128 MiB on llvmpipe; Fig. 6 at `paper` scale has 155 MB of spring
 * words). WGSL reads element e from the first range when e < `firstLength`, else from the second
 * at e − `firstLength` (`spring_words.wgsl`).
 *
 * @module
 */

/** The two bindings of {@link splitBinding}. */
export interface SplitBinding {
  /** Elements `0 .. firstLength` (offset 0). */
  first: GPUBufferBinding;
  /** The rest, or `dummy` when everything fits in the first range. */
  second: GPUBufferBinding;
  /** Elements in the first range (≥ every element when there is no second range). */
  firstLength: number;
}

/**
 * Splits `buffer` (elements of `options.elementBytes`) into at most two bindings no larger than
 * `options.limit` bytes (default: the device's `maxStorageBufferBindingSize`), the second starting
 * at a multiple of 256 bytes. Throws a `RangeError` when the buffer needs more than two.
 */
export function splitBinding(
  buffer: GPUBuffer,
  options: {
    device: GPUDevice;
    elementBytes: number;
    dummy: GPUBuffer;
    limit?: number;
    name: string;
  },
): SplitBinding {
  const bytes = options.elementBytes;
  const limit = options.limit ?? options.device.limits.maxStorageBufferBindingSize;
  // first range: a multiple of 256 bytes and of the element size
  const unit = lcm(256, bytes);
  const chunk = Math.floor(limit / unit) * unit;
  if (buffer.size <= limit) {
    return {
      first: { buffer },
      second: { buffer: options.dummy },
      firstLength: Math.max(1, Math.floor(buffer.size / bytes)),
    };
  }
  if (buffer.size - chunk > limit) {
    throw new RangeError(
      `${options.name}: ${buffer.size} bytes need more than two bindings of at most ${limit} bytes ` +
        "(maxStorageBufferBindingSize); use an adapter with a larger binding limit or a smaller scene",
    );
  }
  return {
    first: { buffer, offset: 0, size: chunk },
    second: { buffer, offset: chunk, size: buffer.size - chunk },
    firstLength: chunk / bytes,
  };
}

function lcm(a: number, b: number): number {
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  return (a / gcd(a, b)) * b;
}
