/// <reference lib="dom" />
/**
 * The report page's script, bundled by `deno task report-client` into `report_client.bundle.js`
 * (committed; report_page.ts inlines it; report_client_bundle_test.ts fails when it is stale). It
 * reads the JSON in `#report-data` (reports/page/report_data.ts), draws the chart.js charts (phase
 * bars, phase shares, the log–log scaling of a scale sweep, parameter sweeps, metric time series,
 * comparison bars) and the three.js snapshot viewer, and, when the page's URL hash contains
 * "selftest", checks itself: console errors, every chart canvas drawn, the 3D view non-empty; the
 * verdict is written as JSON into `#selftest` (read by reports/page/browser_test.ts). Text from
 * result files is only ever set with `textContent`, never as HTML.
 *
 * @module
 */
import { chartJs } from "./client/chart_lib.ts";
import { byId, note, readReportData } from "./client/dom.ts";
import { comparisonChart, phaseChart, phaseShareChart } from "./client/phase_charts.ts";
import { scalingCharts } from "./client/scaling_chart.ts";
import { runSelfTest } from "./client/selftest.ts";
import { seriesCharts } from "./client/series_charts.ts";
import { sweepCharts } from "./client/sweep_chart.ts";
import { startViewer, type ViewerHandle } from "./client/viewer.ts";
import { loadThree, viewerCases } from "./client/viewer_case.ts";

/** "#only=viewer-section,series" shows only those sections (for screenshots and embedding). */
function showOnlyFromHash(): void {
  const only = /only=([\w,-]+)/.exec(location.hash);
  if (!only) return;
  const keep = only[1].split(",");
  for (const s of document.querySelectorAll<HTMLElement>("main > section")) {
    s.hidden = !keep.includes(s.id);
  }
}

/** chart.js's defaults for the page, or a note in every chart box when chart.js did not load. */
function setUpChartJs(): void {
  const ChartJs = chartJs();
  if (ChartJs) {
    ChartJs.defaults.animation = false;
    ChartJs.defaults.responsive = true;
    ChartJs.defaults.maintainAspectRatio = false;
    ChartJs.defaults.font.size = 11;
    return;
  }
  const msg =
    "chart.js did not load: charts are missing (a report built with --cdn needs network access)";
  console.error(msg);
  for (const b of document.querySelectorAll<HTMLElement>(".chart-box")) note(b, msg);
}

/** Draws the page and, with "selftest" in the URL's hash, checks it once the viewer is up. */
function main(): void {
  const selftest = /selftest/.test(location.hash);
  const data = readReportData();
  showOnlyFromHash();
  setUpChartJs();
  data.inputs.forEach((input) => phaseChart(data, input));
  data.inputs.forEach((input) => phaseShareChart(data, input));
  data.inputs.forEach((input) => scalingCharts(data, input));
  data.inputs.forEach((input) => sweepCharts(input));
  seriesCharts(data);
  comparisonChart(data);

  let threeError: string | null = null;
  const wantViewer = viewerCases(data).length > 0;
  const viewerReady: Promise<ViewerHandle | null> = wantViewer
    ? loadThree().then((THREE) => startViewer(THREE, data)).catch((e) => {
      threeError = String(e && e.message || e);
      console.error("3D viewer: " + threeError);
      note(byId("viewer"), "The 3D viewer could not start: " + threeError);
      return null;
    })
    : Promise.resolve(null);
  viewerReady.then((viewer) => {
    if (!selftest) return;
    requestAnimationFrame(() =>
      requestAnimationFrame(() => runSelfTest(viewer, wantViewer, threeError))
    );
  });
}

main();
