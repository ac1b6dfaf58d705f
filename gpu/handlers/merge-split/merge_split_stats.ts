/**
 * The statistics merge-split keeps on the GPU (one u32 word each, `gpu/state/handler_statistics.ts`):
 * its conservation errors (Eqs. 2 and 4) and meta-particle counts, written by `merge_split.wgsl`
 * and `grouping.wgsl` (which take the words as `override` constants `STAT_<NAME>`), sampled by the
 * metrics into a row's handler columns and read back by the engine.
 *
 * @module
 */
import type { HandlerSampleField } from "../../../core/result.ts";
import { defineStatistics, type StatisticsLayout } from "../../state/handler_statistics.ts";
import { CENSUS_WORDS } from "../../../core/grouping/grouping_census.ts";

/** The names of merge-split's statistics. */
export type MergeSplitStat =
  | "momentumError"
  | "energyError"
  | "stage2Pairs"
  | "groups"
  | "largestGroup"
  | "groupingRounds"
  | "stage2Runs"
  | "largestSheetGroup"
  | "groupingIncomplete"
  | "closestSplits"
  | "census"
  | `census${number}`;

/**
 * The census of each stage's groups (`core/grouping/grouping_census.ts`): `census` is its first word (the
 * WGSL's STAT_CENSUS), `census1` … the others, in order.
 */
const CENSUS_FIELDS = Object.fromEntries(
  Array.from({ length: CENSUS_WORDS }, (_, k) => [k === 0 ? "census" : `census${k}`, "u32"]),
) as Record<"census" | `census${number}`, "u32">;

/** The census words of a statistics readback, in order (for `summarizeCensus`). */
export function censusWords(stats: Readonly<Record<string, number>>): number[] {
  return Array.from({ length: CENSUS_WORDS }, (_, k) => stats[k === 0 ? "census" : `census${k}`]);
}

/** The layout of merge-split's statistics buffer, one u32 word each in this order. */
export const MERGE_SPLIT_STATS: StatisticsLayout<MergeSplitStat> = defineStatistics({
  // worst relative momentum error of any split so far (f32 bits)
  momentumError: "f32",
  // worst relative energy error of any split so far (f32 bits)
  energyError: "f32",
  // marked pairs merged in stage 2 (cumulative)
  stage2Pairs: "u32",
  // meta-particles formed (cumulative over stages and steps)
  groups: "u32",
  // largest meta-particle so far (particles)
  largestGroup: "u32",
  // most rounds of pairwise merging that merged something in one stage so far (§5.2)
  groupingRounds: "u32",
  // steps whose stage 2 ran (a marked pair approached after stage 1, §5.1; cumulative)
  stage2Runs: "u32",
  // sheet (cloth) particles in the meta-particle with the most of them, in the groups of the last
  // stage that ran (reset by each stage's grouping): how much of a sheet moves as one rigid piece
  // (Fig. 11's rigidification)
  largestSheetGroup: "u32",
  // components the index-order pass left partly ungrouped because its loop budget ran out (a
  // software adapter's loop cap; cumulative): 0 means every group is the paper's
  groupingIncomplete: "u32",
  // pairwise splits that took the closest point of Eqs. 15–16 (ε ≠ 0: Eq. 13 had no real root;
  // cumulative): the pairwise splits in all are the census's members − groups
  closestSplits: "u32",
  ...CENSUS_FIELDS,
});

/** Values of merge-split's statistics, by name. */
export type MergeSplitStats = Record<MergeSplitStat, number>;

/** The statistic the metrics sample into each handler column of a row (`core/result.ts`). */
export const MERGE_SPLIT_SAMPLED: Readonly<Record<HandlerSampleField, MergeSplitStat>> = {
  momentumError: "momentumError",
  energyError: "energyError",
  stage2Pairs: "stage2Pairs",
  groups: "groups",
  largestGroup: "largestGroup",
  largestSheetGroup: "largestSheetGroup",
};
