/// <reference lib="dom" />
/**
 * The report page's bar charts of phase times: per input the stacked per-phase medians and the
 * phase shares (Table I as fractions), and for several inputs the medians side by side.
 *
 * @module
 */
import type { ReportData } from "../report_data.ts";
import { chartJs, makeChart } from "./chart_lib.ts";
import { byId, caseName, PHASE_COLORS, phaseColor } from "./dom.ts";

/** One input of the page's data. */
export type ReportInput = ReportData["inputs"][number];

/** The x axis of a stacked bar chart with a bar per case, and its y axis in ms per step. */
const STACKED_MS_SCALES = {
  x: { stacked: true, ticks: { autoSkip: false, maxRotation: 60, minRotation: 30 } },
  y: { stacked: true, title: { display: true, text: "ms / step" } },
};

/** The per-phase median time per step of `input`'s cases, a stacked bar per case. */
export function phaseChart(data: ReportData, input: ReportInput): void {
  const cases = input.cases.filter((c) => c.phases);
  const withScale = new Set(input.cases.map((c) => c.scale)).size > 1;
  makeChart(byId(input.phasesChartId), {
    type: "bar",
    data: {
      labels: cases.map((c) => caseName(c, withScale)),
      datasets: data.phases.map((p, k) => ({
        label: p,
        data: cases.map((c) => (c.phases![p] === undefined ? null : c.phases![p])),
        backgroundColor: PHASE_COLORS[k % PHASE_COLORS.length],
        stack: "phases",
      })),
    },
    options: {
      plugins: {
        title: { display: true, text: "Per-phase median time per step: " + input.label },
      },
      layout: { padding: { left: 40 } },
      scales: STACKED_MS_SCALES,
    },
  });
}

/** Table I as fractions: a stacked horizontal bar per case, each phase's share of the step. */
export function phaseShareChart(data: ReportData, input: ReportInput): void {
  const p = input.phaseShares;
  if (!p) return;
  makeChart(byId(p.chartId), {
    type: "bar",
    data: {
      labels: p.labels,
      datasets: p.phases.map((phase, k) => ({
        label: phase,
        data: p.rows.map((row) => row[k]),
        backgroundColor: phaseColor(data, phase),
        stack: "shares",
      })),
    },
    options: {
      indexAxis: "y",
      plugins: {
        title: { display: true, text: "Phase shares of the step: " + input.label },
        tooltip: {
          callbacks: {
            label: (ctx) => ctx.dataset.label + ": " + (100 * ctx.parsed.x!).toFixed(1) + "%",
          },
        },
      },
      scales: {
        x: {
          stacked: true,
          min: 0,
          max: 1,
          ticks: { callback: (v) => Math.round(100 * Number(v)) + "%" },
          title: { display: true, text: "share of the step" },
        },
        y: { stacked: true, ticks: { autoSkip: false } },
      },
    },
  });
}

/** For several inputs: each matched case's per-phase medians, a stacked bar per input. */
export function comparisonChart(data: ReportData): void {
  const c = data.comparison;
  if (!c || !c.rows.length) return;
  const datasets = c.labels.flatMap((label, k) =>
    data.phases.map((p, j) => ({
      label: label + ": " + p,
      data: c.rows.map((r) => (r.medians[k] ? r.medians[k]![p] : null)),
      backgroundColor: PHASE_COLORS[j % PHASE_COLORS.length],
      borderColor: k === 0 ? "#333" : "#fff",
      borderWidth: k === 0 ? 0 : 1,
      stack: "input-" + k,
    }))
  );
  makeChart(byId(c.chartId), {
    type: "bar",
    data: {
      labels: c.rows.map((r) => r.scene + " × " + r.handler + (r.variant || "")),
      datasets,
    },
    options: {
      plugins: {
        title: {
          display: true,
          text: "Per-phase medians side by side, bars in input order: " + c.labels.join(" | "),
        },
        // One legend entry per phase (the colours repeat in every input's bar).
        legend: {
          labels: {
            generateLabels: (chart) =>
              chartJs()!.defaults.plugins.legend.labels.generateLabels(chart)
                .filter((item) => item.datasetIndex! < data.phases.length)
                .map((item) => Object.assign(item, { text: data.phases[item.datasetIndex!] })),
          },
          onClick: () => {},
        },
      },
      layout: { padding: { left: 40 } },
      scales: STACKED_MS_SCALES,
    },
  });
}
