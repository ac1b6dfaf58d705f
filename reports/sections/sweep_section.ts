/**
 * The report's "Parameter sweeps" section, for cases run with `--sweep` (each record's `sweep`
 * field: the swept values by target, `<handler>.<param>` or `scene.dt`):
 *
 * - handler-parameter sweeps (e.g. `penalty.stiffness`): per scene, scale and target, a chart of
 *   `passThroughFraction` (left axis) and `energyRatio` (right axis) against the swept value
 *   (logarithmic x axis), unstable cases marked, with merge-split's pass-through fraction on the
 *   same scene and scale (its unswept record) as a horizontal line; under it the working window
 *   ({@link workingWindow}): the values at which the case is usable, stable and does not leak;
 * - time-step sweeps (`scene.dt`): per scene and scale, a table with one row per handler of the
 *   largest dt that stayed stable (`largestStableDt` of `reports/claims/sweep_stats.ts`) and the smallest that did not.
 *
 * When records carry several sweep keys (a cartesian product), every chart and table row is split
 * by the values of the other keys: one series (row) per combination.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import { distinct, latestCases } from "../case_key.ts";
import { LEAK_FRACTION_MIN, summaryMetric, unstable, usable } from "../claims/case_status.ts";
import {
  byValue,
  DT_TARGET,
  type DtStability,
  dtStability,
  sweepValue,
  type SweepWindow,
  workingWindow,
} from "../claims/sweep_stats.ts";
import { escapeHtml } from "../page/escape_html.ts";
import { formatNumber } from "../page/format_number.ts";

/** The handler whose unswept record gives the reference line of a handler-parameter chart. */
const MERGE_SPLIT = "merge-split";

/** The other sweep keys' values shared by a group of records, and their legend text. */
export interface SweepFixed {
  /** Sweep key → value, without the charted target ({} when the target is the only key). */
  fixed: Record<string, number>;
  /** `scene.dt = 0.001, …`, or "" without other keys. Plain text: escape it for HTML. */
  label: string;
}

/** A handler-parameter sweep of one scene at one scale. */
export interface ParamSweep {
  scene: string;
  scale: string;
  /** `<handler>.<param>`, e.g. `penalty.stiffness`. */
  target: string;
  /** One group per combination of the other sweep keys' values. */
  groups: (SweepFixed & { records: CaseRecord[]; window: SweepWindow })[];
  /** Merge-split's unswept record of the same scene and scale, or null. */
  mergeSplit: CaseRecord | null;
}

/** The time-step sweeps of one scene at one scale: a row per handler (× other sweep values). */
export interface DtSweep {
  scene: string;
  scale: string;
  rows: (SweepFixed & {
    handler: string;
    stability: DtStability;
    /** The dt values whose case was neither stable nor unstable (failed, timed out, no metrics). */
    notUsable: number[];
  })[];
}

/** The sweeps of one input. */
export interface Sweeps {
  params: ParamSweep[];
  dt: DtSweep[];
}

/** One point of a sweep chart (one case). */
export interface SweepChartPoint {
  /** The swept value. */
  x: number;
  /** `passThroughFraction`; null when the case has none. */
  passThroughFraction: number | null;
  /** `energyRatio`; null when the case has none (or it is not finite). */
  energyRatio: number | null;
  status: string;
  unstable: boolean;
  usable: boolean;
}

/** One handler-parameter sweep's chart for the page script. */
export interface SweepChart {
  chartId: string;
  scene: string;
  scale: string;
  target: string;
  /** Whether the x axis is logarithmic (every swept value positive). */
  logX: boolean;
  /** The leak threshold (LEAK_FRACTION_MIN), drawn as a dotted line. */
  leakFractionMin: number;
  /** One series per combination of the other sweep keys' values. */
  series: { label: string; points: SweepChartPoint[] }[];
  /** Merge-split's pass-through fraction on the same scene and scale (a flat line), or null. */
  mergeSplit: { passThroughFraction: number; status: string; usable: boolean } | null;
}

/** A summary metric as a finite number, or null (for the chart data). */
function metric(r: CaseRecord, name: string): number | null {
  const v = summaryMetric(r, name);
  return Number.isFinite(v) ? v : null;
}

/** Whether the record is part of a sweep (a non-empty `sweep` field). */
function swept(r: CaseRecord): boolean {
  return !!r.sweep && Object.keys(r.sweep).length > 0;
}

/** The record's sweep values without `target` (all of them for ""), keys sorted. */
function otherKeys(r: CaseRecord, target: string): Record<string, number> {
  return Object.fromEntries(
    Object.entries(r.sweep ?? {}).filter(([k]) => k !== target).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0
    ),
  );
}

/** `a = 1, b = 2` (values through formatNumber). */
function fixedLabel(values: Record<string, number>): string {
  return Object.entries(values).map(([k, v]) => `${k} = ${formatNumber(v)}`).join(", ");
}

