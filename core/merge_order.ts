/**
 * Does the order of merging change the velocities after splitting? §3: "If more than two particles
 * collide within the same time-step, we recursively merge these particles into larger
 * meta-particles. After computing the updated momentum for the final meta-particle, we recursively
 * split them in the inverse order of merging. We have empirically verified that the order of
 * merging does not affect the outcome of the final particle velocities after splitting."
 *
 * §3 and §5.2 ("after collision detection, we merge colliding particle pairs recursively") leave
 * the order of the recursive merges open; the readings, declared once:
 * - `colliding-pairs` (the paper's setup): each member merged, in the order it joined its group
 *   (the index-order pass's breadth-first order), with the meta of those before it through the
 *   partner it collides with, n of Eq. 5 "the vector connecting the centers of the two colliding
 *   particles" (`mergeAlongPairs`);
 * - `index-com` (a variant): the members in ascending index, each n from the centre of the meta of
 *   those before it (`mergeAll`), whether or not it touches them;
 * - `pair-union` (the probe's alone: its meta–meta merges do not fit the GPU's left fold): the
 *   group's colliding pairs in ascending order, each pair whose particles are in different metas
 *   merging those two metas, n from the pair's two particles.
 *
 * {@link mergeOrderSpread} merges each group of a state twice with the f64 reference (Eqs. 1–5,
 * `merge_split.ts`) under one reading, in its order and in its reverse (descending indices;
 * for `colliding-pairs` the group grown breadth first from its highest index, partners
 * descending; for `pair-union` the pairs descending), splits both (Eqs. 8–16) with the
 * meta-particle's velocity unchanged (v12′ = v12: the collision alone, no integration between) and
 * returns the largest difference of any particle's final velocity. Both orders conserve the
 * group's momentum and energy; the sentence says they also agree particle by particle.
 *
 * @module
 */
import type { Pair } from "./grouping/collision_rules.ts";
import {
  leaves as leavesOf,
  merge,
  mergeAll,
  mergeAlongPairs,
  type MergeNode,
  splitAll,
} from "./merge_split.ts";
import type { Particle } from "./particle.ts";
import { sub, type Vec3 } from "./vec3.ts";
import type { MergeReading } from "./merge_orders.ts";

/** What {@link mergeOrderSpread} found. */
export interface MergeOrderSpread {
  /** Groups of at least three particles probed (a pair's two orders are one merge). */
  groups: number;
  /** The largest |v_i(order) − v_i(reverse order)| of any particle of those groups (m/s). */
  spread: number;
}

/** A group of a step: its members in the order they joined, and its colliding pairs. */
export interface ProbedGroup {
  /** Its particles in the order they joined it (`Grouping.joined`). */
  joined: readonly number[];
  /** The partner each joined through (`Grouping.via`, by particle index; −1 for the first). */
  via: ArrayLike<number>;
  /** The colliding pairs between its particles. */
  pairs: readonly Pair[];
}

/**
 * The spread of the final velocities between merging each group of `groups` in its order and in
 * reverse under `reading`, from positions and velocities `x`, `v` (vec4 per particle) and masses
 * `mass`, at restitution `alpha` (Eq. 9; β plays no part without synchronisation).
 */
