/**
 * The scene × handler matrix: per case, pass-through, penetration depth, max speed ratio, energy
 * ratio and status, coloured so that problems stand out. The thresholds are named constants.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import { caseVariant, distinct } from "../case_key.ts";
import { escapeHtml } from "../page/escape_html.ts";
import { formatNumber } from "../page/format_number.ts";

/** Energy ratio above this is a gain: flagged as a problem. */
export const ENERGY_RATIO_HIGH = 1.05;
/** Energy ratio below this is strong dissipation: flagged as a warning. */
export const ENERGY_RATIO_LOW = 0.5;
/** Max speed above this multiple of the reference speed is flagged (10× counts as exploded). */
export const SPEED_RATIO_WARN = 2;
/** Penetration deeper than this many radii is flagged. */
export const PENETRATION_WARN = 1;

/** Severity of a value or a case: `ok`, `warn` or `bad`. */
export type Severity = "ok" | "warn" | "bad";

/** The severity of one summary metric's value. */
export function metricSeverity(name: string, value: unknown): Severity {
  if (typeof value === "boolean") return name === "exploded" && value ? "bad" : "ok";
  if (typeof value !== "number" || Number.isNaN(value)) return "warn";
  switch (name) {
    case "passThroughMax":
      return value > 0 ? "bad" : "ok";
    case "maxPenetrationDepth":
      return value > PENETRATION_WARN ? "warn" : "ok";
    case "maxSpeedRatio":
      return value > 10 ? "bad" : value > SPEED_RATIO_WARN ? "warn" : "ok";
    case "energyRatio":
      return !Number.isFinite(value) || value > ENERGY_RATIO_HIGH
        ? "bad"
        : value < ENERGY_RATIO_LOW
        ? "warn"
        : "ok";
    default:
      return "ok";
  }
}

/**
 * The summary metrics each matrix cell shows, in order: `[metric, label, unit suffix]`
 * (the unit suffix follows the value: ` r` radii, `×` the reference speed).
 */
export const MATRIX_METRICS: ReadonlyArray<readonly [string, string, string]> = [
  ["passThroughMax", "pass-through", ""],
  ["maxPenetrationDepth", "penetration", " r"],
  ["maxSpeedRatio", "max speed", "×"],
  ["energyRatio", "E/E₀", ""],
];

/** The severity of a whole case: the worst of its status and its shown metrics. */
export function caseSeverity(record: CaseRecord): Severity {
  if (record.status !== "ok" || !record.metrics) return "bad";
  const s = record.metrics.summary;
  const all = [
    metricSeverity("exploded", s.exploded),
    ...MATRIX_METRICS.map(([k]) => metricSeverity(k, s[k])),
  ];
  return all.includes("bad") ? "bad" : all.includes("warn") ? "warn" : "ok";
}

function cell(record: CaseRecord | undefined): string {
  if (!record) return `<td class="cell none">–</td>`;
  const sev = caseSeverity(record);
  const s = record.metrics?.summary;
  const lines = s
    ? MATRIX_METRICS.map(([k, label, unit]) =>
      `<div><span class="k">${label}</span> <span class="v ${metricSeverity(k, s[k])}">${
        escapeHtml(formatNumber(s[k]))
      }${unit}</span></div>`
    ).join("")
    : "";
  const exploded = s?.exploded === true ? `<div class="v bad">exploded</div>` : "";
  const title = record.error ? ` title="${escapeHtml(record.error)}"` : "";
  return `<td class="cell ${sev}"${title}><div class="status ${
    record.status === "ok" ? "ok" : "bad"
  }">${escapeHtml(record.status)}</div>${exploded}${lines}</td>`;
}

/**
 * Renders the matrix of `records` (one input): a row per scene (per scene and scale when several
 * scales are present; a case that differs from another of its scene, handler and scale in steps,
 * seed, parameters … gets a row of its own, named by what differs: reports/case_key.ts
 * `caseVariant`), a column per handler in first-seen order. Cells without a case show `–`.
 */
export function renderSceneMatrix(records: readonly CaseRecord[]): string {
  if (!records.length) return `<p class="muted">No cases.</p>`;
  const scales = distinct(records.map((r) => r.scale));
  const keys = new Map(records.map((r) => [
    r,
    `${scales.length > 1 ? `${r.scene} (${r.scale})` : r.scene}${caseVariant(r, records)}`,
  ]));
  const rowKey = (r: CaseRecord) => keys.get(r)!;
  const rows = distinct(records.map(rowKey));
  const handlers = distinct(records.map((r) => r.handler));
  const head = `<tr><th>scene</th>${
    handlers.map((h) => `<th>${escapeHtml(h)}</th>`).join("")
  }</tr>`;
  const body = rows.map((row) =>
    `<tr><th class="row">${escapeHtml(row)}</th>${
      handlers.map((h) => cell(records.findLast((r) => rowKey(r) === row && r.handler === h)))
        .join("")
    }</tr>`
  ).join("\n");
  return `<div class="scroll"><table class="matrix"><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}
