/// <reference lib="dom" />
/**
 * The report page's charts of handler-parameter sweeps (`--sweep`): pass-through fraction (left
 * axis) and energy ratio (right axis) against the swept value, unstable cases as red crosses,
 * merge-split's pass-through and the leak threshold as flat lines.
 *
 * @module
 */
import type { SweepChart, SweepChartPoint } from "../../sections/sweep_section.ts";
import { type ChartConfiguration, makeChart } from "./chart_lib.ts";
import { byId, PALETTE } from "./dom.ts";
import type { ReportInput } from "./phase_charts.ts";

/** Energy ratios above this are drawn at it (the tooltip gives the value): explosions. */
const SWEEP_ENERGY_PLOT_MAX = 2;
const UNSTABLE_COLOR = "#d62728";
/** Merge-split's reference line (not a palette colour: the series take those). */
const MERGE_SPLIT_LINE_COLOR = "#222";

/**
 * A point of a sweep chart: `y` as drawn, `value` as measured; a case's status with it (absent on
 * the flat lines).
 */
interface SweepDatum {
  x: number;
  y: number | null;
  value: number | null;
  status?: string;
  unstable?: boolean;
  usable?: boolean;
}

/** The chart's configuration (its scatter type, with {@link SweepDatum} points). */
type SweepConfig = ChartConfiguration<"scatter", SweepDatum[]>;
/** One dataset of a sweep chart. */
type SweepDataset = SweepConfig["data"]["datasets"][number];

/** The per-point style and the data of one measured quantity of a series (`key`). */
function styledPoints(
  points: readonly SweepChartPoint[],
  key: "passThroughFraction" | "energyRatio",
  shape: "circle" | "triangle",
  color: string,
) {
  return {
    pointStyle: points.map((pt) => (pt.unstable ? "crossRot" as const : shape)),
    pointRadius: points.map((pt) => (pt.unstable ? 7 : 4)),
    pointBorderColor: points.map((pt) => (pt.unstable ? UNSTABLE_COLOR : color)),
    pointBackgroundColor: points.map((pt) => (pt.unstable ? UNSTABLE_COLOR : color)),
    pointBorderWidth: points.map((pt) => (pt.unstable ? 2 : 1)),
    data: points.map((pt): SweepDatum => ({
      x: pt.x,
      y: pt[key] === null
        ? null
        : key === "energyRatio"
        ? Math.min(pt[key]!, SWEEP_ENERGY_PLOT_MAX)
        : pt[key],
      value: pt[key],
      status: pt.status,
      unstable: pt.unstable,
      usable: pt.usable,
    })),
  };
}

/** Per series: its pass-through fraction (solid) and energy ratio (dashed) datasets. */
function seriesDatasets(chart: SweepChart): SweepDataset[] {
  return chart.series.flatMap((s, k) => {
    const color = PALETTE[k % PALETTE.length];
    const name = s.label ? " (" + s.label + ")" : "";
    return [
      Object.assign(styledPoints(s.points, "passThroughFraction", "circle", color), {
        label: "pass-through fraction" + name,
        yAxisID: "y",
        showLine: true,
        spanGaps: true,
        borderColor: color,
        backgroundColor: color,
        borderWidth: 1.5,
      }),
      Object.assign(styledPoints(s.points, "energyRatio", "triangle", color), {
        label: "energy ratio" + name,
        yAxisID: "y1",
        showLine: true,
        spanGaps: true,
        borderColor: color,
        backgroundColor: color,
        borderWidth: 1,
        borderDash: [5, 4],
      }),
    ];
  });
}

/** The flat lines over the swept range: merge-split's pass-through and the leak threshold. */
function flatDatasets(chart: SweepChart): SweepDataset[] {
  const xs = chart.series.flatMap((s) => s.points.map((pt) => pt.x));
  if (!xs.length) return [];
  const lo = Math.min(...xs), hi = Math.max(...xs);
  const flat = (label: string, y: number, style: Partial<SweepDataset>): SweepDataset =>
    Object.assign({
      label,
      yAxisID: "y",
      data: [{ x: lo, y, value: y }, { x: hi, y, value: y }],
      showLine: true,
      pointRadius: 0,
      borderWidth: 1.5,
    }, style);
  const out: SweepDataset[] = [];
  if (chart.mergeSplit) {
    out.push(flat("merge-split", chart.mergeSplit.passThroughFraction, {
      borderColor: MERGE_SPLIT_LINE_COLOR,
      backgroundColor: MERGE_SPLIT_LINE_COLOR,
      borderWidth: 2,
    }));
  }
  out.push(flat("leak threshold", chart.leakFractionMin, {
    borderColor: "#888",
    backgroundColor: "#888",
    borderWidth: 1,
    borderDash: [2, 3],
  }));
  return out;
}

/** The tooltip of a point: the measured value, the swept value and the case's status. */
function sweepTooltip(chart: SweepChart, label: string, pt: SweepDatum): string {
  if (pt.status === undefined) return label + ": " + Number(pt.value).toPrecision(3);
  return label + " at " + chart.target + " = " + pt.x + ": " +
    (pt.value === null ? "–" : Number(pt.value).toPrecision(3)) + " (" +
    pt.status + (pt.unstable ? ", unstable" : "") +
    (pt.usable ? "" : ", not usable") + ")";
}

/** The options of a sweep chart: title, legend, tooltips and the two y axes. */
function sweepOptions(chart: SweepChart): SweepConfig["options"] {
  return {
    plugins: {
      title: {
        display: true,
        text: chart.scene + " (" + chart.scale + "): leaks and stability against " + chart.target,
      },
      legend: { position: "bottom", labels: { boxWidth: 10, font: { size: 10 } } },
      tooltip: {
        callbacks: {
          label: (ctx) => sweepTooltip(chart, ctx.dataset.label ?? "", ctx.raw as SweepDatum),
        },
      },
    },
    scales: {
      x: {
        type: chart.logX ? "logarithmic" : "linear",
        title: { display: true, text: chart.target },
      },
      y: {
        type: "linear",
        position: "left",
        min: 0,
        suggestedMax: 2 * chart.leakFractionMin,
        title: { display: true, text: "pass-through fraction" },
      },
      y1: {
        type: "linear",
        position: "right",
        min: 0,
        suggestedMax: 1.2,
        grid: { drawOnChartArea: false },
        title: { display: true, text: "energy ratio (end / start)" },
      },
    },
  };
}

/**
 * Per handler-parameter sweep: pass-through fraction (left axis) and energy ratio (right axis)
 * against the swept value, unstable cases as red crosses, merge-split's pass-through as a line.
 */
export function sweepCharts(input: ReportInput): void {
  for (const chart of input.sweeps || []) {
    const config: SweepConfig = {
      type: "scatter",
      data: { datasets: [...seriesDatasets(chart), ...flatDatasets(chart)] },
      options: sweepOptions(chart),
    };
    makeChart(byId(chart.chartId), config);
  }
}
