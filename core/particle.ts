/**
 * The particle model of the reference math: every particle has a non-zero mass and (for
 * collisions) a radius (paper §3, first paragraph).
 *
 * @module
 */
import { assertVec3, type Vec3 } from "./vec3.ts";

/** A particle (or a meta-particle seen from outside): mass, position, velocity. */
export interface Particle {
  readonly mass: number;
  readonly x: Vec3;
  readonly v: Vec3;
}

/** Throws a `RangeError` unless `value` is a finite number > 0; names the argument. */
export function assertPositive(value: unknown, name: string): asserts value is number {
  if (typeof value !== "number") {
    throw new TypeError(`${name} must be a number, got ${typeof value}`);
  }
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a finite number > 0, got ${value}`);
  }
}

/** Throws a `RangeError` unless `value` is a finite number in [lo, hi]; names the argument. */
export function assertInRange(
  value: unknown,
  name: string,
  range: { lo: number; hi: number },
): asserts value is number {
  if (typeof value !== "number") {
    throw new TypeError(`${name} must be a number, got ${typeof value}`);
  }
  if (!Number.isFinite(value) || value < range.lo || value > range.hi) {
    throw new RangeError(`${name} must be in [${range.lo}, ${range.hi}], got ${value}`);
  }
}

/** Validates a particle: positive finite mass, finite position and velocity. */
export function assertParticle(p: unknown, name: string): asserts p is Particle {
  if (typeof p !== "object" || p === null) {
    throw new TypeError(`${name} must be a particle { mass, x, v }, got ${p}`);
  }
  const q = p as Record<string, unknown>;
  assertPositive(q.mass, `${name}.mass`);
  assertVec3(q.x, `${name}.x`);
  assertVec3(q.v, `${name}.v`);
}

/** Kinetic energy ½ m |v|². */
export function kineticEnergy(p: Particle): number {
  return 0.5 * p.mass * (p.v[0] ** 2 + p.v[1] ** 2 + p.v[2] ** 2);
}
