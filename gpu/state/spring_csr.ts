/**
 * Spring networks packed for the GPU at 4 bytes per CSR entry, so that Table I's solids fit the
 * per-binding limits of WebGPU (Fig. 6 at `paper` scale: 237K particles, 19.4M bonds, 38.7M CSR
 * entries). A spring's parameters (rest length, ks, kd, critical stretch) take few distinct values
 * (a lattice body within a horizon of 3 spacings has 8 bond lengths; a cloth 3 spring kinds), so
 * each distinct f32 tuple is stored once as a *class*, and an entry is one `u32` word:
 *
 *   word = partner | class << partnerBits,   partnerBits = ⌈log2 N⌉ (at least 1)
 *
 * Class 0 is the zero spring (no force, no stiffness): a broken bond's entry is rewritten to its
 * bare partner index. Classes are `vec4f` rows (rest length, ks, kd, critical stretch; WGSL
 * `SpringClass` in `spring_csr.wgsl`). The decoding is defined once, in WGSL, with `PARTNER_BITS`
 * passed as an `override` ({@link springCsrConstants}).
 *
 * @module
 */

import type { Spring } from "../../core/model/spring.ts";
import { SpringTable } from "../../core/model/spring_table.ts";
import { defineStruct, type StructLayout } from "../runtime/struct_layout.ts";
import springCsrWgsl from "./spring_csr.wgsl" with { type: "text" };
import springWordsWgsl from "./spring_words.wgsl" with { type: "text" };

/** WGSL of the packed entry: `SpringClass`, `spring_partner(word)`, `spring_class(word)`. */
export const SPRING_CSR_WGSL: string = springCsrWgsl;

/** WGSL of the packed spring words over two bindings (`spring_words.wgsl`, after `spring_csr.wgsl`). */
export const SPRING_WORDS_WGSL: string = springWordsWgsl;

/** Storage struct `SpringClass` (`spring_csr.wgsl`): one distinct set of spring parameters. */
export const SPRING_CLASS_STRUCT: StructLayout = defineStruct("SpringClass", [
  ["restLength", "f32"],
  ["ks", "f32"],
  ["kd", "f32"],
  ["breakStretch", "f32"],
]);

/** A spring network in per-particle CSR form, packed (see the module doc). */
export interface PackedSprings {
  /** Particles N. */
  particleCount: number;
  /** `array<u32>` N + 1: CSR offsets. */
  start: Uint32Array;
  /** `array<u32>`: one word per entry, partner | class << partnerBits. */
  words: Uint32Array;
  /** `array<SpringClass>` (4 f32 per class); class 0 is all zeros. */
  classes: Float32Array;
  /** Bits of the partner index in a word. */
  partnerBits: number;
  /** Springs with a critical stretch (`breakStretch > 0`), each counted once. */
  breakable: number;
}

/** Options of {@link packSprings}. */
export interface PackSpringsOptions {
  /** Particles N (every index < N). */
  particleCount: number;
  /**
   * `both` (default): every spring under both ends, in spring-list order (the solver's gathers).
   * `lower`: every spring once, under its lower index, partners ascending (bond lists).
   */
  ends?: "both" | "lower";
  /** Name of the springs in error messages (default `springs`). */
  name?: string;
  /**
   * Index of the first particle of the CSR (default 0): spring ends `offset ... offset + N − 1`
   * are stored as rows and partners `0 ... N − 1` (a system's span of a scene's particles).
   */
  offset?: number;
}

/**
 * Throws a `RangeError` naming the first spring whose end is not a particle index in
 * `offset ... offset + particleCount − 1` (the check {@link packSprings} makes).
 */
export function checkSpringEnds(
  springs: SpringTable | readonly Spring[],
  options: { particleCount: number; offset?: number; name?: string },
): void {
  const n = options.particleCount;
  const offset = options.offset ?? 0;
  const name = options.name ?? "springs";
  if (!(springs instanceof SpringTable)) {
    // objects may hold anything: each end checked as written
    springs.forEach((s, k) => checkEnd(s?.i, s?.j, k));
    return;
  }
  const { i, j } = springs;
  for (let k = 0; k < i.length; k++) checkEnd(i[k], j[k], k);
  function checkEnd(a: unknown, b: unknown, k: number): void {
    for (const [key, v] of [["i", a], ["j", b]] as const) {
      if (!Number.isInteger(v) || (v as number) < offset || (v as number) >= offset + n) {
        const range = offset === 0 ? `< ${n}` : `in ${offset}..${offset + n - 1}`;
        throw new RangeError(`${name}[${k}].${key} = ${v} is not a particle index ${range}`);
      }
    }
  }
}

