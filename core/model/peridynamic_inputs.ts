/**
 * The inputs of the peridynamic functions and their checks: a value for every body or one per
 * body id, a value for every particle or one per particle, positions as 3N numbers. The bonds of
 * `peridynamic_bonds.ts` and the f64 reference's forces and breaking read their options through
 * these, so a bad argument is named the same way everywhere.
 *
 * @module
 */

/** A value for every body, or one value per body id (indexed by the body id). */
export type PerBody<T> = T | ArrayLike<T>;

/** N of `positions` (xyz interleaved, 3N); a RangeError naming `fn` when its length is not a multiple of 3. */
export function particleCountOf(positions: ArrayLike<number>, fn: string): number {
  if (positions.length % 3 !== 0) {
    throw new RangeError(`${fn}: positions has length ${positions.length}, not a multiple of 3`);
  }
  return positions.length / 3;
}

/** The value of body `b`: `value` itself, or its entry `b`; a RangeError naming `fn` and `name` when there is none. */
export function perBodyValue(
  value: PerBody<number>,
  b: number,
  name: string,
  fn: string,
): number {
  if (typeof value === "number") return value;
  if (b >= value.length) {
    throw new RangeError(`${fn}: ${name} has ${value.length} entries, body id ${b} has none`);
  }
  return value[b];
}

/**
 * Checks a value for every body or one per body id (`undefined` passes) with `ok`; a TypeError or a
 * RangeError naming `fn`, `name` (and the body id) and what it must be (`what`).
 */
export function checkPerBody(
  value: PerBody<number> | undefined,
  name: string,
  fn: string,
  ok: (v: number) => boolean,
  what: string,
): void {
  if (value === undefined) return;
  if (typeof value === "number") {
    if (!ok(value)) throw new RangeError(`${fn}: ${name} must be ${what}, got ${value}`);
    return;
  }
  if (typeof value !== "object" || value === null || typeof value.length !== "number") {
    throw new TypeError(`${fn}: ${name} must be a number or an array per body id`);
  }
  for (let b = 0; b < value.length; b++) {
    if (!ok(value[b])) {
      throw new RangeError(`${fn}: ${name}[${b}] must be ${what}, got ${value[b]}`);
    }
  }
}

/** True for a finite number > 0. */
export const positiveFinite = (v: number): boolean => v > 0 && Number.isFinite(v);
/** True for a finite number ≥ 0. */
export const nonNegativeFinite = (v: number): boolean => v >= 0 && Number.isFinite(v);

/**
 * The value of particle i: one number for all (finite, > 0) or one per particle (length `n`, each
 * finite and > 0); a RangeError naming `fn` and `name` otherwise.
 */
export function perParticle(
  value: number | ArrayLike<number>,
  n: number,
  name: string,
  fn: string,
): (i: number) => number {
  if (typeof value === "number") {
    if (!positiveFinite(value)) throw new RangeError(`${fn}: ${name} must be > 0, got ${value}`);
    return () => value;
  }
  if (typeof value !== "object" || value === null || value.length !== n) {
    throw new RangeError(`${fn}: ${name} must be a number or have length ${n}`);
  }
  for (let i = 0; i < n; i++) {
    if (!positiveFinite(value[i])) {
      throw new RangeError(`${fn}: ${name}[${i}] must be finite and > 0, got ${value[i]}`);
    }
  }
  return (i) => value[i];
}
