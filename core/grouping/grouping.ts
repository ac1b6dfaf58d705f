/**
 * Grouping of colliding pairs into meta-particles with a size limit (paper §5.2), in the form
 * the GPU runs in parallel (`gpu/handlers/merge-split/grouping.wgsl`), bit for bit.
 *
 * §5.2: "we merge colliding particle pairs recursively. [...] We use a simple fix that merely
 * limits the number of particles in a meta-particle using a threshold n. This breaks large
 * chains of intersecting particles into multiple groups. [...] Our implementation performs
 * merging in the order of particle indices. To introduce randomness in grouping, before starting
 * to merge each group, we can randomly pick a limit between two user-specified limits n_min and
 * n_max." And: "with randomized grouping, we do not persistently ignore specific pairs of
 * colliding particles".
 *
 * Our reading, made parallel (the paper's own order — one pass over the pairs in index order — is
 * a sequential loop that cost N/128 dispatches per stage on the GPU):
 * - Without a limit (n_min = n_max = ∞) a group is a connected component of the collision
 *   graph ("merging all intersecting particles of a chain into a single meta-particle").
 * - With a limit, groups grow by merging two adjacent groups at a time ("merge colliding pairs
 *   recursively"), in rounds. In a round every group proposes to the adjacent group (one joined
 *   to it by a colliding pair) of lowest random priority whose union stays within the limit;
 *   two groups that propose to each other merge. The priority of a group is a counter-based
 *   hash of (seed, step, round, lowest index), so the grouping is random from step to step (no
 *   pair is persistently ignored) and identical on every run. Rounds repeat until one makes no
 *   merge — then no colliding pair joins two groups whose union fits (the groups are maximal,
 *   as the sequential union–find's are) — or `maxRounds` have run. Some round merges whenever
 *   a pair still fits: the group of globally lowest (priority, index) among those with a
 *   fitting neighbour is proposed to by all of its fitting neighbours, and proposes to one.
 * - A group's limit n is drawn when it is created from two single particles, from a hash of
 *   (seed, step, its lowest index) ("before starting to merge each group, [...] randomly pick a
 *   limit"); a group that absorbs another keeps the smaller of the two limits. A pair whose
 *   groups cannot merge within the limit is ignored this step, as in the paper.
 * - A group is identified by its lowest index (its DOF slot) and its members merge as a left fold
 *   in ascending index order ("in the order of particle indices").
 * Every group is connected by colliding pairs and within its limit; with the limit, no round
 * ever needs a loop over a whole component, so each round is a fixed number of dispatches.
 *
 * @module
 */
import type { Pair } from "./collision_rules.ts";
import { hash3, pcgHash } from "../rng.ts";

/** Default of {@link GroupingOptions.maxRounds}: rounds of pairwise merging at most per stage. */
export const GROUPING_MAX_ROUNDS = 32;

/** Salt of the round priorities (keeps them independent of {@link drawGroupLimit}). */
export const ROUND_SALT = 0x9e3779b9;

/** Options of {@link groupCollisions}. */
export interface GroupingOptions {
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
  /** Rounds of pairwise merging at most (with a limit). Default {@link GROUPING_MAX_ROUNDS}. */
  maxRounds?: number;
}

/** The groups of one step. */
export interface Grouping {
  /** Each group's particle indices, ascending; groups ordered by first index. */
  groups: number[][];
  /**
   * Each group's particles in the order they joined it (the index-order pass's breadth-first
   * order; ascending for the compact grouping, whose groups join by rounds): the order in which
   * merge-split's `colliding-pairs` reading merges them (`core/merge_order.ts`).
   */
  joined: number[][];
  /**
   * via[i]: the colliding partner through which particle i joined its group (a member that joined
   * before it), −1 for a group's first particle, a particle in no group, and every particle of the
   * compact grouping.
   */
  via: Int32Array;
  /** The size limit drawn for each group (Infinity when unlimited). */
  limits: number[];
  /** dof[i]: the lowest index of i's group, i when i is in no group. */
  dof: Int32Array;
  /** Rounds that merged something (with a limit; 0 without one). */
  rounds: number;
  /**
   * Colliding pairs whose groups would still fit together when the rounds stopped: 0 unless
   * `maxRounds` ran out first.
   */
  fittingPairsLeft: number;
}

/** The priority of the group whose lowest index is `root` in `round`: lower proposes first. */
export function roundPriority(
  root: number,
  options: { seed: number; step?: number; round: number },
): number {
  return pcgHash(
    ((root >>> 0) + hash3(options.seed, options.step ?? 0, ROUND_SALT + options.round)) >>> 0,
  );
}

/**
 * Draws a group's size limit n ∈ [nMin, nMax]: nMin + hash3(seed, step, root) mod (nMax − nMin + 1).
 */
export function drawGroupLimit(
  root: number,
  options: { nMin: number; nMax: number; seed: number; step?: number },
): number {
  if (options.nMax === Infinity) return Infinity;
  const span = options.nMax - options.nMin + 1;
  return options.nMin + (hash3(options.seed, options.step ?? 0, root) % span);
}

/** Validates n_min/n_max; throws a RangeError naming the bad one. */
export function assertGroupLimits(nMin: number, nMax: number, where = "options"): void {
  const ok = (n: number) => n === Infinity || (Number.isInteger(n) && n >= 2);
  if (!ok(nMin)) {
    throw new RangeError(`${where}.nMin must be an integer >= 2 or Infinity, got ${nMin}`);
  }
  if (!ok(nMax) || nMax < nMin) {
    throw new RangeError(
      `${where}.nMax must be an integer >= nMin (${nMin}) or Infinity, got ${nMax}`,
    );
  }
  if (nMin === Infinity && nMax !== Infinity) {
    throw new RangeError(`${where}.nMax must be Infinity when nMin is Infinity, got ${nMax}`);
  }
}

