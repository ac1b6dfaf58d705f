/**
 * The report's header for one input: what was run (scenes, handlers, scales, steps, protocol),
 * when, where (adapter, CPU, OS, Deno from `env`), the git commit, seeds and schema versions, and a
 * visible warning listing the cases that were unstable, failed or timed out.
 *
 * @module
 */
import { renderAdapterDisagreement } from "./adapter_agreement.ts";
import type { CaseRecord } from "../../core/result.ts";
import { caseLabel, distinct } from "../case_key.ts";
import { escapeHtml } from "../page/escape_html.ts";
import { formatNumber } from "../page/format_number.ts";

/** Distinct non-empty strings, escaped and joined (or `–`). */
function list(values: Iterable<unknown>): string {
  const out = distinct(
    [...values].filter((v) => v !== null && v !== undefined && v !== "").map(String),
  );
  return out.length ? out.map(escapeHtml).join(", ") : "–";
}

function adapterText(r: CaseRecord): string | null {
  const a = r.env?.adapter;
  if (!a) return null;
  const parts = [
    a.description,
    a.backend && `${a.backend === "gl" ? "GL" : a.backend[0].toUpperCase() + a.backend.slice(1)}`,
    a.vendor && `vendor ${a.vendor}`,
    a.architecture,
    a.device && `device ${a.device}`,
  ]
    .filter((s) => s);
  return `${parts.join(", ")}${a.isFallbackAdapter ? " (fallback adapter)" : ""}`;
}

function when(records: readonly CaseRecord[]): string {
  const starts = records.map((r) => Date.parse(r.startedAt)).filter((t) => Number.isFinite(t));
  if (!starts.length) return "–";
  const ends = records.map((r) => Date.parse(r.startedAt) + 1000 * (r.wallSeconds || 0))
    .filter((t) => Number.isFinite(t));
  const first = new Date(Math.min(...starts)).toISOString().replace(/\.\d+Z$/, "Z");
  const last = new Date(Math.max(...ends)).toISOString().replace(/\.\d+Z$/, "Z");
  const wall = records.reduce(
    (a, r) => a + (Number.isFinite(r.wallSeconds) ? r.wallSeconds : 0),
    0,
  );
  return `${escapeHtml(first)} → ${escapeHtml(last)} (${
    escapeHtml(formatNumber(wall / 60))
  } min of cases)`;
}

/** The cases whose status is not `ok`, with their errors: a visible warning, or "". */
export function renderProblemWarning(records: readonly CaseRecord[]): string {
  const bad = records.filter((r) => r.status !== "ok");
  if (!bad.length) return "";
  return `<div class="warning"><strong>${bad.length} case(s) did not finish normally</strong><ul>${
    bad.map((r) =>
      `<li><span class="badge bad">${escapeHtml(r.status)}</span> ${
        escapeHtml(caseLabel(r, { withScale: true, among: records }))
      }${r.error ? `: <code>${escapeHtml(r.error)}</code>` : ""}</li>`
    ).join("")
  }</ul></div>`;
}

/** Renders the header of one input: a definition list of the run and the problem warning. */
export function renderRunSummary(input: { label: string; records: readonly CaseRecord[] }): string {
  const rs = input.records;
  const env = rs.map((r) => r.env).filter((e) => e);
  const commits = distinct(
    env.map((e) =>
      e?.git?.commit ? `${e.git.commit.slice(0, 12)}${e.git.dirty ? " (dirty tree)" : ""}` : null
    ),
  );
  const steps = distinct(rs.map((r) => `${r.steps} steps × dt ${formatNumber(r.dt)} s`));
  const protocol = distinct(
    rs.map((r) =>
      r.protocol
        ? `${r.protocol.warmupSteps} warm-up steps, ${r.protocol.repeats} repetition(s), timeout ${r.protocol.timeoutSeconds} s`
        : null
    ),
  );
  const nonRepeatable = rs.filter((r) => r.repeatable === false);
  const rows: Array<[string, string]> = [
    ["cases", `${rs.length} (${rs.filter((r) => r.status === "ok").length} ok)`],
    ["scenes", list(rs.map((r) => r.scene))],
    ["handlers", list(rs.map((r) => r.handler))],
    ["scales", list(rs.map((r) => r.scale))],
    ["steps", list(steps)],
    ["protocol", list(protocol)],
    ["when", when(rs)],
    ["adapter", list(rs.map(adapterText))],
    [
      "CPU",
      list(env.map((e) => e?.cpu && `${e.cpu.model} × ${e.cpu.cores} cores`)),
    ],
    [
      "memory",
      list(env.map((e) => e?.memoryBytes && `${formatNumber(e.memoryBytes / 2 ** 30)} GiB`)),
    ],
    ["OS", list(env.map((e) => e?.os && `${e.os.platform} ${e.os.release} ${e.os.arch}`))],
    [
      "runtime",
      list(env.map((e) =>
        e &&
        (e.browser
          ? `browser: ${e.browser.userAgent} (${e.browser.origin})`
          : `Deno ${e.deno}, V8 ${e.v8}, TypeScript ${e.typescript}`)
      )),
    ],
    ["WebGPU backend", list(env.map((e) => e?.webgpuBackend ?? "default"))],
    ["git commit", list(commits)],
    ["seeds", list(rs.map((r) => r.seed))],
    ["schema version", list(rs.map((r) => r.schemaVersion))],
    ["timing source", list(rs.map((r) => r.timings?.source))],
  ];
  const dl = rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${v}</dd>`).join("");
  const repeatNote = nonRepeatable.length
    ? `<div class="note">Repetitions did not end in the same state for: ${
      escapeHtml(nonRepeatable.map((r) => caseLabel(r, { among: rs })).join(", "))
    }.</div>`
    : "";
  return `<div class="run"><h3>${escapeHtml(input.label)}</h3><dl class="env">${dl}</dl>${
    renderProblemWarning(rs)
  }${renderAdapterDisagreement(rs)}${repeatNote}</div>`;
}
