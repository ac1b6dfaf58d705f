/// <reference lib="dom" />
/**
 * The browser bench page (`web/index.html`, bundled by `deno task web`): shows the adapter and
 * its limits, runs a selection of cases ({@link runBrowserBench}) with a progress bar and a cancel
 * button, lists each case as it finishes, offers the records as `results.jsonl`, and renders the
 * harness's report of them in the page.
 *
 * URL parameters preset the form (`suite`, `scenes`, `handlers`, `scale`, `steps`); `run=1` starts
 * at once; `report=1` shows the report when the run ends; `post=<path>` sends `{ lines, claims,
 * error, reportChars }` to that path of the page's origin when the run ends (the browser test's
 * channel, `web/chromium_page.ts`).
 *
 * @module
 */
import { type Scale, SCALES } from "../core/scene/scene.ts";
import type { CaseRecord } from "../core/result.ts";
import { SUITES } from "../bench/cases/suites.ts";
import { evaluateClaims } from "../reports/claims/claims.ts";
import { renderReportPage } from "../reports/page/report_page.ts";
import type { VendorLibraries } from "../reports/page/vendor_libraries.ts";
import { escapeHtml } from "../reports/page/escape_html.ts";
import type { BuildInfo } from "./browser_environment.ts";
import { browserCases, type BrowserSelection, runBrowserBench } from "./browser_bench.ts";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The adapter's limits the engine depends on, shown beside its name. */
const LIMITS = [
  "maxStorageBuffersPerShaderStage",
  "maxStorageBufferBindingSize",
  "maxBufferSize",
  "maxComputeWorkgroupsPerDimension",
  "maxComputeInvocationsPerWorkgroup",
  "maxComputeWorkgroupStorageSize",
] as const;

async function showAdapter(): Promise<boolean> {
  const box = $("adapter");
  if (!("gpu" in navigator)) {
    box.innerHTML = `<p class="error">This browser has no WebGPU (navigator.gpu). Chrome, Edge
      and Safari 26 have it; Firefox from 141 on Windows.</p>`;
    return false;
  }
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) {
    box.innerHTML = `<p class="error">WebGPU offers no adapter here.</p>`;
    return false;
  }
  const info = adapter.info;
  const name = [info.vendor, info.architecture, info.device, info.description]
    .filter(Boolean).join(" · ") || "(the browser names no vendor or device)";
  const features = [...adapter.features].sort().join(", ") || "none";
  const fallback = (adapter as unknown as { isFallbackAdapter?: boolean }).isFallbackAdapter ??
    (info as unknown as { isFallbackAdapter?: boolean }).isFallbackAdapter;
  box.innerHTML = `<p><strong>${escapeHtml(name)}</strong>${
    fallback ? " (a software fallback adapter)" : ""
  }</p><dl class="limits">${
    LIMITS.map((k) =>
      `<dt>${k}</dt><dd>${(adapter.limits as unknown as Record<string, number>)[k]}</dd>`
    ).join("")
  }<dt>features</dt><dd>${escapeHtml(features)}</dd></dl>`;
  return true;
}

function fillForm(params: URLSearchParams): void {
  const suite = $<HTMLSelectElement>("suite");
  suite.innerHTML = `<option value="">(none: the scenes and handlers below)</option>` +
    Object.entries(SUITES).map(([name, s]) =>
      `<option value="${escapeHtml(name)}" title="${escapeHtml(s.description)}">${
        escapeHtml(name)
      }</option>`
    ).join("");
  suite.value = params.get("suite") ?? "default";
  const scale = $<HTMLSelectElement>("scale");
  scale.innerHTML = SCALES.map((s) => `<option>${s}</option>`).join("");
  scale.value = params.get("scale") ?? "tiny";
  $<HTMLInputElement>("scenes").value = params.get("scenes") ?? "";
  $<HTMLInputElement>("handlers").value = params.get("handlers") ?? "";
  $<HTMLInputElement>("steps").value = params.get("steps") ?? "";
}

function selection(): BrowserSelection {
  const list = (id: string) =>
    $<HTMLInputElement>(id).value.split(",").map((s) => s.trim()).filter(Boolean);
  const steps = Number($<HTMLInputElement>("steps").value);
  return {
    suite: $<HTMLSelectElement>("suite").value || undefined,
    scenes: list("scenes"),
    handlers: list("handlers"),
    scale: $<HTMLSelectElement>("scale").value as Scale,
    steps: steps > 0 ? Math.round(steps) : undefined,
  };
}

function previewCases(): void {
  try {
    const labels = browserCases(selection());
    $("cases").textContent = `${labels.length} cases: ${labels.join(", ")}`;
    $<HTMLButtonElement>("run").disabled = labels.length === 0;
  } catch (e) {
    $("cases").textContent = (e as Error).message;
    $<HTMLButtonElement>("run").disabled = true;
  }
}

