/**
 * The paper's own grouping (§5.2), literally: one sequential pass in particle-index order, a size
 * limit drawn before each group starts. This is the reference the GPU's index-order grouping
 * (`gpu/handlers/merge-split/index_order.wgsl`) reproduces bit for bit.
 *
 * §5.2: "after collision detection, we merge colliding particle pairs recursively. [...] We use a
 * simple fix that merely limits the number of particles in a meta-particle using a threshold n.
 * This breaks large chains of intersecting particles into multiple groups. [...] Our
 * implementation performs merging in the order of particle indices. To introduce randomness in
 * grouping, before starting to merge each group, we can randomly pick a limit between two
 * user-specified limits n_min and n_max."
 *
 * Read word for word:
 * - The pass visits particles in ascending index order. A particle not yet in a group that
 *   collides with a particle not yet in a group starts a group ("before starting to merge each
 *   group"): its limit n is drawn then, from [n_min, n_max].
 * - The group grows by recursive merging along the collision chain ("merge colliding particle
 *   pairs recursively"), breadth first from its first particle, each member's colliding partners
 *   taken in ascending index order ("in the order of particle indices"), every partner not yet in
 *   a group joining, until the group holds n particles. Then the next group starts.
 * - A colliding pair whose particles ended in different groups is ignored this step ("breaks large
 *   chains of intersecting particles into multiple groups").
 * - Without a limit (n_min = n_max = ∞) a group is a whole connected component of the collision
 *   graph ("Merging all intersecting particles of a chain into a single meta-particle").
 * A group is identified by its first (lowest) index, its DOF slot. It keeps the order in which
 * its members joined and the partner each joined through (`joined`, `via`): the paper's setup
 * merges along them (`core/merge_order.ts`, reading `colliding-pairs`).
 *
 * The limit of the group starting at particle r is {@link drawGroupLimit}(r): a hash of (seed,
 * step, r), a seeded draw per group and step that needs no sequential generator, so components
 * can be grouped independently (on the GPU, in parallel) with the same result.
 *
 * @module
 */
import type { Pair } from "./collision_rules.ts";
import {
  assertGroupingOptions,
  drawGroupLimit,
  groupCollisions,
  type Grouping,
} from "./grouping.ts";

/**
 * The groupings merge-split can run (`--param merge-split.grouping=…`), declared once:
 * `index-order`, the paper's pass ({@link groupIndexOrder}); `compact`, our parallel rounds of
 * pairwise merging ({@link groupCollisions}), whose groups are compact rather than following the
 * index order.
 */
export const GROUPING_METHODS = ["index-order", "compact"] as const;

/** One of {@link GROUPING_METHODS}. */
export type GroupingMethod = typeof GROUPING_METHODS[number];

/** The reference grouping of `method`: the groups the GPU must give bit for bit. */
export function groupWith(
  method: GroupingMethod,
  pairs: readonly Pair[],
  options: IndexOrderOptions & { maxRounds?: number },
): Grouping {
  return method === "index-order"
    ? groupIndexOrder(pairs, options)
    : groupCollisions(pairs, options);
}

/** Options of {@link groupIndexOrder}. */
export interface IndexOrderOptions {
  /** Number of particles (indices are in [0, particleCount)). */
  particleCount: number;
  /** Lower size limit n_min (integer ≥ 2, or Infinity together with n_max). */
  nMin: number;
  /** Upper size limit n_max (integer ≥ n_min, or Infinity for no limit). */
  nMax: number;
  /** Seed of the scene (u32). */
  seed: number;
  /** Time-step index (u32), so limits differ from step to step. Default 0. */
  step?: number;
}

/**
 * Each particle's colliding partners, ascending and without repeats (both directions of every
 * pair); throws a RangeError naming the first pair that is not two distinct indices in range.
 */
export function partnerLists(pairs: readonly Pair[], count: number): number[][] {
  const adjacency: Set<number>[] = Array.from({ length: count }, () => new Set<number>());
  pairs.forEach(([a, b], k) => {
    if (
      !Number.isInteger(a) || !Number.isInteger(b) || a < 0 || b < 0 || a >= count ||
      b >= count || a === b
    ) {
      throw new RangeError(
        `pairs[${k}] = [${a}, ${b}] is not a pair of distinct indices in [0, ${count})`,
      );
    }
    adjacency[a].add(b);
    adjacency[b].add(a);
  });
  return adjacency.map((s) => [...s].sort((x, y) => x - y));
}

/**
 * Groups colliding pairs the way §5.2 describes the paper's implementation: one pass in particle
 * index order, a limit n ∈ [nMin, nMax] drawn as each group starts, each group grown breadth first
 * along colliding pairs (partners ascending) until it holds n particles. Deterministic.
 */
export function groupIndexOrder(pairs: readonly Pair[], options: IndexOrderOptions): Grouping {
  const { particleCount: count, nMin, nMax, seed } = options;
  const step = options.step ?? 0;
  assertGroupingOptions(options);
  const partners = partnerLists(pairs, count);
  const NONE = -1;
  const groupOf = new Int32Array(count).fill(NONE);
  const groups: number[][] = [];
  const joined: number[][] = [];
  const via = new Int32Array(count).fill(NONE);
  const limits: number[] = [];
  for (let r = 0; r < count; r++) {
    if (groupOf[r] !== NONE || !partners[r].some((j) => groupOf[j] === NONE)) continue;
    const limit = drawGroupLimit(r, { nMin, nMax, seed, step });
    const queue = [r];
    groupOf[r] = r;
    for (let head = 0; head < queue.length && queue.length < limit; head++) {
      for (const j of partners[queue[head]]) {
        if (groupOf[j] !== NONE) continue;
        groupOf[j] = r;
        via[j] = queue[head];
        queue.push(j);
        if (queue.length === limit) break;
      }
    }
    joined.push([...queue]);
    groups.push(queue.sort((a, b) => a - b));
    limits.push(limit);
  }
  const dof = new Int32Array(count);
  for (let i = 0; i < count; i++) dof[i] = groupOf[i] === NONE ? i : groupOf[i];
  return { groups, joined, via, limits, dof, rounds: 0, fittingPairsLeft: 0 };
}
