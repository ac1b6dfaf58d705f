/**
 * The HTML report: one self-contained file with the run's header and problem warnings, the
 * paper's claims, the scene × handler matrix, the fidelity tables (fracture, fluids), Table I with
 * stacked phase bars and phase shares, for a scale sweep the scaling of the step time with the particle count, for parameter sweeps
 * (`--sweep`) the leaks and stability against the swept value, the metric time series,
 * a three.js viewer of the snapshots and, for several inputs, the comparison of timings.
 * chart.js and three.js are inlined (the file opens offline, with no server) or, with `cdn`,
 * loaded from a CDN at the installed versions. Text from result files is HTML-escaped; the data
 * for the page's script is embedded as script-safe JSON.
 *
 * Opening the file with `#selftest` appended to its URL makes the page check itself and write a
 * JSON verdict into `#selftest` (see reports/page/browser_test.ts).
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import { distinct, latestCases } from "../case_key.ts";
import { renderClaimsTable } from "../claims/claims_table.ts";
import { compareInputs, type Comparison, renderComparison } from "../sections/comparison.ts";
import { ENERGY_GAIN_MAX, LEAK_FRACTION_MIN } from "../claims/claims.ts";
import { escapeHtml, scriptJson } from "./escape_html.ts";
import { formatNumber } from "./format_number.ts";
import { clientCase, type ReportData } from "./report_data.ts";
import { phaseShareChart, renderPhaseShares } from "../sections/phase_shares.ts";
import { REPORT_CSS } from "./report_style.ts";
import { renderRunSummary } from "../sections/run_summary.ts";
import { renderScalingSection, scalingCharts, scalingSeries } from "../sections/scaling_section.ts";
import { renderSceneMatrix } from "../sections/scene_matrix.ts";
import {
  hasSweeps,
  renderSweepSection,
  sweepCharts,
  sweepSeries,
} from "../sections/sweep_section.ts";
import { hasBudget, renderBudgetSection } from "../sections/budget_section.ts";
import { hasGrouping, renderGroupingSection } from "../sections/grouping_section.ts";
import { ablation, renderAblation } from "../claims/ablation.ts";
import { hasFidelity, renderFidelitySection } from "../sections/fidelity_section.ts";
import { comparePaperTableOne, renderPaperTableOne } from "../tables/paper_table_one.ts";
import { phaseNames, renderTableOne } from "../tables/table_one.ts";
import type { PublishTableName } from "../tables/publish_tables.ts";
import { FORMAT_NAMES, type PublishFormat } from "../tables/table_writers.ts";
import type { VendorLibraries } from "./vendor_libraries.ts";
import reportClientJs from "./report_client.bundle.js" with { type: "text" };

/** One result file (or any set of records) to report on, with the label the report shows. */
export interface ReportInput {
  label: string;
  records: CaseRecord[];
  /**
   * A warning per line of the file that was left out (torn, not JSON, a malformed record): the
   * run summary lists them.
   */
  skipped?: readonly string[];
  /**
   * One line per case list the records' places name (`reports/sections/case_coverage.ts`): complete, or
   * the cases missing and duplicated (a merge of a sharded run's files).
   */
  coverage?: readonly string[];
}

/** Options of {@link renderReportPage}. */
export interface RenderReportOptions {
  /** Reference chart.js and three.js on a CDN instead of inlining them (a much smaller file). */
  cdn?: boolean;
  /** Page title; default "mergesplit report" with the input labels. */
  title?: string;
  /**
   * The comparison of the inputs where the caller has computed it (`compareInputs` of the same
   * inputs); default computed here, for several inputs.
   */
  comparison?: Comparison | null;
  /** Tables written beside the page (`--format`), linked from their sections. */
  published?: readonly PublishedFile[];
}

/** Options of {@link renderReportPage}: those of the report, and the libraries it uses. */
export interface ReportPageOptions extends RenderReportOptions {
  /**
   * chart.js and three.js: inlined, or with `cdn` their CDN addresses (Deno reads them from
   * node_modules, `vendorLibraries`; a browser page from the files its build put beside it).
   */
  libraries: VendorLibraries;
}