/**
 * Validates the particle count, size limits and seed of a grouping; throws a RangeError naming
 * the bad option.
 */
export function assertGroupingOptions(
  options: { particleCount: number; nMin: number; nMax: number; seed: number },
): void {
  const { particleCount: count, seed } = options;
  if (!Number.isInteger(count) || count < 0) {
    throw new RangeError(`options.particleCount must be an integer >= 0, got ${count}`);
  }
  assertGroupLimits(options.nMin, options.nMax);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new RangeError(`options.seed must be an integer in [0, 2^32), got ${seed}`);
  }
}

/**
 * Groups colliding pairs into meta-particles of at most n particles, n drawn per group from
 * [nMin, nMax] (paper §5.2). Deterministic: the same pairs and seed give the same groups.
 */
export function groupCollisions(pairs: readonly Pair[], options: GroupingOptions): Grouping {
  const { particleCount: count, nMin, nMax, seed } = options;
  const step = options.step ?? 0;
  assertGroupingOptions(options);
  const sorted = pairs.map(([a, b], k): Pair => {
    if (
      !Number.isInteger(a) || !Number.isInteger(b) || a < 0 || b < 0 || a >= count || b >= count ||
      a === b
    ) {
      throw new RangeError(
        `pairs[${k}] = [${a}, ${b}] is not a pair of distinct indices in [0, ${count})`,
      );
    }
    return a < b ? [a, b] : [b, a];
  }).sort((p, q) => p[0] - q[0] || p[1] - q[1]);

  const maxRounds = options.maxRounds ?? GROUPING_MAX_ROUNDS;
  if (!Number.isInteger(maxRounds) || maxRounds < 0) {
    throw new RangeError(`options.maxRounds must be an integer >= 0, got ${maxRounds}`);
  }
  const label = new Int32Array(count);
  for (let i = 0; i < count; i++) label[i] = i;
  const size = new Int32Array(count).fill(1);
  const limit = new Float64Array(count).fill(0);
  let rounds = 0;
  let fittingPairsLeft = 0;
  if (nMax === Infinity) {
    // Connected components: hook the larger root under the smaller (the GPU's lock-free
    // union–find ends with the same labels: each component's lowest index).
    const find = (i: number): number => {
      while (label[i] !== i) i = label[i];
      return i;
    };
    for (const [i, j] of sorted) {
      const ri = find(i);
      const rj = find(j);
      if (ri !== rj) label[Math.max(ri, rj)] = Math.min(ri, rj);
    }
    for (let i = 0; i < count; i++) label[i] = find(i);
    for (let i = 0; i < count; i++) if (label[i] !== i) size[label[i]]++;
    for (let i = 0; i < count; i++) if (size[i] > 1) limit[i] = Infinity;
  } else {
    // The limit a union of groups a and b would have, or 0 when it does not fit.
    const joinedLimit = (a: number, b: number): number => {
      let cap: number;
      if (size[a] === 1 && size[b] === 1) {
        cap = drawGroupLimit(Math.min(a, b), { nMin, nMax, seed, step });
      } else if (size[a] === 1) cap = limit[b];
      else if (size[b] === 1) cap = limit[a];
      else cap = Math.min(limit[a], limit[b]);
      return size[a] + size[b] <= cap ? cap : 0;
    };
    const NONE = 0xffffffff;
    const bestPrio = new Float64Array(count);
    const best = new Float64Array(count);
    const prio = new Float64Array(count);
    for (let round = 0; round < maxRounds; round++) {
      bestPrio.fill(NONE);
      best.fill(NONE);
      for (let g = 0; g < count; g++) prio[g] = roundPriority(g, { seed, step, round });
      for (const [i, j] of sorted) {
        const a = label[i];
        const b = label[j];
        if (a === b || !joinedLimit(a, b)) continue;
        bestPrio[a] = Math.min(bestPrio[a], prio[b]);
        bestPrio[b] = Math.min(bestPrio[b], prio[a]);
      }
      for (const [i, j] of sorted) {
        const a = label[i];
        const b = label[j];
        if (a === b || !joinedLimit(a, b)) continue;
        if (prio[b] === bestPrio[a]) best[a] = Math.min(best[a], b);
        if (prio[a] === bestPrio[b]) best[b] = Math.min(best[b], a);
      }
      const into = new Map<number, number>();
      for (let g = 0; g < count; g++) {
        const b = best[g];
        if (b === NONE || b <= g || best[b] !== g) continue;
        const cap = joinedLimit(g, b);
        size[g] += size[b];
        limit[g] = cap;
        into.set(b, g);
      }
      if (into.size === 0) break;
      rounds++;
      for (let i = 0; i < count; i++) label[i] = into.get(label[i]) ?? label[i];
    }
    for (const [i, j] of sorted) {
      if (label[i] !== label[j] && joinedLimit(label[i], label[j])) fittingPairsLeft++;
    }
  }
  const dof = new Int32Array(count);
  const byRoot = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const r = label[i];
    dof[i] = r;
    if (size[r] > 1) {
      const list = byRoot.get(r);
      if (list) list.push(i);
      else byRoot.set(r, [i]);
    }
  }
  const roots = [...byRoot.keys()].sort((a, b) => a - b);
  const groups = roots.map((r) => byRoot.get(r)!);
  return {
    groups,
    joined: groups.map((g) => [...g]),
    via: new Int32Array(count).fill(-1),
    limits: roots.map((r) => limit[r]),
    dof,
    rounds,
    fittingPairsLeft,
  };
}
