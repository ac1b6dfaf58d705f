import assert from "node:assert/strict";
import { LEAK_FRACTION_MIN } from "./case_status.ts";
import { fakeRecord } from "../fake_record.ts";
import { dtCase, FIG4, stiffnessCase, stiffnessSweep } from "../sweep_fixture.ts";
import { sweepSeries, windowText } from "../sections/sweep_section.ts";
import { dtStability, largestStableDt, workingWindow } from "./sweep_stats.ts";

Deno.test("workingWindow: leaks below, instability above, the middle works", () => {
  const w = workingWindow(stiffnessSweep(), "penalty.stiffness");
  assert.deepEqual(w.values, [10, 100, 1e3, 3e3, 1e4, 3e4, 1e5, 1e6]);
  assert.deepEqual(w.working, [1e3, 3e3, 1e4]);
  assert.equal(windowText(w), "works at 3 of 8 values: 1000 … 10000");
  // exactly at the threshold still works; just above it leaks
  const edge = workingWindow([
    stiffnessCase(1, { summary: { passThroughFraction: LEAK_FRACTION_MIN } }),
    stiffnessCase(2, { summary: { passThroughFraction: LEAK_FRACTION_MIN * 1.01 } }),
  ], "penalty.stiffness");
  assert.deepEqual(edge.working, [1]);
  // records without the target are ignored
  assert.deepEqual(workingWindow([fakeRecord()], "penalty.stiffness"), { values: [], working: [] });
});

Deno.test("workingWindow: a sweep where no value works", () => {
  const records = [
    stiffnessCase(10, { summary: { passThroughFraction: 0.2 } }),
    stiffnessCase(100, { summary: { passThroughFraction: 0.05 } }),
    stiffnessCase(1e3, { status: "failed", summary: { passThroughFraction: 0 } }),
    stiffnessCase(1e4, { summary: { passThroughFraction: 0, exploded: true } }),
  ];
  const w = workingWindow(records, "penalty.stiffness");
  assert.deepEqual(w, { values: [10, 100, 1e3, 1e4], working: [] });
  assert.equal(windowText(w), "none of 4 values");
  // a case without metrics does not work
  const noMetrics = { ...stiffnessCase(5), metrics: null };
  assert.deepEqual(workingWindow([noMetrics], "penalty.stiffness").working, []);
});

Deno.test("workingWindow: a value shared by several records works only when all do", () => {
  const records = [
    stiffnessCase(1e3, { others: { "scene.dt": 1e-3 } }),
    stiffnessCase(1e3, { others: { "scene.dt": 2e-3 }, status: "unstable" }),
    stiffnessCase(1e4, { others: { "scene.dt": 1e-3 } }),
    stiffnessCase(1e4, { others: { "scene.dt": 2e-3 } }),
  ];
  assert.deepEqual(workingWindow(records, "penalty.stiffness").working, [1e4]);
});

Deno.test("largestStableDt: an unstable dt in the middle of the range", () => {
  const records = [
    dtCase("penalty", 4e-3, { status: "unstable" }),
    dtCase("penalty", 1e-4),
    dtCase("penalty", 2e-4),
    dtCase("penalty", 5e-4),
    dtCase("penalty", 1e-3, { summary: { energyRatio: 1.2 } }), // gained energy: unstable
    dtCase("penalty", 2e-3, { status: "timeout", summary: {} }),
    // merge-split: stable up to 2e-3, but 5e-4 exploded
    dtCase("merge-split", 1e-4),
    dtCase("merge-split", 5e-4, { summary: { exploded: true } }),
    dtCase("merge-split", 2e-3),
    // another scene, never stable
    { ...dtCase("penalty", 1e-5, { status: "unstable" }), scene: "fig3-ball-cloth-low" },
  ];
  assert.equal(largestStableDt(records, { scene: FIG4, handler: "penalty" }), 5e-4);
  assert.deepEqual(dtStability(records, { scene: FIG4, handler: "penalty" }), {
    values: [1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 4e-3],
    stable: [1e-4, 2e-4, 5e-4],
    unstable: [1e-3, 4e-3],
  });
  // the largest stable dt, even above an unstable one (the table flags it)
  assert.equal(largestStableDt(records, { scene: FIG4, handler: "merge-split" }), 2e-3);
  assert.equal(
    largestStableDt(records, { scene: "fig3-ball-cloth-low", handler: "penalty" }),
    null,
  );
  assert.equal(largestStableDt(records, { scene: FIG4, handler: "impulse" }), null);
  assert.equal(largestStableDt(records, { scene: FIG4, handler: "penalty", scale: "paper" }), null);
  // unswept records do not count
  assert.equal(largestStableDt([fakeRecord()], { scene: FIG4, handler: "merge-split" }), null);

  const [table] = sweepSeries(records).dt;
  assert.deepEqual(table.rows.map((r) => [r.handler, r.notUsable]), [
    ["penalty", [2e-3]],
    ["merge-split", []],
  ]);
});
