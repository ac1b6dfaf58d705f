/**
 * `deno task web-check`: the browser bench against the Deno bench on this machine. Builds the
 * page, runs a suite (default: `default` at `tiny`) in headless Chromium (WebGPU on SwiftShader
 * where there is no GPU) and the same cases in Deno (its default adapter), then checks that every
 * browser case ended `ok`, that both runs give the same claim outcomes, and that `deno task
 * report` reads the browser's file and compares it with Deno's. Writes both `results.jsonl` files,
 * the report and a side-by-side table (`comparison.md`: time per case, claims, state hashes) to
 * `--out`. Exit status 0 when every check holds, 1 otherwise. Run by `.ci/run`.
 *
 * @module
 */
import { parseArgs } from "node:util";
import type { CaseRecord } from "../core/result.ts";
import { readResults } from "../core/result.ts";
import type { Scale } from "../core/scene/scene.ts";
import { runSuite } from "../bench/runner.ts";
import { resolveCases } from "../bench/cases/suite.ts";
import { captureEnvironment } from "../bench/environment.ts";
import { evaluateClaims } from "../reports/claims/claims.ts";
import { writeReport } from "../reports/page/write_report.ts";
import { buildPage } from "./build_page.ts";
import { runPageInChromium } from "./chromium_page.ts";
import { writeFileAtomic } from "../core/io/write_file_atomic.ts";
import { readOptionNumber } from "../core/option_text.ts";
import { mainOrUsageError } from "../bench/tools/tool_options.ts";

/** One case side by side. */
interface CaseRow {
  label: string;
  browser?: CaseRecord;
  deno?: CaseRecord;
}

const ms = (r?: CaseRecord) => r?.timings?.phases.total.median?.toFixed(2) ?? "–";
const wall = (r?: CaseRecord) => r?.wallSeconds?.toFixed(1) ?? "–";

/** Each claim's outcome on `records`, by claim id. */
function claimOutcomes(records: readonly CaseRecord[]): Map<string, string> {
  return new Map(evaluateClaims(records).map(({ claim, result }) => [claim.id, result.status]));
}

/** The side-by-side table of two runs of the same cases, in Markdown. */
export function comparisonMarkdown(
  browser: readonly CaseRecord[],
  deno: readonly CaseRecord[],
): string {
  const key = (r: CaseRecord) => `${r.scene} × ${r.handler} (seed ${r.seed})`;
  const rows = new Map<string, CaseRow>();
  for (const r of deno) rows.set(key(r), { label: key(r), deno: r });
  for (const r of browser) rows.set(key(r), { ...rows.get(key(r)), label: key(r), browser: r });
  const adapter = (rs: readonly CaseRecord[]) => {
    const a = rs[0]?.env?.adapter;
    return a?.description || [a?.vendor, a?.architecture].filter(Boolean).join(" ") || "?";
  };
  const out = [
    `browser: ${browser[0]?.env?.browser?.userAgent ?? "?"} on ${adapter(browser)}; ` +
    `Deno ${deno[0]?.env?.deno ?? "?"} on ${adapter(deno)}`,
    "",
    "| case | browser status | Deno status | browser ms/step | Deno ms/step | browser s | Deno s | state hash |",
    "| --- | --- | --- | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const row of rows.values()) {
    const b = row.browser, d = row.deno;
    const same = b?.stateHash && b.stateHash === d?.stateHash ? "same" : "differs";
    out.push(
      `| ${row.label} | ${b?.status ?? "–"} | ${d?.status ?? "–"} | ${ms(b)} | ${ms(d)} | ` +
        `${wall(b)} | ${wall(d)} | ${same} |`,
    );
  }
  const cb = claimOutcomes(browser), cd = claimOutcomes(deno);
  out.push("", "| claim | browser | Deno |", "| --- | --- | --- |");
  for (const [id, status] of cd) out.push(`| ${id} | ${cb.get(id) ?? "–"} | ${status} |`);
  return `${out.join("\n")}\n`;
}

/** What differs between the runs' outcomes: cases not `ok` in the browser, claims that differ. */
export function checkRuns(browser: readonly CaseRecord[], deno: readonly CaseRecord[]): string[] {
  const problems: string[] = [];
  if (browser.length !== deno.length) {
    problems.push(`the browser ran ${browser.length} cases, Deno ${deno.length}`);
  }
  for (const r of browser) {
    if (r.status !== "ok") {
      problems.push(`${r.scene} × ${r.handler}: ${r.status} in the browser (${r.error ?? ""})`);
    }
  }
  const cb = claimOutcomes(browser), cd = claimOutcomes(deno);
  for (const [id, status] of cd) {
    if (cb.get(id) !== status) {
      problems.push(`claim ${id}: ${cb.get(id)} in the browser, ${status} in Deno`);
    }
  }
  return problems;
}

async function main(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      suite: { type: "string", default: "default" },
      scale: { type: "string", default: "tiny" },
      out: { type: "string", default: new URL("./dist/check", import.meta.url).pathname },
      "timeout-minutes": { type: "string", default: "45" },
    },
    strict: true,
  });
  const timeoutMs = readOptionNumber("timeout-minutes", values["timeout-minutes"]!, { min: 1 }) *
    60_000;
  const out = values.out;
  const page = `${out}/page`;
  await Deno.mkdir(out, { recursive: true });
  await buildPage(page);
  const scale = values.scale as Scale;
  console.error(`browser: suite ${values.suite} at ${scale} in headless Chromium …`);
  const outcome = await runPageInChromium(page, {
    query: `suite=${encodeURIComponent(values.suite)}&scale=${scale}`,
    timeoutMs,
  });
  if (outcome.error) {
    console.error(`the page failed: ${outcome.error}`);
    return 1;
  }
  const browserFile = `${out}/results-browser.jsonl`;
  writeFileAtomic(browserFile, outcome.lines.map((l) => `${l}\n`).join(""));
  const browserRead = readResults(await Deno.readTextFile(browserFile));
  console.error(`browser: ${browserRead.records.length} cases in ${outcome.seconds.toFixed(0)} s`);

  console.error(`Deno: the same cases on its default adapter …`);
  const denoFile = `${out}/results-deno.jsonl`;
  writeFileAtomic(denoFile, "");
  const t0 = performance.now();
  const cases = resolveCases({ suite: values.suite, scenes: [], handlers: [], scale });
  const deno = await runSuite(cases, { adapter: "default", repeat: 1, timeout: 600 }, {
    environment: captureEnvironment,
    resultsFile: denoFile,
  });
  console.error(
    `Deno: ${deno.records.length} cases in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );

  const problems = checkRuns(browserRead.records, deno.records);
  if (browserRead.skipped.length) {
    problems.push(`deno task report's reader skipped ${browserRead.skipped.length} browser lines`);
  }
  const report = writeReport([browserFile, denoFile], {
    out: `${out}/report.html`,
    labels: ["browser", "Deno"],
  });
  const table = comparisonMarkdown(browserRead.records, deno.records);
  writeFileAtomic(`${out}/comparison.md`, table);
  console.log(table);
  console.log(`report: ${report.path}`);
  for (const p of problems) console.error(`web-check: ${p}`);
  console.error(problems.length ? "web-check: FAILED" : "web-check: ok");
  return problems.length ? 1 : 0;
}

if (import.meta.main) Deno.exit(await mainOrUsageError(main, Deno.args));
