/**
 * The census of merge-split's groups (§5.2), per integration stage: how large the meta-particles
 * are (mean, median, 90th percentile, largest) and how many colliding pairs the grouping left
 * between two groups (the collisions it ignored that step). The GPU counts them as each stage's
 * grouping ends (`members_fill` in `gpu/handlers/merge-split/grouping.wgsl`; the index-order
 * pass's `io_recount` and `io_place`; in the one-workgroup groupings, `group_small` and
 * `members_small`, `io_small` and `io_members_small`) into words of merge-split's statistics, cumulative over a run; {@link summarizeCensus} reads those words.
 * The layout constants are declared here once; a test checks the WGSL's against them.
 *
 * @module
 */

/** Words per stage: runs, then 64-bit groups, members, pairs, pairs between, then max, histogram. */
export const CENSUS_STAGE_WORDS = 164;
/** Word offsets within a stage's block. */
export const CENSUS_WORD = {
  runs: 0,
  groups: 1,
  members: 3,
  pairs: 5,
  between: 7,
  max: 9,
  hist: 10,
} as const;
/** Histogram bins: sizes 2..64 one each (63 bins), then one per power of two (14 bins). */
export const CENSUS_BINS = 77;
/** Words of the whole census (two stages). */
export const CENSUS_WORDS = 2 * CENSUS_STAGE_WORDS;

/** The smallest group size counted in histogram bin `b`. */
export function censusBinLow(b: number): number {
  return b <= 62 ? b + 2 : 2 ** (b - 57) + 1;
}

/** The histogram bin of a group of `size` ≥ 2 particles (the WGSL's `census_bin`). */
export function censusBin(size: number): number {
  if (size <= 64) return size - 2;
  return Math.min(CENSUS_BINS - 1, 57 + Math.floor(Math.log2(size - 1)));
}

/** What one stage's groupings formed over a run. */
export interface StageCensus {
  /** Groupings of this stage that ran (steps, for stage 1). */
  runs: number;
  /** Meta-particles formed (of ≥ 2 particles), over all runs. */
  groups: number;
  /** Mean particles per meta-particle. */
  meanSize: number;
  /** Median size (a bin's lower bound past 64). */
  p50Size: number;
  /** 90th-percentile size (a bin's lower bound past 64). */
  p90Size: number;
  /** Largest meta-particle. */
  maxSize: number;
  /** Colliding pairs (partners of this stage), over all runs. */
  pairs: number;
  /** Fraction of those whose particles ended in different groups (ignored this step). */
  pairsBetweenGroups: number;
}

/** The size at quantile `q` of a histogram: the lower bound of the bin where the count reaches q. */
function quantile(hist: readonly number[], q: number): number {
  const total = hist.reduce((a, b) => a + b, 0);
  if (total === 0) return 0;
  let seen = 0;
  for (let b = 0; b < hist.length; b++) {
    seen += hist[b];
    if (seen >= q * total) return censusBinLow(b);
  }
  return censusBinLow(hist.length - 1);
}

/**
 * The census of each stage from the statistics words `words` (the census block: `census`, then
 * `CENSUS_WORDS - 1` more); a stage that never ran reads runs = 0 and zeros.
 */
export function summarizeCensus(words: ArrayLike<number>): [StageCensus, StageCensus] {
  if (words.length < CENSUS_WORDS) {
    throw new RangeError(`summarizeCensus: ${CENSUS_WORDS} words needed, got ${words.length}`);
  }
  const stage = (s: number): StageCensus => {
    const base = s * CENSUS_STAGE_WORDS;
    const w = (k: number) => words[base + k] >>> 0;
    const u64 = (k: number) => w(k) + w(k + 1) * 2 ** 32;
    const hist = Array.from({ length: CENSUS_BINS }, (_, b) => u64(CENSUS_WORD.hist + 2 * b));
    const groups = u64(CENSUS_WORD.groups);
    const pairs = u64(CENSUS_WORD.pairs);
    return {
      runs: w(CENSUS_WORD.runs),
      groups,
      meanSize: groups ? u64(CENSUS_WORD.members) / groups : 0,
      p50Size: quantile(hist, 0.5),
      p90Size: quantile(hist, 0.9),
      maxSize: w(CENSUS_WORD.max),
      pairs,
      pairsBetweenGroups: pairs ? u64(CENSUS_WORD.between) / pairs : 0,
    };
  };
  return [stage(0), stage(1)];
}

/**
 * The pairwise splits the census's groups imply, both stages: a meta-particle of n particles splits
 * n − 1 times (§3, "recursively split them in the inverse order of merging"), so members − groups.
 */
export function pairwiseSplits(words: ArrayLike<number>): number {
  let n = 0;
  for (let s = 0; s < 2; s++) {
    const base = s * CENSUS_STAGE_WORDS;
    const u64 = (k: number) => (words[base + k] >>> 0) + (words[base + k + 1] >>> 0) * 2 ** 32;
    n += u64(CENSUS_WORD.members) - u64(CENSUS_WORD.groups);
  }
  return n;
}

/**
 * The census the reference groupings imply for one grouping of `pairs` (what the GPU adds per
 * run): groups, members, pairs, pairs between groups, max and histogram, as a census block of one
 * stage (stage `stage`, 1 or 2, of a {@link CENSUS_WORDS} block).
 */
export function censusOf(
  groups: readonly (readonly number[])[],
  dof: ArrayLike<number>,
  pairs: readonly (readonly [number, number])[],
  stage: 1 | 2 = 1,
): Float64Array {
  const words = new Float64Array(CENSUS_WORDS);
  const base = (stage - 1) * CENSUS_STAGE_WORDS;
  words[base + CENSUS_WORD.runs] = 1;
  words[base + CENSUS_WORD.groups] = groups.length;
  words[base + CENSUS_WORD.members] = groups.reduce((a, g) => a + g.length, 0);
  words[base + CENSUS_WORD.pairs] = pairs.length;
  words[base + CENSUS_WORD.between] = pairs.filter(([a, b]) => dof[a] !== dof[b]).length;
  words[base + CENSUS_WORD.max] = Math.max(0, ...groups.map((g) => g.length));
  for (const g of groups) words[base + CENSUS_WORD.hist + 2 * censusBin(g.length)]++;
  return words;
}
