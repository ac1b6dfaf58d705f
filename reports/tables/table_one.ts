/**
 * The paper's Table I reproduced: per scene and handler, the particle counts, the per-phase
 * times (median ms/step with its 95% confidence interval) and the step time per particle (ns per
 * particle-step), and a place for the stacked bar chart of the phases that the page's script
 * draws.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import { caseVariant, distinct, sweepText } from "../case_key.ts";
import { escapeHtml } from "../page/escape_html.ts";
import { formatNumber } from "../page/format_number.ts";
import { nsPerParticleStep } from "../sections/scaling_fit.ts";

/** Table I's phases in the paper's order (`total` last), as `timings.phases` names them. */
export const TABLE_I_PHASE_ORDER: readonly string[] = [
  "neighborSearch",
  "collisionDetection",
  "merging",
  "integrationStage1",
  "integrationStage2",
  "splitting",
  "metrics",
  "total",
];

/** The phases present in `records`, Table I's first, then any others in first-seen order. */
export function phaseNames(records: readonly CaseRecord[]): string[] {
  const seen = distinct(records.flatMap((r) => Object.keys(r.timings?.phases ?? {})));
  return [
    ...TABLE_I_PHASE_ORDER.filter((p) => seen.includes(p)),
    ...seen.filter((p) => !TABLE_I_PHASE_ORDER.includes(p)),
  ];
}

function timeCell(record: CaseRecord, phase: string): string {
  const t = record.timings?.phases[phase];
  if (!t) return `<td class="num muted">–</td>`;
  const ci = Array.isArray(t.ci95)
    ? `<span class="ci">[${escapeHtml(formatNumber(t.ci95[0]))}, ${
      escapeHtml(formatNumber(t.ci95[1]))
    }]</span>`
    : "";
  return `<td class="num">${escapeHtml(formatNumber(t.median))}${ci}</td>`;
}

/** The step time per particle of `record` in ns (median total × 10⁶ / particles), or null. */
function recordNsPerParticleStep(record: CaseRecord): number | null {
  return nsPerParticleStep(
    record.timings?.phases.total?.median,
    (record.particles?.solid ?? 0) + (record.particles?.fluid ?? 0),
  );
}

/**
 * What a step costs the GPU (`record.gpu`): dispatches per step, stage-2 runs, peak buffers; and
 * the contact partners dropped by full slots (marked bad when any was).
 */
function costCells(record: CaseRecord): string {
  const g = record.gpu;
  const stage2 = g?.stage2Runs !== undefined && g.steps
    ? `${formatNumber(g.stage2Runs)} / ${formatNumber(g.steps)}`
    : undefined;
  const mb = g ? g.peakBufferBytes / 2 ** 20 : undefined;
  const dropped = g?.contactsDropped;
  // the indirect ones in the title: each costs wgpu 29 a hidden validation dispatch
  const indirect = g?.indirectPerStep === undefined
    ? ""
    : ` title="${escapeHtml(formatNumber(g.indirectPerStep))} of them indirect"`;
  return [g?.dispatchesPerStep, stage2, mb].map((v, k) =>
    v === undefined
      ? `<td class="num muted">–</td>`
      : `<td class="num"${k === 0 ? indirect : ""}>${
        escapeHtml(typeof v === "string" ? v : formatNumber(v))
      }</td>`
  ).join("") + (dropped === undefined
    ? `<td class="num muted">–</td>`
    : `<td class="num${dropped > 0 ? " bad" : ""}">${escapeHtml(formatNumber(dropped))}</td>`);
}

/**
 * The host's wall clock per measured step (`timings.wall`), then its own encode-and-submit time
 * per step (`gpu.hostMsPerStep`, titled with the steps a submit held); – for records without.
 */
function wallCells(record: CaseRecord): string {
  const wall = record.timings?.wall?.msPerStep;
  const host = record.gpu?.hostMsPerStep;
  const k = record.gpu?.stepsPerSubmit ?? 1;
  return (wall === undefined
    ? `<td class="num muted">–</td>`
    : `<td class="num">${escapeHtml(formatNumber(wall))}</td>`) +
    (host === undefined
      ? `<td class="num muted">–</td>`
      : `<td class="num" title="${k} step${k === 1 ? "" : "s"} per submit at most">${
        escapeHtml(formatNumber(host))
      }</td>`);
}

