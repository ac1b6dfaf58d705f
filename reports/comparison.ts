/**
 * Comparison of several result files (different machines or commits): cases are matched by
 * scene, handler, scale and configuration hash; per-phase median times are set side by side with
 * their ratio to the first input. Same scene/handler/scale with different configuration hashes
 * are not compared and are listed as a warning.
 *
 * @module
 */
import type { CaseRecord } from "../core/result.ts";
import { caseKey, caseLabel, latestCases } from "./case_key.ts";
import { escapeHtml } from "./escape_html.ts";
import { formatNumber } from "./format_number.ts";
import { phaseNames } from "./table_one.ts";

/** One matched case: its medians (ms/step) per input, null where the input lacks it. */
export interface ComparisonRow {
  scene: string;
  handler: string;
  scale: string;
  configHash: string;
  /** Per input (same order as the inputs): phase → median, or null. */
  medians: (Record<string, number | null> | null)[];
}

/** The comparison of the inputs' timings. */
export interface Comparison {
  labels: string[];
  phases: string[];
  /** The first input's cases that at least one other input matched. */
  rows: ComparisonRow[];
  /** Same scene/handler/scale with different configuration hashes. */
  mismatches: { case: string; hashes: { label: string; configHash: string }[] }[];
  /** Cases that no other input has, per input. */
  unmatched: { label: string; cases: string[] }[];
}

function medians(r: CaseRecord, phases: readonly string[]): Record<string, number | null> | null {
  if (!r.timings) return null;
  return Object.fromEntries(phases.map((p) => {
    const m = r.timings?.phases[p]?.median;
    return [p, typeof m === "number" && Number.isFinite(m) ? m : null];
  }));
}

/** Matches the inputs' cases and collects the per-phase medians (the last record of a case). */
export function compareInputs(
  inputs: readonly { label: string; records: readonly CaseRecord[] }[],
): Comparison {
  const sets = inputs.map((i) => latestCases(i.records));
  const phases = phaseNames(sets.flat());
  const full = (r: CaseRecord) => `${caseKey(r)}|${r.configHash}`;
  const maps = sets.map((rs) => new Map(rs.map((r) => [full(r), r])));
  const rows: ComparisonRow[] = [];
  for (const r of sets[0] ?? []) {
    const found = maps.map((m) => m.get(full(r)));
    if (found.slice(1).every((f) => !f)) continue;
    rows.push({
      scene: r.scene,
      handler: r.handler,
      scale: r.scale,
      configHash: r.configHash,
      medians: found.map((f) => (f ? medians(f, phases) : null)),
    });
  }
  const byCase = new Map<string, { label: string; configHash: string }[]>();
  sets.forEach((rs, k) => {
    for (const r of rs) {
      const list = byCase.get(caseKey(r)) ?? [];
      list.push({ label: inputs[k].label, configHash: r.configHash });
      byCase.set(caseKey(r), list);
    }
  });
  const mismatches = [...byCase.entries()]
    .filter(([, hs]) => new Set(hs.map((h) => h.configHash)).size > 1)
    .map(([key, hashes]) => {
      const [scene, handler, scale] = key.split("|");
      return { case: caseLabel({ scene, handler, scale }, { withScale: true }), hashes };
    });
  const unmatched = sets.map((rs, k) => ({
    label: inputs[k].label,
    cases: rs.filter((r) => maps.every((m, j) => j === k || !m.has(full(r))))
      .map((r) => caseLabel(r, { withScale: true })),
  }));
  return { labels: inputs.map((i) => i.label), phases, rows, mismatches, unmatched };
}

/** `b / a` formatted as a ratio, or `–`. */
function ratio(a: number | null | undefined, b: number | null | undefined): string {
  if (typeof a !== "number" || typeof b !== "number" || !(a > 0)) return "–";
  return `${formatNumber(b / a, { digits: 3 })}×`;
}

function ratioClass(a: number | null | undefined, b: number | null | undefined): string {
  if (typeof a !== "number" || typeof b !== "number" || !(a > 0)) return "";
  const r = b / a;
  return r > 1.1 ? "slower" : r < 1 / 1.1 ? "faster" : "";
}

