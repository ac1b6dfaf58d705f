import assert from "node:assert/strict";
import { caseCoverage, coverageLines } from "./case_coverage.ts";
import { fakeRecord } from "../fake_record.ts";
import type { CaseRecord } from "../../core/result.ts";

const placed = (index: number, shard: string | null, list = "abc"): CaseRecord => ({
  ...fakeRecord({ scene: `scene-${index}` }),
  case: { index, of: 5, list, shard },
});

Deno.test("caseCoverage: missing and duplicated cases of a sharded run's list", () => {
  const complete = [0, 1, 2, 3, 4].map((k) => placed(k, `${(k % 2) + 1}/2`));
  assert.deepEqual(coverageLines(caseCoverage(complete)), [
    "case list abc: 5 of 5 cases, complete",
  ]);
  // shard 2/2 (positions 1 and 3) lost; shard 1/2's position 0 run twice
  const lost = [placed(0, "1/2"), placed(0, "1/2"), placed(2, "1/2"), placed(4, "1/2")];
  const [c] = caseCoverage(lost);
  assert.deepEqual(c.missing, [{ index: 1, shard: "2/2" }, { index: 3, shard: "2/2" }]);
  assert.equal(c.duplicated.length, 1);
  assert.deepEqual(coverageLines([c]), [
    "case list abc: 3 of 5 cases; missing #2, #4 (shard 2/2); duplicated #1 (2 records: " +
    "scene-0 × merge-split (tiny), shard 1/2)",
  ]);
  // --resume: the positions an earlier run recorded count, named apart; the others still missing
  const resumed = [0, 2].map((k) => ({
    ...placed(k, null),
    case: { index: k, of: 5, list: "abc", shard: null, held: [1, 3] },
  }));
  assert.deepEqual(coverageLines(caseCoverage(resumed)), [
    "case list abc: 4 of 5 cases (2 recorded by an earlier run: --resume); missing #5",
  ]);
  // records without a place (older files) are left out; two lists stay apart
  const mixed = [fakeRecord({}), placed(0, null, "x"), placed(1, null, "y")];
  assert.deepEqual(caseCoverage(mixed).map((l) => [l.list, l.present]), [["x", 1], ["y", 1]]);
});
