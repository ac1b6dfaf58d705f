/**
 * The claims table: each finding of the paper (reports/claims/claims.ts) with the measured values and
 * its status, one column per input and scale.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import {
  type Claim,
  type ClaimResult,
  CLAIMS,
  type ClaimStatus,
  evaluateClaims,
  fromCatalog,
} from "./claims.ts";
import { distinct } from "../case_key.ts";
import { escapeHtml } from "../page/escape_html.ts";
import { EARLIER_CLAIMS } from "./earlier_claims.ts";
import { CLAIM_STATUS_BADGE } from "./claim.ts";

const BADGE = CLAIM_STATUS_BADGE;

/** The statuses that are neither a verdict nor "not run": counted where any claim has one. */
const UNJUDGED: readonly ClaimStatus[] = ["too coarse", "premise not reached"];

/** The claims evaluated on one input at one scale: a column of the claims table. */
export interface ClaimColumn {
  /** The input's label. */
  label: string;
  /** The scale whose records were evaluated, or null for an input without records. */
  scale: string | null;
  /** The column's heading: the label, with the scale where there are several inputs or scales. */
  title: string;
  results: { claim: Claim; result: ClaimResult }[];
}

/**
 * The claims evaluated on every input, separately per scale present in it (claims compare cases
 * of one scale), in input order and each input's first-seen scale order. An input without
 * records gives one column in which every claim is "not run".
 */
export function claimColumns(
  inputs: readonly { label: string; records: readonly CaseRecord[] }[],
  options: { claims?: readonly Claim[] } = {},
): ClaimColumn[] {
  const claims = options.claims ?? CLAIMS;
  return inputs.flatMap((input) => {
    const scales = distinct(input.records.map((r) => r.scale));
    const groups = scales.length ? scales : [null];
    return groups.map((scale) => ({
      label: input.label,
      scale,
      title: `${input.label}${
        scale && (scales.length > 1 || inputs.length > 1) ? ` (${scale})` : ""
      }`,
      results: evaluateClaims(
        scale ? input.records.filter((r) => r.scale === scale) : [],
        { claims },
      ),
    }));
  });
}

/**
 * What the claims table says when a claim was not run: which suites hold the cases (the default
 * suite judges the headline ones; `bench/cases/suites.ts`).
 */
export const NOT_RUN_NOTE =
  "A claim not run needs cases this run did not hold: --suite claims runs those of Figs. 3, 4, 7, 9 and 10, the dam breaks and the sweeps of r and s at small, --suite fig11 Fig. 11's, --suite all every scene's, each at three seeds (--seed scene: one); --suite table1 Table I's scenes (claims y, y2; --scale paper for the paper's counts).";

/**
 * What the claims table says when the inputs hold cases of scene files: "2 case(s) of scene files
 * (my.json as fig3-ball-cloth-high, …) are user scenes: shown in the report, never judged as the
 * paper's scenes, whatever id they carry"; "" when none.
 */
export function userScenesNote(
  inputs: readonly { records: readonly CaseRecord[] }[],
): string {
  const user = inputs.flatMap((i) => i.records).filter((r) => !fromCatalog(r));
  if (!user.length) return "";
  const named = distinct(user.map((r) => `${r.sceneSource} as ${r.scene}`));
  return `${user.length} case(s) of scene files (${
    named.join(", ")
  }) are user scenes: shown in the report, never judged as the paper's scenes, whatever id they carry.`;
}

/**
 * Where claim `k`'s outcome differs between the scales of one input (a resolution that has not
 * converged), in words under the claim: "outcome differs between scales: small reproduced, medium
 * not reproduced" per such input; "" where every input agrees with itself.
 */
export function scaleDisagreement(columns: readonly ClaimColumn[], k: number): string {
  const parts = distinct(columns.map((c) => c.label)).flatMap((label) => {
    const own = columns.filter((c) => c.label === label && c.scale !== null);
    const ran = own.filter((c) =>
      !UNJUDGED.includes(c.results[k].result.status) &&
      c.results[k].result.status !== "not run"
    );
    if (new Set(ran.map((c) => c.results[k].result.status)).size < 2) return [];
    const text = ran.map((c) => `${c.scale} ${c.results[k].result.status}`).join(", ");
    return [`${columns.length > own.length ? `${label}: ` : ""}${text}`];
  });
  return parts.length
    ? `<br><span class="bad">outcome differs between scales: ${escapeHtml(parts.join("; "))}</span>`
    : "";
}

/** The sentence `claim` tests, as a quotation under its place (a validation claim says so). */
function quoteHtml(claim: Claim): string {
  const q = claim.quote;
  return q
    ? `<br><q class="muted" title="${escapeHtml(q.where)}">${escapeHtml(q.quote)}</q>`
    : `<br><span class="muted">validation of the harness, not a sentence of the paper</span>`;
}

