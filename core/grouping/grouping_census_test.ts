import assert from "node:assert/strict";
import {
  CENSUS_STAGE_WORDS,
  CENSUS_WORD,
  CENSUS_WORDS,
  pairwiseSplits,
} from "./grouping_census.ts";

Deno.test("pairwise splits: members − groups over both stages, 64-bit counts", () => {
  const words = new Uint32Array(CENSUS_WORDS);
  // stage 1: 3 groups of 2, 3 and 5 members (7 splits); stage 2: 2^32 + 6 members in 2^32 + 2
  // groups (4 splits, both counts past 32 bits)
  words[CENSUS_WORD.groups] = 3;
  words[CENSUS_WORD.members] = 10;
  const s2 = CENSUS_STAGE_WORDS;
  words[s2 + CENSUS_WORD.groups] = 2;
  words[s2 + CENSUS_WORD.groups + 1] = 1;
  words[s2 + CENSUS_WORD.members] = 6;
  words[s2 + CENSUS_WORD.members + 1] = 1;
  assert.equal(pairwiseSplits(words), 7 + 4);
  assert.equal(pairwiseSplits(new Uint32Array(CENSUS_WORDS)), 0);
});
