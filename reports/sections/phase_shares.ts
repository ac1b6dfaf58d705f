/**
 * Table I as fractions: per case, each phase's median time as a share of the step, drawn by the
 * page script as a stacked horizontal bar per case. The shares are of the sum of the phase medians
 * (with timestamp timings a step's time is the sum of its phases, so this is the step split by
 * phase, and every bar ends at 100%). Cases timed by the wall clock have no phases and no bar.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import { caseLabel, distinct } from "../case_key.ts";
import { escapeHtml } from "../page/escape_html.ts";

/** The page script's phase-share chart of one input. */
export interface PhaseShareChart {
  chartId: string;
  /** The phases stacked, in Table I's order. */
  phases: string[];
  /**
   * One label per bar (`scene × handler`, with what tells apart cases of the same scene, handler
   * and scale, and the scale when the input has several).
   */
  labels: string[];
  /** Per bar, the share of each phase in `phases` (0 for a phase the case lacks). */
  rows: number[][];
}

/**
 * Each of `phases` (`total` is ignored) as a fraction of the sum of the record's phase medians;
 * a phase the record lacks counts 0. Null when the record has no phase time > 0.
 */
export function phaseShares(
  record: Pick<CaseRecord, "timings">,
  phases: readonly string[],
): Record<string, number> | null {
  const names = phases.filter((p) => p !== "total");
  const medians = names.map((p) => {
    const m = record.timings?.phases[p]?.median;
    return typeof m === "number" && Number.isFinite(m) && m > 0 ? m : 0;
  });
  const sum = medians.reduce((a, b) => a + b, 0);
  if (!(sum > 0)) return null;
  return Object.fromEntries(names.map((p, k) => [p, medians[k] / sum]));
}

/**
 * The chart data of `records` (one input): a bar per case with per-phase timings, in record
 * order; null when no case has any.
 */
export function phaseShareChart(
  records: readonly CaseRecord[],
  options: { chartId: string; phases: readonly string[] },
): PhaseShareChart | null {
  const phases = options.phases.filter((p) => p !== "total");
  const withScale = distinct(records.map((r) => r.scale)).length > 1;
  const labels: string[] = [];
  const rows: number[][] = [];
  for (const r of records) {
    const s = phaseShares(r, phases);
    if (!s) continue;
    labels.push(caseLabel(r, { withScale, among: records }));
    rows.push(phases.map((p) => s[p]));
  }
  return rows.length ? { chartId: options.chartId, phases, labels, rows } : null;
}

/** The canvas of {@link phaseShareChart} (sized to its bars), or a note when there is no bar. */
export function renderPhaseShares(chart: PhaseShareChart | null): string {
  if (!chart) {
    return `<p class="muted">No case has per-phase timings (wall-clock timing records the step only), so there are no phase shares.</p>`;
  }
  const height = Math.max(160, 90 + 22 * chart.rows.length);
  return `<p class="muted">Phase shares: each phase's median as a fraction of the sum of the phase medians (the step, with timestamp timings).</p>
<div class="chart-box" style="height: ${height}px"><canvas id="${
    escapeHtml(chart.chartId)
  }" class="chart"></canvas></div>`;
}