/** Bits that hold a partner index < n. */
export function partnerBitsFor(n: number): number {
  return Math.max(1, Math.ceil(Math.log2(Math.max(2, n))));
}

/** The `override` constants of `spring_csr.wgsl` for a packed network. */
export function springCsrConstants(packed: { partnerBits: number }): Record<string, number> {
  return { PARTNER_BITS: packed.partnerBits };
}

/**
 * Packs `springs` (validated: indices < N and distinct, rest length > 0, ks and kd ≥ 0, finite)
 * into per-particle CSR words and a class table (module doc). Throws a `RangeError` naming the
 * bad spring, or saying how many distinct parameter sets exceed the class bits left by N.
 */
export function packSprings(
  springs: SpringTable | readonly Spring[],
  options: PackSpringsOptions,
): PackedSprings {
  const n = options.particleCount;
  const name = options.name ?? "springs";
  const ends = options.ends ?? "both";
  const offset = options.offset ?? 0;
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`packSprings: particleCount must be an integer >= 1, got ${n}`);
  }
  checkSpringEnds(springs, { particleCount: n, offset, name });
  const t = SpringTable.from(springs);
  const partnerBits = partnerBitsFor(n);
  const maxClasses = 2 ** (32 - partnerBits);
  const row = new Float32Array(4);
  const rowBits = new Uint32Array(row.buffer);
  const classOf = new Map<string, number>();
  const table: number[] = [0, 0, 0, 0];
  const cls = new Uint32Array(t.length);
  const start = new Uint32Array(n + 1);
  let breakable = 0;
  for (let k = 0; k < t.length; k++) {
    const [si, sj] = [t.i[k], t.j[k]];
    if (si === sj) throw new RangeError(`${name}[${k}] joins particle ${si} to itself`);
    const restLength = t.restLength[k];
    if (!(restLength > 0) || !Number.isFinite(restLength)) {
      throw new RangeError(`${name}[${k}].restLength must be finite and > 0, got ${restLength}`);
    }
    for (const key of ["ks", "kd"] as const) {
      const v = t[key][k];
      if (!(v >= 0) || !Number.isFinite(v)) {
        throw new RangeError(`${name}[${k}].${key} must be finite and >= 0, got ${v}`);
      }
    }
    const s0 = t.breakStretch[k];
    if (s0 > 0) breakable++;
    row[0] = restLength;
    row[1] = t.ks[k];
    row[2] = t.kd[k];
    row[3] = s0;
    const key = `${rowBits[0]},${rowBits[1]},${rowBits[2]},${rowBits[3]}`;
    let c = classOf.get(key);
    if (c === undefined) {
      c = classOf.size + 1;
      if (c >= maxClasses) {
        throw new RangeError(
          `${name}: more than ${maxClasses - 1} distinct (rest length, ks, kd, breakStretch) ` +
            `sets for ${n} particles (${partnerBits} bits per partner index leave ` +
            `${32 - partnerBits} for the class); use fewer distinct spring parameters`,
        );
      }
      classOf.set(key, c);
      table.push(...row);
    }
    cls[k] = c;
    if (ends === "both" || si < sj) start[si - offset + 1]++;
    if (ends === "both" || sj < si) start[sj - offset + 1]++;
  }
  for (let i = 0; i < n; i++) start[i + 1] += start[i];
  const words = new Uint32Array(start[n]);
  const fill = start.slice(0, n);
  const shift = 2 ** partnerBits;
  const word = (partner: number, c: number) => partner + c * shift;
  for (let k = 0; k < t.length; k++) {
    const [i, j] = [t.i[k] - offset, t.j[k] - offset];
    if (ends === "both" || i < j) words[fill[i]++] = word(j, cls[k]);
    if (ends === "both" || j < i) words[fill[j]++] = word(i, cls[k]);
  }
  if (ends === "lower") {
    const mask = shift - 1;
    for (let i = 0; i < n; i++) {
      words.subarray(start[i], start[i + 1]).sort((a, b) => (a & mask) - (b & mask));
    }
  }
  return {
    particleCount: n,
    start,
    words,
    classes: Float32Array.from(table),
    partnerBits,
    breakable,
  };
}

/** The partner index of a packed word (host side of `spring_partner`). */
export function springPartner(word: number, partnerBits: number): number {
  return word % 2 ** partnerBits;
}

/** The class of a packed word (host side of `spring_class`). */
export function springClass(word: number, partnerBits: number): number {
  return Math.floor(word / 2 ** partnerBits);
}
