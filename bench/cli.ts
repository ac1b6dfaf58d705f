/**
 * Command-line options of `deno task bench` (node:util parseArgs). Unknown options and values
 * throw a {@link UsageError} that lists the valid ones (exit status 2).
 *
 * @module
 */
import { MAX_REPEAT, MAX_STEPS, MAX_TIMEOUT } from "./limits.ts";
import { parseArgs } from "node:util";
import { parseParamAssignments } from "../core/params.ts";
import { controlCharacterProblem, parseOptionNumber } from "../core/option_text.ts";
import { COUPLING_READINGS, type CouplingReading } from "../gpu/coupling/coupling.ts";
import { MAX_STEPS_PER_SUBMIT } from "../gpu/runtime/step_param_ring.ts";
import { type Scale, SCALES } from "../core/scene/scene.ts";
import { UsageError } from "./cases/suite.ts";
import { type SeedChoice, SUITES } from "./cases/suites.ts";
import { parseSweep, type Sweep } from "./cases/sweep.ts";
import { HANDLERS } from "../gpu/handlers/registry.ts";
import { PAPER_SETUP, VARIANTS } from "../core/setups.ts";

/** Resolved options of a bench run. */
export interface BenchOptions {
  scenes: string[];
  handlers: string[];
  /**
   * `--scale`: the scales to run every case at, distinct, smallest first (`SCALES` order); one
   * scale (`small` by default) unless a sweep is asked for (`--scale tiny,small,medium`).
   */
  scales: Scale[];
  /** `default`, `software`, or an index/name from `--list-adapters`. */
  adapter: string;
  /** Output folder; default `reports/out/<timestamp>/`. */
  out: string | null;
  /**
   * `--seed`: the seeds every case runs at (`"scene"`: the scene's own), in order; undefined: the
   * suite's seeds (`bench/cases/suites.ts`), else the scene's.
   */
  seeds: SeedChoice[] | undefined;
  /** Steps per repetition (overrides the scene's duration). */
  steps: number | undefined;
  /** Simulated seconds per repetition (overrides the scene's duration). */
  duration: number | undefined;
  /** Untimed steps per repetition; default {@link defaultWarmup} of the case's steps. */
  warmup: number | undefined;
  repeat: number;
  /** `--steps-per-submit`: steps encoded into one submit at most (default: the runner's). */
  stepsPerSubmit: number | undefined;
  /** `--one-workgroup-grouping`: merge-split's index-order grouping in one workgroup where it can. */
  oneWorkgroupGrouping: boolean;
  /** Per-case timeout (s). */
  timeout: number;
  list: boolean;
  listAdapters: boolean;
  help: boolean;
  /** Re-run the cases of a results file and compare state hashes. */
  verify: string | null;
  /** `--append`: add to the `results.jsonl` an earlier run left in `--out` (else refused). */
  append: boolean;
  /**
   * `--resume`: run only the cases whose record the `results.jsonl` in `--out` does not yet hold
   * (implies `append`).
   */
  resume: boolean;
  /** `--shard i/n`: run only the i-th of n parts of the case list. */
  shard: Shard | null;
  /** `--param id.name=value` overrides, per handler id. */
  params: Record<string, Record<string, number>>;
  /** `--coupling`: how systems see a shared meta-particle (default: the setup's). */
  coupling: CouplingReading | undefined;
  /**
   * The setups every case runs under (`core/setups.ts`): `paper`, then the `--variant`s, each the
   * paper's choices with one changed (an ablation); undefined without `--variant`: the suite's.
   */
  setups: string[] | undefined;
  /** `--suite`: a named suite (`bench/cases/suites.ts`); default `default` without --scene/--handler. */
  suite: string | undefined;
  /** `--sweep` options, parsed (`bench/cases/sweep.ts`); their cartesian product is run. */
  sweeps: Sweep[];
}

