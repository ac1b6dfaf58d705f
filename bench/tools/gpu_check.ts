/**
 * `deno task gpu-check [--plan id] [--budget seconds] [--out dir] [--adapter a]`: the checks to
 * run on a machine with a GPU, in priority order within a time budget (`bench/tools/gpu_check_plan.ts`).
 * The `hardware` plan (the default): the adapters, the default suite at `small`, Fig. 4 at `small`,
 * `medium` and `paper` and the SPH dam break at `paper` (200 steps each), then Table I's six scenes
 * at `paper` over their whole runs, in stages that each fit 10 minutes on an H100; the `fidelity` plan: the fidelity runs that need a GPU (Figs. 5 and 8 of ice, Fig. 11's
 * size limits at `medium`; a stage's scene files of a real material are written into its folder
 * first, `bench/tools/scene_export.ts`). It writes one
 * `results.jsonl` of ordinary records, `report.html` from it, `adapters.txt`, and `gpu-check.json`
 * saying which stages ran (complete, cut by the budget, skipped) with how many cases and seconds.
 *
 * Each stage is a child process, `bench/main.ts` run by this same Deno binary with
 * `--cached-only` (the bench imports no npm package, so nothing is fetched), writing into
 * `stages/<id>/`; its `--timeout` is the stage's window. At the window's end it gets SIGINT (the
 * bench keeps every finished case and exits 130), a grace later SIGKILL. After each stage its
 * complete lines are appended to `results.jsonl` and `gpu-check.json` is rewritten, so a check that
 * is itself killed keeps what it finished. The report is `reports/main.ts` as a child, killed at
 * the budget less a final margin; it needs the npm packages chart.js and three in `node_modules/`
 * (copy that folder along for an offline machine), and a report that cannot be written leaves the
 * records and the exit status as they are.
 *
 * Exit status: 0 when the check ended (stages cut or skipped by the budget included), 1 when a
 * stage ended on its own without running its cases (a crash: status `reached`), 2 for bad
 * arguments (an `--adapter` this machine lacks, checked before any stage) or an output folder that cannot be written or holds an earlier check's output, 130 when
 * interrupted (Ctrl-C, SIGTERM or SIGHUP; a stage's bench also stops when this process is gone).
 *
 * @module
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parseSeeds } from "../cli.ts";
import { leaseAdapter, resolveAdapter } from "../adapters.ts";
import { UsageError } from "../cases/suite.ts";
import { parseOptionNumber } from "../../core/option_text.ts";
import { OutputDirError, prepareOutputDir } from "../output/output_dir.ts";
import { PARENT_PID_ENV } from "../output/interrupt.ts";
import { sceneFileText } from "./scene_export.ts";
import {
  type BudgetPolicy,
  budgetPolicy,
  getGpuCheckPlan,
  GPU_CHECK_PLANS,
  reportDeadline,
  type Stage,
  type StageStatus,
  stageStatus,
  stageWindow,
} from "./gpu_check_plan.ts";

/** The usage text. */
export const GPU_CHECK_USAGE =
  `usage: deno task gpu-check [--plan <id>] [--budget <seconds>] [--out <dir>] [--adapter <a>]
                           [--only <stages>] [--seed <list>]

Runs a plan's stages in order within the budget, each as an ordinary bench run. Plans:
${
    Object.entries(GPU_CHECK_PLANS).map(([id, p]) => `  ${id.padEnd(10)} ${p.description}`).join(
      "\n",
    )
  }
A stage that would start with too little time left is skipped; one still running when its time is
up is interrupted (its finished cases are kept). Writes results.jsonl (every stage's records),
report.html, adapters.txt and gpu-check.json (per stage: complete, cut, reached or skipped, cases,
seconds) into the output folder, and stages/<stage>/ with each stage's own results, log and scene
files.

  --plan <id>         ${Object.keys(GPU_CHECK_PLANS).join(" | ")} (default ${
    Object.keys(GPU_CHECK_PLANS)[0]
  })
  --only <stages>     run only these stages of the plan (comma list of ids, e.g. a later session's
                      fig11-medium), in the plan's order
  --budget <seconds>  the whole check's time limit, report included (default 900)
  --out <dir>         output folder (default reports/out/gpu-check-<timestamp>); not one that
                      holds an earlier check's results
  --adapter <a>       passed to every bench stage: default | software | an index or name from
                      --list-adapters (default: the bench's default); checked before any stage
                      (one this machine lacks: exit 2 at once)
  --seed <list>       passed to every bench stage: the seeds each case runs at, e.g. 7,99 (a
                      later session's seeds of stages already run at the scene's; default: the
                      bench's, the scene's own)
  -h, --help          this text

Offline: needs only this repository and a Deno binary (the bench imports no npm package); the
report also needs node_modules/ (chart.js, three) from a machine where a deno task has run.
Exit status: 0 done (stages cut or skipped by the budget included), 1 a stage crashed,
2 bad arguments, 130 interrupted.`;

