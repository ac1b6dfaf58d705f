/**
 * Merge-split's grouping per case (§5.2; `gpu.grouping` of a record): which grouping ran (the
 * paper's `index-order` pass or the harness's `compact` rounds), the dispatches it encodes per
 * stage, and per stage the census of its groups over the run: groupings run, groups formed, their
 * mean, median, 90th-percentile and largest size, and the fraction of colliding pairs left between
 * two groups (the collisions it ignored); and of its pairwise splits, the share that took ε ≠ 0
 * (the closest point of Eqs. 15–16: Eq. 13 had no real root; `gpu.splits`).
 *
 * @module
 */
import type { CaseRecord, GroupingRecord, SplitRecord } from "../../core/result.ts";
import { escapeHtml } from "../page/escape_html.ts";
import { formatNumber } from "../page/format_number.ts";

/** The records that carry a grouping census. */
function grouped(records: readonly CaseRecord[]): (CaseRecord & {
  gpu: { grouping: GroupingRecord };
})[] {
  return records.filter((r) => r.gpu?.grouping) as (CaseRecord & {
    gpu: { grouping: GroupingRecord };
  })[];
}

/** Whether any record carries merge-split's grouping. */
export function hasGrouping(records: readonly CaseRecord[]): boolean {
  return grouped(records).length > 0;
}

/** Columns of a stage: heading, title and value. */
const STAGE_COLUMNS: readonly (readonly [
  string,
  string,
  (s: GroupingRecord["stages"][number]) => string,
])[] = [
  ["runs", "groupings of this stage run", (s) => formatNumber(s.runs)],
  ["groups", "meta-particles formed, over the run", (s) => formatNumber(s.groups)],
  ["mean", "mean particles per meta-particle", (s) => formatNumber(s.meanSize)],
  [
    "p50",
    "median size (past 64: the lower bound of its power-of-two bin)",
    (s) => formatNumber(s.p50Size),
  ],
  ["p90", "90th-percentile size (past 64: as p50)", (s) => formatNumber(s.p90Size)],
  ["max", "largest meta-particle", (s) => formatNumber(s.maxSize)],
  [
    "between",
    "colliding pairs left between two groups (ignored that step)",
    (s) => s.pairs ? `${formatNumber(100 * s.pairsBetweenGroups)} %` : "–",
  ],
];

/** "p % of n" of the pairwise splits that took ε ≠ 0; "–" without a count or a split. */
export function epsilonShare(splits: SplitRecord | undefined): string {
  if (!splits || !splits.pairwise) return "–";
  return `${formatNumber(100 * splits.closestPoint / splits.pairwise)} % of ${
    formatNumber(splits.pairwise)
  }`;
}

/** Renders the grouping table of `records` (those that carry one). */
export function renderGroupingSection(records: readonly CaseRecord[]): string {
  const rows = grouped(records);
  if (!rows.length) return `<p class="muted">No case records merge-split's grouping.</p>`;
  const th = ([head, title]: readonly [string, string, unknown]) =>
    `<th class="num" title="${escapeHtml(title)}">${escapeHtml(head)}</th>`;
  const stageHead = (k: number) => `<th colspan="${STAGE_COLUMNS.length}">stage ${k}</th>`;
  const head =
    `<tr><th rowspan="2">scene</th><th rowspan="2">grouping</th><th rowspan="2" class="num" title="dispatches the grouping encodes per stage (stage 1 / stage 2)">dispatches</th>${
      stageHead(1)
    }${
      stageHead(2)
    }<th rowspan="2" class="num" title="pairwise splits that took the closest point of Eqs. 15–16 (ε ≠ 0), of all pairwise splits, both stages">ε ≠ 0</th></tr><tr>${
      [...STAGE_COLUMNS, ...STAGE_COLUMNS].map(th).join("")
    }</tr>`;
  const body = rows.map((r) => {
    const g = r.gpu.grouping;
    const stages = [0, 1].map((k) => {
      const s = g.stages[k];
      return STAGE_COLUMNS.map(([, , value]) =>
        `<td class="num">${s && s.runs ? escapeHtml(value(s)) : "–"}</td>`
      ).join("");
    }).join("");
    const cut = g.incomplete
      ? ` <span class="bad" title="components left partly ungrouped: a software adapter's loop budget ran out">${g.incomplete} cut</span>`
      : "";
    return `<tr><td>${escapeHtml(r.scene)} (${escapeHtml(r.scale)}, seed ${r.seed})</td><td>${
      escapeHtml(g.method)
    }${cut}</td><td class="num">${
      escapeHtml(g.dispatchesPerStage.join(" / "))
    }</td>${stages}<td class="num">${escapeHtml(epsilonShare(r.gpu.splits))}</td></tr>`;
  }).join("\n");
  return `<div class="scroll"><table class="grouping"><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}
