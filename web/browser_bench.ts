/**
 * The bench in a browser page: the same case list (`resolveCases`), the same protocol and the same
 * records as `deno task bench` (`runSuite`), on the page's WebGPU adapter. Only the host differs:
 * each record goes to a callback instead of `results.jsonl`, and its environment names the
 * browser ({@link browserEnvironment}).
 *
 * @module
 */
import type { CaseRecord } from "../core/result.ts";
import type { Scale } from "../core/scene/scene.ts";
import { caseSteps, type ProtocolOptions, runSuite } from "../bench/runner.ts";
import { resolveCases } from "../bench/cases/suite.ts";
import { getSuite } from "../bench/cases/suites.ts";
import { browserEnvironment, type BuildInfo } from "./browser_environment.ts";

/** What to run: as `deno task bench --suite … --scene … --handler … --scale …`. */
export interface BrowserSelection {
  /** A suite name (`bench/cases/suites.ts`); with scenes or handlers, the cases of both. */
  suite?: string;
  /** Scene ids or globs (empty: the suite's). */
  scenes: readonly string[];
  /** Handler ids or globs (empty: the suite's). */
  handlers: readonly string[];
  scale: Scale;
  /** Steps per repetition (default: the scene's duration). */
  steps?: number;
  /** Per-case limit in seconds (default 600, as the bench's). */
  timeout?: number;
}

/** Progress and results as the run goes. */
export interface BrowserBenchHooks {
  /** Each finished case: its record, its `results.jsonl` line, its index and the case count. */
  onCase?: (record: CaseRecord, line: string, index: number, total: number) => void;
  /** The share of all steps done (0 … 1) and the current case's label. */
  onProgress?: (fraction: number, label: string) => void;
  /** Polled between batches of steps: true stops the run (the current case is not recorded). */
  cancelled?: () => boolean;
}

/** The outcome of {@link runBrowserBench}. */
export interface BrowserBenchResult {
  records: CaseRecord[];
  /** The records as the lines of a `results.jsonl`. */
  lines: string[];
  interrupted: boolean;
}

/** The case labels of a selection (`scene × handler`), for the page to show before it runs. */
export function browserCases(selection: BrowserSelection): string[] {
  return cases(selection).map((c) => `${c.scene.id} × ${c.handler}`);
}

function cases(selection: BrowserSelection) {
  return resolveCases({
    suite: selection.suite,
    scenes: selection.scenes,
    handlers: selection.handlers,
    scale: selection.scale,
    // the page cannot read the machine's memory: the harness's own size limits apply
    memoryBytes: Infinity,
  });
}

/** Runs the cases of `selection` on the page's default adapter, one after the other. */
export async function runBrowserBench(
  selection: BrowserSelection,
  options: BrowserBenchHooks & { build: BuildInfo },
): Promise<BrowserBenchResult> {
  const run = cases(selection);
  const protocol: ProtocolOptions = {
    adapter: "default",
    // the suite's own steps (the hardware suite's 200) unless the page gives some
    steps: selection.steps ?? (selection.suite ? getSuite(selection.suite).steps : undefined),
    repeat: 1,
    timeout: selection.timeout ?? 600,
  };
  const stepsOf = run.map((c) => caseSteps(c, protocol));
  const total = stepsOf.reduce((a, b) => a + b, 0);
  let before = 0;
  let current = 0;
  let label = "";
  const lines: string[] = [];
  const { records, interrupted } = await runSuite(run, protocol, {
    environment: (adapter) => browserEnvironment(adapter, { build: options.build }),
    write: (line) => {
      lines.push(line);
      options.onCase?.(JSON.parse(line) as CaseRecord, line, current, run.length);
    },
    interrupted: options.cancelled,
    progress: {
      caseStart(index, name) {
        current = index;
        before = stepsOf.slice(0, index).reduce((a, b) => a + b, 0);
        label = name;
        options.onProgress?.(before / total, label);
      },
      step(done, of) {
        options.onProgress?.((before + (done / of) * stepsOf[current]) / total, label);
      },
      caseEnd() {},
    },
  });
  options.onProgress?.(1, "");
  return { records, lines, interrupted };
}
