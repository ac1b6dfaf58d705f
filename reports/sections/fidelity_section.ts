/**
 * The report's fidelity section: the brittle solids' and the fluids' tables of
 * `reports/sections/fidelity_table.ts` as HTML, a value past its fidelity target in red.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import { escapeHtml } from "../page/escape_html.ts";
import {
  FIDELITY_COLUMNS,
  type FidelityColumn,
  type FidelityKind,
  type FidelityRange,
  fidelityRows,
  inFidelityTable,
  readingsText,
} from "./fidelity_table.ts";
import { formatNumber } from "../page/format_number.ts";

/** Whether any record belongs in a fidelity table. */
export function hasFidelity(records: readonly CaseRecord[]): boolean {
  return records.some((r) => inFidelityTable(r, "fracture") || inFidelityTable(r, "fluid"));
}

/** A value in a column's unit: `6.38 %`, `974`, `0.233`, `0.015 s`. */
export function formatFidelityValue(value: number, unit: FidelityColumn["unit"]): string {
  switch (unit) {
    case "percent":
      return `${formatNumber(100 * value)} %`;
    case "seconds":
      return `${formatNumber(value)} s`;
    default:
      return formatNumber(value);
  }
}

/**
 * A range in a column's unit: one value where least and most agree, else `least–most`; "–" for
 * none.
 */
export function formatFidelityRange(range: FidelityRange, unit: FidelityColumn["unit"]): string {
  if (range === null) return "–";
  const [least, most] = range;
  if (least === most) return formatFidelityValue(least, unit);
  const [a, b] = [formatFidelityValue(least, unit), formatFidelityValue(most, unit)];
  const suffix = unit === "percent" ? " %" : unit === "seconds" ? " s" : "";
  return suffix && a.endsWith(suffix) ? `${a.slice(0, -suffix.length)}–${b}` : `${a}–${b}`;
}

const CAPTIONS: Readonly<Record<FidelityKind, string>> = {
  fracture:
    "Brittle solids: the breakable bodies at the end of the run (an unbreakable projectile is no fragment). Reads: <em>in pieces</em> at least 3 pieces of ≥ 1 % and the largest ≥ 0.1 of the solid, <em>pulverised</em> the largest below 0.1, else <em>not in pieces</em> (the thresholds of claims p–p3 and u–u3).",
  fluid:
    "Fluids: red past the fidelity targets: an SPH fluid's worst density error above 3 %, a FLIP fluid's volume change beyond 2 %, a dam break's surge front or residual column more than 5 % from Martin &amp; Moyce's.",
};

/** Options of {@link renderFidelitySection}. */
export interface FidelitySectionOptions {
  /** HTML placed under each table's caption: the links to its published files. */
  links?: Partial<Record<FidelityKind, string>>;
}

function renderTable(
  records: readonly CaseRecord[],
  kind: FidelityKind,
  options: FidelitySectionOptions,
): string {
  const rows = fidelityRows(records, kind);
  if (!rows.length) return "";
  const columns = FIDELITY_COLUMNS[kind];
  const fluid = kind === "fluid";
  const th = (c: FidelityColumn) =>
    `<th class="num" title="${escapeHtml(c.title)}">${escapeHtml(c.head)}</th>`;
  const head = `<tr><th>scene</th><th>handler</th><th>scale</th><th>seeds</th><th>status</th>${
    fluid ? "<th>system</th>" : ""
  }${columns.map(th).join("")}${fluid ? "" : "<th>reads</th>"}</tr>`;
  const body = rows.map((r) =>
    `<tr><td>${escapeHtml(r.scene)}</td><td>${escapeHtml(r.handler)}</td><td>${
      escapeHtml(r.scale)
    }</td><td>${escapeHtml(r.seeds.join(", ") || "–")}</td><td>${escapeHtml(r.statuses)}</td>${
      fluid ? `<td>${escapeHtml(r.system ?? "")}</td>` : ""
    }${
      columns.map((c) =>
        `<td class="num${r.pastTarget[c.field] ? " bad" : ""}">${
          escapeHtml(formatFidelityRange(r.values[c.field], c.unit))
        }</td>`
      ).join("")
    }${fluid ? "" : `<td>${escapeHtml(readingsText(r.readings))}</td>`}</tr>`
  ).join("\n");
  return `<h4>${fluid ? "Fluids" : "Brittle solids"}</h4><p class="muted">${CAPTIONS[kind]}</p>${
    options.links?.[kind] ?? ""
  }<div class="scroll"><table class="fidelity"><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}

/**
 * The fidelity tables of `records` (brittle solids, then fluids; each only where a record belongs
 * in it): per scene × handler its scales smallest first, values over the seeds that finished ok
 * (`least–most` where they differ).
 */
export function renderFidelitySection(
  records: readonly CaseRecord[],
  options: FidelitySectionOptions = {},
): string {
  const tables = renderTable(records, "fracture", options) + renderTable(records, "fluid", options);
  return tables || `<p class="muted">No case has a breakable solid or a fluid.</p>`;
}
