/**
 * Seeded, counter-based random numbers that WGSL reproduces bit for bit (u32 arithmetic only).
 *
 * {@link pcgHash} is the PCG-RXS-M-XS hash of Jarzynski & Olano ("Hash Functions for GPU
 * Rendering", JCGT 2020); {@link hash3} chains it over three words. {@link Rng} is a sequential
 * generator on top of it. Nothing in the harness uses `Math.random`.
 *
 * @module
 */

/** PCG hash of one u32 (same constants as the WGSL version in gpu/). */
export function pcgHash(input: number): number {
  const state = (Math.imul(input >>> 0, 747796405) + 2891336453) >>> 0;
  const word = Math.imul(((state >>> (((state >>> 28) + 4) >>> 0)) ^ state) >>> 0, 277803737) >>>
    0;
  return ((word >>> 22) ^ word) >>> 0;
}

/** Hash of three u32 words: pcg(a + pcg(b + pcg(c))), all mod 2³². */
export function hash3(a: number, b: number, c: number): number {
  return pcgHash(((a >>> 0) + pcgHash(((b >>> 0) + pcgHash(c >>> 0)) >>> 0)) >>> 0);
}

/** A seeded sequential generator: the k-th output is hash3(seed, stream, k). */
export class Rng {
  #seed: number;
  #stream: number;
  #counter = 0;

  /**
   * @param seed any integer in [0, 2³²); the same seed gives the same sequence
   * @param options.stream an independent stream id (default 0)
   */
  constructor(seed: number, options: { stream?: number } = {}) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new RangeError(`seed must be an integer in [0, 2^32), got ${seed}`);
    }
    this.#seed = seed;
    this.#stream = options.stream ?? 0;
  }

  /** The next u32. */
  nextU32(): number {
    return hash3(this.#seed, this.#stream, this.#counter++);
  }

  /** The next float in [0, 1). */
  nextFloat(): number {
    return this.nextU32() / 4294967296;
  }

  /** The next integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || hi < lo) {
      throw new RangeError(`int(lo, hi) needs integers lo <= hi, got ${lo}, ${hi}`);
    }
    return lo + Math.floor(this.nextFloat() * (hi - lo + 1));
  }

  /** The next float in [lo, hi). */
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.nextFloat();
  }
}
