import assert from "node:assert/strict";
import { HANDLER_SAMPLE_KINDS, type HandlerSampleField } from "../../../core/result.ts";
import { GROUPING_WGSL } from "./grouping.ts";
import { CENSUS_WORDS } from "../../../core/grouping/grouping_census.ts";
import { MERGE_SPLIT_WGSL } from "./merge_split.ts";
import { MERGE_SPLIT_SAMPLED, MERGE_SPLIT_STATS } from "./merge_split_stats.ts";

Deno.test("merge-split statistics: the layout its kernels and the metrics read", () => {
  // the words of the statistics buffer as they were in gpu/state before the move (issue 25)
  const words = Object.fromEntries(
    Object.entries(MERGE_SPLIT_STATS.words).filter(([name]) => !/^census\d+$/.test(name)),
  );
  assert.deepEqual(words, {
    momentumError: 0,
    energyError: 1,
    stage2Pairs: 2,
    groups: 3,
    largestGroup: 4,
    groupingRounds: 5,
    stage2Runs: 6,
    largestSheetGroup: 7,
    groupingIncomplete: 8,
    closestSplits: 9,
    census: 10,
  });
  // the census block follows, word by word (core/grouping/grouping_census.ts)
  assert.equal(MERGE_SPLIT_STATS.length, 10 + CENSUS_WORDS);
  assert.equal(MERGE_SPLIT_STATS.words[`census${CENSUS_WORDS - 1}`], 9 + CENSUS_WORDS);
  // every STAT_ override its kernels declare is one of its statistics
  for (
    const [file, code] of [["merge_split.wgsl", MERGE_SPLIT_WGSL], ["grouping.wgsl", GROUPING_WGSL]]
  ) {
    const declared = [...code.matchAll(/override (STAT_\w+):/g)].map((m) => m[1]);
    assert.ok(declared.length > 0, file);
    assert.deepEqual(
      Object.keys(MERGE_SPLIT_STATS.constantsFor(code)).sort(),
      declared.sort(),
      file,
    );
  }
  // each sampled column reads a statistic of its kind (f32 bits or a count)
  for (const [column, name] of Object.entries(MERGE_SPLIT_SAMPLED)) {
    assert.equal(MERGE_SPLIT_STATS.kinds[name], HANDLER_SAMPLE_KINDS[column as HandlerSampleField]);
  }
});