/** A bad argument of `deno task gpu-check`; the message is one line naming it. */
export class GpuCheckUsageError extends Error {
  override name = "GpuCheckUsageError";
}

/** The parsed arguments of `deno task gpu-check`. */
export interface GpuCheckArgs {
  /** `--plan`: the id of the plan in `GPU_CHECK_PLANS` (default its first, `hardware`). */
  plan: string;
  /** `--only`: the ids of the plan's stages to run (in the plan's order); null for all. */
  only: string[] | null;
  /** `--budget`: seconds for the whole check, report included. */
  budget: number;
  /** `--out`; null for the default `reports/out/gpu-check-<timestamp>`. */
  out: string | null;
  /** `--adapter`, passed to every bench stage; null to leave the bench's default. */
  adapter: string | null;
  /** `--seed`, passed to every bench stage as given (checked as the bench checks it); null: none. */
  seed: string | null;
  help: boolean;
}

/** The default `--budget`, in seconds. */
export const DEFAULT_BUDGET = 900;

/**
 * The largest `--budget`, in seconds (10 days): a check's timers stay well below the 2³¹ − 1 ms
 * (24.8 days) a timer can wait, past which it would fire at once and cut every stage.
 */
export const MAX_BUDGET = 864_000;

const OPTIONS = {
  plan: { type: "string" },
  only: { type: "string" },
  budget: { type: "string" },
  out: { type: "string" },
  adapter: { type: "string" },
  seed: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const VALID =
  "valid options: --plan <id>, --only <stages>, --budget <seconds>, --out <dir>, --adapter <a>, --seed <list>, --help";

/** Turns node:util parseArgs' error into one line naming the option. */
function usageLine(e: Error & { code?: string }): string {
  const quoted = e.message.match(/'([^']+)'/)?.[1] ?? "";
  switch (e.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${quoted}; ${VALID}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE": {
      const name = quoted.split(" ")[0];
      return /ambiguous/.test(e.message)
        ? `${name} needs a value; one starting with "-" goes as ${name}=-…`
        : `${name} needs a value; ${VALID}`;
    }
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument "${quoted}": gpu-check takes options only; ${VALID}`;
    default:
      return `${e.message.split("\n")[0]}; ${VALID}`;
  }
}

/**
 * Parses the arguments of `deno task gpu-check`; throws a {@link GpuCheckUsageError} with one line
 * naming the bad option (an unknown one, a missing value, a budget that is not a number of
 * seconds > 0).
 */
export function parseGpuCheckArgs(args: readonly string[]): GpuCheckArgs {
  let values;
  try {
    ({ values } = parseArgs({ args: [...args], options: OPTIONS, strict: true }));
  } catch (e) {
    throw new GpuCheckUsageError(usageLine(e as Error & { code?: string }));
  }
  const budget = values.budget === undefined
    ? DEFAULT_BUDGET
    : parseOptionNumber(values.budget) ?? NaN;
  if (values.budget !== undefined && (!Number.isFinite(budget) || budget <= 0)) {
    throw new GpuCheckUsageError(
      `--budget must be a finite decimal number of seconds > 0, got "${values.budget}"`,
    );
  }
  if (budget > MAX_BUDGET) {
    throw new GpuCheckUsageError(
      `--budget must be at most ${MAX_BUDGET} seconds (10 days), got "${values.budget}"`,
    );
  }
  for (const name of ["plan", "only", "out", "adapter", "seed"] as const) {
    if (values[name] === "") throw new GpuCheckUsageError(`--${name} must not be empty`);
  }
  const plan = values.plan ?? Object.keys(GPU_CHECK_PLANS)[0];
  let ids: string[];
  try {
    ids = getGpuCheckPlan(plan).stages().map((s) => s.id);
  } catch (e) {
    throw new GpuCheckUsageError(`--plan: ${(e as Error).message}`);
  }
  const only = values.only === undefined
    ? null
    : values.only.split(",").map((id) => id.trim()).filter(Boolean);
  const unknown = only?.filter((id) => !ids.includes(id)) ?? [];
  if (unknown.length) {
    throw new GpuCheckUsageError(
      `--only: no stage ${unknown.join(", ")} in plan ${plan}; its stages: ${ids.join(", ")}`,
    );
  }
  return {
    plan,
    only,
    budget,
    out: values.out ?? null,
    adapter: values.adapter ?? null,
    seed: checkedSeeds(values.seed),
    help: values.help ?? false,
  };
}

/** `--seed` as given once the bench's parser accepts it (null when absent). */
function checkedSeeds(seed: string | undefined): string | null {
  if (seed === undefined) return null;
  try {
    parseSeeds(seed);
  } catch (e) {
    throw new GpuCheckUsageError((e as Error).message);
  }
  return seed;
}

/**
 * The default output folder: `reports/out/gpu-check-<UTC timestamp to the millisecond>`, which
 * `main` creates new (`-2`, … when another check took it: `prepareOutputDir`'s `fresh`).
 */
export function gpuCheckOutDir(now = new Date()): string {
  return `reports/out/gpu-check-${now.toISOString().replace(/:/g, "-").replace(/Z$/, "")}`;
}

/** One stage in the summary. */
export interface StageSummary {
  id: string;
  title: string;
  kind: Stage["kind"];
  /** The arguments it ran `bench/main.ts` with (the stage's, then `--adapter`, `--timeout`). */
  args: string[];
  status: StageStatus;
  /** Why it was skipped, cut or ended early. */
  reason?: string;
  /** The child's exit status; null when skipped. */
  exitCode: number | null;
  /** Records it added to `results.jsonl`. */
  cases: number;
  /** Cases it set out to run (from its "running N cases" line); null when unknown. */
  plannedCases: number | null;
  /** Seconds after the check's start when it started; null when skipped. */
  startSeconds: number | null;
  /** Seconds it ran. */
  seconds: number;
  /** Its `--timeout` per case and window before SIGINT (s); null when skipped. */
  windowSeconds: number | null;
  /** Its folder under the output folder (`stages/<id>`), with `results.jsonl` and `log.txt`. */
  dir: string | null;
}

/** What `gpu-check.json` holds. */
export interface GpuCheckSummary {
  /** The plan's id (`--plan`); null for stages given directly (tests). */
  plan: string | null;
  startedAt: string;
  budgetSeconds: number;
  /** Seconds from start to the summary's last write. */
  elapsedSeconds: number;
  policy: BudgetPolicy;
  adapter: string | null;
  /** `--seed` given to every bench stage (null: the bench's default). */
  seed: string | null;
  deno: string;
  /** The output folder, absolute. */
  out: string;
  stages: StageSummary[];
  /** Records in `results.jsonl`. */
  cases: number;
  /** Case records by status (ok, unstable, failed, timeout). */
  caseStatus: Record<string, number>;
  report: {
    status: "written" | "failed" | "killed" | "skipped" | "pending";
    path: string | null;
    seconds: number;
    message?: string;
  };
  /** The check was interrupted (Ctrl-C): the stages after the current one were skipped. */
  interrupted: boolean;
  exitCode: number;
}

/** Options of {@link runGpuCheck}. */
export interface GpuCheckOptions {
  /** Seconds for the whole check, report included. */
  budget: number;
  /** Output folder (created; made absolute). */
  out: string;
  /** `--adapter` for every bench stage; default the bench's. */
  adapter?: string | null;
  /** `--seed` for every bench stage; default the bench's. */
  seed?: string | null;
  /** The plan's id, recorded in the summary (default `hardware` unless `stages` are given). */
  plan?: string;
  /** The stages, in priority order; default the plan's (all of them). */
  stages?: readonly Stage[];
  /** Default {@link budgetPolicy}`(budget)`. */
  policy?: BudgetPolicy;
  /** Echo the children's output to this process's stdout/stderr (default true). */
  echo?: boolean;
}

const BENCH = fileURLToPath(new URL("../main.ts", import.meta.url));
const REPORT = fileURLToPath(new URL("../../reports/main.ts", import.meta.url));
/** Deno flags of every child; the bench's need nothing fetched (`--cached-only`). */
const RUN_FLAGS = ["run", "-A"];

async function writeAll(w: { write(p: Uint8Array): Promise<number> }, data: Uint8Array) {
  for (let n = 0; n < data.length;) n += await w.write(data.subarray(n));
}

/** Copies a child's stream into `log` (and the console when `echo`); returns its start (64 KiB). */
async function pump(
  stream: ReadableStream<Uint8Array>,
  sinks: { log: Deno.FsFile; echo: { write(p: Uint8Array): Promise<number> } | null },
): Promise<string> {
  const dec = new TextDecoder();
  let head = "";
  let echo = sinks.echo;
  for await (const chunk of stream) {
    await writeAll(sinks.log, chunk);
    try {
      if (echo) await writeAll(echo, chunk);
    } catch {
      echo = null; // the console went away (a closed pipe): keep logging
    }
    if (head.length < 65536) head += dec.decode(chunk, { stream: true });
  }
  return head;
}

/** A child process run until it ends or its deadlines pass. */
interface ChildRun {
  code: number;
  /** The runner sent it a signal (deadline or interrupt). */
  stopped: boolean;
  /** Its stdout and stderr (the first 64 KiB of each). */
  stdout: string;
  stderr: string;
}

/**
 * Runs `deno <flags> <args>` with its output in `log`; sends SIGINT at `interruptAt` (ms on the
 * `performance.now()` clock; none when null) and SIGKILL at `killAt`. `onChild` gets the process
 * (to forward an interrupt). The child is told this process's pid ({@link PARENT_PID_ENV}): a bench
 * stage stops when this process is gone, even killed by SIGKILL (`bench/output/interrupt.ts`).
 */
export async function runChild(
  args: readonly string[],
  options: {
    log: string;
    echo: boolean;
    interruptAt: number | null;
    killAt: number;
    onChild: (child: Deno.ChildProcess | null) => void;
  },
): Promise<ChildRun> {
  const log = await Deno.open(options.log, { write: true, create: true, truncate: true });
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: [...args],
      env: { [PARENT_PID_ENV]: String(Deno.pid) },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    options.onChild(child);
    let stopped = false;
    const signal = (s: Deno.Signal) => {
      stopped = true;
      try {
        child.kill(s);
      } catch {
        // already exited
      }
    };
    const timers = [
      ...(options.interruptAt === null ? [] : [
        setTimeout(
          () => signal("SIGINT"),
          Math.max(0, options.interruptAt - performance.now()),
        ),
      ]),
      setTimeout(() => signal("SIGKILL"), Math.max(0, options.killAt - performance.now())),
    ];
    const [stdout, stderr, status] = await Promise.all([
      pump(child.stdout, { log, echo: options.echo ? Deno.stdout : null }),
      pump(child.stderr, { log, echo: options.echo ? Deno.stderr : null }),
      child.status,
    ]);
    timers.forEach(clearTimeout);
    options.onChild(null);
    return { code: status.code, stopped, stdout, stderr };
  } finally {
    log.close();
  }
}

/** The complete lines of a `results.jsonl` (ending in a newline and parsing as JSON). */
export function completeRecordLines(text: string): string[] {
  const lines = text.split("\n");
  lines.pop(); // after the last newline: empty, or a line cut short
  return lines.filter((l) => {
    if (!l.trim()) return false;
    try {
      JSON.parse(l);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Writes the scene files of `stage` into `dir` (`<scene>-<material>-<scale>.json`, as `deno task
 * scene` writes them) and returns the bench arguments that run them (`--scene <path>` each).
 */
export function writeSceneFiles(stage: Pick<Stage, "sceneFiles">, dir: string): string[] {
  const args: string[] = [];
  for (const f of stage.sceneFiles ?? []) {
    const path = join(dir, `${f.scene}-${f.material}-${f.scale}.json`);
    Deno.writeTextFileSync(path, sceneFileText(f));
    args.push("--scene", path);
  }
  return args;
}

/** What a check writes that a later check in the same folder would overwrite or mix into. */
const EARLIER_OUTPUT = ["results.jsonl", "gpu-check.json", "stages"];

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function readText(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
}

/** A check under way: its options, output files and summary, and how it reports and saves. */
interface CheckRun {
  options: GpuCheckOptions;
  budget: number;
  policy: BudgetPolicy;
  echo: boolean;
  /** The output folder, absolute. */
  out: string;
  /** `<out>/results.jsonl`, where every stage's records are appended. */
  resultsPath: string;
  summary: GpuCheckSummary;
  /** The check's start on the `performance.now()` clock (ms). */
  t0: number;
  /** Seconds since the check started. */
  elapsed: () => number;
  /** Writes the summary to `<out>/gpu-check.json`. */
  save: () => void;
  /** Prints a line of the check's progress (when it echoes). */
  say: (line: string) => void;
  /** The child process running now (stopped on interrupt). */
  child: { current: Deno.ChildProcess | null };
}

/**
 * Runs the check: every stage that fits the budget, in order, as a child process, its records
 * appended to `<out>/results.jsonl`; then the report; writes `<out>/gpu-check.json` after every
 * stage and at the end, and returns what it holds. Throws a {@link GpuCheckUsageError} when `out`
 * holds an earlier check's output, an `OutputDirError` when it cannot be created or written.
 */
export async function runGpuCheck(options: GpuCheckOptions): Promise<GpuCheckSummary> {
  const t0 = performance.now();
  const elapsed = () => (performance.now() - t0) / 1000;
  const { budget } = options;
  if (!(budget > 0 && budget <= MAX_BUDGET)) {
    throw new GpuCheckUsageError(`budget must be in (0, ${MAX_BUDGET}] seconds, got ${budget}`);
  }
  const policy = options.policy ?? budgetPolicy(budget);
  const plan = options.plan ?? (options.stages ? null : "hardware");
  const stages = options.stages ?? getGpuCheckPlan(plan ?? "hardware").stages();
  const echo = options.echo ?? true;
  const out = resolve(options.out);
  const earlier = EARLIER_OUTPUT.filter((name) => exists(join(out, name)));
  if (earlier.length) {
    throw new GpuCheckUsageError(
      `--out ${options.out} already holds ${
        earlier.join(", ")
      } of an earlier check; pass a new folder (or remove them)`,
    );
  }
  prepareOutputDir(out);
  const resultsPath = join(out, "results.jsonl");
  Deno.writeTextFileSync(resultsPath, "");
  const summaryPath = join(out, "gpu-check.json");
  const summary = newSummary(options, { plan, budget, policy, out });
  const check: CheckRun = {
    options,
    budget,
    policy,
    echo,
    out,
    resultsPath,
    summary,
    t0,
    elapsed,
    save: () => {
      summary.elapsedSeconds = elapsed();
      Deno.writeTextFileSync(summaryPath, JSON.stringify(summary, null, 2) + "\n");
    },
    say: (line: string) => echo && console.error(`gpu-check: ${line}`),
    child: { current: null },
  };
  const stopListening = listenForInterrupts(check);
  try {
    for (const stage of stages) await runStage(stage, check);
    await writeCheckReport(check);
  } finally {
    stopListening();
  }
  summary.exitCode = summary.interrupted
    ? 130
    : summary.stages.some((s) => s.status === "reached")
    ? 1
    : 0;
  check.save();
  return summary;
}

/** The summary of a check that has not run a stage yet (its report pending). */
function newSummary(
  options: GpuCheckOptions,
  check: { plan: string | null; budget: number; policy: BudgetPolicy; out: string },
): GpuCheckSummary {
  return {
    plan: check.plan,
    startedAt: new Date().toISOString(),
    budgetSeconds: check.budget,
    elapsedSeconds: 0,
    policy: check.policy,
    adapter: options.adapter ?? null,
    seed: options.seed ?? null,
    deno: Deno.version.deno,
    out: check.out,
    stages: [],
    cases: 0,
    caseStatus: {},
    report: { status: "pending", path: null, seconds: 0 },
    interrupted: false,
    exitCode: 0,
  };
}

/**
 * Listens for Ctrl-C (and SIGTERM, SIGHUP: a batch system's limit, a closed terminal, taken as
 * Ctrl-C): the first stops the current stage with SIGINT (its finished cases kept) and skips the
 * stages after it, the second kills it and quits now (status 130). Returns what removes the listeners.
 */
function listenForInterrupts(check: CheckRun): () => void {
  const { summary, child } = check;
  const onSigint = () => {
    if (summary.interrupted) {
      try {
        child.current?.kill("SIGKILL");
      } catch {
        // already exited
      }
      Deno.exit(130);
    }
    summary.interrupted = true;
    console.error("\ngpu-check: interrupt: stopping the current stage (Ctrl-C again to quit now)");
    try {
      child.current?.kill("SIGINT");
    } catch {
      // already exited
    }
  };
  // SIGTERM (kill, a batch system's limit) and SIGHUP as Ctrl-C: the stage stops, its cases kept
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT"]
    : ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of signals) Deno.addSignalListener(signal, onSigint);
  return () => {
    for (const signal of signals) Deno.removeSignalListener(signal, onSigint);
  };
}

/**
 * Runs one stage as a child process within its window of the budget (or skips it, when the check
 * was interrupted or the budget has no window for it), records how it went in the summary, adds
 * its records to the check's results and saves the summary.
 */
async function runStage(stage: Stage, check: CheckRun): Promise<void> {
  const { summary, options, elapsed, say, save } = check;
  const entry: StageSummary = {
    id: stage.id,
    title: stage.title,
    kind: stage.kind,
    args: [...stage.args],
    status: "skipped",
    exitCode: null,
    cases: 0,
    plannedCases: null,
    startSeconds: null,
    seconds: 0,
    windowSeconds: null,
    dir: null,
  };
  summary.stages.push(entry);
  const window = stageWindow(stage, {
    budget: check.budget,
    elapsed: elapsed(),
    policy: check.policy,
  });
  if (summary.interrupted || !window.start) {
    entry.reason = window.start ? "the check was interrupted" : window.reason;
    say(`${stage.id}: skipped (${entry.reason})`);
    save();
    return;
  }
  const dir = join(check.out, "stages", stage.id);
  Deno.mkdirSync(dir, { recursive: true });
  const timeout = Math.max(1, Math.floor(window.seconds));
  entry.args = [
    ...stage.args,
    ...writeSceneFiles(stage, dir),
    ...(stage.kind === "bench" && options.adapter ? ["--adapter", options.adapter] : []),
    ...(stage.kind === "bench" && options.seed ? ["--seed", options.seed] : []),
    ...(stage.kind === "bench" ? ["--timeout", String(timeout), "--out", dir] : []),
  ];
  entry.dir = join("stages", stage.id);
  entry.windowSeconds = window.seconds;
  entry.startSeconds = elapsed();
  say(`${stage.id}: ${stage.title}; up to ${Math.floor(window.seconds)} s`);
  save();
  const run = await runChild([...RUN_FLAGS, "--cached-only", BENCH, ...entry.args], {
    log: join(dir, "log.txt"),
    echo: check.echo,
    interruptAt: check.t0 + window.interruptAt * 1000,
    killAt: check.t0 + window.killAt * 1000,
    onChild: (c) => (check.child.current = c),
  });
  entry.seconds = elapsed() - entry.startSeconds;
  entry.exitCode = run.code;
  entry.status = stageStatus({ code: run.code, stopped: run.stopped || summary.interrupted });
  if (entry.status === "cut") {
    entry.reason = `${summary.interrupted ? "interrupted" : "its time was up"}: ${
      run.code === 130
        ? "stopped at a batch's end, finished cases kept"
        : `killed ${check.policy.grace} s after SIGINT, finished cases kept`
    }`;
  } else if (entry.status === "reached") {
    entry.reason = `bench/main.ts exited with status ${run.code}; see ${entry.dir}/log.txt`;
  }
  if (stage.kind === "adapters") {
    Deno.writeTextFileSync(join(check.out, "adapters.txt"), run.stdout);
  } else {
    collectStageRecords(entry, run, dir, check);
  }
  say(
    `${stage.id}: ${entry.status}${
      stage.kind === "bench" ? `, ${entry.cases} of ${entry.plannedCases ?? "?"} cases` : ""
    }, ${entry.seconds.toFixed(1)} s`,
  );
  save();
}

/**
 * Appends a bench stage's complete records (from its folder `dir`) to the check's results and
 * counts them, by status, in the summary; the stage's entry gets the cases it planned and ran.
 */
function collectStageRecords(
  entry: StageSummary,
  run: ChildRun,
  dir: string,
  check: CheckRun,
): void {
  const { summary } = check;
  const planned = run.stderr.match(/running (\d+) cases/);
  entry.plannedCases = planned ? Number(planned[1]) : null;
  const lines = completeRecordLines(readText(join(dir, "results.jsonl")));
  entry.cases = lines.length;
  if (lines.length) {
    Deno.writeTextFileSync(check.resultsPath, lines.map((l) => l + "\n").join(""), {
      append: true,
    });
  }
  summary.cases += lines.length;
  for (const l of lines) {
    const status = String(JSON.parse(l).status);
    summary.caseStatus[status] = (summary.caseStatus[status] ?? 0) + 1;
  }
}

/**
 * Writes the check's report (`<out>/report.html`) as a child process that must end by the
 * report's deadline, and records how it went: written, killed, failed (with its error line and
 * how to write it later), or skipped when there are no records.
 */
async function writeCheckReport(check: CheckRun): Promise<void> {
  const { summary, budget, policy, resultsPath, elapsed } = check;
  const reportPath = join(check.out, "report.html");
  if (summary.cases === 0) {
    summary.report = { status: "skipped", path: null, seconds: 0, message: "no records" };
    return;
  }
  const start = elapsed();
  check.say(`writing the report (up to ${Math.floor(reportDeadline(budget, policy) - start)} s)`);
  const run = await runChild([...RUN_FLAGS, REPORT, resultsPath, "--out", reportPath], {
    log: join(check.out, "report-log.txt"),
    echo: check.echo,
    interruptAt: null,
    killAt: check.t0 + reportDeadline(budget, policy) * 1000,
    onChild: (c) => (check.child.current = c),
  });
  const seconds = elapsed() - start;
  // the error line, not the stack backtrace after it (e.g. the report's npm packages could
  // not be fetched: a machine with no registry needs node_modules/ copied along)
  const lines = run.stderr.trim().split("\n").filter((l) => l.trim());
  const last = lines.find((l) => l.startsWith("error:")) ?? lines.pop() ?? "";
  summary.report = run.code === 0
    ? { status: "written", path: reportPath, seconds }
    : run.stopped
    ? { status: "killed", path: null, seconds, message: "the budget ran out" }
    : {
      status: "failed",
      path: null,
      seconds,
      message: `${last} (report-log.txt); write it later with: deno task report ${resultsPath}`,
    };
}

/** The summary as printed at the end: one line per stage, the records, the report. */
export function summaryText(summary: GpuCheckSummary): string {
  const lines = [
    `gpu-check: ${
      summary.elapsedSeconds.toFixed(1)
    } s of a ${summary.budgetSeconds} s budget; ${summary.out}`,
    `${"stage".padEnd(22)} ${"status".padEnd(9)} ${"cases".padStart(9)} ${
      "seconds".padStart(8)
    }  note`,
  ];
  for (const s of summary.stages) {
    const cases = s.kind === "adapters" || s.status === "skipped"
      ? "-"
      : `${s.cases}/${s.plannedCases ?? "?"}`;
    lines.push(
      `${s.id.padEnd(22)} ${s.status.padEnd(9)} ${cases.padStart(9)} ${
        s.status === "skipped" ? "-".padStart(8) : s.seconds.toFixed(1).padStart(8)
      }  ${s.reason ?? ""}`,
    );
  }
  const by = Object.entries(summary.caseStatus).map(([k, v]) => `${v} ${k}`).join(", ");
  lines.push(
    `records: ${summary.cases}${by ? ` (${by})` : ""} in ${join(summary.out, "results.jsonl")}`,
    `report: ${
      summary.report.status === "written"
        ? summary.report.path
        : `${summary.report.status}${summary.report.message ? ` (${summary.report.message})` : ""}`
    }`,
    `summary: ${join(summary.out, "gpu-check.json")}`,
  );
  return lines.join("\n");
}

/**
 * Checks `--adapter` as a bench stage would (`resolveAdapter`, then a device taken on it and
 * given back) before any stage runs, so that an adapter this machine does not have is exit 2 at
 * once, whatever the budget: throws the bench's `UsageError` naming the adapters it has.
 */
async function checkAdapter(adapter: string): Promise<void> {
  (await leaseAdapter(await resolveAdapter(adapter))).release();
}

/** The command line: parses `args`, runs the check, prints the summary; returns the exit status. */
export async function main(args: readonly string[]): Promise<number> {
  let parsed: GpuCheckArgs;
  try {
    parsed = parseGpuCheckArgs(args);
  } catch (e) {
    if (!(e instanceof GpuCheckUsageError)) throw e;
    console.error(`mergesplit gpu-check: ${e.message}`);
    return 2;
  }
  if (parsed.help) {
    console.log(GPU_CHECK_USAGE);
    return 0;
  }
  let summary: GpuCheckSummary;
  try {
    if (parsed.adapter !== null) await checkAdapter(parsed.adapter);
    const stages = getGpuCheckPlan(parsed.plan).stages();
    summary = await runGpuCheck({
      plan: parsed.plan,
      stages: parsed.only ? stages.filter((s) => parsed.only!.includes(s.id)) : stages,
      budget: parsed.budget,
      out: parsed.out ?? prepareOutputDir(gpuCheckOutDir(), { fresh: true }),
      adapter: parsed.adapter,
      seed: parsed.seed,
    });
  } catch (e) {
    const usage = e instanceof UsageError || e instanceof GpuCheckUsageError;
    if (!(usage || e instanceof OutputDirError)) throw e;
    console.error(`mergesplit gpu-check: ${e.message}`);
    return 2;
  }
  console.log(`\n${summaryText(summary)}`);
  return summary.exitCode;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
