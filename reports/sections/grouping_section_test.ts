import assert from "node:assert/strict";
import { fakeRecord } from "../fake_record.ts";
import { epsilonShare, hasGrouping, renderGroupingSection } from "./grouping_section.ts";

const stage = (runs: number, between: number) => ({
  runs,
  groups: 1294,
  meanSize: 2.25,
  p50Size: 2,
  p90Size: 3,
  maxSize: 12,
  pairs: 1603,
  pairsBetweenGroups: between,
});

Deno.test("grouping section", async (t) => {
  await t.step("one row per case with a census: method, dispatches, both stages", () => {
    const r = fakeRecord({
      gpu: {
        dispatchesPerStep: 100,
        dispatchesByPhase: {},
        peakBufferBytes: 1,
        grouping: {
          method: "index-order",
          dispatchesPerStage: [13, 13],
          stages: [stage(200, 0.25), stage(0, 0)],
        },
      },
    });
    assert.ok(hasGrouping([r, fakeRecord()]));
    const html = renderGroupingSection([r, fakeRecord()]);
    assert.equal(html.match(/<tr><td>/g)?.length, 1);
    assert.match(html, /<td>index-order<\/td><td class="num">13 \/ 13<\/td>/);
    assert.match(html, /25 %/);
    // a stage that never ran reads as dashes, not zeros; a record without splits counted: a dash
    assert.match(html, /(<td class="num">–<\/td>){8}<\/tr>/);
  });
  await t.step("the share of pairwise splits with ε ≠ 0", () => {
    assert.equal(epsilonShare({ pairwise: 400, closestPoint: 50 }), "12.5 % of 400");
    assert.equal(epsilonShare({ pairwise: 0, closestPoint: 0 }), "–");
    assert.equal(epsilonShare(undefined), "–");
  });
  await t.step("nothing to show without a census", () => {
    assert.ok(!hasGrouping([fakeRecord()]));
    assert.match(renderGroupingSection([fakeRecord()]), /No case records/);
  });
});