/** A table written in a publishing format beside the report, and its address relative to it. */
export interface PublishedFile {
  table: PublishTableName;
  format: PublishFormat;
  /** Relative URL of the file from the report (its file name when they share a folder). */
  href: string;
}

/** "Also as Markdown, CSV, LaTeX" with links to the files of `table`, or "" when none was written. */
function publishedLinks(published: readonly PublishedFile[], table: PublishTableName): string {
  const files = published.filter((p) => p.table === table);
  if (!files.length) return "";
  return `<p class="muted published">Also as ${
    files.map((p) => `<a href="${escapeHtml(p.href)}">${FORMAT_NAMES[p.format]}</a>`).join(", ")
  }.</p>`;
}

/** Installs console.error / error hooks before anything else runs (read by the self-test). */
const ERROR_HOOK = `window.__reportErrors = [];
(function () {
  var list = window.__reportErrors, original = console.error;
  console.error = function () {
    list.push(Array.prototype.map.call(arguments, String).join(" "));
    return original.apply(console, arguments);
  };
  window.addEventListener("error", function (e) {
    var t = e.target;
    if (t && t !== window && (t.src || t.href)) list.push("failed to load " + (t.src || t.href));
    else list.push("error: " + (e.message || String(e.error)));
  }, true);
  window.addEventListener("unhandledrejection", function (e) {
    list.push("unhandled rejection: " + String(e.reason && e.reason.message || e.reason));
  });
})();`;

/** Makes JavaScript source safe inside a `<script>` element (no `</script`, no `<!--`). */
function inlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}

function viewerSection(hasSnapshots: boolean): string {
  if (!hasSnapshots) {
    return `<p class="muted">No case has snapshots (the optional <code>snapshots</code> field), so there is nothing to show in 3D.</p>`;
  }
  return `<div id="viewer">
<div class="controls">
  <label>case <select id="viewer-case"></select></label>
  <button id="viewer-play" type="button">Play</button>
  <input id="viewer-frame" type="range" min="0" max="0" value="0" aria-label="frame">
  <span id="viewer-time" class="muted"></span>
  <label>colour <select id="viewer-color"><option value="fragment">fragment</option><option value="body">body</option></select></label>
</div>
<div class="controls">
  <label><input id="viewer-clip" type="checkbox" checked> cross-section</label>
  <label>axis <select id="viewer-axis"><option value="z">z</option><option value="x">x</option></select></label>
  <input id="viewer-clip-pos" type="range" min="0" max="1000" value="500" aria-label="clip position">
  <span id="viewer-clip-label" class="muted"></span>
  <span id="viewer-legend"></span>
</div>
<canvas id="viewer-canvas"></canvas>
<p class="muted">Drag to orbit, scroll to zoom. The clip plane keeps the particles behind it, like the paper's cross-sections. Colour by fragment (the default where a case records fragments of its solid bodies): the largest fragment of the frame slate grey, each other fragment its own colour, particles outside solids in their body's colour; by body: one colour per body.</p>
</div>`;
}

/** What the report's sections are rendered from: the inputs' latest cases and what they hold. */
interface ReportContext {
  inputs: readonly ReportInput[];
  /** Each input's latest record of each case, with its label. */
  sets: { label: string; records: CaseRecord[] }[];
  all: CaseRecord[];
  title: string;
  /** Table I's phases of the records, "total" left out. */
  phases: string[];
  comparison: Comparison | null;
  published: readonly PublishedFile[];
  shares: ReturnType<typeof phaseShareChart>[];
  scaling: ReturnType<typeof scalingSeries>[];
  sweeps: ReturnType<typeof sweepSeries>[];
  ablations: ReturnType<typeof ablation>[];
  hasScaling: boolean;
  hasSweep: boolean;
  budget: boolean;
  grouping: boolean;
  fidelity: boolean;
  paperScenes: boolean;
  hasSnapshots: boolean;
  /** Whether there are several inputs (each input's part of a section gets its label). */
  multi: boolean;
}

/** The chart id prefix of input `i`'s scaling charts. */
const scalingPrefix = (i: number) => `scaling-chart-${i}`;
/** The chart id prefix of input `i`'s sweep charts. */
const sweepPrefix = (i: number) => `sweep-chart-${i}`;

