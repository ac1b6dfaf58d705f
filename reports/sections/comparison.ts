/**
 * Comparison of several result files (different machines or commits): cases are matched by their
 * whole identity (reports/case_key.ts `caseKey`: scene, handler, scale, sweep values, steps, time
 * step, seed, handler parameters, coupling and configuration hash); per-phase median times are set side by side with
 * the speed-up of each input over the first (median_first / median_other, with a 95% confidence
 * interval: reports/sections/speedup.ts), and each input's geometric mean of its `total` speed-ups over the
 * matched cases. A speed-up is only ever of the same case timed the same way: cases whose scale,
 * steps, setup, seed or configuration hash differ are different cases, never set side by side,
 * and so is a case timed by another clock (`timings.source`: GPU timestamps against the host's
 * wall clock); each such difference between the inputs is listed as a warning naming what
 * differs.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import {
  caseGroupKey,
  caseKey,
  caseLabel,
  caseVariant,
  distinct,
  latestCases,
  scaleRank,
} from "../case_key.ts";
import { escapeHtml } from "../page/escape_html.ts";
import { formatNumber } from "../page/format_number.ts";
import { geometricMean, type Speedup, speedup, SPEEDUP_RESAMPLES } from "./speedup.ts";
import { phaseNames } from "../tables/table_one.ts";

/** One matched case: its medians (ms/step) and speed-ups per input, null where it lacks them. */
export interface ComparisonRow {
  scene: string;
  handler: string;
  scale: string;
  configHash: string;
  /** The values of the parameter sweep the case ran at, if any. */
  sweep?: Record<string, number>;
  /**
   * What tells the case apart from the first input's other cases of its scene, handler and scale
   * (` seed=3 steps=400`, reports/case_key.ts `caseVariant`); "" when none shares them.
   */
  variant: string;
  /** Per input (same order as the inputs): phase → median, or null. */
  medians: (Record<string, number | null> | null)[];
  /**
   * Per input: phase → the speed-up over the first input (median_first / median_this, with its
   * 95% interval), or null; the first input's entry, and an input without the case, is null.
   */
  speedups: (Record<string, Speedup | null> | null)[];
}

/** A field that differs between inputs for the same case (scene and handler; scale for seeds). */
export interface ComparisonMismatch {
  /** `scene × handler` (with the scale for `seed` and `configHash`): plain text. */
  case: string;
  /**
   * What differs: the scales run, the steps, the setup, the seed, the configuration hash or the
   * clock that timed the case (`timings.source`).
   */
  field: "scale" | "steps" | "setup" | "seed" | "configHash" | "timing";
  /** Per input that has the case: its label and value (scales: a comma list). */
  values: { label: string; value: string }[];
}

/** The geometric mean of one input's `total` speed-ups over the first, and over how many cases. */
export interface ComparisonSummary {
  label: string;
  /** Geometric mean of the `total` speed-ups, or null when no matched case has one. */
  geometricMean: number | null;
  /** Matched cases with a `total` speed-up. */
  cases: number;
}

