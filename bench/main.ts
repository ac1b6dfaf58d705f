/**
 * The bench run behind `deno task bench` (`cli.ts`): runs the default suite (every system and
 * handler family on a representative scene each, scale small, the default adapter;
 * `bench/cases/suites.ts`) or the cases the options select, at one
 * scale or several (`--scale tiny,small,medium`: a sweep), and writes `results.jsonl` under
 * `reports/out/<timestamp>/` (printed at the end) and a summary table with the step time per
 * particle (ns per particle-step). `--help` lists the options. It writes no report: `cli.ts` does
 * that after {@link runBench} returns.
 * `deno run -A bench/main.ts [options]` runs the bench alone.
 *
 * @module
 */
import { getScene, sceneIds } from "../scenes/catalog.ts";
import { HANDLERS } from "../gpu/handlers/registry.ts";
import { formatAdapter, leaseAdapter, listAdapters, resolveAdapter } from "./adapters.ts";
import type { DeviceLease } from "./device_lease.ts";
import { type BenchOptions, checkShardFits, parseBenchArgs, USAGE } from "./cli.ts";
import { OutputDirError, prepareOutputDir, RESULTS_NAME } from "./output/output_dir.ts";
import { claimOutputDir } from "./output/output_claim.ts";
import { listenForInterrupt } from "./output/interrupt.ts";
import type { AdapterChoice } from "../gpu/runtime/adapter_request.ts";
import { checkRunPlan } from "./cases/run_plan_check.ts";
import { placeCases, type PlacedCase } from "./cases/resume.ts";
import { Progress } from "./output/progress.ts";
import { caseSteps, runSuite } from "./runner.ts";
import { type CaseSpec, resolveCases, SceneFileError, UsageError } from "./cases/suite.ts";
import { expandSweeps, suiteSweeps } from "./cases/sweep.ts";
import { getSuite, SUITES } from "./cases/suites.ts";
import { verifyCommand } from "./verify.ts";
import type { CaseRecord, CaseStatus } from "../core/result.ts";
import { captureEnvironment, checkWebgpuEnvironment, runGitState } from "./environment.ts";
import { ignoreOutputErrors } from "../core/io/ignore_output_errors.ts";

/** The statuses of a case that did not run to its end: exit status 1. */
export const CASE_FAILED: readonly CaseStatus[] = ["failed", "timeout", "gpu-timeout"];

/**
 * Default output folder: reports/out/<UTC timestamp to the millisecond>; the run creates it new
 * (`createNewDir`: `-2`, `-3`, … after it when another run took it), so runs never share one.
 */
export function defaultOutDir(now = new Date()): string {
  return `reports/out/${now.toISOString().replace(/[:]/g, "-").replace(/Z$/, "")}`;
}

/**
 * A case's step time per particle in ns (median ms/step × 10⁶ / particles, solid and fluid), the
 * throughput figure other particle codes quote; null without timings or particles.
 */
export function nsPerParticleStep(
  record: Pick<CaseRecord, "timings" | "particles">,
): number | null {
  const ms = record.timings?.phases.total?.median;
  const n = (record.particles?.solid ?? 0) + (record.particles?.fluid ?? 0);
  return typeof ms === "number" && Number.isFinite(ms) && n > 0 ? (ms * 1e6) / n : null;
}

/** ` penalty.stiffness=1000` … for a case of a parameter sweep; "" otherwise. */
export function sweepLabel(sweep: Readonly<Record<string, number>> | undefined): string {
  return sweep ? Object.entries(sweep).map(([k, v]) => ` ${k}=${v}`).join("") : "";
}

/**
 * The summary table printed at the end of a run: one line per case (a scale column in scale
 * sweeps, a seed column when seeds differ; a parameter sweep's values after the handler). Rebound is `fluidRebound`, the fluid's
 * net upward velocity at its most (m/s); ms/step the median of the GPU timestamps' total; wall ms
 * the host's wall clock per measured step (`timings.wall`), larger where the GPU waits for the host.
 */
