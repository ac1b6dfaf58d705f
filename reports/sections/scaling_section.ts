/**
 * The report's scaling section, for a scale sweep (`deno task bench --scale tiny,small,medium`):
 * per scene, the step time per particle (ns per particle-step) against the particle count N on
 * log–log axes, one series per handler, with the exponent k of step time ∝ N^k fitted over the
 * sizes that finished `ok` (reports/sections/scaling_fit.ts); and a table of the fits. Shown only when an
 * input holds the same scene × handler at two or more scales.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import { distinct, scaleRank } from "../case_key.ts";
import { escapeHtml } from "../page/escape_html.ts";
import { formatNumber } from "../page/format_number.ts";
import { nsPerParticleStep, type ScalingFit, scalingFit } from "./scaling_fit.ts";

/** One scale of a scene × handler that has a step time. */
export interface ScalingMeasurement {
  scale: string;
  status: string;
  /** Particles (solid + fluid). */
  particles: number;
  /** Median step time (ms/step). */
  ms: number;
  /** ms × 10⁶ / particles. */
  nsPerParticleStep: number;
}

/** A scene × handler measured at two or more scales. */
export interface ScalingSeries {
  scene: string;
  handler: string;
  /** Every scale present (smallest first) and its status, timed or not. */
  scales: { scale: string; status: string }[];
  /** The scales with a step time, by particle count. */
  points: ScalingMeasurement[];
  /** The fit over the points that finished `ok`; null when fewer than 2 sizes did. */
  fit: ScalingFit | null;
}

/** One scene's chart for the page script: a series per handler, N on x, ns/particle-step on y. */
export interface ScalingChart {
  chartId: string;
  scene: string;
  series: {
    handler: string;
    /** Legend text: the handler and its fitted k. */
    label: string;
    points: { x: number; y: number; scale: string; ok: boolean }[];
    /** The fitted power law at the smallest and largest ok N, in ns per particle-step. */
    fit: { x: number; y: number }[] | null;
  }[];
}

/**
 * The scene × handler pairs of `records` (one input) present at two or more scales, in first-seen
 * order, with their timed points and fits. Empty when no pair was measured at several scales.
 */
export function scalingSeries(records: readonly CaseRecord[]): ScalingSeries[] {
  const keys = distinct(records.map((r) => `${r.scene}\u0000${r.handler}`));
  const out: ScalingSeries[] = [];
  for (const key of keys) {
    const rs = records.filter((r) => `${r.scene}\u0000${r.handler}` === key)
      .sort((a, b) => scaleRank(a.scale) - scaleRank(b.scale));
    if (distinct(rs.map((r) => r.scale)).length < 2) continue;
    const points: ScalingMeasurement[] = [];
    for (const r of rs) {
      const ms = r.timings?.phases.total?.median;
      const particles = (r.particles?.solid ?? 0) + (r.particles?.fluid ?? 0);
      const ns = nsPerParticleStep(ms, particles);
      if (ns !== null) {
        points.push({
          scale: r.scale,
          status: r.status,
          particles,
          ms: ms!,
          nsPerParticleStep: ns,
        });
      }
    }
    points.sort((a, b) => a.particles - b.particles);
    const ok = points.filter((p) => p.status === "ok");
    let fit: ScalingFit | null = null;
    if (distinct(ok.map((p) => p.particles)).length >= 2) fit = scalingFit(ok);
    out.push({
      scene: rs[0].scene,
      handler: rs[0].handler,
      scales: rs.map((r) => ({ scale: r.scale, status: r.status })),
      points,
      fit,
    });
  }
  return out;
}

/** `k = 1.02`, or why there is no fit. */
function exponentText(s: ScalingSeries): string {
  return s.fit ? `k = ${s.fit.exponent.toFixed(2)}` : "no fit: fewer than 2 sizes finished ok";
}

/** The page script's charts of `series`: one per scene, with ids `<chartIdPrefix>-<k>`. */
export function scalingCharts(
  series: readonly ScalingSeries[],
  options: { chartIdPrefix: string },
): ScalingChart[] {
  return distinct(series.map((s) => s.scene)).map((scene, k) => ({
    chartId: `${options.chartIdPrefix}-${k}`,
    scene,
    series: series.filter((s) => s.scene === scene).map((s) => {
      const ok = s.points.filter((p) => p.status === "ok");
      const ends = ok.length ? [ok[0].particles, ok[ok.length - 1].particles] : [];
      return {
        handler: s.handler,
        label: `${s.handler} (${exponentText(s)})`,
        points: s.points.map((p) => ({
          x: p.particles,
          y: p.nsPerParticleStep,
          scale: p.scale,
          ok: p.status === "ok",
        })),
        fit: s.fit
          ? ends.map((n) => ({ x: n, y: (s.fit!.coefficient * n ** s.fit!.exponent * 1e6) / n }))
          : null,
      };
    }),
  }));
}

/**
 * Renders the scaling view of one input: per scene a canvas (`<chartIdPrefix>-<k>`, drawn by the
 * page script), then the table of fits (scene, handler, scales, N range, k, r²). "" when `series`
 * is empty.
 */
export function renderScalingSection(
  series: readonly ScalingSeries[],
  options: { chartIdPrefix: string },
): string {
  if (!series.length) return "";
  const charts = scalingCharts(series, options).map((c) =>
    `<div class="chart-box scaling"><canvas id="${
      escapeHtml(c.chartId)
    }" class="chart"></canvas></div>`
  ).join("\n");
  const rows = series.map((s) => {
    const ok = s.points.filter((p) => p.status === "ok").map((p) => p.particles);
    const [lo, hi] = [Math.min(...ok), Math.max(...ok)];
    const range = !ok.length
      ? "–"
      : lo === hi
      ? formatNumber(lo)
      : `${formatNumber(lo)} – ${formatNumber(hi)}`;
    const scales = s.scales.map((x) =>
      x.status === "ok"
        ? escapeHtml(x.scale)
        : `${escapeHtml(x.scale)} <span class="badge bad">${escapeHtml(x.status)}</span>`
    ).join(", ");
    const k = s.fit
      ? `<td class="num">${escapeHtml(s.fit.exponent.toFixed(2))}</td><td class="num">${
        s.fit.points > 2 ? escapeHtml(s.fit.r2.toFixed(3)) : "–"
      }</td>`
      : `<td class="num muted" colspan="2">fewer than 2 sizes ok</td>`;
    return `<tr><td>${escapeHtml(s.scene)}</td><td>${
      escapeHtml(s.handler)
    }</td><td>${scales}</td><td class="num">${escapeHtml(range)}</td>${k}</tr>`;
  }).join("\n");
  return `<div class="scaling-grid">${charts}</div>
<div class="scroll"><table class="scaling"><thead><tr><th>scene</th><th>handler</th><th>scales</th><th class="num">N range</th><th class="num">k</th><th class="num">r²</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}
