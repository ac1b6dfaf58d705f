/**
 * Whether the adapters a case ran on agree: the same case ({@link caseKey}) run to its end on two
 * or more adapters should end in the same state (a deterministic engine), so records of one case
 * whose state hashes differ between adapters are named in the run's summary, each adapter with
 * its hash, instead of one record hiding the other.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import { escapeHtml } from "../page/escape_html.ts";
import { adapterName, caseKey, caseLabel, latestCases } from "../case_key.ts";

/** A case whose adapters ended in different states: its label and each adapter's hash. */
export interface AdapterDisagreement {
  label: string;
  states: { adapter: string; stateHash: string }[];
}

/**
 * The cases of `records` that ran to their end on several adapters ending in different states
 * (the latest record per case and adapter, `latestCases`), in first-seen order.
 */
export function adapterDisagreements(records: readonly CaseRecord[]): AdapterDisagreement[] {
  const byCase = new Map<string, CaseRecord[]>();
  for (const r of latestCases(records)) {
    if (!r.stateHash) continue;
    const key = caseKey(r);
    byCase.set(key, [...(byCase.get(key) ?? []), r]);
  }
  return [...byCase.values()]
    .filter((rs) => new Set(rs.map((r) => r.stateHash)).size > 1)
    .map((rs) => ({
      label: caseLabel(rs[0], { withScale: true }),
      states: rs.map((r) => ({
        adapter: adapterName(r) || "unknown adapter",
        stateHash: r.stateHash!,
      })),
    }));
}

/** A note naming the cases whose adapters ended in different states, or "" when none did. */
export function renderAdapterDisagreement(records: readonly CaseRecord[]): string {
  const cases = adapterDisagreements(records);
  if (!cases.length) return "";
  const item = (c: AdapterDisagreement) =>
    `<li>${escapeHtml(c.label)}: ${
      c.states.map((s) =>
        `${escapeHtml(s.adapter)} <code>${escapeHtml(s.stateHash.slice(0, 12))}</code>`
      )
        .join(", ")
    }</li>`;
  return `<div class="warning"><strong>${cases.length} case(s) ended in different states on different adapters</strong> (state hashes differ)<ul>${
    cases.map(item).join("")
  }</ul></div>`;
}