export function summaryTable(records: readonly CaseRecord[]): string {
  const sweep = new Set(records.map((r) => r.scale)).size > 1;
  const seeds = new Set(records.map((r) => r.seed)).size > 1;
  const f = (v: unknown, d = 2) => (typeof v === "number" ? v.toFixed(d) : "-");
  const ns = (r: CaseRecord) => {
    const v = nsPerParticleStep(r);
    return v === null ? "-" : v >= 100 ? v.toFixed(0) : v.toPrecision(3);
  };
  const scale = (s: string) => (sweep ? `${s.padEnd(7)} ` : "");
  const seed = (s: string | number) => (seeds ? `${String(s).padEnd(10)} ` : "");
  const lines = [
    `${"scene".padEnd(22)} ${"handler".padEnd(17)} ${scale("scale")}${seed("seed")}${
      "status".padEnd(11)
    } pass-thru  rebound  E/E0   ms/step  ns/p·step  wall ms`,
  ];
  for (const r of records) {
    const m = r.metrics?.summary;
    const handler = `${r.handler}${sweepLabel(r.sweep)}`;
    lines.push(
      `${r.scene.padEnd(22)} ${handler.padEnd(17)} ${scale(r.scale)}${seed(r.seed)}${
        r.status.padEnd(11)
      } ${String(m?.passThroughMax ?? "-").padStart(9)}  ${f(m?.fluidRebound).padStart(7)}  ${
        f(m?.energyRatio).padStart(5)
      }  ${f(r.timings?.phases.total.median, 1).padStart(7)}  ${ns(r).padStart(9)}  ${
        f(r.timings?.wall?.msPerStep, 1).padStart(7)
      }`,
    );
  }
  return lines.join("\n");
}

/** What {@link runBench} did. */
export interface BenchOutcome {
  /**
   * Exit status: 0 ok, 1 a case failed or timed out (`timeout`, `gpu-timeout`), 2 usage or
   * scene-file error, 130 interrupted.
   */
  exitCode: number;
  /** The output folder, when a suite ran (not for `--help`, `--list`, `--verify`, usage errors). */
  outDir?: string;
  /** `results.jsonl` in {@link outDir}, when a suite ran and wrote at least one case to it. */
  resultsPath?: string;
}

/**
 * Runs the bench with `args` (the options of `deno task bench`, see `USAGE` in `bench/cli.ts`) and
 * prints its progress and summary; writes no report. Usage and scene-file errors, and an output
 * folder that cannot be created or written (checked before the first case), are printed and give
 * exit status 2; other exceptions propagate.
 */
export async function runBench(args: readonly string[]): Promise<BenchOutcome> {
  let opts: BenchOptions;
  try {
    opts = parseBenchArgs(args);
    if (opts.help) {
      console.log(USAGE);
      return { exitCode: 0 };
    }
    if (opts.list) {
      console.log("scenes (scale-independent ids):");
      for (const id of sceneIds()) {
        const s = getScene(id, { scale: "tiny" });
        console.log(`  ${id.padEnd(22)} ${s.figure}: ${s.description}`);
      }
      console.log("handlers:");
      for (const h of HANDLERS.values()) console.log(`  ${h.id.padEnd(22)} ${h.description}`);
      console.log("suites (--suite):");
      for (const [name, s] of Object.entries(SUITES)) {
        console.log(`  ${name.padEnd(22)} ${s.description}`);
      }
      return { exitCode: 0 };
    }
    if (opts.listAdapters) {
      for (const a of await listAdapters()) console.log(formatAdapter(a));
      return { exitCode: 0 };
    }
    checkWebgpuEnvironment();
    runGitState(); // the commit of the code this process loaded, before any case runs
    const adapter = await resolveAdapter(opts.adapter);
    if (opts.verify) return { exitCode: await verifyCommand(opts.verify, { adapter }) };
    const cases = planCases(opts);
    const out = opts.out ?? defaultOutDir();
    const devices = await leaseAdapter(adapter);
    try {
      const dir = prepareOutputDir(out, { append: opts.append, fresh: opts.out === null });
      const claim = claimOutputDir(dir, { append: opts.append, resume: opts.resume });
      try {
        // placed once the folder is ours and the adapter known: both are in the case list's hash
        const run = { out: dir, adapter: (await devices.get()).info };
        const placed = await placeCases(cases, opts, run);
        return await runPlaced(placed, { opts, adapter, devices, out: dir, total: cases.length });
      } finally {
        claim.release();
      }
    } finally {
      devices.release();
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof SceneFileError || e instanceof OutputDirError) {
      console.error(`mergesplit bench: ${e.message}`);
      return { exitCode: 2 };
    }
    throw e;
  }
}

