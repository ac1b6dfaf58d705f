import assert from "node:assert/strict";
import { LEAK_FRACTION_MIN } from "../claims/case_status.ts";
import { fakeRecord } from "../fake_record.ts";
import { dtCase, FIG4, stiffnessCase, stiffnessSweep } from "../sweep_fixture.ts";
import { renderReport } from "../page/report.ts";
import { sweepSeries } from "./sweep_section.ts";
import { latestCases } from "../case_key.ts";

const EVIL = "<script>alert(1)</script>";

/** The page script's data embedded in a rendered report. */
// deno-lint-ignore no-explicit-any
function reportData(html: string): any {
  const json = /<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(html);
  return JSON.parse(json![1]);
}

Deno.test("sweepSeries: the cases of a sweep are kept apart, a re-run replaces one", () => {
  const rerun = stiffnessCase(1e3, { summary: { passThroughFraction: 0.5 } });
  const records = [...stiffnessSweep(), rerun];
  const latest = latestCases(records);
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
    // an kernel-repulsion sweep of another scene, with an escaped name
    ...[1, 10].map((k) =>
      fakeRecord({
        scene: EVIL,
        handler: "kernel-repulsion",
        handlerParams: { stiffness: k },
        sweep: { "kernel-repulsion.stiffness": k },
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
  assert.ok(
    section.includes("&lt;script&gt;alert(1)&lt;/script&gt; (tiny): kernel-repulsion.stiffness"),
  );
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