/** One cell of the claims table: the badge of a result and what it measured. */
function resultCell(r: ClaimResult): string {
  return `<td class="claim"><span class="badge ${BADGE[r.status]}">${escapeHtml(r.status)}</span> ${
    escapeHtml(r.measured)
  }</td>`;
}

/**
 * The row of `claim`'s earlier definition (`earlier_claims.ts`) under its own, where in some column
 * the two verdicts differ ("" otherwise): the reader sees which verdicts the rewrite from the
 * paper's sentence moved. `earlier` holds the earlier definitions' columns, as `columns`.
 */
export function earlierRow(
  claim: Claim,
  columns: readonly ClaimColumn[],
  earlier: readonly ClaimColumn[],
): string {
  const k = EARLIER_CLAIMS.findIndex((c) => c.id === claim.id);
  if (k < 0) return "";
  const now = columns.map((c) => c.results.find((r) => r.claim.id === claim.id)?.result.status);
  if (earlier.every((c, i) => c.results[k].result.status === now[i])) return "";
  return `<tr class="earlier"><td><span class="muted">(${escapeHtml(claim.id)}) earlier definition,
replaced by the one above; its verdict differs:</span> ${
    escapeHtml(EARLIER_CLAIMS[k].text)
  }</td><td>${escapeHtml(EARLIER_CLAIMS[k].paper)}</td>${
    earlier.map((c) => resultCell(c.results[k].result)).join("")
  }</tr>`;
}

/** Whether a claim was not run in any of `columns`. */
function anyNotRun(columns: readonly ClaimColumn[]): boolean {
  return columns.some((c) => c.results.some((r) => r.result.status === "not run"));
}

/**
 * The claims in words, for a terminal: per column of {@link claimColumns} one line with the ids
 * reproduced and not reproduced and how many were not run, then {@link NOT_RUN_NOTE} when any
 * was; the report's Claims section has what was measured.
 */
export function claimsSummaryText(
  inputs: readonly { label: string; records: readonly CaseRecord[] }[],
  options: { claims?: readonly Claim[] } = {},
): string {
  const columns = claimColumns(inputs, options);
  const lines = columns.map((c) => {
    const ids = (s: ClaimStatus) =>
      c.results.filter((r) => r.result.status === s).map((r) => r.claim.id);
    const listed = (s: ClaimStatus) => {
      const found = ids(s);
      return `${found.length} ${s}${found.length ? ` (${found.join(", ")})` : ""}`;
    };
    const unjudged = UNJUDGED.filter((s) => ids(s).length).map((s) => `; ${listed(s)}`).join("");
    return `claims${columns.length > 1 ? ` of ${c.title}` : ""}: ${listed("reproduced")}; ${
      listed("not reproduced")
    }${unjudged}; ${ids("not run").length} not run`;
  });
  const user = userScenesNote(inputs);
  return [...lines, ...(anyNotRun(columns) ? [NOT_RUN_NOTE] : []), ...(user ? [user] : [])]
    .join("\n");
}

/**
 * Renders the claims evaluated on every input, separately per scale present in it (claims compare
 * cases of one scale; {@link claimColumns}). Inputs without records get one "not run" column.
 */
export function renderClaimsTable(
  inputs: readonly { label: string; records: readonly CaseRecord[] }[],
  options: { claims?: readonly Claim[] } = {},
): string {
  const claims = options.claims ?? CLAIMS;
  const columns = claimColumns(inputs, { claims });
  const earlier = claimColumns(inputs, { claims: EARLIER_CLAIMS });
  const head = `<tr><th>claim</th><th>paper</th>${
    columns.map((c) => `<th>${escapeHtml(columns.length > 1 ? c.title : "measured")}</th>`).join("")
  }</tr>`;
  const body = claims.map((claim, k) =>
    `<tr><td><strong>(${escapeHtml(claim.id)})</strong> ${escapeHtml(claim.text)}${
      scaleDisagreement(columns, k)
    }</td><td>${escapeHtml(claim.paper)}${quoteHtml(claim)}</td>${
      columns.map((c) => resultCell(c.results[k].result)).join("")
    }</tr>${earlierRow(claim, columns, earlier)}`
  ).join("\n");
  const counts = columns.map((c) => {
    const n = (s: ClaimStatus) => c.results.filter((r) => r.result.status === s).length;
    const unjudged = UNJUDGED.filter((s) => n(s)).map((s) => `, ${n(s)} ${s}`).join("");
    return `${escapeHtml(c.title)}: ${n("reproduced")} reproduced, ${
      n("not reproduced")
    } not reproduced${unjudged}, ${n("not run")} not run`;
  });
  const user = userScenesNote(inputs);
  return `<p>${counts.join("; ")}.${anyNotRun(columns) ? ` ${escapeHtml(NOT_RUN_NOTE)}` : ""}${
    user ? ` <strong>${escapeHtml(user)}</strong>` : ""
  }</p>
<div class="scroll"><table class="claims"><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}