/**
 * Renders the comparison: warnings for configuration mismatches and unmatched cases, a table of
 * per-phase medians summed over matched cases, a table per case (each cell: the medians of every
 * input and the ratios to the first), and a canvas with id `chartId` for the side-by-side bars.
 */
export function renderComparison(comparison: Comparison, options: { chartId: string }): string {
  const { labels, phases, rows } = comparison;
  const parts: string[] = [];
  if (comparison.mismatches.length) {
    parts.push(
      `<div class="warning"><strong>Configuration hashes differ</strong> for ${comparison.mismatches.length} case(s) with the same scene, handler and scale; they are not compared:<ul>${
        comparison.mismatches.map((m) =>
          `<li>${escapeHtml(m.case)}: ${
            m.hashes.map((h) =>
              `${escapeHtml(h.label)} <code>${escapeHtml(h.configHash.slice(0, 12))}</code>`
            ).join(", ")
          }</li>`
        ).join("")
      }</ul></div>`,
    );
  }
  const unmatched = comparison.unmatched.filter((u) => u.cases.length);
  if (unmatched.length) {
    parts.push(
      `<p class="muted">Cases in one input only: ${
        unmatched.map((u) => `${escapeHtml(u.label)}: ${escapeHtml(u.cases.join(", "))}`).join(
          "; ",
        )
      }.</p>`,
    );
  }
  if (!rows.length) {
    parts.push(`<p class="muted">No case is common to the first input and another one.</p>`);
    return parts.join("\n");
  }
  const sum = (k: number, p: string) =>
    rows.every((r) => typeof r.medians[k]?.[p] === "number")
      ? rows.reduce((a, r) => a + (r.medians[k]![p] as number), 0)
      : null;
  const headInputs = labels.map((l, k) =>
    `<th class="num">${escapeHtml(l)}${k ? " (ratio)" : ""}</th>`
  ).join("");
  const phaseRows = phases.map((p) => {
    const s0 = sum(0, p);
    return `<tr><th class="row">${escapeHtml(p)}</th>${
      labels.map((_, k) => {
        const s = sum(k, p);
        return `<td class="num ${k ? ratioClass(s0, s) : ""}">${escapeHtml(formatNumber(s))}${
          k ? ` <span class="ratio">(${escapeHtml(ratio(s0, s))})</span>` : ""
        }</td>`;
      }).join("")
    }</tr>`;
  }).join("\n");
  parts.push(
    `<h3>Per phase, summed over ${rows.length} matched case(s) (ms/step)</h3>
<div class="scroll"><table class="compare"><thead><tr><th>phase</th>${headInputs}</tr></thead><tbody>${phaseRows}</tbody></table></div>`,
  );
  const caseRows = rows.map((r) =>
    `<tr><th class="row">${escapeHtml(caseLabel(r, { withScale: true }))}</th>${
      phases.map((p) => {
        const a = r.medians[0]?.[p];
        const vals = r.medians.map((m) => escapeHtml(formatNumber(m?.[p]))).join(" / ");
        const ratios = r.medians.slice(1).map((m) => ratio(a, m?.[p])).join(", ");
        const cls = r.medians.length === 2 ? ratioClass(a, r.medians[1]?.[p]) : "";
        return `<td class="num ${cls}">${vals} <span class="ratio">(${
          escapeHtml(ratios)
        })</span></td>`;
      }).join("")
    }</tr>`
  ).join("\n");
  parts.push(
    `<h3>Per case: ${labels.map(escapeHtml).join(" / ")} (ratio to ${escapeHtml(labels[0])})</h3>
<div class="scroll"><table class="compare"><thead><tr><th>case</th>${
      phases.map((p) => `<th class="num">${escapeHtml(p)}</th>`).join("")
    }</tr></thead><tbody>${caseRows}</tbody></table></div>
<div class="chart-box tall"><canvas id="${
      escapeHtml(options.chartId)
    }" class="chart"></canvas></div>`,
  );
  return parts.join("\n");
}