/**
 * Renders Table I for one input: rows grouped by scene, a column per phase (the handler cell names
 * the case's sweep values and what tells it apart from other cases of its scene, handler and
 * scale: reports/case_key.ts `caseVariant`), the ns per
 * particle-step, what a step costs the GPU (dispatches per step, how often stage 2 ran, peak
 * buffer MiB), and a canvas with id `chartId` for the stacked bars of the phase medians per case.
 */
export function renderTableOne(
  records: readonly CaseRecord[],
  options: { chartId: string },
): string {
  if (!records.length) return `<p class="muted">No cases.</p>`;
  const phases = phaseNames(records);
  const sources = distinct(records.map((r) => r.timings?.source).filter((s) => s));
  const multiScale = distinct(records.map((r) => r.scale)).length > 1;
  const head =
    `<tr><th>scene</th><th>handler</th><th class="num">solid</th><th class="num">fluid</th>${
      phases.map((p) => `<th class="num">${escapeHtml(p)}</th>`).join("")
    }<th class="num" title="median step time × 10⁶ / (solid + fluid)">ns/p·step</th>` +
    `<th class="num" title="the host's wall clock per measured step over whole batches (encoding, submission and readback waits included): above the timestamps' total where the GPU waits for the host">host wall ms</th>` +
    `<th class="num" title="the host's own time per measured step, from a submit's first encoding to its return (no GPU wait inside; a GL backend's blocking submit includes the GPU's): what the host adds where the GPU runs asynchronously">host encode ms</th>` +
    `<th class="num" title="dispatches encoded per step (a metrics sample's excluded; a cell's title: how many are indirect, each of which costs wgpu 29 a validation dispatch besides)">dispatches</th>` +
    `<th class="num" title="steps whose stage 2 ran (merge-split) / steps">stage 2 ran</th>` +
    `<th class="num" title="peak bytes of GPU buffers alive at once, MiB">GPU MiB</th>` +
    `<th class="num" title="contact partners dropped because a particle's slot was full, over the run (collisions missed)">contacts dropped</th></tr>`;
  const scenes = distinct(records.map((r) => `${r.scene}|${r.scale}`));
  const body = scenes.map((key) => {
    const rs = records.filter((r) => `${r.scene}|${r.scale}` === key);
    return rs.map((r, k) =>
      `<tr${k === 0 ? ' class="group"' : ""}>${
        k === 0
          ? `<th class="row" rowspan="${rs.length}">${escapeHtml(r.scene)}${
            multiScale ? ` (${escapeHtml(r.scale)})` : ""
          }</th>`
          : ""
      }<td>${escapeHtml(`${r.handler}${sweepText(r.sweep)}${caseVariant(r, records)}`)}${
        r.status === "ok" ? "" : ` <span class="badge bad">${escapeHtml(r.status)}</span>`
      }</td><td class="num">${escapeHtml(formatNumber(r.particles?.solid))}</td><td class="num">${
        escapeHtml(formatNumber(r.particles?.fluid))
      }</td>${phases.map((p) => timeCell(r, p)).join("")}<td class="num">${
        escapeHtml(formatNumber(recordNsPerParticleStep(r)))
      }</td>${wallCells(r)}${costCells(r)}</tr>`
    ).join("\n");
  }).join("\n");
  return `<p class="muted">ms per step: median [95% bootstrap CI of the median]; timing source: ${
    escapeHtml(sources.join(", ") || "none")
  }; ns/p·step: the median step time per particle (solid + fluid), in ns; host wall ms: the host's
wall clock per measured step, the cross-check of the timestamps (larger where the GPU waits for the
host to encode and submit); host encode ms: the host's own encode-and-submit time per step (several
steps share a submit: <code>gpu.stepsPerSubmit</code>); dispatches per step,
how often stage 2 ran, the peak GPU buffer memory and the contacts dropped by full slots (missed
collisions, red when any) come from each record's <code>gpu</code> field (– where a record has
none).</p>
<div class="scroll"><table class="table-one"><thead>${head}</thead><tbody>${body}</tbody></table></div>
<div class="chart-box tall"><canvas id="${
    escapeHtml(options.chartId)
  }" class="chart"></canvas></div>`;
}
