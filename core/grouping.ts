/**
 * Grouping of colliding pairs into meta-particles with a size limit (paper §5.2).
 *
 * "Our implementation performs merging in the order of particle indices. To introduce
 * randomness in grouping, before starting to merge each group, we can randomly pick a limit
 * between two user-specified limits n_min and n_max." We read this as a union–find over the
 * colliding pairs taken in lexicographic (i, j) order: a pair joins the groups of i and j when
 * the joined group stays within its limit n, and is otherwise ignored this step (its collision
 * is likely handled in a later step, as the paper argues). A group's limit is drawn when the
 * group is created, from a counter-based hash of (seed, step, lowest index), so the GPU kernel
 * that implements the same loop draws the same limits. Members of a group merge as a left fold
 * in ascending index order.
 *
 * @module
 */
import type { Pair } from "./collision_rules.ts";
import { hash3 } from "./rng.ts";

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
}

/** The groups of one step. */
export interface Grouping {
  /** Each group's particle indices, ascending (the merge order); groups ordered by first index. */
  groups: number[][];
  /** The size limit drawn for each group (Infinity when unlimited). */
  limits: number[];
  /** dof[i]: the lowest index of i's group, i when i is in no group. */
  dof: Int32Array;
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
 * Groups colliding pairs into meta-particles of at most n particles, n drawn per group from
 * [nMin, nMax] (paper §5.2). Deterministic: the same pairs and seed give the same groups.
 */
export function groupCollisions(pairs: readonly Pair[], options: GroupingOptions): Grouping {
  const { particleCount: count, nMin, nMax, seed } = options;
  const step = options.step ?? 0;
  if (!Number.isInteger(count) || count < 0) {
    throw new RangeError(`options.particleCount must be an integer >= 0, got ${count}`);
  }
  assertGroupLimits(nMin, nMax);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new RangeError(`options.seed must be an integer in [0, 2^32), got ${seed}`);
  }
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

  const parent = new Int32Array(count);
  const size = new Int32Array(count).fill(1);
  const limit = new Float64Array(count).fill(0);
  for (let i = 0; i < count; i++) parent[i] = i;
  const find = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r];
    while (parent[i] !== r) {
      const next = parent[i];
      parent[i] = r;
      i = next;
    }
    return r;
  };
  for (const [i, j] of sorted) {
    const ri = find(i);
    const rj = find(j);
    if (ri === rj) continue;
    let cap: number;
    if (size[ri] === 1 && size[rj] === 1) {
      cap = drawGroupLimit(Math.min(ri, rj), { nMin, nMax, seed, step });
    } else if (size[ri] === 1) cap = limit[rj];
    else if (size[rj] === 1) cap = limit[ri];
    else cap = Math.min(limit[ri], limit[rj]);
    if (size[ri] + size[rj] > cap) continue;
    const root = Math.min(ri, rj);
    const other = root === ri ? rj : ri;
    parent[other] = root;
    size[root] += size[other];
    limit[root] = cap;
  }
  const dof = new Int32Array(count);
  const byRoot = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const r = find(i);
    dof[i] = r;
    if (size[r] > 1) {
      const list = byRoot.get(r);
      if (list) list.push(i);
      else byRoot.set(r, [i]);
    }
  }
  const roots = [...byRoot.keys()].sort((a, b) => a - b);
  return { groups: roots.map((r) => byRoot.get(r)!), limits: roots.map((r) => limit[r]), dof };
}