/** The comparison of the inputs' timings. */
export interface Comparison {
  labels: string[];
  phases: string[];
  /** The first input's cases that at least one other input matched. */
  rows: ComparisonRow[];
  /** Per input after the first (in order): its geometric mean `total` speed-up. */
  summary: ComparisonSummary[];
  /**
   * Scales, seeds or configuration hashes that differ between inputs for the same scene and
   * handler (a different seed or hash: the case is not compared).
   */
  mismatches: ComparisonMismatch[];
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

/** Per phase, the speed-up of `other` over `first` (null without timings). */
function speedups(
  first: CaseRecord,
  other: CaseRecord,
  { phases }: { phases: readonly string[] },
): Record<string, Speedup | null> | null {
  if (!first.timings || !other.timings) return null;
  return Object.fromEntries(phases.map((p) => {
    const a = first.timings?.phases[p], b = other.timings?.phases[p];
    return [p, a && b ? speedup(a, b) : null];
  }));
}

/**
 * Per group of records (by `key`), the inputs' distinct values of `value` where they differ:
 * one mismatch per group whose inputs disagree.
 */
function differing(
  sets: readonly { label: string; records: readonly CaseRecord[] }[],
  options: {
    field: ComparisonMismatch["field"];
    key: (r: CaseRecord) => string;
    label: (r: CaseRecord) => string;
    value: (r: CaseRecord) => string;
    /** Sort order of an input's values (default: as strings). */
    order?: (a: string, b: string) => number;
  },
): ComparisonMismatch[] {
  const groups = new Map<string, { case: string; values: Map<string, string[]> }>();
  for (const { label, records } of sets) {
    for (const r of records) {
      const key = options.key(r);
      const group = groups.get(key) ?? { case: options.label(r), values: new Map() };
      const list = group.values.get(label) ?? [];
      list.push(options.value(r));
      group.values.set(label, list);
      groups.set(key, group);
    }
  }
  return [...groups.values()].flatMap((g) => {
    const values = [...g.values.entries()].map(([label, vs]) => ({
      label,
      value: distinct(vs).sort(options.order).join(", "),
    }));
    return new Set(values.map((v) => v.value)).size > 1
      ? [{ case: g.case, field: options.field, values }]
      : [];
  });
}

/** The clock that timed a record (`timestamp`, `wall-clock`; `none` without timings). */
export function timingClock(r: CaseRecord): string {
  return r.timings?.source ?? "none";
}
const clock = timingClock;

/**
 * Matches the inputs' cases (the last record of a case; one timed by another clock than the first
 * input's is not matched), collects the per-phase medians and the
 * speed-ups over the first input, each input's geometric mean `total` speed-up, and the scales,
 * seeds and configuration hashes that differ.
 */
export function compareInputs(
  inputs: readonly { label: string; records: readonly CaseRecord[] }[],
): Comparison {
  const sets = inputs.map((i) => latestCases(i.records));
  const phases = phaseNames(sets.flat());
  const maps = sets.map((rs) => new Map(rs.map((r) => [caseKey(r), r])));
  const rows: ComparisonRow[] = [];
  for (const r of sets[0] ?? []) {
    const found = maps.map((m) => m.get(caseKey(r)))
      .map((f) => (f && clock(f) === clock(r) ? f : undefined));
    if (found.slice(1).every((f) => !f)) continue;
    rows.push({
      scene: r.scene,
      handler: r.handler,
      scale: r.scale,
      configHash: r.configHash,
      ...(r.sweep ? { sweep: { ...r.sweep } } : {}),
      variant: caseVariant(r, sets[0]),
      medians: found.map((f) => (f ? medians(f, phases) : null)),
      speedups: found.map((f, k) => (f && k > 0 ? speedups(r, f, { phases }) : null)),
    });
  }
  const summary = inputs.slice(1).map((input, j) => {
    const g = geometricMean(rows.map((r) => r.speedups[j + 1]?.total?.value));
    return { label: input.label, geometricMean: g.value, cases: g.count };
  });
  const labelled = sets.map((records, k) => ({ label: inputs[k].label, records }));
  const withScale = (r: CaseRecord) => caseLabel(r, { withScale: true });
  const mismatches = [
    ...differing(labelled, {
      field: "scale",
      key: (r) => caseLabel(r),
      label: (r) => caseLabel(r),
      value: (r) => r.scale,
      order: (a, b) => scaleRank(a) - scaleRank(b),
    }),
    ...differing(labelled, {
      field: "steps",
      key: caseGroupKey,
      label: withScale,
      value: (r) => String(r.steps),
      order: (a, b) => Number(a) - Number(b),
    }),
    ...differing(labelled, {
      field: "setup",
      key: caseGroupKey,
      label: withScale,
      value: (r) => r.setup ?? "none",
    }),
    ...differing(labelled, {
      field: "seed",
      key: caseGroupKey,
      label: withScale,
      value: (r) => String(r.seed),
    }),
    ...differing(labelled, {
      field: "configHash",
      key: caseGroupKey,
      label: withScale,
      value: (r) => r.configHash,
    }),
    ...differing(labelled, { field: "timing", key: caseKey, label: withScale, value: clock }),
  ];
  const unmatched = sets.map((rs, k) => ({
    label: inputs[k].label,
    cases: rs.filter((r) => maps.every((m, j) => j === k || !m.has(caseKey(r))))
      .map((r) => caseLabel(r, { withScale: true, among: rs })),
  }));
  return { labels: inputs.map((i) => i.label), phases, rows, summary, mismatches, unmatched };
}

/** The speed-up `a / b` of a time `b` over a time `a`, or null. */
function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  return typeof a === "number" && typeof b === "number" && a > 0 && b > 0 ? a / b : null;
}

/** A speed-up as `0.5×`, with its interval as `0.5× [0.45, 0.55]`; `–` for none. */
function speedupText(value: number | null | undefined, ci95?: readonly number[] | null): string {
  if (typeof value !== "number") return "–";
  const ci = ci95 ? ` [${formatNumber(ci95[0])}, ${formatNumber(ci95[1])}]` : "";
  return `${formatNumber(value)}×${ci}`;
}

/** Red where the other input is more than 10% slower, green where more than 10% faster. */
function speedupClass(value: number | null | undefined): string {
  if (typeof value !== "number") return "";
  return value < 1 / 1.1 ? "slower" : value > 1.1 ? "faster" : "";
}

