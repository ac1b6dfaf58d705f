import assert from "node:assert/strict";
import type { CaseRecord } from "../core/result.ts";
import { LEAK_FRACTION_MIN } from "./case_status.ts";
import { fakeRecord } from "./fake_record.ts";
import { renderReport } from "./report.ts";
import { latestSweepCases, sweepSeries, windowText } from "./sweep_section.ts";
import { dtStability, largestStableDt, workingWindow } from "./sweep_stats.ts";

const FIG4 = "fig4-fluid-cloth";
const EVIL = "<script>alert(1)</script>";

/** The page script's data embedded in a rendered report. */
// deno-lint-ignore no-explicit-any
function reportData(html: string): any {
  const json = /<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(html);
  return JSON.parse(json![1]);
}

/** One case of a `penalty.stiffness` sweep (plus any other sweep keys). */
function stiffnessCase(
  stiffness: number,
  options: {
    summary?: Record<string, number | boolean>;
    status?: CaseRecord["status"];
    scene?: string;
    others?: Record<string, number>;
  } = {},
): CaseRecord {
  return fakeRecord({
    scene: options.scene ?? FIG4,
    handler: "penalty",
    handlerParams: { stiffness, damping: 0.1 },
    sweep: { "penalty.stiffness": stiffness, ...options.others },
    status: options.status ?? "ok",
    summary: options.summary,
  });
}

/**
 * A stiffness sweep on Fig. 4: weak values leak (10 %, 2 %), the middle works (0.1 %, 0, 0),
 * strong values explode or gain energy, the strongest ends unstable.
 */
function stiffnessSweep(): CaseRecord[] {
  return [
    stiffnessCase(1e5, { summary: { passThroughFraction: 0, energyRatio: 1.3 } }), // energy gain
    stiffnessCase(10, { summary: { passThroughFraction: 0.1, energyRatio: 0.7 } }),
    stiffnessCase(100, { summary: { passThroughFraction: 0.02, energyRatio: 0.7 } }),
    stiffnessCase(1e3, { summary: { passThroughFraction: 0.001, energyRatio: 0.8 } }),
    stiffnessCase(3e3, { summary: { passThroughFraction: 0, energyRatio: 0.85 } }),
    stiffnessCase(1e4, { summary: { passThroughFraction: 0, energyRatio: 0.9 } }),
    stiffnessCase(3e4, { summary: { passThroughFraction: 0, energyRatio: 40, exploded: true } }),
    stiffnessCase(1e6, { status: "unstable", summary: { passThroughFraction: 0.3 } }),
  ];
}

/** One case of a `scene.dt` sweep. */
function dtCase(
  handler: string,
  dt: number,
  options: { status?: CaseRecord["status"]; summary?: Record<string, number | boolean> } = {},
): CaseRecord {
  return fakeRecord({
    scene: FIG4,
    handler,
    dt,
    sweep: { "scene.dt": dt },
    status: options.status ?? "ok",
    summary: options.summary,
  });
}

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

Deno.test("sweepSeries: the cases of a sweep are kept apart, a re-run replaces one", () => {
  const rerun = stiffnessCase(1e3, { summary: { passThroughFraction: 0.5 } });
  const records = [...stiffnessSweep(), rerun];
  const latest = latestSweepCases(records);
  assert.equal(latest.length, 8);
  assert.ok(latest.includes(rerun));
  const [p] = sweepSeries(records).params;
  assert.deepEqual(p.groups[0].window.working, [3e3, 1e4]);
  assert.equal(p.mergeSplit, null);
  assert.deepEqual(sweepSeries([fakeRecord(), fakeRecord({ handler: "impulse" })]), {
    params: [],
    dt: [],
  });
});

Deno.test("sweepSeries: a cartesian product gives one series per value of the other key", () => {
  const records = [2e-3, 1e-3].flatMap((dt) =>
    [1e2, 1e3, 1e4].map((k) =>
      stiffnessCase(k, {
        others: { "scene.dt": dt },
        summary: {
          passThroughFraction: k < 1e3 ? 0.1 : 0,
          exploded: dt > 1e-3 && k > 1e3,
        },
      })
    )
  );
  const { params, dt } = sweepSeries(records);
  assert.equal(params.length, 1);
  assert.deepEqual(params[0].groups.map((g) => [g.label, g.window.working]), [
    ["scene.dt = 0.001", [1e3, 1e4]],
    ["scene.dt = 0.002", [1e3]],
  ]);
  // the dt table: a row per stiffness
  assert.deepEqual(dt[0].rows.map((r) => [r.label, r.stability.stable]), [
    ["penalty.stiffness = 100", [1e-3, 2e-3]],
    ["penalty.stiffness = 1000", [1e-3, 2e-3]],
    ["penalty.stiffness = 10000", [1e-3]],
  ]);
});

