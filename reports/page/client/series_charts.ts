/// <reference lib="dom" />
/**
 * The report page's metric time series: per input and scene, one chart per metric (pass-through,
 * penetration, energy, speed) with a line per case, drawn into `#series-root`.
 *
 * @module
 */
import type { ClientCase, ReportData } from "../report_data.ts";
import { makeChart } from "./chart_lib.ts";
import { byId, el, handlerColor, note } from "./dom.ts";
import type { ReportInput } from "./phase_charts.ts";

/** One metric chart: its id suffix, title, value of a row (from its fields) and y axis. */
interface SeriesSpec {
  key: string;
  title: string;
  value: (f: (name: string) => number | null) => number | null;
  y?: { min: number; suggestedMax: number };
}

const SERIES_CHARTS: SeriesSpec[] = [
  {
    key: "passThrough",
    title: "pass-through (particles)",
    value: (f) => f("passThrough"),
    y: { min: 0, suggestedMax: 1 },
  },
  {
    key: "penetration",
    title: "max penetration depth (radii)",
    value: (f) => f("maxPenetrationDepth"),
    y: { min: 0, suggestedMax: 0.1 },
  },
  {
    key: "energy",
    title: "energy: kinetic + potential + elastic (J)",
    value: (f) => {
      const k = f("kinetic"), p = f("potential"), e = f("elastic");
      return k === null || p === null || e === null ? null : k + p + e;
    },
  },
  {
    key: "speed",
    title: "max speed (m/s)",
    value: (f) => f("maxSpeed"),
    y: { min: 0, suggestedMax: 0.1 },
  },
];

/** A point of a series: simulated time and the metric's value (null where missing). */
interface SeriesPoint {
  x: number;
  y: number | null;
}

/** The points of `spec`'s metric of case `c` (which has a series), by simulated time. */
function seriesPoints(c: ClientCase, spec: SeriesSpec): SeriesPoint[] {
  const s = c.series!;
  const at = (name: string) => s.fields.indexOf(name);
  const ti = at("time");
  return s.rows.map((row, k) => {
    const f = (name: string) => {
      const i = at(name);
      return i < 0 || row[i] === null || row[i] === undefined ? null : row[i];
    };
    return { x: ti >= 0 && row[ti] !== null ? row[ti]! : k * s.every, y: spec.value(f) };
  });
}

/** One metric's chart of `cases` (a scene of an input) into `grid`, up to time `xMax`. */
function seriesChart(
  data: ReportData,
  grid: HTMLElement,
  cases: ClientCase[],
  spec: SeriesSpec,
  where: { id: string; xMax: number },
): void {
  const box = grid.appendChild(el("div", { class: "chart-box" }));
  const canvas = box.appendChild(el("canvas", { id: where.id, class: "chart" }));
  makeChart(canvas, {
    type: "line",
    data: {
      datasets: cases.map((c) => ({
        label: c.handler + (c.variant || ""),
        data: seriesPoints(c, spec),
        borderColor: handlerColor(data, c.handler),
        backgroundColor: handlerColor(data, c.handler),
        borderWidth: 1.5,
        pointRadius: 0,
        spanGaps: false,
      })),
    },
    options: {
      parsing: false,
      plugins: {
        title: { display: true, text: spec.title },
        legend: { position: "bottom", labels: { boxWidth: 10, font: { size: 10 } } },
      },
      scales: {
        x: {
          type: "linear",
          min: 0,
          max: where.xMax > 0 ? where.xMax : undefined,
          title: { display: true, text: "time (s)" },
        },
        y: spec.y || {},
      },
    },
  });
}

/** Input `i`'s series charts: a heading and a grid of metric charts per scene (and scale). */
function inputSeriesCharts(data: ReportData, root: HTMLElement, input: ReportInput, i: number) {
  if (data.inputs.length > 1) root.appendChild(el("h3", { text: input.label }));
  const sceneOf = (c: ClientCase) => c.scene + " (" + c.scale + ")";
  const scenes = [...new Set(input.cases.filter((c) => c.series).map(sceneOf))];
  if (!scenes.length) note(root, "No metric series in " + input.label + ".");
  scenes.forEach((sceneKey, j) => {
    const cases = input.cases.filter((c) => c.series && sceneOf(c) === sceneKey);
    root.appendChild(el("h4", { text: sceneKey }));
    const grid = root.appendChild(el("div", { class: "series-grid" }));
    let xMax = 0;
    for (const c of cases) {
      for (const p of seriesPoints(c, SERIES_CHARTS[0])) if (p.x > xMax) xMax = p.x;
    }
    for (const spec of SERIES_CHARTS) {
      seriesChart(data, grid, cases, spec, { id: "series-" + i + "-" + j + "-" + spec.key, xMax });
    }
  });
}

/** Every input's metric time series, into `#series-root` (nothing when the page has none). */
export function seriesCharts(data: ReportData): void {
  const root = byId("series-root");
  if (!root) return;
  data.inputs.forEach((input, i) => inputSeriesCharts(data, root, input, i));
}
