/**
 * The whole-step momentum and energy budget per case (`gpu/metrics/step_budget.ts`, summarised in
 * `bench/case_metrics.ts`): per phase the mean energy change per step in mJ (merging Eq. 4,
 * pinned groups, integration, the coupling of Eq. 17–19, the domain walls, splitting, the end of
 * the step) beside the step's, and the worst momentum change of merging, splitting and the end of
 * the step relative to the step's momentum scale, and the fraction of the handler's forces that
 * does not cancel.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import { summaryMetric } from "../claims/case_status.ts";
import { escapeHtml } from "../page/escape_html.ts";
import { formatNumber } from "../page/format_number.ts";

/** The energy columns: summary field and heading. */
const ENERGY_COLUMNS: readonly (readonly [field: string, head: string, title: string])[] = [
  ["budgetMergeEnergyMean", "merging", "kinetic energy merging loses (Eq. 4)"],
  ["budgetPinEnergyMean", "pins", "kinetic energy the pinned groups give to their supports"],
  [
    "budgetIntegrationEnergyMean",
    "integration",
    "kinetic + gravity + elastic change of the systems' integration: damping, viscosity, drag, the handler's forces, numerical dissipation",
  ],
  ["budgetCouplingEnergyMean", "coupling", "energy Eq. 17 loses (Eq. 19)"],
  ["budgetWallEnergyMean", "walls", "kinetic energy the domain walls absorb"],
  ["budgetSplitEnergyMean", "splitting", "kinetic energy splitting restores (Eq. 9)"],
  ["budgetEndEnergyMean", "end of step", "impulses, velocity projection"],
  ["budgetStepEnergyMean", "step", "the whole step: the sum of the phases"],
];

/** The momentum columns: summary field and heading. */
const MOMENTUM_COLUMNS: readonly (readonly [field: string, head: string, title: string])[] = [
  ["budgetMergeMomentumMax", "merging", "Eq. 2 conserves momentum"],
  ["budgetSplitMomentumMax", "splitting", "Eq. 8 conserves momentum"],
  [
    "budgetEndMomentumMax",
    "end of step",
    "impulses exchanged in pairs conserve momentum, except with a pinned partner (its support takes its share)",
  ],
  [
    "budgetHandlerImbalanceMax",
    "handler forces",
    "the fraction of the handler's forces that does not cancel, |ΣF| / Σ|F| over every particle (Newton's third law; f32 rounding ~1e-6)",
  ],
];

/** Whether any record carries a budget. */
export function hasBudget(records: readonly CaseRecord[]): boolean {
  return records.some((r) => summaryMetric(r, "budgetSteps") > 0);
}

/** Renders the budget table of `records` (those that carry a budget), grouped by scene. */
export function renderBudgetSection(records: readonly CaseRecord[]): string {
  const rows = records.filter((r) => summaryMetric(r, "budgetSteps") > 0);
  if (!rows.length) return `<p class="muted">No case records a step budget.</p>`;
  const th = ([, head, title]: readonly [string, string, string]) =>
    `<th class="num" title="${escapeHtml(title)}">${escapeHtml(head)}</th>`;
  const head =
    `<tr><th rowspan="2">scene</th><th rowspan="2">handler</th><th rowspan="2" class="num">steps</th><th colspan="${ENERGY_COLUMNS.length}">mean energy change per step (mJ)</th><th colspan="${MOMENTUM_COLUMNS.length}">worst momentum change / scale</th></tr><tr>${
      [...ENERGY_COLUMNS, ...MOMENTUM_COLUMNS].map(th).join("")
    }</tr>`;
  const cell = (v: number) =>
    `<td class="num">${Number.isFinite(v) ? escapeHtml(formatNumber(v)) : "–"}</td>`;
  const body = rows.map((r) =>
    `<tr><td>${escapeHtml(r.scene)} (${escapeHtml(r.scale)})</td><td>${escapeHtml(r.handler)}</td>${
      cell(summaryMetric(r, "budgetSteps"))
    }${ENERGY_COLUMNS.map(([f]) => cell(1e3 * summaryMetric(r, f))).join("")}${
      MOMENTUM_COLUMNS.map(([f]) => cell(summaryMetric(r, f))).join("")
    }</tr>`
  ).join("\n");
  return `<div class="scroll"><table class="budget"><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}