/** The usage text. */
export const USAGE = `usage: deno task bench [options]

With no options, runs the default suite (every system and handler family on a representative
scene each; --suite claims adds the cases of the other claims the small scenes judge in minutes,
--suite all runs every scene under every applicable handler), scale small, the
default adapter; writes reports/out/<timestamp>/results.jsonl, then report.html beside it
(deno run -A bench/main.ts runs the bench alone, without the report).

  --suite <name>      default | claims | all | fig11 | fractures | table1 | hardware
                      (bench/cases/suites.ts; --list describes them); --scene/--handler filter
                      within it
  --scene <ids>       scene ids, globs ("fig11-*") or paths to scene files (comma list; repeatable)
  --handler <ids>     handler ids or globs (comma list; repeatable)
  --scale <s>         tiny | small | medium | paper (default small); a comma list (or repeated
                      --scale) runs every case at each scale, smallest first: a scale sweep
                      (e.g. --scale tiny,small,medium; the report fits step time ~ N^k)
  --adapter <a>       default | software | an index or name from --list-adapters (default default)
  --out <dir>         output folder (default reports/out/<timestamp>, created new); one that
                      holds an earlier run's results.jsonl is refused unless --append
  --append            add this run's cases to the results.jsonl already in --out
  --resume            with --out: run only the cases the results.jsonl there does not yet hold
                      (a record of the same configuration hash, ok or unstable), and add them to
                      it: a cut run goes on, or a --variant's cases join the paper's
  --shard <i/n>       run the i-th of n parts of the case list (cases i, i+n, i+2n, … of the
                      whole list, 1-based): one part per machine of an array job (Slurm job
                      arrays, Kubernetes indexed Jobs, a CI matrix); deno task report merges
                      the parts' results files and names missing or duplicated cases; a part
                      with no case (more parts than cases) is refused (exit 2)
  --seed <list>       the seeds every case runs at, a comma list of integers or "scene" (the
                      scene's own), e.g. --seed scene,7,99; default: the suite's (claims, all and
                      fig11: scene,7,99, so claims are judged at three seeds), else the scene's
  --param <id.name=v> override a handler parameter, e.g. merge-split.alpha=0.5 (repeatable;
                      recorded in handlerParams and the config hash; "inf"/"-inf" for
                      ±Infinity)
  --sweep <t=values>  one case per value: t is <handler>.<param> (e.g. penalty.stiffness, with
                      --handler penalty: the family at explicit values), scene.dt, scene.speed
                      (the impact speed, m/s: Figs. 3, 4, 7, 10, 11 rebuilt at it) or
                      scene.soundSpeedFactor (F > 1: the SPH water of Figs. 4, 8, 10, 11 and
                      dam-break-sph rebuilt with c = max(F·v_ref, √(F·g·H))); values are
                      a..b:n (n log-spaced) or v1,v2,...; repeatable (the cartesian product);
                      a swept scene passes a scene file's checks (scene.dt: up to 20 × the CFL
                      bound); each case records its values in "sweep"
  --coupling <r>      how systems see a meta-particle they share: whole (the paper's, the default)
                      or own-part
  --variant <ids>     run every case under the paper's setup and again under each variant that
                      changes it, the paper's choices with one changed (comma list, repeatable,
                      all, or none: the paper's alone):
                      ${VARIANTS.map((v) => v.id).join(", ")}
                      (core/setups.ts; the report's ablation table shows each claim under each);
                      default: the suite's (claims and claims-medium: all), else none
  --steps <n>         steps per repetition (default: the suite's, hardware 200, else the
                      scene's duration / dt; at most 10^7)
  --duration <s>      simulated seconds per repetition
  --warmup <n>        untimed steps at the start of each repetition (default 20, at most a fifth
                      of the steps)
  --repeat <n>        repetitions per case (default 1, at most 100)
  --steps-per-submit <k>
                      steps encoded into one submit (default 8, at most 64; a step that samples
                      the metrics is submitted alone): what batching saves the host; the state is
                      the same for any k
  --one-workgroup-grouping
                      merge-split's index-order grouping in one workgroup (2 dispatches a stage)
                      where it can take the scene (up to 3,072 particles), to measure whether it
                      pays on this device; the same groups (gpu.grouping.dispatchesPerStage says
                      which ran)
  --timeout <s>       per-case time limit in seconds (default 600, at most 864000: 10 days)
  --list              list scenes and handlers
  --list-adapters     list the adapters this machine offers
  --verify <file>     re-run the cases of a results.jsonl and check their state hashes (each
                      case as recorded: only --adapter may be given with it)
  -h, --help          this text

Exit status: 0 when every case ran (even if unstable), 1 when any failed or timed out,
2 for bad arguments or scene files, 128 + the signal when interrupted (130 Ctrl-C, 143 SIGTERM,
129 SIGHUP). Numbers are decimal (0.5, -2, 1e-3; no hex); ids and values must not hold control
characters.`;

