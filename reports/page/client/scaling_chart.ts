/// <reference lib="dom" />
/**
 * The report page's charts of a scale sweep: per scene, ns per particle-step against the particle
 * count N, log–log, a line per handler with its fitted power law dashed.
 *
 * @module
 */
import type { ReportData } from "../report_data.ts";
import type { ScalingChart } from "../../sections/scaling_section.ts";
import { makeChart } from "./chart_lib.ts";
import { byId, handlerColor } from "./dom.ts";
import type { ReportInput } from "./phase_charts.ts";

/** A point of a scaling chart: a measured size (with its scale and status) or a point of a fit. */
type ScalingDatum = { x: number; y: number; scale?: string; ok?: boolean };

/** The datasets of one scene's chart: per handler its points and, when fitted, its fit. */
function scalingDatasets(data: ReportData, chart: ScalingChart) {
  return chart.series.flatMap((s) => {
    const color = handlerColor(data, s.handler);
    const points = {
      label: s.label,
      data: s.points as ScalingDatum[],
      showLine: true,
      borderColor: color,
      backgroundColor: color,
      borderWidth: 1.5,
      pointRadius: s.points.map((pt) => (pt.ok ? 4 : 6)),
      pointStyle: s.points.map((pt) => (pt.ok ? "circle" as const : "crossRot" as const)),
    };
    if (!s.fit) return [points];
    return [points, {
      label: "fit: " + s.handler,
      data: s.fit as ScalingDatum[],
      showLine: true,
      borderColor: color,
      backgroundColor: color,
      borderWidth: 1,
      borderDash: [5, 4],
      pointRadius: 0,
    }];
  });
}

/** Per scene of a scale sweep: ns per particle-step against N, log–log, a line per handler. */
export function scalingCharts(data: ReportData, input: ReportInput): void {
  for (const chart of input.scaling || []) {
    makeChart(byId(chart.chartId), {
      type: "scatter",
      data: { datasets: scalingDatasets(data, chart) },
      options: {
        plugins: {
          title: { display: true, text: chart.scene + ": step time per particle" },
          legend: {
            position: "bottom",
            labels: { boxWidth: 10, filter: (item) => !/^fit: /.test(item.text) },
          },
          tooltip: {
            callbacks: {
              label: (ctx) => {
                const pt = ctx.raw as ScalingDatum;
                const label = ctx.dataset.label ?? "";
                return pt.scale === undefined
                  ? label
                  : label.replace(/ \(.*$/, "") + " at " + pt.scale + " (" +
                    (pt.ok ? "" : "not ok, ") + "N = " + pt.x + "): " +
                    pt.y.toPrecision(3) + " ns/particle-step";
              },
            },
          },
        },
        scales: {
          x: { type: "logarithmic", title: { display: true, text: "particles N" } },
          y: { type: "logarithmic", title: { display: true, text: "ns per particle-step" } },
        },
      },
    });
  }
}