export function mergeOrderSpread(
  groups: readonly ProbedGroup[],
  state: { x: ArrayLike<number>; v: ArrayLike<number>; mass: ArrayLike<number> },
  alpha: number,
  reading: MergeReading = "colliding-pairs",
): MergeOrderSpread {
  const particle = (i: number): Particle => ({
    x: [state.x[4 * i], state.x[4 * i + 1], state.x[4 * i + 2]],
    v: [state.v[4 * i], state.v[4 * i + 1], state.v[4 * i + 2]],
    mass: state.mass[i],
  });
  let probed = 0;
  let spread = 0;
  for (const g of groups) {
    if (g.joined.length < 3) continue;
    probed++;
    const forward = finalVelocities(groupTree(g, particle, reading, false), alpha);
    const backward = finalVelocities(groupTree(g, particle, reading, true), alpha);
    for (const [i, a] of forward) {
      const b = backward.get(i)!;
      spread = Math.max(spread, Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
    }
  }
  return { groups: probed, spread };
}

/** A merge tree and the particle index of each of its leaves. */
export interface IndexedTree {
  /** The merge tree. */
  tree: MergeNode;
  /** Each leaf's particle index. */
  index: ReadonlyMap<Particle, number>;
}

/**
 * The merge tree of group `g` under `reading`, in its order or (`reversed`) its reverse, of the
 * particles `particle(i)`.
 */
export function groupTree(
  g: ProbedGroup,
  particle: (i: number) => Particle,
  reading: MergeReading,
  reversed: boolean,
): IndexedTree {
  const leaves = new Map(g.joined.map((i) => [i, particle(i)]));
  const index = new Map([...leaves].map(([i, p]) => [p, i]));
  const of = (order: readonly number[]) => order.map((i) => leaves.get(i)!);
  if (reading === "index-com") {
    const order = [...g.joined].sort((a, b) => (reversed ? b - a : a - b));
    return { tree: mergeAll(of(order)), index };
  }
  if (reading === "pair-union") {
    const pairs = g.pairs.map(([a, b]): Pair => (a < b ? [a, b] : [b, a]))
      .sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    return { tree: pairUnion(reversed ? pairs.reverse() : pairs, leaves), index };
  }
  const { order, via } = reversed
    ? breadthFirstFromHighest(g)
    : { order: g.joined, via: (i: number) => g.via[i] };
  const at = new Map(order.map((i, k) => [i, k]));
  const viaAt = order.map((i, k) => (k === 0 ? -1 : at.get(via(i)) ?? -1));
  return { tree: mergeAlongPairs(of(order), viaAt), index };
}

/** The group grown breadth first from its highest index along its pairs, partners descending. */
function breadthFirstFromHighest(
  g: ProbedGroup,
): { order: number[]; via: (i: number) => number } {
  const partners = new Map<number, number[]>(g.joined.map((i) => [i, []]));
  for (const [a, b] of g.pairs) {
    partners.get(a)?.push(b);
    partners.get(b)?.push(a);
  }
  const start = Math.max(...g.joined);
  const order = [start];
  const via = new Map<number, number>([[start, -1]]);
  for (let head = 0; head < order.length; head++) {
    const m = order[head];
    for (const j of [...partners.get(m)!].sort((a, b) => b - a)) {
      if (via.has(j) || !partners.has(j)) continue;
      via.set(j, m);
      order.push(j);
    }
  }
  if (order.length !== g.joined.length) {
    throw new RangeError(
      `the group of ${start} is not connected by its pairs: ${order.length} of ${g.joined.length} reached`,
    );
  }
  return { order, via: (i) => via.get(i) ?? -1 };
}

/**
 * The sequential union of `pairs` in their order: each pair whose particles are in two metas
 * merges those metas, n from the pair's particles (Eq. 5). Throws when the pairs leave the group
 * in more than one meta.
 */
function pairUnion(pairs: readonly Pair[], leaves: ReadonlyMap<number, Particle>): MergeNode {
  const node = new Map<number, MergeNode>(leaves); // by the particle that labels each meta
  const label = new Map<number, number>([...leaves.keys()].map((i) => [i, i]));
  const find = (i: number): number => {
    while (label.get(i) !== i) i = label.get(i)!;
    return i;
  };
  for (const [a, b] of pairs) {
    const ra = find(a), rb = find(b);
    if (ra === rb) continue;
    node.set(ra, merge(node.get(ra)!, node.get(rb)!, sub(leaves.get(b)!.x, leaves.get(a)!.x)));
    node.delete(rb);
    label.set(rb, ra);
  }
  if (node.size !== 1) {
    throw new RangeError(`the pairs leave the group in ${node.size} metas, not one`);
  }
  return [...node.values()][0];
}

/** Each particle's velocity after splitting `t` with v12′ = v12, by particle index. */
function finalVelocities(t: IndexedTree, alpha: number): Map<number, Vec3> {
  const velocities = splitAll(t.tree, [...t.tree.v] as Vec3, { alpha });
  const order = leavesOf(t.tree);
  return new Map(order.map((p, k) => [t.index.get(p)!, velocities[k]]));
}