export { MAX_REPEAT, MAX_STEPS, MAX_TIMEOUT } from "./limits.ts";

/**
 * A decimal integer option in [`min`, `max`]: `""` (an unset shell variable), `0x10`, `1e3`, `2.5`
 * or a number out of range throw a {@link UsageError} naming the option.
 */
function int(
  name: string,
  v: string | undefined,
  range: { min: number; max?: number },
): number | undefined {
  if (v === undefined) return undefined;
  const { min, max = Number.MAX_SAFE_INTEGER } = range;
  const n = parseOptionNumber(v, { integer: true }) ?? NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(
      `--${name} must be a decimal integer from ${min} to ${max.toLocaleString("en")}, got "${v}"`,
    );
  }
  return n;
}

/**
 * A number option in (0, `max`] ({@link parseOptionNumber}'s grammar: decimal, no hex, no
 * `inf`): throws a {@link UsageError} naming the option, its `unit` and the bounds (`why` says
 * why the bound) otherwise.
 */
function positive(name: string, v: string, unit: string, max: number, why = ""): number {
  const n = parseOptionNumber(v) ?? NaN;
  if (n > 0 && n <= max && Number.isFinite(n)) return n;
  const most = Number.isFinite(max) ? ` and at most ${max}${why}` : "";
  throw new UsageError(
    `--${name} must be a finite decimal number of ${unit} > 0${most}, got "${v}"`,
  );
}

/**
 * `--seed`'s comma list: integers in [0, 2³²) or `scene` (the scene's own seed), distinct; undefined
 * when not given.
 */
export function parseSeeds(v: string | undefined): SeedChoice[] | undefined {
  if (v === undefined) return undefined;
  const items = v.split(",").map((x) => x.trim());
  const seeds = items.map((x): SeedChoice =>
    x === "scene" ? "scene" : int("seed", x, { min: 0, max: 0xffffffff })!
  );
  if (new Set(seeds).size !== seeds.length) {
    throw new UsageError(`--seed lists a seed twice: "${v}"`);
  }
  return seeds;
}

/** Throws a {@link UsageError} when an option was given only empty values (an unset variable). */
function notEmpty(name: string, values: string[] | string | undefined, what: string): void {
  if (values === undefined) return;
  if (list(typeof values === "string" ? [values] : values).length === 0) {
    throw new UsageError(
      `--${name} was given an empty value (an unset shell variable?); name ${what}, or leave --${name} out`,
    );
  }
}

/** `--shard i/n`: run the i-th of n deterministic parts of the case list (1-based). */
export interface Shard {
  index: number;
  count: number;
}

/** Parses `--shard i/n` (1 ≤ i ≤ n); throws a {@link UsageError} otherwise. */
export function parseShard(v: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(v);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || !(count >= 1) || !(index >= 1) || index > count || count > 100_000) {
    throw new UsageError(
      `--shard must be i/n with 1 <= i <= n (e.g. 2/8 for the second of eight parts), got "${v}"`,
    );
  }
  return { index, count };
}

/**
 * Throws a {@link UsageError} when `shard` would get no case of a run of `cases` cases (more
 * shards than cases): an array job's task with nothing to run is a mistake in the job, told
 * plainly (exit status 2), not a run that writes no file.
 */
export function checkShardFits(shard: Shard | null, cases: number): void {
  if (!shard || shard.index <= cases) return;
  throw new UsageError(
    `--shard ${shard.index}/${shard.count}: this shard is empty: the run has ${cases} case(s), ` +
      `fewer than its ${shard.count} shards (shard i runs cases i, i+n, …); split it into at ` +
      `most ${cases} shards (--shard i/${cases}), or select more cases`,
  );
}

function list(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) =>
    v.length > 0
  );
}

/**
 * The scales of `--scale` values (each a scale or a comma list of them): distinct, in `SCALES`
 * order (smallest first), whatever order they were given in; `["small"]` when none are given.
 * Throws a {@link UsageError} naming the valid scales for an unknown one or an empty list.
 */
