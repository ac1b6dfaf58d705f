/**
 * Three-component vectors in f64 for the reference math of `core/`.
 *
 * @module
 */

/** An immutable 3-vector. */
export type Vec3 = readonly [number, number, number];

/** The zero vector. */
export const ZERO: Vec3 = [0, 0, 0];

/** a + b. */
export function add(a: Vec3, b: Vec3): Vec3 {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}

/** a − b. */
export function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

/** s · a. */
export function scale(a: Vec3, s: number): Vec3 {
  return [a[0] * s, a[1] * s, a[2] * s];
}

/** a + s · b. */
export function addScaled(a: Vec3, b: Vec3, s: number): Vec3 {
  return [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]];
}

/** a · b. */
export function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** |a|². */
export function norm2(a: Vec3): number {
  return dot(a, a);
}

/** |a|. */
export function norm(a: Vec3): number {
  return Math.sqrt(dot(a, a));
}

/** a × b. */
export function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/**
 * Checks that `value` is a finite 3-vector; throws a `TypeError` (wrong shape) or `RangeError`
 * (NaN/Infinity) naming `name`.
 */
export function assertVec3(value: unknown, name: string): asserts value is Vec3 {
  if (!Array.isArray(value) || value.length !== 3 || value.some((c) => typeof c !== "number")) {
    throw new TypeError(`${name} must be a 3-vector [x, y, z] of numbers, got ${describe(value)}`);
  }
  if (!value.every(Number.isFinite)) {
    throw new RangeError(`${name} must be finite, got [${value.join(", ")}]`);
  }
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