function addRow(record: CaseRecord, index: number): void {
  const row = document.createElement("tr");
  const ms = record.timings?.phases.total?.median;
  const ok = record.status === "ok";
  row.innerHTML = [
    `<td class="num">${index + 1}</td>`,
    `<td>${escapeHtml(record.scene)}</td>`,
    `<td>${escapeHtml(record.handler)}</td>`,
    `<td class="${ok ? "ok" : "bad"}">${escapeHtml(record.status)}${
      record.error ? `: ${escapeHtml(record.error)}` : ""
    }</td>`,
    `<td class="num">${ms === undefined ? "–" : ms.toFixed(1)}</td>`,
    `<td class="num">${record.metrics?.summary.passThroughMax ?? "–"}</td>`,
    `<td><code>${escapeHtml((record.stateHash ?? "").slice(0, 12))}</code></td>`,
  ].join("");
  $("results").querySelector("tbody")!.append(row);
}

async function fetchJson<T>(path: string): Promise<T> {
  const res = await fetch(path);
  if (!res.ok) {
    throw new Error(`cannot load ${path}: HTTP ${res.status} (rebuild with deno task web)`);
  }
  return await res.json() as T;
}

/** Renders the report of `records` into the page's frame; returns its size in characters. */
async function showReport(records: CaseRecord[]): Promise<number> {
  const libraries = await fetchJson<VendorLibraries>("libraries.json");
  const html = renderReportPage([{ label: "this browser", records }], {
    libraries,
    title: "mergesplit report (browser bench)",
  });
  $("report-section").hidden = false;
  $<HTMLIFrameElement>("report").srcdoc = html;
  return html.length;
}

/** Sends the run's outcome to `path` of this origin (the browser test's channel). */
async function report(path: string, outcome: unknown): Promise<void> {
  await fetch(path, { method: "POST", body: JSON.stringify(outcome) });
}

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  fillForm(params);
  previewCases();
  for (const id of ["suite", "scenes", "handlers", "scale"]) {
    $(id).addEventListener("change", previewCases);
  }
  const build = await fetchJson<BuildInfo>("build.json");
  const haveGpu = await showAdapter();
  let cancelled = false;
  let records: CaseRecord[] = [];
  const post = params.get("post");
  const run = async () => {
    if (!haveGpu) {
      if (post) await report(post, { lines: [], claims: [], error: $("adapter").textContent });
      return;
    }
    const runButton = $<HTMLButtonElement>("run");
    const cancel = $<HTMLButtonElement>("cancel");
    runButton.disabled = true;
    cancel.disabled = false;
    cancelled = false;
    $("results").querySelector("tbody")!.innerHTML = "";
    $("error").hidden = true;
    let lines: string[] = [];
    let error: string | null = null;
    try {
      const out = await runBrowserBench(selection(), {
        build,
        cancelled: () => cancelled,
        onCase: (record, _line, index) => addRow(record, index),
        onProgress: (fraction, label) => {
          $<HTMLProgressElement>("progress").value = fraction;
          $("progress-label").textContent = label;
        },
      });
      records = out.records;
      lines = out.lines;
      if (out.interrupted) $("progress-label").textContent = "cancelled";
    } catch (e) {
      error = (e as Error).stack ?? String(e);
      $("error").textContent = error;
      $("error").hidden = false;
    }
    runButton.disabled = false;
    cancel.disabled = true;
    const text = lines.map((l) => `${l}\n`).join("");
    const link = $<HTMLAnchorElement>("download");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/jsonl" }));
    link.hidden = lines.length === 0;
    $<HTMLButtonElement>("show-report").disabled = records.length === 0;
    // report=1: the report at once (the browser test checks that it renders)
    const reportChars = params.get("report") === "1" && records.length
      ? await showReport(records)
      : 0;
    if (post) {
      const claims = evaluateClaims(records).map(({ claim, result }) => ({
        id: claim.id,
        status: result.status,
      }));
      await report(post, { lines, claims, error, reportChars });
    }
  };
  $("form").addEventListener("submit", (e) => {
    e.preventDefault();
    run();
  });
  $("cancel").addEventListener("click", () => (cancelled = true));
  $("show-report").addEventListener("click", () => showReport(records));
  if (params.get("run") === "1") await run();
}

main().catch(async (e) => {
  const error = (e as Error).stack ?? String(e);
  $("error").textContent = error;
  $("error").hidden = false;
  const post = new URLSearchParams(location.search).get("post");
  if (post) await report(post, { lines: [], claims: [], error });
});