/** Splits `records` by their other sweep keys' values, in ascending order of those values. */
function groupByOthers(
  records: readonly CaseRecord[],
  target: string,
): (SweepFixed & { records: CaseRecord[] })[] {
  const groups = new Map<string, SweepFixed & { records: CaseRecord[] }>();
  for (const r of records) {
    const fixed = otherKeys(r, target);
    const key = JSON.stringify(fixed);
    const g = groups.get(key) ?? { fixed, label: fixedLabel(fixed), records: [] };
    g.records.push(r);
    groups.set(key, g);
  }
  const compare = (a: Record<string, number>, b: Record<string, number>) => {
    const ka = Object.keys(a).join("\u0000"), kb = Object.keys(b).join("\u0000");
    if (ka !== kb) return ka < kb ? -1 : 1;
    for (const k of Object.keys(a)) if (a[k] !== b[k]) return a[k] - b[k];
    return 0;
  };
  return [...groups.values()].sort((a, b) => compare(a.fixed, b.fixed));
}

/**
 * The parameter and time-step sweeps in `records` (one input; a re-run replaces a case, and the
 * cases of a sweep stay apart: `latestCases` keys them by their swept values), in first-seen
 * order of scene, scale and target. Both lists are empty when no record has a `sweep` field.
 */
export function sweepSeries(records: readonly CaseRecord[]): Sweeps {
  const all = latestCases(records);
  const sweptRecords = all.filter(swept);
  const where = distinct(sweptRecords.map((r) => `${r.scene}\u0000${r.scale}`));
  const params: ParamSweep[] = [];
  const dt: DtSweep[] = [];
  for (const key of where) {
    const [scene, scale] = key.split("\u0000");
    const here = sweptRecords.filter((r) => r.scene === scene && r.scale === scale);
    const targets = distinct(here.flatMap((r) => Object.keys(r.sweep!)));
    const mergeSplit = all.findLast((r) =>
      r.scene === scene && r.scale === scale && r.handler === MERGE_SPLIT && !swept(r)
    ) ?? null;
    for (
      const target of targets.filter((t) =>
        t !== DT_TARGET
      )
    ) {
      const groups = groupByOthers(here.filter((r) => sweepValue(r, target) !== null), target)
        .map((g) => ({ ...g, window: workingWindow(g.records, target) }));
      params.push({ scene, scale, target, groups, mergeSplit });
    }
    if (!targets.includes(DT_TARGET)) continue;
    const dtRecords = here.filter((r) => sweepValue(r, DT_TARGET) !== null);
    const rows: DtSweep["rows"] = [];
    for (const handler of distinct(dtRecords.map((r) => r.handler))) {
      for (const g of groupByOthers(dtRecords.filter((r) => r.handler === handler), DT_TARGET)) {
        const stability = dtStability(g.records, { scene, handler });
        const decided = new Set([...stability.stable, ...stability.unstable]);
        rows.push({
          handler,
          fixed: g.fixed,
          label: g.label,
          stability,
          notUsable: stability.values.filter((v) => !decided.has(v)),
        });
      }
    }
    dt.push({ scene, scale, rows });
  }
  return { params, dt };
}

/** Whether `sweeps` has anything to show. */
export function hasSweeps(sweeps: Sweeps): boolean {
  return sweeps.params.length > 0 || sweeps.dt.length > 0;
}

/** The page script's charts of the parameter sweeps, with ids `<chartIdPrefix>-<k>`. */
export function sweepCharts(
  sweeps: Sweeps,
  options: { chartIdPrefix: string },
): SweepChart[] {
  return sweeps.params.map((p, k) => {
    const ms = p.mergeSplit;
    const msFraction = ms ? metric(ms, "passThroughFraction") : null;
    return {
      chartId: `${options.chartIdPrefix}-${k}`,
      scene: p.scene,
      scale: p.scale,
      target: p.target,
      logX: p.groups.every((g) => g.window.values.every((v) => v > 0)),
      leakFractionMin: LEAK_FRACTION_MIN,
      series: p.groups.map((g) => ({
        label: g.label,
        points: g.records.map((r) => ({
          x: sweepValue(r, p.target)!,
          passThroughFraction: metric(r, "passThroughFraction"),
          energyRatio: metric(r, "energyRatio"),
          status: r.status,
          unstable: unstable(r),
          usable: usable(r),
        })).sort((a, b) => a.x - b.x),
      })),
      mergeSplit: ms && msFraction !== null
        ? { passThroughFraction: msFraction, status: ms.status, usable: usable(ms) }
        : null,
    };
  });
}

/** `1000 … 10000`, the single value, or "–". */
function range(values: readonly number[]): string {
  if (!values.length) return "–";
  const lo = values[0], hi = values[values.length - 1];
  return lo === hi ? formatNumber(lo) : `${formatNumber(lo)} … ${formatNumber(hi)}`;
}