export function parseScales(values: readonly string[] | undefined): Scale[] {
  if (values === undefined || values.length === 0) return ["small"];
  const given = list([...values]);
  if (given.length === 0) {
    throw new UsageError(`--scale must be one of ${SCALES.join(", ")} (or a comma list), got ""`);
  }
  for (const s of given) {
    if (!SCALES.includes(s as Scale)) {
      throw new UsageError(`--scale must be one of ${SCALES.join(", ")}, got "${s}"`);
    }
  }
  return SCALES.filter((s) => given.includes(s));
}

/**
 * The setups of `--variant` values (comma lists, repeatable; `all`: every variant, `none`: no
 * variant): the paper's, then each variant named, once each. Throws a {@link UsageError} listing the variants.
 */
export function parseVariants(values: readonly string[]): string[] {
  const ids = values.flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);
  const known = VARIANTS.map((v) => v.id);
  const out = [PAPER_SETUP.id];
  for (const id of ids) {
    if (id === "none") continue;
    const add = id === "all" ? known : [id];
    for (const a of add) {
      if (!known.includes(a)) {
        throw new UsageError(
          `--variant: unknown variant "${a}"; variants: ${known.join(", ")}, all, none`,
        );
      }
      if (!out.includes(a)) out.push(a);
    }
  }
  return out;
}

/**
 * Throws a {@link UsageError} naming both options when a `--param` sets a parameter a `--sweep`
 * varies (the sweep's values would replace it in every case, and the `--param` be ignored).
 */
export function checkParamsNotSwept(
  params: Readonly<Record<string, Readonly<Record<string, number>>>>,
  sweeps: readonly Sweep[],
): void {
  for (const s of sweeps) {
    if (s.target.kind !== "handler") continue;
    const set = params[s.target.handler]?.[s.target.param];
    if (set !== undefined) {
      throw new UsageError(
        `--param ${s.key}=${set} and --sweep ${s.key}=… both set ${s.key}; drop the --param (the ` +
          "sweep runs each value) or the --sweep",
      );
    }
  }
}

/**
 * Throws a {@link UsageError} for an argument holding a control or formatting character (a
 * newline, U+202E: an id or path printed later could fake or reorder terminal lines), naming
 * the option it was given to and showing it escaped.
 */
function checkArgumentText(args: readonly string[]): void {
  args.forEach((a, i) => {
    const option = /^--?[^=]+/.exec(args[i - 1] ?? "")?.[0];
    const what = a.startsWith("-") ? "argument" : option ? `${option} value` : "argument";
    const problem = controlCharacterProblem(a, what);
    if (problem) throw new UsageError(problem);
  });
}

/** The options `--verify` reads: the adapter to re-run on (each case's own settings otherwise). */
const VERIFY_OPTIONS: readonly string[] = ["verify", "adapter", "help"];

/**
 * Throws a {@link UsageError} naming the first option `--verify` would ignore (it re-runs each
 * case as recorded: its scene, scale, steps and parameters; it writes no output folder).
 */
function checkVerifyAlone(given: readonly (string | false)[]): void {
  const other = given.find((name) => name !== false && !VERIFY_OPTIONS.includes(name));
  if (other) {
    throw new UsageError(
      `--${other} cannot be given with --verify, which re-runs each recorded case as it was ` +
        "recorded (scene, scale, steps, parameters) and writes no output folder; leave --" +
        `${other} out (--adapter alone may be given)`,
    );
  }
}

