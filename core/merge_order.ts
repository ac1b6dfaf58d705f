/**
 * Does the order of merging change the velocities after splitting? §3: "If more than two particles
 * collide within the same time-step, we recursively merge these particles into larger
 * meta-particles. After computing the updated momentum for the final meta-particle, we recursively
 * split them in the inverse order of merging. We have empirically verified that the order of
 * merging does not affect the outcome of the final particle velocities after splitting."
 *
 * {@link mergeOrderSpread} merges each group of a state twice with the f64 reference (Eqs. 1–5,
 * `merge_split.ts`), in the group's order and in the reverse order, splits both (Eqs. 8–16) with the
 * meta-particle's velocity unchanged (v12′ = v12: the collision alone, no integration between) and
 * returns the largest difference of any particle's final velocity. Both orders conserve the
 * group's momentum and energy; the sentence says they also agree particle by particle.
 *
 * @module
 */
import { mergeAll, splitAll } from "./merge_split.ts";
import type { Particle } from "./particle.ts";
import type { Vec3 } from "./vec3.ts";

/** What {@link mergeOrderSpread} found. */
export interface MergeOrderSpread {
  /** Groups of at least three particles probed (a pair's two orders are one merge). */
  groups: number;
  /** The largest |v_i(order) − v_i(reverse order)| of any particle of those groups (m/s). */
  spread: number;
}

/**
 * The spread of the final velocities between merging each of `groups` (particle indices, in merge
 * order) in its order and in reverse, from positions and velocities `x`, `v` (vec4 per particle)
 * and masses `mass`, at restitution `alpha` (Eq. 9; β plays no part without synchronisation).
 */
export function mergeOrderSpread(
  groups: readonly (readonly number[])[],
  state: { x: ArrayLike<number>; v: ArrayLike<number>; mass: ArrayLike<number> },
  alpha: number,
): MergeOrderSpread {
  const particle = (i: number): Particle => ({
    x: [state.x[4 * i], state.x[4 * i + 1], state.x[4 * i + 2]],
    v: [state.v[4 * i], state.v[4 * i + 1], state.v[4 * i + 2]],
    mass: state.mass[i],
  });
  let probed = 0;
  let spread = 0;
  for (const g of groups) {
    if (g.length < 3) continue;
    probed++;
    const forward = finalVelocities(g.map(particle), alpha);
    const backward = finalVelocities([...g].reverse().map(particle), alpha).reverse();
    forward.forEach((a, k) => {
      const b = backward[k];
      spread = Math.max(spread, Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
    });
  }
  return { groups: probed, spread };
}

/** The velocities after merging `members` in order and splitting with v12′ = v12. */
function finalVelocities(members: readonly Particle[], alpha: number): Vec3[] {
  const tree = mergeAll(members);
  return splitAll(tree, [...tree.v] as Vec3, { alpha });
}