/** "works at 3 of 9 values: 1000 … 10000", or "none of 9 values". */
export function windowText(window: SweepWindow): string {
  const n = window.values.length;
  const of = `${n} value${n === 1 ? "" : "s"}`;
  return window.working.length
    ? `works at ${window.working.length} of ${of}: ${range(window.working)}`
    : `none of ${of}`;
}

/** The working-window table under a parameter chart: a row per combination of other keys. */
function windowTable(p: ParamSweep): string {
  const others = p.groups.some((g) => g.label !== "");
  const rows = p.groups.map((g) => {
    const at = byValue(g.records, p.target);
    const count = (test: (rs: CaseRecord[]) => boolean) =>
      g.window.values.filter((v) => test(at.get(v)!)).length;
    const leaks = count((rs) =>
      rs.some((r) => usable(r) && (metric(r, "passThroughFraction") ?? 0) > LEAK_FRACTION_MIN)
    );
    const unstableCount = count((rs) => rs.some(unstable));
    const notUsable = count((rs) => rs.some((r) => !usable(r) && !unstable(r)));
    const cls = g.window.working.length ? "" : ' class="muted"';
    return `<tr>${others ? `<td>${escapeHtml(g.label || "–")}</td>` : ""}<td${cls}>${
      escapeHtml(windowText(g.window))
    }</td><td class="num">${leaks}</td><td class="num">${unstableCount}</td><td class="num">${notUsable}</td></tr>`;
  }).join("");
  return `<table class="sweep-window"><thead><tr>${
    others ? "<th>other swept values</th>" : ""
  }<th>working window of ${
    escapeHtml(p.target)
  }</th><th class="num">leak</th><th class="num">unstable</th><th class="num">not usable</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The time-step table of one scene and scale. */
function dtTable(d: DtSweep): string {
  const others = d.rows.some((r) => r.label !== "");
  const rows = d.rows.map((r) => {
    const s = r.stability;
    const largest = s.stable.length ? s.stable[s.stable.length - 1] : null;
    const smallestUnstable = s.unstable.length ? s.unstable[0] : null;
    const below = largest !== null && smallestUnstable !== null && smallestUnstable < largest
      ? ` <span class="badge warn">below the largest stable dt</span>`
      : "";
    return `<tr><td>${escapeHtml(r.handler)}</td>${
      others ? `<td>${escapeHtml(r.label || "–")}</td>` : ""
    }<td class="num">${largest === null ? "none" : escapeHtml(formatNumber(largest))}</td><td>${
      smallestUnstable === null ? "none" : escapeHtml(formatNumber(smallestUnstable)) + below
    }</td><td class="num">${s.values.length}</td><td class="num">${
      r.notUsable.length ? escapeHtml(r.notUsable.map((v) => formatNumber(v)).join(", ")) : "–"
    }</td></tr>`;
  }).join("\n");
  return `<h4>${escapeHtml(d.scene)} (${escapeHtml(d.scale)}): time step</h4>
<div class="scroll"><table class="sweep-dt"><thead><tr><th>handler</th>${
    others ? "<th>other swept values</th>" : ""
  }<th class="num">largest stable dt (s)</th><th>smallest unstable dt (s)</th><th class="num">dt values run</th><th class="num">not usable at</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/**
 * Renders the sweeps of one input: per handler-parameter sweep a canvas (`<chartIdPrefix>-<k>`,
 * drawn by the page script) with its working-window table, then per scene the time-step table.
 * "" when `sweeps` is empty.
 */
export function renderSweepSection(sweeps: Sweeps, options: { chartIdPrefix: string }): string {
  if (!hasSweeps(sweeps)) return "";
  const charts = sweepCharts(sweeps, options).map((c, k) => {
    const p = sweeps.params[k];
    const ms = c.mergeSplit
      ? `merge-split (unswept) lets ${
        escapeHtml(formatNumber(c.mergeSplit.passThroughFraction))
      } of the particles through${
        c.mergeSplit.usable ? "" : ` (ended ${escapeHtml(c.mergeSplit.status)}, not usable)`
      }.`
      : "No unswept merge-split case of this scene and scale to compare with.";
    return `<div class="sweep-chart"><h4>${escapeHtml(c.scene)} (${escapeHtml(c.scale)}): ${
      escapeHtml(c.target)
    }</h4><div class="chart-box scaling"><canvas id="${
      escapeHtml(c.chartId)
    }" class="chart"></canvas></div><p class="muted">${ms}</p>${windowTable(p)}</div>`;
  }).join("\n");
  return (charts ? `<div class="scaling-grid">${charts}</div>\n` : "") +
    sweeps.dt.map(dtTable).join("\n");
}