/**
 * Renders the report of `inputs` (each a result file's records, read with `readResults`) as
 * one HTML document. With several inputs, a comparison of their timings (relative to the first)
 * is added, with the libraries of `options.libraries`.
 */
export function renderReportPage(
  inputs: readonly ReportInput[],
  options: ReportPageOptions,
): string {
  const c = reportContext(inputs, options);
  const sections = [
    summarySection(c),
    claimsSection(c),
    ablationSection(c),
    matrixSection(c),
    fidelitySection(c),
    viewerSectionOf(c),
    tableOneSection(c),
    scalingSection(c),
    sweepsSection(c),
    budgetSection(c),
    groupingSection(c),
    `<section id="series"><h2>Metric time series</h2><p class="muted">One chart per metric and scene, one line per handler.</p><div id="series-root"></div></section>`,
    comparisonSection(c),
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="mergesplit reports/page/report.ts">
<title>${escapeHtml(c.title)}</title>
<style>${REPORT_CSS}</style>
<script>${ERROR_HOOK}</script>
</head>
<body>
<header class="top"><h1>${
    escapeHtml(c.title)
  }</h1><p>Particle Merging-and-Splitting (Truong et al., IEEE TVCG 2021): reproduction harness results. ${
    librariesNote(options)
  }</p></header>
<nav>${reportNav(c)}</nav>
<main>
${sections.join("\n")}
<pre id="selftest" hidden></pre>
</main>
<script type="application/json" id="report-data">${scriptJson(reportData(c))}</script>
${libraryScripts(options)}
<script>${inlineScript(reportClientJs)}</script>
</body>
</html>
`;
}

/**
 * Reads what the report shows out of its inputs once (their latest cases, the comparison, the
 * charts' series and which optional sections there are), for the sections to render from.
 */
function reportContext(inputs: readonly ReportInput[], options: ReportPageOptions): ReportContext {
  const sets = inputs.map((i) => ({ label: i.label, records: latestCases(i.records) }));
  const all = sets.flatMap((s) => s.records);
  const title = options.title ??
    `mergesplit report: ${sets.map((s) => s.label).join(" vs ") || "no input"}`;
  const phases = phaseNames(all).filter((p) => p !== "total");
  const comparison = sets.length > 1 ? options.comparison ?? compareInputs(sets) : null;
  const shares = sets.map((s, i) =>
    phaseShareChart(s.records, { chartId: `phase-share-chart-${i}`, phases })
  );
  const scaling = sets.map((s) => scalingSeries(s.records));
  // From the records as read: the cases of a sweep share scene, handler and scale.
  const sweeps = inputs.map((input) => sweepSeries(input.records));
  return {
    inputs,
    sets,
    all,
    title,
    phases,
    comparison,
    published: options.published ?? [],
    shares,
    scaling,
    sweeps,
    ablations: sets.map((s) => ablation(s.records)),
    hasScaling: scaling.some((s) => s.length > 0),
    hasSweep: sweeps.some(hasSweeps),
    budget: sets.some((s) => hasBudget(s.records)),
    grouping: sets.some((s) => hasGrouping(s.records)),
    fidelity: sets.some((s) => hasFidelity(s.records)),
    paperScenes: sets.some((s) => comparePaperTableOne(s.records).length > 0),
    hasSnapshots: all.some((r) => r.snapshots?.frames?.length),
    multi: sets.length > 1,
  };
}

/** The data of the page's script: each input's cases and charts, and the comparison. */
function reportData(c: ReportContext): ReportData {
  return {
    title: c.title,
    phases: c.phases,
    handlers: distinct(c.all.map((r) => r.handler)),
    inputs: c.sets.map((s, i) => ({
      label: s.label,
      phasesChartId: `phases-chart-${i}`,
      cases: s.records.map((r, k) => clientCase(r, { id: `${i}-${k}`, among: s.records })),
      phaseShares: c.shares[i],
      scaling: scalingCharts(c.scaling[i], { chartIdPrefix: scalingPrefix(i) }),
      sweeps: sweepCharts(c.sweeps[i], { chartIdPrefix: sweepPrefix(i) }),
    })),
    comparison: c.comparison ? { ...c.comparison, chartId: "comparison-chart" } : null,
  };
}

/** Each input's part of a section, under its label when there are several inputs. */
function perInput(
  c: ReportContext,
  render: (s: ReportContext["sets"][number], i: number) => string,
): string {
  return c.sets.map((s, i) => (c.multi ? `<h3>${escapeHtml(s.label)}</h3>` : "") + render(s, i))
    .join("\n");
}

/** The header's line on chart.js and three.js: their versions inlined, or the CDN. */
function librariesNote(options: ReportPageOptions): string {
  const versions = options.cdn ? null : options.libraries;
  return versions
    ? `chart.js ${escapeHtml(versions.chartJs.version)} and three.js ${
      escapeHtml(versions.three.version)
    } inlined.`
    : "chart.js and three.js load from a CDN.";
}

/** The script elements of chart.js and three.js: inlined, or their CDN addresses. */
function libraryScripts(options: ReportPageOptions): string {
  const lib = options.cdn ? null : options.libraries;
  return options.cdn
    ? `<script type="application/json" id="three-src">${
      scriptJson({ url: options.libraries.three.cdnUrl })
    }</script>
<script src="${escapeHtml(options.libraries.chartJs.cdnUrl)}"></script>`
    : `<script type="application/json" id="three-src">${
      scriptJson({
        core: lib!.three.core,
        module: lib!.three.module,
        coreSpecifier: lib!.three.coreSpecifier,
      })
    }</script>
<script>${inlineScript(lib!.chartJs.umd)}</script>`;
}

/** The page's navigation: a link to each section it has. */
function reportNav(c: ReportContext): string {
  return [
    ["summary", "Run"],
    ["claims", "Claims"],
    ...(c.ablations.some(Boolean) ? [["ablation", "Ablation"]] : []),
    ["matrix", "Scene × handler"],
    ...(c.fidelity ? [["fidelity", "Fidelity"]] : []),
    ["viewer-section", "3D view"],
    ["table-1", "Table I"],
    ...(c.hasScaling ? [["scaling", "Scaling"]] : []),
    ...(c.hasSweep ? [["sweeps", "Sweeps"]] : []),
    ...(c.budget ? [["budget", "Budget"]] : []),
    ...(c.grouping ? [["grouping", "Grouping"]] : []),
    ["series", "Time series"],
    ...(c.multi ? [["comparison", "Comparison"]] : []),
  ].map(([id, text]) => `<a href="#${id}">${text}</a>`).join("");
}

/**
 * The notes above the run summary: the lines of each input that were skipped, each input's case
 * list coverage, and the cases that appear more than once (the last record of each is shown).
 */
function inputNotes(c: ReportContext): string {
  const { inputs, sets } = c;
  const duplicates = inputs.map((input, k) => input.records.length - sets[k].records.length);
  const dupNote = duplicates.some((d) => d > 0)
    ? `<div class="note">Some cases appear more than once in an input; the last record of each is shown (${
      inputs.map((i, k) => `${escapeHtml(i.label)}: ${duplicates[k]} replaced`).join(", ")
    }).</div>`
    : "";
  const skippedNote = inputs.filter((i) => i.skipped?.length).map((i) =>
    `<div class="warning"><strong>${escapeHtml(i.label)}: ${
      i.skipped!.length
    } line(s) of the results file skipped</strong> (torn, or not a record of the schema: each names its line and field; the other cases are shown)<ul>${
      i.skipped!.map((w) => `<li>${escapeHtml(w)}</li>`).join("")
    }</ul></div>`
  ).join("");
  const coverageNote = inputs.filter((i) => i.coverage?.length).map((i) => {
    const bad = i.coverage!.some((l) => !l.endsWith(", complete"));
    return `<div class="${bad ? "warning" : "note"}"><strong>${
      escapeHtml(i.label)
    }: the run's case list</strong><ul>${
      i.coverage!.map((w) => `<li>${escapeHtml(w)}</li>`).join("")
    }</ul></div>`;
  }).join("");
  return `${skippedNote}${coverageNote}${dupNote}`;
}

/** The run section: the inputs' notes and each input's run summary. */
function summarySection(c: ReportContext): string {
  return `<section id="summary"><h2>Run</h2>${inputNotes(c)}<div class="runs">${
    c.sets.map((s) => renderRunSummary(s)).join("\n")
  }</div></section>`;
}

/** The claims of the paper, read from the cases run under the paper's setup. */
function claimsSection(c: ReportContext): string {
  return `<section id="claims"><h2>Claims of the paper</h2><p class="muted">Read from the cases run under the paper's setup (<code>core/setups.ts</code>: index-order grouping, meta-particles in both systems, stage 2 cold, no position corrections); records made before setups are read as they are.</p>${
    publishedLinks(c.published, "claims")
  }${renderClaimsTable(c.sets)}</section>`;
}

/** The ablation: each claim under each variant the run holds ("" when there is none). */
function ablationSection(c: ReportContext): string {
  if (!c.ablations.some(Boolean)) return "";
  return `<section id="ablation"><h2>Ablation: each claim under each variant</h2><p class="muted">The claims under the paper's setup and under each variant the run holds (<code>--variant</code>), the paper's choices with one changed; ◆ marks a verdict that moves. A variant run at fewer seeds than the paper's setup is judged at its seeds (named in its cell) and set against the paper's verdict at the same seeds. Hover a heading for the variant.</p>${
    publishedLinks(c.published, "ablation")
  }${
    perInput(c, (_s, i) =>
      c.ablations[i]
        ? renderAblation(c.ablations[i]!)
        : `<p class="muted">No variant in this input.</p>`)
  }</section>`;
}

/** The scene × handler matrix of each input. */
function matrixSection(c: ReportContext): string {
  return `<section id="matrix"><h2>Scene × handler</h2><p class="muted">Red: status not ok, fluid passed through, exploded or energy gained; amber: deep penetration, high speed or strong dissipation. Hover a failed cell for its error.</p>${
    publishedLinks(c.published, "matrix")
  }${perInput(c, (s) => renderSceneMatrix(s.records))}</section>`;
}

/** The fidelity tables, fracture and fluids ("" when no case has them). */
function fidelitySection(c: ReportContext): string {
  if (!c.fidelity) return "";
  return `<section id="fidelity"><h2>Fidelity: fracture and fluids</h2><p class="muted">Per scene × handler, its scales smallest first (whether a statistic converges with resolution reads down the rows); values over the seeds that finished ok, <code>least–most</code> where they differ (the others counted under status). Hover a heading for its definition.</p>${
    perInput(c, (s) =>
      renderFidelitySection(s.records, {
        links: {
          fracture: publishedLinks(c.published, "fracture"),
          fluid: publishedLinks(c.published, "fluid"),
        },
      }))
  }</section>`;
}

/** The 3D view of the snapshots. */
function viewerSectionOf(c: ReportContext): string {
  return `<section id="viewer-section"><h2>3D view of the snapshots</h2>${
    viewerSection(c.hasSnapshots)
  }</section>`;
}

/** Table I with its phase shares, and beside the paper's Table I where the scenes are the paper's. */
function tableOneSection(c: ReportContext): string {
  return `<section id="table-1"><h2>Table I: particles and time per phase</h2>${
    publishedLinks(c.published, "table1")
  }${
    perInput(c, (s, i) =>
      renderTableOne(s.records, { chartId: `phases-chart-${i}` }) +
      renderPhaseShares(c.shares[i]))
  }${
    c.paperScenes
      ? `<h3 id="table-1-paper">Beside the paper's Table I</h3>${
        publishedLinks(c.published, "table1-paper")
      }${perInput(c, (s) => renderPaperTableOne(s.records))}`
      : ""
  }</section>`;
}

/** The scaling of the step time with the particle count ("" when no case ran at several scales). */
function scalingSection(c: ReportContext): string {
  if (!c.hasScaling) return "";
  return `<section id="scaling"><h2>Scaling with the particle count</h2><p class="muted">Cases run at several scales (<code>--scale tiny,small,medium</code>): per scene, the median step time per particle (ns per particle-step = median ms/step × 10⁶ / N, N = solid + fluid particles) against N on log–log axes, one line per handler; a flat line is linear scaling. k is the exponent of step time ∝ N^k, a least-squares fit of log time on log N over the sizes that finished ok (dashed; crosses: sizes not ok, left out of the fit).</p>${
    perInput(c, (s, i) =>
      c.scaling[i].length
        ? renderScalingSection(c.scaling[i], { chartIdPrefix: scalingPrefix(i) })
        : `<p class="muted">No case of ${escapeHtml(s.label)} ran at more than one scale.</p>`)
  }</section>`;
}

/** The parameter sweeps: leaks and stability against the swept value ("" when none). */
function sweepsSection(c: ReportContext): string {
  if (!c.hasSweep) return "";
  return `<section id="sweeps"><h2>Parameter sweeps</h2><p class="muted">Cases run with <code>--sweep</code>, one per swept value. A handler parameter (<code>&lt;handler&gt;.&lt;param&gt;</code>): per scene and scale, the pass-through fraction (<code>passThroughFraction</code>: of the particles that can cross a sheet, the most on its other side at any sample; left axis, dots; a dotted line at the leak threshold ${
    escapeHtml(formatNumber(LEAK_FRACTION_MIN))
  }) and the energy ratio end / start (right axis, triangles, drawn at most 2) against the swept value, unstable cases (recorded unstable, exploded or more than ${
    escapeHtml(formatNumber(100 * ENERGY_GAIN_MAX))
  } % energy gained) as red crosses, merge-split's pass-through on the same scene and scale (its unswept case) as a horizontal line. Cases that also swept other keys (e.g. <code>scene.dt</code>) give one series per combination of those keys' values. The working window is the range of swept values at which the case finished ok, did not explode, stayed stable and let at most ${
    escapeHtml(formatNumber(LEAK_FRACTION_MIN))
  } of the particles through. The time step (<code>scene.dt</code>): per handler, the largest dt that finished ok and stable and the smallest that was unstable.</p>${
    perInput(c, (s, i) =>
      hasSweeps(c.sweeps[i])
        ? renderSweepSection(c.sweeps[i], { chartIdPrefix: sweepPrefix(i) })
        : `<p class="muted">No case of ${escapeHtml(s.label)} was part of a sweep.</p>`)
  }</section>`;
}

/** The momentum and energy budget of a step ("" when no case measured it). */
function budgetSection(c: ReportContext): string {
  if (!c.budget) return "";
  return `<section id="budget"><h2>Momentum and energy budget of a step</h2><p class="muted">Measured on the steps that end with a metrics sample (<code>gpu/metrics/step_budget.ts</code>): the state is reduced at each phase boundary of the step whose result is kept (stage 2's when it ran). Energies: mean change per step in mJ (kinetic; the integration column adds gravity's and the bonds' elastic change); the seven phases sum to the step's. Momentum: the worst change of a phase that conserves it, over Σ m|v| + Δt|g|Σ m of that step (f32 rounding is about 10⁻⁷). Hover a heading for its definition.</p>${
    perInput(c, (s) => renderBudgetSection(s.records))
  }</section>`;
}

/** Merge-split's grouping: its dispatches and the meta-particles it formed ("" when none ran). */
function groupingSection(c: ReportContext): string {
  if (!c.grouping) return "";
  return `<section id="grouping"><h2>Merge-split's grouping (§5.2)</h2><p class="muted">Which grouping ran (<code>--param merge-split.grouping=index-order</code>: the paper's pass in particle-index order; <code>compact</code>: parallel rounds of pairwise merging), the dispatches it encodes per stage, and per integration stage the meta-particles it formed over the run (sizes from a histogram counted on the GPU) and the colliding pairs it left between two groups. Hover a heading for its definition.</p>${
    perInput(c, (s) => renderGroupingSection(s.records))
  }</section>`;
}

/** The comparison of the inputs' timings, relative to the first ("" with one input). */
function comparisonSection(c: ReportContext): string {
  if (!c.comparison) return "";
  return `<section id="comparison"><h2>Comparison of timings</h2><p class="muted">Cases matched by scene, handler, scale and configuration hash; speed-ups over ${
    escapeHtml(c.sets[0].label)
  }: its median step time over the other input's (red: more than 10% slower, green: more than 10% faster).</p>${
    publishedLinks(c.published, "comparison")
  }${renderComparison(c.comparison, { chartId: "comparison-chart" })}</section>`;
}