Deno.test("report: a Sweeps section with the chart data and the merge-split line", () => {
  const records = [
    fakeRecord({ scene: FIG4, handler: "merge-split", summary: { passThroughFraction: 0 } }),
    ...stiffnessSweep(),
    // an sph-force sweep of another scene, with an escaped name
    ...[1, 10].map((k) =>
      fakeRecord({
        scene: EVIL,
        handler: "sph-force",
        handlerParams: { stiffness: k },
        sweep: { "sph-force.stiffness": k },
        summary: { passThroughFraction: 0.2 / k },
      })
    ),
    ...[1e-4, 1e-3, 1e-2].map((dt) =>
      dtCase("merge-split", dt, dt > 1e-3 ? { status: "unstable" } : {})
    ),
    dtCase("impulse", 1e-3, { summary: { exploded: true } }),
  ];
  const html = renderReport([{ label: "sweep", records }], { cdn: true });
  assert.match(html, /<a href="#sweeps">Sweeps<\/a>/);
  const start = html.indexOf('<section id="sweeps">');
  assert.ok(start > 0);
  const section = html.slice(start, html.indexOf("</section>", start));
  assert.match(section, /<h2>Parameter sweeps<\/h2>/);
  assert.match(section, /<canvas id="sweep-chart-0-0" class="chart"><\/canvas>/);
  assert.match(section, /<canvas id="sweep-chart-0-1" class="chart"><\/canvas>/);
  assert.match(section, /works at 3 of 8 values: 1000 … 10000/);
  assert.match(section, /merge-split \(unswept\) lets 0 of the particles through/);
  assert.match(section, /none of 2 values/);
  assert.ok(!section.includes(EVIL));
  assert.ok(section.includes("&lt;script&gt;alert(1)&lt;/script&gt; (tiny): sph-force.stiffness"));
  // the time-step table: merge-split stable up to 0.001, unstable at 0.01; impulse never stable
  assert.match(
    section,
    /<tr><td>merge-split<\/td><td class="num">0\.001<\/td><td>0\.01<\/td><td class="num">3<\/td><td class="num">–<\/td><\/tr>/,
  );
  assert.match(
    section,
    /<tr><td>impulse<\/td><td class="num">none<\/td><td>0\.001<\/td><td class="num">1<\/td>/,
  );

  const charts = reportData(html).inputs[0].sweeps;
  assert.equal(charts.length, 2);
  const [fig4, sph] = charts;
  assert.equal(fig4.chartId, "sweep-chart-0-0");
  assert.equal(fig4.target, "penalty.stiffness");
  assert.equal(fig4.scene, FIG4);
  assert.equal(fig4.logX, true);
  assert.equal(fig4.leakFractionMin, LEAK_FRACTION_MIN);
  assert.deepEqual(fig4.mergeSplit, { passThroughFraction: 0, status: "ok", usable: true });
  assert.equal(fig4.series.length, 1);
  assert.equal(fig4.series[0].label, "");
  const points = fig4.series[0].points;
  assert.deepEqual(points.map((p: { x: number }) => p.x), [10, 100, 1e3, 3e3, 1e4, 3e4, 1e5, 1e6]);
  assert.deepEqual(
    points.map((p: { unstable: boolean }) => p.unstable),
    [false, false, false, false, false, true, true, true],
  );
  assert.equal(points[0].passThroughFraction, 0.1);
  assert.equal(points[5].energyRatio, 40);
  assert.equal(points[7].usable, false);
  assert.equal(sph.scene, EVIL, "JSON keeps the text; the page sets it as text");
  assert.equal(sph.mergeSplit, null);
  // the script draws the merge-split line from this data
  assert.match(html, /flat\("merge-split", chart\.mergeSplit\.passThroughFraction/);
  assert.ok(!html.includes("<script>alert(1)"));
});

Deno.test("report: no Sweeps section without sweep records", () => {
  const html = renderReport([{
    label: "plain",
    records: [fakeRecord(), fakeRecord({ handler: "impulse" })],
  }], { cdn: true });
  assert.ok(!html.includes('id="sweeps"'));
  assert.ok(!html.includes('href="#sweeps"'));
  assert.deepEqual(reportData(html).inputs[0].sweeps, []);
  // an empty sweep field is no sweep
  const empty = renderReport([{ label: "x", records: [fakeRecord({ sweep: {} })] }], { cdn: true });
  assert.ok(!empty.includes('id="sweeps"'));
});

Deno.test("report: with two inputs, one without sweeps says so", () => {
  const html = renderReport([
    { label: "a", records: stiffnessSweep() },
    { label: "b", records: [fakeRecord()] },
  ], { cdn: true });
  const start = html.indexOf('<section id="sweeps">');
  const section = html.slice(start, html.indexOf("</section>", start));
  assert.match(section, /<h3>a<\/h3>/);
  assert.match(section, /No case of b was part of a sweep\./);
  assert.deepEqual(reportData(html).inputs[1].sweeps, []);
});