/** A mismatch's values for display (configuration hashes shortened to 12 hex digits). */
function mismatchValues(m: ComparisonMismatch): string {
  return m.values.map((v) =>
    `${escapeHtml(v.label)} <code>${
      escapeHtml(m.field === "configHash" ? v.value.slice(0, 12) : v.value)
    }</code>`
  ).join(", ");
}

const FIELD_TEXT: Readonly<Record<ComparisonMismatch["field"], string>> = {
  scale: "scales",
  steps: "steps",
  setup: "setup",
  seed: "seed",
  configHash: "configuration hash",
  timing: "timing clock",
};

/**
 * Renders the comparison: warnings for scales, seeds and configuration hashes that differ and for
 * unmatched cases, each input's geometric mean `total` speed-up over the first, a table of
 * per-phase medians summed over matched cases with the speed-up of the sums, a table per case
 * (each cell: the medians of every input, then each other input's speed-up over the first with its
 * 95% interval), and a canvas with id `chartId` for the side-by-side bars.
 */
export function renderComparison(comparison: Comparison, options: { chartId: string }): string {
  const { labels, phases, rows } = comparison;
  const parts: string[] = [];
  if (comparison.mismatches.length) {
    parts.push(
      `<div class="warning"><strong>Configurations differ</strong> for ${comparison.mismatches.length} case(s): a case of other steps, setup, seed, configuration hash or timing clock is another case, never compared; a scale that one input lacks is not matched.<ul>${
        comparison.mismatches.map((m) =>
          `<li>${escapeHtml(m.case)}: ${FIELD_TEXT[m.field]} differ${
            m.field === "scale" || m.field === "steps" ? "" : "s"
          }: ${mismatchValues(m)}</li>`
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
  parts.push(
    `<ul class="speedup-summary">${
      comparison.summary.map((s) =>
        `<li><strong>${escapeHtml(s.label)}</strong>: ${
          s.geometricMean === null
            ? "no matched case has a total step time"
            : `speed-up ${escapeHtml(speedupText(s.geometricMean))} over ${
              escapeHtml(labels[0])
            }, the geometric mean of the total step time's speed-up over ${s.cases} matched case(s)`
        }</li>`
      ).join("")
    }</ul>`,
  );
  const sum = (k: number, p: string) =>
    rows.every((r) => typeof r.medians[k]?.[p] === "number")
      ? rows.reduce((a, r) => a + (r.medians[k]![p] as number), 0)
      : null;
  const headInputs = labels.map((l, k) =>
    `<th class="num">${escapeHtml(l)}${k ? " (speed-up)" : ""}</th>`
  ).join("");
  const phaseRows = phases.map((p) => {
    const s0 = sum(0, p);
    return `<tr><th class="row">${escapeHtml(p)}</th>${
      labels.map((_, k) => {
        const s = sum(k, p);
        const up = ratio(s0, s);
        return `<td class="num ${k ? speedupClass(up) : ""}">${escapeHtml(formatNumber(s))}${
          k ? ` <span class="ratio">(${escapeHtml(speedupText(up))})</span>` : ""
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
        const vals = r.medians.map((m) => escapeHtml(formatNumber(m?.[p]))).join(" / ");
        const ups = r.speedups.slice(1).map((s) => speedupText(s?.[p]?.value, s?.[p]?.ci95));
        const cls = r.speedups.length === 2 ? speedupClass(r.speedups[1]?.[p]?.value) : "";
        return `<td class="num ${cls}">${vals} <span class="ratio">(${
          escapeHtml(ups.join("; "))
        })</span></td>`;
      }).join("")
    }</tr>`
  ).join("\n");
  parts.push(
    `<h3>Per case: ${labels.map(escapeHtml).join(" / ")} in ms/step (speed-up over ${
      escapeHtml(labels[0])
    } [95% CI])</h3>
<p class="muted">Speed-up = ${
      escapeHtml(labels[0])
    }'s median / the other's (above 1: faster); its 95% interval is a bootstrap of the ratio of the medians from the recorded per-step samples (${SPEEDUP_RESAMPLES} resamples, fixed seed), or, for records without samples, the ratio of the ends of the two medians' intervals.</p>
<div class="scroll"><table class="compare"><thead><tr><th>case</th>${
      phases.map((p) => `<th class="num">${escapeHtml(p)}</th>`).join("")
    }</tr></thead><tbody>${caseRows}</tbody></table></div>
<div class="chart-box tall"><canvas id="${
      escapeHtml(options.chartId)
    }" class="chart"></canvas></div>`,
  );
  return parts.join("\n");
}
