/**
 * The ablation table: each claim's outcome under the paper's setup (the one claims are read from,
 * `core/setups.ts`) and under each variant the records hold, one choice of the paper's changed at
 * a time, per scale: the reader sees which verdict moves with which choice. A variant that ran at
 * fewer seeds than the paper's setup (a run cut short, or `--seed` narrowed for the variants) is
 * judged at its own seeds and set against the paper's verdict at the same seeds, so that a seed it
 * did not run reads neither as a verdict nor as a move. Rendered in the report and written by
 * `--format md|csv|tex` (`publish_tables.ts`) and the findings' ablation block (`docs/`).
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import { PAPER_SETUP, SETUPS } from "../../core/setups.ts";
import { type Claim, CLAIM_STATUS_BADGE, type ClaimStatus } from "./claim.ts";
import { CLAIMS, evaluateClaims, fromCatalog } from "./claims.ts";
import { distinct } from "../case_key.ts";
import { escapeHtml } from "../page/escape_html.ts";

/** One claim across the setups of one scale. */
export interface AblationRow {
  claim: Claim;
  scale: string;
  /** The status under the paper's setup, then under each variant of {@link Ablation.setups}. */
  statuses: ClaimStatus[];
  /**
   * Per column, the paper's status it is set against: the paper's column itself, and for a variant
   * judged at fewer seeds ({@link AblationRow.seeds}) the paper's at those seeds.
   */
  baselines: ClaimStatus[];
  /**
   * Per column, the catalogue seeds it was judged at where a variant ran fewer than the paper's
   * setup did at this scale; null: all of them.
   */
  seeds: (number[] | null)[];
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
  const claims = options.claims ?? CLAIMS;
  const rows = distinct(records.map((r) => r.scale)).flatMap((scale) => {
    const atScale = records.filter((r) => r.scale === scale);
    const evaluate = (of: readonly CaseRecord[], setup: string) =>
      evaluateClaims(of, { claims, setup }).map(({ result }) => result.status);
    const paper = evaluate(atScale, PAPER_SETUP.id);
    const paperSeeds = catalogSeeds(atScale, PAPER_SETUP.id);
    const columns = variants.map((setup) => {
      const own = catalogSeeds(atScale, setup);
      if (!own.length || paperSeeds.every((seed) => own.includes(seed))) {
        return { statuses: evaluate(atScale, setup), baselines: paper, seeds: null };
      }
      const same = atScale.filter((r) => own.includes(r.seed));
      return {
        statuses: evaluate(same, setup),
        baselines: evaluate(same, PAPER_SETUP.id),
        seeds: own,
      };
    });
    return claims.map((claim, k) => ({
      claim,
      scale,
      statuses: [paper[k], ...columns.map((c) => c.statuses[k])],
      baselines: [paper[k], ...columns.map((c) => c.baselines[k])],
      seeds: [null, ...columns.map((c) => c.seeds)],
    }));
  });
  return { setups, rows };
}

/** The seeds of the catalogue records that ran under `setup`, in the records' order. */
function catalogSeeds(records: readonly CaseRecord[], setup: string): number[] {
  return distinct(records.filter((r) => fromCatalog(r) && r.setup === setup).map((r) => r.seed));
}

/** Whether column `k` of `row` differs from the paper's verdict at the same seeds (◆). */
export function moved(row: AblationRow, k: number): boolean {
  return k > 0 && row.statuses[k] !== row.baselines[k];
}

/**
 * Column `k`'s status as text, with the seeds it was judged at where they are fewer than the
 * paper's and, where the paper's verdict at them is not its column's, that verdict:
 * `reproduced (seed 2021; the paper's there: not reproduced)`; a claim neither judges there, `not run`.
 */
export function statusText(row: AblationRow, k: number): string {
  const seeds = row.seeds[k];
  // a claim judged at none of them needs no seeds named
  if (!seeds || (row.statuses[k] === "not run" && row.baselines[k] === "not run")) {
    return row.statuses[k];
  }
  const there = row.baselines[k] !== row.statuses[0]
    ? `; the paper's there: ${row.baselines[k]}`
    : "";
  return `${row.statuses[k]} (seed${seeds.length > 1 ? "s" : ""} ${seeds.join(", ")}${there})`;
}

const BADGE = CLAIM_STATUS_BADGE;

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
        `<td class="badge ${BADGE[status]}${moved(row, k) ? " moved" : ""}">${
          escapeHtml(statusText(row, k))
        }${moved(row, k) ? " ◆" : ""}</td>`
      ).join("")
    }</tr>`
  ).join("\n");
  return `<div class="scroll"><table class="ablation"><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}