/**
 * The cases `opts` select, before any device is taken: the scenes × handlers asked for (or the
 * suite's), with the `--sweep` values or else the sweeps the suite's entries name, the run plan
 * checked (`checkRunPlan`) and a `--shard` that gets a case. Throws a `UsageError` or a
 * `SceneFileError` (exit status 2).
 */
export function planCases(opts: BenchOptions): CaseSpec[] {
  const resolved = resolveCases({
    scenes: opts.scenes,
    handlers: opts.handlers,
    scale: opts.scales,
    seeds: opts.seeds,
    params: opts.params,
    coupling: opts.coupling,
    setups: opts.setups,
    suite: opts.suite,
  });
  const cases = opts.sweeps.length
    ? expandSweeps(resolved, opts.sweeps)
    : suiteSweeps(resolved, opts.suite ? getSuite(opts.suite) : undefined, {
      knownHandlers: [...HANDLERS.keys()],
    });
  checkRunPlan(cases, opts);
  checkShardFits(opts.shard, cases.length);
  return cases;
}

/**
 * Runs the placed cases into `out` (prepared and claimed) and prints the summary; stops after the
 * case in progress on SIGINT or SIGTERM (`bench/output/interrupt.ts`).
 */
async function runPlaced(
  placed: readonly PlacedCase[],
  ctx: {
    opts: BenchOptions;
    adapter: AdapterChoice;
    devices: DeviceLease;
    out: string;
    total: number;
  },
): Promise<BenchOutcome> {
  const { opts, adapter, out } = ctx;
  const resultsFile = `${out}/${RESULTS_NAME}`;
  const interrupt = listenForInterrupt();
  try {
    const run = placed.map((p) => p.spec);
    const totalSteps = run.reduce((a, c) => a + caseSteps(c, opts) * opts.repeat, 0);
    const sweep = opts.scales.length > 1;
    // the scales the cases run at (a scene file has its own)
    const scalesRun = [...new Set(run.map((c) => c.scene.scale))];
    const at = sweep
      ? `scales ${scalesRun.join(", ")} (each case at each)`
      : `scale ${scalesRun.join(", ")}`;
    const part = opts.shard
      ? ` (shard ${opts.shard.index}/${opts.shard.count} of ${ctx.total} cases)`
      : "";
    console.error(
      `running ${run.length} cases${part} (${totalSteps} steps) at ${at} on adapter "${adapter}"; results: ${resultsFile}`,
    );
    const params = run.some((c) => c.sweep);
    const progress = new Progress(run.length, {
      label: sweep || params
        ? (k, label) =>
          `${label}${sweepLabel(run[k].sweep)}${sweep ? ` (${run[k].scene.scale})` : ""}`
        : undefined,
    });
    const { records, interrupted: stopped, writeError } = await runSuite(run, {
      adapter,
      steps: opts.steps,
      duration: opts.duration,
      warmup: opts.warmup,
      repeat: opts.repeat,
      stepsPerSubmit: opts.stepsPerSubmit,
      oneWorkgroupGrouping: opts.oneWorkgroupGrouping,
      timeout: opts.timeout,
    }, {
      resultsFile,
      devices: ctx.devices,
      environment: captureEnvironment,
      progress,
      interrupted: () => interrupt.by !== null,
      places: placed.map((p) => p.place),
    });
    interrupt.stop();
    console.log(`\n${summaryTable(records)}`);
    const compiled = records.reduce((a, r) => a + (r.compileSeconds ?? 0), 0);
    const pipelines = records.reduce((a, r) => a + (r.pipelines?.created ?? 0), 0);
    const reused = records.reduce((a, r) => a + (r.pipelines?.reused ?? 0), 0);
    console.log(
      `\npipelines: ${pipelines} compiled in ${compiled.toFixed(1)} s, ${reused} reused`,
    );
    console.log(`wrote ${records.length} cases to ${resultsFile}`);
    if (writeError) console.error(`mergesplit bench: ${writeError}`);
    const exitCode = stopped
      ? interrupt.exitCode
      : writeError || records.some((r) => CASE_FAILED.includes(r.status))
      ? 1
      : 0;
    return records.length
      ? { exitCode, outDir: out, resultsPath: resultsFile }
      : { exitCode, outDir: out };
  } finally {
    interrupt.stop();
  }
}

if (import.meta.main) {
  ignoreOutputErrors(); // a full or closed stdout/stderr loses lines, never the run
  Deno.exit((await runBench(Deno.args)).exitCode);
}
