/**
 * Coupling of two integrators on one meta-particle (paper §4, Eqs. 17–19).
 *
 * @module
 */
import { assertPositive } from "./particle.ts";
import { add, assertVec3, norm2, scale, sub, type Vec3 } from "./vec3.ts";

/** The synchronised velocity of a meta-particle and the energy stored by synchronising. */
export interface SyncResult {
  /** v12′ = (m1 vA + m2 vB) / m12 (Eq. 17). */
  v: Vec3;
  /** ΔĒk = m1 m2 / (2 m12) · (vA − vB)² (Eq. 19), the kinetic energy lost by Eq. 17. */
  deltaEk: number;
}

/**
 * Synchronises the two velocities that two integrators produced for one meta-particle.
 *
 * @param m1 mass of the meta's constituents that belong to system A
 * @param vA the meta's velocity from system A's integrator
 * @param m2 mass of the constituents that belong to system B
 * @param vB the meta's velocity from system B's integrator
 */
export function syncVelocity(m1: number, vA: Vec3, m2: number, vB: Vec3): SyncResult {
  assertPositive(m1, "m1");
  assertVec3(vA, "vA");
  assertPositive(m2, "m2");
  assertVec3(vB, "vB");
  const m12 = m1 + m2;
  const v = scale(add(scale(vA, m1), scale(vB, m2)), 1 / m12); // Eq. 17
  const deltaEk = (m1 * m2 / (2 * m12)) * norm2(sub(vA, vB)); // Eq. 19
  return { v, deltaEk };
}