/** The options `parseArgs` reads (`node:util`), as USAGE lists them. */
const ARG_OPTIONS = {
  scene: { type: "string", multiple: true },
  handler: { type: "string", multiple: true },
  scale: { type: "string", multiple: true },
  adapter: { type: "string", default: "default" },
  out: { type: "string" },
  seed: { type: "string" },
  param: { type: "string", multiple: true },
  sweep: { type: "string", multiple: true },
  suite: { type: "string" },
  coupling: { type: "string" },
  variant: { type: "string", multiple: true },
  steps: { type: "string" },
  duration: { type: "string" },
  warmup: { type: "string" },
  repeat: { type: "string", default: "1" },
  "steps-per-submit": { type: "string" },
  "one-workgroup-grouping": { type: "boolean", default: false },
  timeout: { type: "string", default: "600" },
  list: { type: "boolean", default: false },
  "list-adapters": { type: "boolean", default: false },
  verify: { type: "string" },
  append: { type: "boolean", default: false },
  resume: { type: "boolean", default: false },
  shard: { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

/** The steps a named suite runs its cases (`Suite.steps`), or undefined. */
function suiteSteps(suite: string | undefined): number | undefined {
  return suite !== undefined && Object.hasOwn(SUITES, suite) ? SUITES[suite].steps : undefined;
}

/** Parses the bench's arguments; throws a {@link UsageError} for anything unknown or invalid. */
export function parseBenchArgs(args: readonly string[]): BenchOptions {
  checkArgumentText(args);
  let values, tokens;
  try {
    ({ values, tokens } = parseArgs({
      args: [...args],
      options: ARG_OPTIONS,
      strict: true,
      allowPositionals: false,
      tokens: true,
    }));
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\n\n${USAGE}`);
  }
  if (values.verify !== undefined) {
    checkVerifyAlone(tokens.map((t) => t.kind === "option" && t.name));
  }
  // without --scale, the suite's own scale (`claims-medium`), else small
  const suiteScale = values.scale === undefined && values.suite !== undefined &&
      Object.hasOwn(SUITES, values.suite)
    ? SUITES[values.suite].scale
    : undefined;
  const scales = suiteScale ? [suiteScale] : parseScales(values.scale);
  const seeds = parseSeeds(values.seed);
  notEmpty("scene", values.scene, "scene ids, globs or scene files");
  notEmpty("handler", values.handler, "handler ids or globs");
  notEmpty("out", values.out, "an output folder");
  if (values.resume && values.out === undefined) {
    throw new UsageError("--resume goes on with a run in a folder: give it with --out");
  }
  notEmpty("verify", values.verify, "a results.jsonl file");
  notEmpty("adapter", values.adapter, "an adapter (default, software, or one of --list-adapters)");
  const duration = values.duration === undefined
    ? undefined
    : positive("duration", values.duration, "simulated seconds", Infinity);
  const steps = int("steps", values.steps, { min: 1, max: MAX_STEPS }) ??
    (duration === undefined ? suiteSteps(values.suite) : undefined);
  if (steps !== undefined && duration !== undefined) {
    throw new UsageError("give --steps or --duration, not both");
  }
  const keys = (values.param ?? []).map((p) => p.split("=")[0].trim());
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice !== undefined) {
    throw new UsageError(
      `--param ${twice} is given twice (only one value would be used); give it once, or sweep it ` +
        `with --sweep ${twice}=v1,v2`,
    );
  }
  let params: Record<string, Record<string, number>>;
  try {
    params = parseParamAssignments(values.param ?? [], (id) => HANDLERS.get(id)?.params);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const sweeps = (values.sweep ?? []).map((s) =>
    parseSweep(s, { knownHandlers: [...HANDLERS.keys()] })
  );
  checkParamsNotSwept(params, sweeps);
  const coupling = values.coupling as CouplingReading | undefined;
  if (coupling !== undefined && !COUPLING_READINGS.includes(coupling)) {
    throw new UsageError(
      `--coupling must be one of ${COUPLING_READINGS.join(", ")}, got "${values.coupling}"`,
    );
  }
  const timeout = positive(
    "timeout",
    values.timeout!,
    "seconds",
    MAX_TIMEOUT,
    " (10 days; a timer waits at most 24.8 days)",
  );
  return {
    scenes: list(values.scene),
    handlers: list(values.handler),
    scales,
    adapter: values.adapter!,
    out: values.out ?? null,
    seeds,
    steps,
    duration,
    warmup: int("warmup", values.warmup, { min: 0, max: MAX_STEPS - 1 }),
    repeat: int("repeat", values.repeat, { min: 1, max: MAX_REPEAT })!,
    oneWorkgroupGrouping: values["one-workgroup-grouping"]!,
    stepsPerSubmit: int("steps-per-submit", values["steps-per-submit"], {
      min: 1,
      max: MAX_STEPS_PER_SUBMIT,
    }),
    timeout,
    list: values.list!,
    listAdapters: values["list-adapters"]!,
    help: values.help!,
    verify: values.verify ?? null,
    append: values.append! || values.resume!,
    resume: values.resume!,
    shard: values.shard === undefined ? null : parseShard(values.shard),
    params,
    coupling,
    setups: values.variant === undefined ? undefined : parseVariants(values.variant),
    suite: values.suite,
    sweeps,
  };
}
