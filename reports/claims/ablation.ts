/**
 * The ablation table: each claim's outcome under the paper's setup (the one claims are read from,
 * `core/setups.ts`) and under each variant the records hold, one choice of the paper's changed at
 * a time, per scale: the reader sees which verdict moves with which choice. Rendered in the
 * report and written by `--format md|csv|tex` (`publish_tables.ts`).
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import { PAPER_SETUP, SETUPS } from "../../core/setups.ts";
import type { Claim, ClaimStatus } from "./claim.ts";
import { CLAIMS, evaluateClaims } from "./claims.ts";
import { distinct } from "../case_key.ts";
import { escapeHtml } from "../page/escape_html.ts";

/** One claim across the setups of one scale. */
export interface AblationRow {
  claim: Claim;
  scale: string;
  /** The status under the paper's setup, then under each variant of {@link Ablation.setups}. */
  statuses: ClaimStatus[];
}

/** The ablation of a set of records. */
export interface Ablation {
  /** `paper`, then the variants the records ran, in `core/setups.ts` order. */
  setups: string[];
  rows: AblationRow[];
}

/** The variants the records ran (none: no ablation), in `core/setups.ts` order. */
function variantsOf(records: readonly CaseRecord[]): string[] {
  const ran = new Set(records.map((r) => r.setup));
  return [...SETUPS.keys()].filter((id) => id !== PAPER_SETUP.id && ran.has(id));
}

/** The ablation of `records`, or null when they hold no variant. */
export function ablation(
  records: readonly CaseRecord[],
  options: { claims?: readonly Claim[] } = {},
): Ablation | null {
  const variants = variantsOf(records);
  if (!variants.length) return null;
  const setups = [PAPER_SETUP.id, ...variants];
  const rows = distinct(records.map((r) => r.scale)).flatMap((scale) => {
    const atScale = records.filter((r) => r.scale === scale);
    const bySetup = setups.map((setup) =>
      evaluateClaims(atScale, { claims: options.claims ?? CLAIMS, setup })
    );
    return bySetup[0].map(({ claim }, k) => ({
      claim,
      scale,
      statuses: bySetup.map((results) => results[k].result.status),
    }));
  });
  return { setups, rows };
}

const BADGE: Readonly<Record<ClaimStatus, string>> = {
  "reproduced": "ok",
  "not reproduced": "bad",
  "not run": "none",
};

/** The ablation table as HTML: a row per claim and scale, a variant's cell marked where it differs. */
export function renderAblation(a: Ablation): string {
  const head = `<tr><th>claim</th><th>scale</th>${
    a.setups.map((id) =>
      `<th title="${escapeHtml(SETUPS.get(id)?.description ?? id)}">${escapeHtml(id)}</th>`
    ).join("")
  }</tr>`;
  const body = a.rows.map((row) =>
    `<tr><td title="${escapeHtml(row.claim.text)}">${escapeHtml(row.claim.id)}</td><td>${
      escapeHtml(row.scale)
    }</td>${
      row.statuses.map((status, k) =>
        `<td class="badge ${BADGE[status]}${k > 0 && status !== row.statuses[0] ? " moved" : ""}">${
          escapeHtml(status)
        }${k > 0 && status !== row.statuses[0] ? " ◆" : ""}</td>`
      ).join("")
    }</tr>`
  ).join("\n");
  return `<div class="scroll"><table class="ablation"><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}
