/**
 * The result schema: one JSON object per case, appended as a line to `results.jsonl` when the case
 * finishes. `schemaVersion` is bumped on any incompatible change; {@link parseResults} reads every
 * version it knows and upgrades it to the current shape. The JSON Schema is
 * `core/result.schema.json`; docs/results.md describes the fields.
 *
 * The types a record embeds (the {@link Environment} with its {@link AdapterRecord}, the
 * {@link SampleSummary} of a timing) are defined here, so that readers of result files (`reports/`)
 * depend on `core/` only; `bench/` and `gpu/runtime/` re-export them.
 *
 * @module
 */
import { controlCharacterProblem } from "./option_text.ts";
import type { StageCensus } from "./grouping/grouping_census.ts";
import { type Scale, SCALES } from "./scene/scene.ts";
import type { Snapshots } from "./io/snapshot_codec.ts";

/** Current result schema version. */
export const SCHEMA_VERSION = 1;

/**
 * Outcome of a case: `gpu-timeout` when its GPU work did not complete by its deadline (the error
 * names the phase and the pending operation; the device was replaced).
 */
export type CaseStatus = "ok" | "unstable" | "failed" | "timeout" | "gpu-timeout";

/** Every {@link CaseStatus}, in the order messages list them. */
export const CASE_STATUSES: readonly CaseStatus[] = [
  "ok",
  "unstable",
  "failed",
  "timeout",
  "gpu-timeout",
];

/** What the harness records about the adapter a case ran on. */
export interface AdapterRecord {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /**
   * The WebGPU backend the adapter was found on (`vulkan`, `gl`, `metal`, `dx12`): lavapipe
   * (Vulkan) and llvmpipe (GL) share a description. Absent in records made before it was kept,
   * and in the browser bench's (the browser does not say which backend it chose).
   */
  backend?: string;
  isFallbackAdapter: boolean;
  /** Features requested and granted on the device. */
  features: string[];
  /** Limits requested explicitly (name → value granted). */
  limits: Record<string, number>;
}

/** The environment of a run (recorded with every case). */
export interface Environment {
  /** Deno's, V8's and TypeScript's versions (absent in a record of the browser bench). */
  deno?: string;
  v8?: string;
  typescript?: string;
  /**
   * Set by the browser bench (`web/`): the page's user agent and the origin it was served from;
   * `os`, `cpu` and `memoryBytes` are then what the browser tells (`navigator`).
   */
  browser?: { userAgent: string; origin: string };
  os: { platform: string; release: string; arch: string };
  cpu: { model: string; cores: number };
  memoryBytes: number;
  adapter: AdapterRecord;
  git: { commit: string | null; dirty: boolean | null };
  /** Environment variables that change WebGPU's choice of backend, when set. */
  webgpuBackend: string | null;
}

/** Summary of a sample, in the samples' unit. */
export interface SampleSummary {
  median: number;
  /** Median absolute deviation from the median (unscaled). */
  mad: number;
  /** 95% percentile-bootstrap confidence interval of the median: [low, high]. */
  ci95: [number, number];
  min: number;
  max: number;
  /** Number of samples. */
  n: number;
  /**
   * Arithmetic mean of the samples: the statistic of the paper's Table I ("average computation
   * times per time step"), which the median of a run whose steps slow down (a wall breaking) is
   * not. Absent in records written before it was kept (then only the median is known).
   */
  mean?: number;
}

/** Timing statistics of one phase, in ms per step. */
export interface PhaseTiming extends SampleSummary {
  unit: "ms/step";
  /** Every measured step's time. */
  samples: number[];
}

/** The fluid-validity columns of a sample row (`gpu/metrics/fluid_metrics.ts` writes them). */
export const FLUID_SAMPLE_FIELDS = [
  "frontX",
  "columnHeight",
  "densityErrorMax",
  "densityErrorMean",
  "volumeChange",
] as const;

/** The step budget's columns of a sample row (`gpu/metrics/step_budget.ts`; `docs/metrics.md`). */
export const BUDGET_SAMPLE_FIELDS = [
  "budgetMomentumScale",
  "budgetMergeMomentum",
  "budgetPinMomentum",
  "budgetIntegrationMomentum",
  "budgetHandlerImpulse",
  "budgetHandlerImbalance",
  "budgetWallMomentum",
  "budgetSplitMomentum",
  "budgetEndMomentum",
  "budgetExternalMomentum",
  "budgetMergeEnergy",
  "budgetPinEnergy",
  "budgetIntegrationEnergy",
  "budgetCouplingEnergy",
  "budgetWallEnergy",
  "budgetSplitEnergy",
  "budgetEndEnergy",
  "budgetStepEnergy",
] as const;

/**
 * The handler-statistics columns of a sample row: the metrics copy each from the word a handler
 * names for it in its statistics (`gpu/state/handler_statistics.ts`), as
 * {@link HANDLER_SAMPLE_KINDS} says; 0 where the handler keeps none.
 */
export const HANDLER_SAMPLE_FIELDS = [
  "momentumError",
  "energyError",
  "stage2Pairs",
  "groups",
  "largestGroup",
  "largestSheetGroup",
] as const;

/** A handler-statistics column of a sample row ({@link HANDLER_SAMPLE_FIELDS}). */
export type HandlerSampleField = typeof HANDLER_SAMPLE_FIELDS[number];

/**
 * How the metrics read the word of each handler column ({@link HANDLER_SAMPLE_FIELDS}): the bits
 * of an f32, or a count (`gpu/metrics/metrics.wgsl`; `metrics_test.ts` checks it against this).
 */
export const HANDLER_SAMPLE_KINDS: Readonly<Record<HandlerSampleField, "f32" | "u32">> = {
  momentumError: "f32",
  energyError: "f32",
  stage2Pairs: "u32",
  groups: "u32",
  largestGroup: "u32",
  largestSheetGroup: "u32",
};

/**
 * A fluid particle "bounces back with high velocity" (§6.1, Fig. 4: "Stronger forces lead to fluid
 * particles bouncing back with high velocity") when it moves up, against gravity, faster than this
 * fraction of the scene's reference speed (`cfl.referenceSpeed`, which the scenes set to 1.2× the
 * impact speed): 0.6 of the speed it fell at, where a fluid hitting a sheet keeps almost none of
 * it. The sample column `fastRebound` counts such particles. Fixed before any run of it.
 */
export const FAST_REBOUND_FRACTION = 0.5;

/**
 * A particle is *flung* at a sample (the `flungSpeed` column, `gpu/metrics/metrics.wgsl`) when at
 * least this share of its speed s came from forces other than gravity since the previous sample:
 * s − (s_prev + |g| Δt) ≥ share × s. Free fall gains exactly |g| Δt and never counts: this is how a
 * speed spike is told to come from contact (docs/metrics.md). Fixed before any run of it.
 */
export const FLUNG_GAIN_SHARE = 0.5;

/**
 * The f64 reference of the flung test: the speed `s` when a particle at speed `prev` at the
 * previous sample, with `gravityGain` = |g| Δt since, is flung ({@link FLUNG_GAIN_SHARE}), else 0.
 */
export function flungSpeed(s: number, prev: number, gravityGain: number): number {
  return s - (prev + gravityGain) >= FLUNG_GAIN_SHARE * s ? s : 0;
}

/**
 * The fields of one metrics sample row, in the GPU buffer's order and in the order of a record's
 * `metrics.series.fields` (definitions in `docs/metrics.md`): defined here once, for the metrics
 * kernels, the runner and the report's fixtures.
 */
export const SAMPLE_FIELDS = [
  "time",
  "passThrough",
  "deepOverlaps",
  "maxPenetrationDepth",
  "maxSpeed",
  "kinetic",
  "potential",
  "elastic",
  "nanCount",
  "sheetDeflection",
  "maxRebound",
  "fluidUpVelocity",
  "fluidHeight",
  "fastRebound",
  "flungSpeed",
  ...HANDLER_SAMPLE_FIELDS,
  "brokenBonds",
  "solidInside",
  "maxSolidPenetration",
  "fragments",
  "largestFragment",
  "significantFragments",
  ...FLUID_SAMPLE_FIELDS,
  ...BUDGET_SAMPLE_FIELDS,
] as const;

/** A column of a sample row. */
export type SampleField = typeof SAMPLE_FIELDS[number];

/** One case's record (schema version 1). */
export interface CaseRecord {
  schemaVersion: number;
  scene: string;
  /** Where the scene came from: `catalog` or the path of a scene file. */
  sceneSource: string;
  handler: string;
  handlerParams: Record<string, number>;
  /**
   * How systems saw a meta-particle they share (`own-part` or `whole`, gpu/coupling/coupling.ts);
   * absent in records written before it existed (then `own-part`).
   */
  coupling?: string;
  /**
   * The setup the case ran under (`bench/setups.ts`): `paper`, the paper's choices (the one claims
   * are read from), or a variant that changes one of them; absent in records made before setups
   * (the harness's own choices then: compact grouping, own-part coupling, warm stage 2, FLIP
   * density correction).
   */
  setup?: string;
  /**
   * The systems the scene configures (`scene.systems` ids): which of a variant's choices reach the
   * case (`core/setups.ts` `setupChanges`). Absent in records made before it was kept.
   */
  systems?: string[];
  /**
   * Every parameter of every system the case ran, resolved (the scene's values over the schema's
   * defaults, `gpu/systems/registry.ts` `sceneSystems`), by system id. Absent in records made
   * before it was kept.
   */
  systemParams?: Record<string, Record<string, number>>;
  /**
   * Whether two particles of the scene may collide (`Engine.collisionsPossible`): where none may,
   * no handler runs, and a variant of the handler's changes nothing. Absent in records made before
   * it was kept (taken as true).
   */
  collisionsPossible?: boolean;
  /**
   * The values of a parameter sweep (`--sweep`) this case ran at, by target: `<handler>.<param>`
   * (e.g. `penalty.stiffness`, also in `handlerParams`) or `scene.dt` (also in `dt`); absent for a
   * case outside a sweep.
   */
  sweep?: Record<string, number>;
  /**
   * The case's place in its run's whole case list (`bench/cases/shard.ts`): `index` (from 0), `of` (the
   * list's length), `list` (a hash of the list, shared by the parts of a sharded run) and `shard`
   * (`i/n` under `--shard`, else null). Absent in records written before it was recorded.
   */
  case?: { index: number; of: number; list: string; shard: string | null; held?: number[] };
  scale: Scale;
  seed: number;
  /** Steps per repetition (warm-up included), and their time step (s). */
  steps: number;
  dt: number;
  particles: { solid: number; fluid: number };
  status: CaseStatus;
  error: string | null;
  protocol: { warmupSteps: number; repeats: number; timeoutSeconds: number };
  timings: {
    source: "timestamp" | "wall-clock";
    /** Table I phases plus `total`. */
    phases: Record<string, PhaseTiming>;
    transfer: { bytes: number; ms: number };
    /**
     * The host's wall clock per measured step, over whole batches (encoding, submission and each
     * batch's one readback wait included): a cross-check of the GPU timestamps, which it bounds
     * from above when batches are long. Absent in records written before it was measured.
     */
    wall?: { steps: number; msPerStep: number };
  } | null;
  /** Summary metrics and their time series (first repetition), sampled every `every` steps. */
  metrics: {
    summary: Record<string, number | boolean>;
    series: { every: number; fields: string[]; rows: number[][] };
  } | null;
  /** SHA-256 of the final positions and velocities (first repetition). */
  stateHash: string | null;
  /** Whether every repetition ended in the same state. */
  repeatable: boolean | null;
  hostSyncsPerStep: number | null;
  env: Environment | null;
  /** SHA-256 of the resolved case configuration (scene, handler and its parameters, coupling, steps, protocol). */
  configHash: string;
  startedAt: string;
  wallSeconds: number;
  /**
   * Seconds the case spent creating compute pipelines and their shader modules, all repetitions
   * (apart from the step times; near 0 where a device shared with earlier cases of the run had
   * them cached). A driver that compiles lazily (llvmpipe) does so in the first, untimed steps
   * instead. Absent in records made before it was kept.
   */
  compileSeconds?: number;
  /** Pipelines the case created, and those it took from its device's cache (optional). */
  pipelines?: { created: number; reused: number };
  /** Particle snapshots at a few times (first repetition), for the report's 3D view (optional). */
  snapshots?: Snapshots;
  /**
   * The implicit solves' statistics at the last step of the first repetition, by system id: the
   * solver, its tolerance and iteration cap, the iterations it ran and where it stopped (optional).
   */
  /**
   * What one step costs the GPU and the host (optional; first repetition): dispatches encoded per
   * step (a metrics sample's excluded) and per engine phase (`metrics`: one sample's), the peak
   * bytes of GPU buffers, and the handler's statistics that describe its work (merge-split: the
   * most rounds of grouping one stage needed).
   */
  gpu?: {
    dispatchesPerStep: number;
    dispatchesByPhase: Record<string, number>;
    /**
     * Of `dispatchesPerStep`, those recorded as indirect dispatches (a gated stage's, a solver's or
     * the grouping's): wgpu 29 adds a validation dispatch of its own to each (gfx-rs/wgpu#6567).
     * Absent in records made before it was kept.
     */
    indirectPerStep?: number;
    /**
     * The host's encode-and-submit time per measured step (ms; `StepTimings.host`): from the start
     * of a step's encoding to the return of its submit, no GPU wait inside. Where submits are
     * asynchronous it is told apart from the GPU time (`timings`); a GL backend's blocking submit
     * includes it. Absent in records made before it was kept.
     */
    hostMsPerStep?: number;
    /**
     * Steps encoded into one submit at most (`EngineOptions.stepsPerSubmit`); a sampling step is
     * submitted alone. Absent in records made before several steps shared a submit (one each).
     */
    stepsPerSubmit?: number;
    peakBufferBytes: number;
    /** Workgroup size of each kernel set by an `override` constant, by kernel label. */
    workgroupSizes?: Record<string, number>;
    groupingRounds?: number;
    /** Steps whose stage 2 ran (merge-split; of `steps`, warm-up included). */
    stage2Runs?: number;
    /** Steps the first repetition ran (warm-up included). */
    steps?: number;
    /**
     * Contact partners dropped because a particle's slot of K (`maxPerParticle`) was full, summed
     * over the first repetition's steps (warm-up included); absent where nothing can collide. A
     * nonzero count means collisions were missed: raise K.
     */
    contactsDropped?: number;
    /** K, the contact slots per particle (16 unless the scene is too large for one binding). */
    contactSlots?: number;
    /** Merge-split's grouping (§5.2): which, its dispatches and its groups per stage. */
    grouping?: GroupingRecord;
    /** Merge-split's pairwise splits, and how many took ε ≠ 0 (§3). */
    splits?: SplitRecord;
  };
  solvers?: Record<string, {
    iterations: number;
    relativeResidual: number;
    converged: boolean;
    method?: string;
    tolerance?: number;
    maxIterations?: number;
    /** Whether stage 2's solve starts from stage 1's solution. */
    warmStart?: boolean;
    /** Per stage (1, 2): solves run and their iterations summed over the whole run. */
    stages?: { solves: number; iterations: number }[];
  }>;
}

/** The JSON kinds a field may have. */
type Kind = "number" | "string" | "boolean" | "object" | "array" | "null";

/** The JSON kind of `v` (`missing` for undefined). */
function kindOf(v: unknown): Kind | "missing" {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  const t = typeof v;
  return t === "number" || t === "string" || t === "boolean" ? t : "object";
}

const ARTICLE: Readonly<Record<Kind, string>> = {
  number: "a number",
  string: "a string",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  null: "null",
};

/** `v` for a message: `the string "garbage"`, `the number 5`, `null`, `an array`, `nothing`. */
function describe(v: unknown): string {
  const k = kindOf(v);
  if (k === "missing") return "nothing (the field is missing)";
  if (k === "string") {
    const s = v as string;
    return `the string ${JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s)}`;
  }
  if (k === "number" || k === "boolean") return `the ${k} ${v}`;
  return ARTICLE[k];
}

/** A record field of the wrong shape: the message names the field, what it must be and what it is. */
class FieldError extends Error {}

/** Throws a {@link FieldError} unless `v` (the field at `path`) is one of `kinds`. */
function expect(path: string, v: unknown, kinds: readonly Kind[]): void {
  const k = kindOf(v);
  if (k !== "missing" && kinds.includes(k)) return;
  const want = kinds.map((x) => ARTICLE[x]).join(" or ");
  throw new FieldError(`field "${path}" must be ${want}, got ${describe(v)}`);
}

/** As {@link expect} where `v` is present; an absent optional field passes. */
function optional(path: string, v: unknown, kinds: readonly Kind[]): void {
  if (v !== undefined) expect(path, v, kinds);
}

/**
 * Longest a case may have taken, in seconds (a year): a record's `wallSeconds` past it, negative
 * or not finite is no run's (the report dates the run's end by it).
 */
export const MAX_CASE_SECONDS = 365 * 24 * 3600;

/** Throws a {@link FieldError} unless `v` (the field at `path`), where present, is a duration. */
function seconds(path: string, v: unknown): void {
  if (v === undefined || (typeof v === "number" && v >= 0 && v <= MAX_CASE_SECONDS)) return;
  throw new FieldError(
    `field "${path}" must be seconds from 0 to ${MAX_CASE_SECONDS} (a year), got ${describe(v)}`,
  );
}

/** Checks each own value of the object `o` (at `path`) is one of `kinds`. */
function values(path: string, o: Record<string, unknown>, kinds: readonly Kind[]): void {
  for (const [k, v] of Object.entries(o)) expect(`${path}.${k}`, v, kinds);
}

/**
 * Throws a {@link FieldError} unless `v` (the field at `path`) is an integer of at least `min`:
 * a count, a step number, a seed.
 */
function integer(path: string, v: unknown, min: number): void {
  if (typeof v === "number" && Number.isInteger(v) && v >= min) return;
  throw new FieldError(`field "${path}" must be an integer of at least ${min}, got ${describe(v)}`);
}

/** As {@link integer} where `v` is present. */
function optionalInteger(path: string, v: unknown, min: number): void {
  if (v !== undefined) integer(path, v, min);
}

/**
 * Throws a {@link FieldError} unless `v` (the field at `path`) is a finite number of at least 0
 * (`positive`: above 0): a size, a time, a rate.
 */
function amount(path: string, v: unknown, options: { positive?: boolean } = {}): void {
  const ok = typeof v === "number" && Number.isFinite(v) && (options.positive ? v > 0 : v >= 0);
  if (ok) return;
  const what = options.positive ? "a finite number above 0" : "a finite number of at least 0";
  throw new FieldError(`field "${path}" must be ${what}, got ${describe(v)}`);
}

/** Throws a {@link FieldError} unless `v` (the field at `path`) is one of `allowed`. */
function oneOf(path: string, v: unknown, allowed: readonly string[]): void {
  if ((allowed as readonly unknown[]).includes(v)) return;
  const list = `${allowed.slice(0, -1).join(", ")} or ${allowed.at(-1)}`;
  throw new FieldError(`field "${path}" must be one of ${list}, got ${describe(v)}`);
}

/** A SHA-256 in hex, as the harness writes `stateHash` and `configHash`. */
const HASH = /^[0-9a-f]{64}$/;

/** Throws a {@link FieldError} unless `v` (the field at `path`) is a SHA-256 in lowercase hex. */
function sha256(path: string, v: unknown): void {
  if (typeof v === "string" && HASH.test(v)) return;
  throw new FieldError(
    `field "${path}" must be a SHA-256 (64 lowercase hex digits), got ${describe(v)}`,
  );
}

/**
 * The fields every record has (`core/result.schema.json`'s `required`; `result_test.ts` holds the
 * two equal): a line without one of them is not a record of this harness.
 */
export const REQUIRED_FIELDS = [
  "schemaVersion",
  "scene",
  "sceneSource",
  "handler",
  "handlerParams",
  "scale",
  "seed",
  "steps",
  "dt",
  "particles",
  "status",
  "error",
  "protocol",
  "timings",
  "metrics",
  "stateHash",
  "repeatable",
  "hostSyncsPerStep",
  "env",
  "configHash",
  "startedAt",
  "wallSeconds",
] as const;

/** Deepest nesting of a record's JSON (a snapshot's frames are the deepest, at 4). */
const MAX_DEPTH = 32;

/**
 * Walks a parsed line in place: the string `"Infinity"` becomes the number (how
 * {@link recordLine} writes it), and a number literal past the range of a double (`-1e999`, which
 * parses to -Infinity; the harness never writes one) or nesting past {@link MAX_DEPTH} is a
 * {@link FieldError} naming the field. Returns the value.
 */
function revive(v: unknown, path: string, depth = 0): unknown {
  if (v === "Infinity") return Infinity;
  if (typeof v === "number" && !Number.isFinite(v)) {
    throw new FieldError(
      `field "${path}" must be a finite number (or the string "Infinity"), got a number past the range of a double (read as ${v})`,
    );
  }
  if (!v || typeof v !== "object") return v;
  if (depth >= MAX_DEPTH) {
    throw new FieldError(`field "${path}" is nested deeper than ${MAX_DEPTH} levels; no record is`);
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const at = path ? `${path}.${k}` : k;
    const was = o[k];
    const now = revive(was, at, depth + 1);
    // defineProperty: a key "__proto__" stays an own field, never the object's prototype
    if (now !== was) Object.defineProperty(o, k, { value: now, enumerable: true, writable: true });
  }
  return v;
}

type Obj = Record<string, unknown>;

/** One timing phase: its median (the report's every timing figure), counts and extremes. */
function checkPhase(at: string, p: unknown): void {
  expect(at, p, ["object"]);
  const phase = p as Obj;
  expect(`${at}.median`, phase.median, ["number", "null"]);
  optional(`${at}.ci95`, phase.ci95, ["array"]);
  optional(`${at}.samples`, phase.samples, ["array"]);
  for (const k of ["mad", "min", "max", "mean"]) {
    optional(`${at}.${k}`, phase[k], ["number", "null"]);
  }
  optionalInteger(`${at}.n`, phase.n, 0);
}

/** `timings`: the source, each phase, transfer, wall. */
function checkTimings(t: Obj): void {
  oneOf("timings.source", t.source, ["timestamp", "wall-clock"]);
  expect("timings.phases", t.phases, ["object"]);
  for (const [name, p] of Object.entries(t.phases as Obj)) checkPhase(`timings.phases.${name}`, p);
  optional("timings.transfer", t.transfer, ["object"]);
  if (t.transfer !== undefined) {
    for (const k of ["bytes", "ms"]) amount(`timings.transfer.${k}`, (t.transfer as Obj)[k]);
  }
  optional("timings.wall", t.wall, ["object"]);
  if (t.wall !== undefined) {
    const wall = t.wall as Obj;
    integer("timings.wall.steps", wall.steps, 0);
    amount("timings.wall.msPerStep", wall.msPerStep);
  }
}

/** `metrics`: the summary (numbers, booleans, null) and, where present, the series. */
function checkMetrics(m: Obj): void {
  expect("metrics.summary", m.summary, ["object"]);
  values("metrics.summary", m.summary as Obj, ["number", "boolean", "null"]);
  optional("metrics.series", m.series, ["object"]);
  if (m.series !== undefined) {
    const s = m.series as Obj;
    integer("metrics.series.every", s.every, 1);
    expect("metrics.series.fields", s.fields, ["array"]);
    expect("metrics.series.rows", s.rows, ["array"]);
  }
}

/** `env`: the adapter the report and `--verify` name, and the parts the run summary lists. */
function checkEnv(e: Obj): void {
  optional("env.deno", e.deno, ["string"]);
  optional("env.browser", e.browser, ["object"]);
  if (e.browser) expect("env.browser.userAgent", (e.browser as Obj).userAgent, ["string"]);
  for (const k of ["os", "cpu", "git"]) optional(`env.${k}`, e[k], ["object"]);
  if (e.git) {
    optional("env.git.commit", (e.git as Obj).commit, ["string", "null"]);
    optional("env.git.dirty", (e.git as Obj).dirty, ["boolean", "null"]);
  }
  if (e.memoryBytes !== undefined) amount("env.memoryBytes", e.memoryBytes);
  expect("env.adapter", e.adapter, ["object"]);
  const a = e.adapter as Obj;
  for (const k of ["vendor", "architecture", "device", "description"]) {
    optional(`env.adapter.${k}`, a[k], ["string"]);
  }
  optional("env.adapter.backend", a.backend, ["string"]);
}

/**
 * Merge-split's grouping in a record: the method (`index-order`, the paper's pass, or `compact`),
 * the dispatches it encodes per stage (the census after it not counted), and the census of each
 * stage over the first repetition (`core/grouping/grouping_census.ts`: sizes, pairs left between groups).
 */
export interface GroupingRecord {
  method: string;
  dispatchesPerStage: number[];
  stages: StageCensus[];
  /**
   * Components the index-order pass left partly ungrouped because a software adapter's loop budget
   * ran out (cumulative; 0: every group the paper's).
   */
  incomplete?: number;
}

/**
 * Merge-split's pairwise splits over the first repetition (both stages) and those on the
 * closest-point branch of Eqs. 15–16, ε ≠ 0, where Eq. 13 has no real root (§3: "a high percentage
 * of the solutions contain a non-zero orthogonal term" when a particle's motion is restricted).
 */
export interface SplitRecord {
  pairwise: number;
  closestPoint: number;
}

/** The counts and sizes of the cost of a step (`gpu`): none below 0. */
const GPU_AMOUNTS = [
  "dispatchesPerStep",
  "indirectPerStep",
  "hostMsPerStep",
  "stepsPerSubmit",
  "peakBufferBytes",
  "groupingRounds",
  "stage2Runs",
  "steps",
  "contactsDropped",
  "contactSlots",
] as const;

/** The optional fields of the cost of a step (`gpu`): amounts, and the per-phase dispatches. */
function checkGpu(g: Obj): void {
  for (const k of GPU_AMOUNTS) if (g[k] !== undefined) amount(`gpu.${k}`, g[k]);
  optional("gpu.dispatchesByPhase", g.dispatchesByPhase, ["object"]);
  optional("gpu.workgroupSizes", g.workgroupSizes, ["object"]);
  optional("gpu.grouping", g.grouping, ["object"]);
  if (g.grouping) {
    const gr = g.grouping as Obj;
    expect("gpu.grouping.method", gr.method, ["string"]);
    expect("gpu.grouping.dispatchesPerStage", gr.dispatchesPerStage, ["array"]);
    expect("gpu.grouping.stages", gr.stages, ["array"]);
  }
  optional("gpu.splits", g.splits, ["object"]);
  if (g.splits) {
    for (const k of ["pairwise", "closestPoint"]) amount(`gpu.splits.${k}`, (g.splits as Obj)[k]);
  }
}

/** The largest case list a record may name its place in (`case.of`). */
export const MAX_CASE_LIST = 1_000_000;

/** `case`: the place in the run's case list, inside the list (the report counts the list by it). */
function checkCase(c: Obj): void {
  integer("case.of", c.of, 1);
  if ((c.of as number) > MAX_CASE_LIST) {
    throw new FieldError(`field "case.of" must be at most ${MAX_CASE_LIST}, got ${describe(c.of)}`);
  }
  integer("case.index", c.index, 0);
  if ((c.index as number) >= (c.of as number)) {
    throw new FieldError(`field "case.index" must be below case.of (${c.of}), got ${c.index}`);
  }
  expect("case.list", c.list, ["string"]);
  expect("case.shard", c.shard, ["string", "null"]);
  optional("case.held", c.held, ["array"]);
  for (const [k, i] of ((c.held ?? []) as unknown[]).entries()) {
    integer(`case.held.${k}`, i, 0);
    if ((i as number) >= (c.of as number)) {
      throw new FieldError(`field "case.held.${k}" must be below case.of (${c.of}), got ${i}`);
    }
  }
}

/** The schema version, every {@link REQUIRED_FIELDS} present, and the fields that say what ran. */
function checkIdentity(r: Obj): void {
  expect("schemaVersion", r.schemaVersion, ["number"]);
  if (r.schemaVersion !== SCHEMA_VERSION) {
    throw new FieldError(
      `field "schemaVersion" must be ${SCHEMA_VERSION} (the versions this harness reads), got ${
        describe(r.schemaVersion)
      }`,
    );
  }
  for (const k of ["scene", "sceneSource", "handler", "status"]) expect(k, r[k], ["string"]);
  for (const k of ["scene", "handler"]) {
    const problem = controlCharacterProblem(r[k] as string, `field "${k}"`);
    if (problem) throw new FieldError(problem);
  }
  if (!(CASE_STATUSES as readonly unknown[]).includes(r.status)) {
    const valid = `${CASE_STATUSES.slice(0, -1).join(", ")} or ${CASE_STATUSES.at(-1)}`;
    throw new FieldError(`status "${r.status}" is not ${valid}`);
  }
  const missing = REQUIRED_FIELDS.find((k) => !(k in r));
  if (missing) {
    throw new FieldError(`field "${missing}" is missing; every record of this harness has it`);
  }
  oneOf("scale", r.scale, SCALES);
  integer("seed", r.seed, 0);
  integer("steps", r.steps, 1);
  amount("dt", r.dt, { positive: true });
  sha256("configHash", r.configHash);
  for (const k of ["coupling", "setup"]) optional(k, r[k], ["string"]);
  expect("handlerParams", r.handlerParams, ["object"]);
  values("handlerParams", r.handlerParams as Obj, ["number", "string"]);
  optional("sweep", r.sweep, ["object"]);
  if (r.sweep) values("sweep", r.sweep as Obj, ["number"]);
  optional("case", r.case, ["object"]);
  if (r.case) checkCase(r.case as Obj);
}

/** The scene's systems and their resolved parameters, where recorded. */
function checkSystems(r: Obj): void {
  optional("systems", r.systems, ["array"]);
  if (Array.isArray(r.systems) && !r.systems.every((id) => typeof id === "string")) {
    throw new FieldError(`field "systems" must be an array of system ids (strings)`);
  }
  optional("systemParams", r.systemParams, ["object"]);
  for (const [id, params] of Object.entries((r.systemParams ?? {}) as Obj)) {
    expect(`systemParams.${id}`, params, ["object"]);
    values(`systemParams.${id}`, params as Obj, ["number"]);
  }
  optional("collisionsPossible", r.collisionsPossible, ["boolean"]);
}

/** The run's protocol, its particles, its start and its duration. */
function checkRun(r: Obj): void {
  expect("particles", r.particles, ["object"]);
  const p = r.particles as Obj;
  integer("particles.solid", p.solid, 0);
  integer("particles.fluid", p.fluid, 0);
  expect("protocol", r.protocol, ["object"]);
  const protocol = r.protocol as Obj;
  integer("protocol.warmupSteps", protocol.warmupSteps, 0);
  integer("protocol.repeats", protocol.repeats, 1);
  expect("protocol.timeoutSeconds", protocol.timeoutSeconds, ["number", "string"]);
  expect("startedAt", r.startedAt, ["string"]);
  if (Number.isNaN(Date.parse(r.startedAt as string))) {
    throw new FieldError(`field "startedAt" must be a date and time, got ${describe(r.startedAt)}`);
  }
  for (const k of ["wallSeconds", "compileSeconds"]) seconds(k, r[k]);
  optional("pipelines", r.pipelines, ["object"]);
  if (r.pipelines) {
    for (const k of ["created", "reused"]) amount(`pipelines.${k}`, (r.pipelines as Obj)[k]);
  }
}

/**
 * What the case measured: an `ok` or `unstable` case ran to its end, so it has its timings and
 * metrics; any case's are checked where present, with its state hash and the cost of a step.
 */
function checkMeasured(r: Obj): void {
  expect("error", r.error, ["string", "null"]);
  for (const k of ["timings", "metrics"]) {
    expect(k, r[k], ["object", "null"]);
    if (r[k] === null && (r.status === "ok" || r.status === "unstable")) {
      throw new FieldError(
        `field "${k}" must be an object in a case that ran to its end (status ${r.status}), got null`,
      );
    }
  }
  if (r.timings) checkTimings(r.timings as Obj);
  if (r.metrics) checkMetrics(r.metrics as Obj);
  if (r.stateHash !== null) sha256("stateHash", r.stateHash);
  expect("repeatable", r.repeatable, ["boolean", "null"]);
  if (r.hostSyncsPerStep !== null) amount("hostSyncsPerStep", r.hostSyncsPerStep);
  expect("env", r.env, ["object", "null"]);
  if (r.env) checkEnv(r.env as Obj);
  optional("gpu", r.gpu, ["object"]);
  if (r.gpu) checkGpu(r.gpu as Obj);
  optional("solvers", r.solvers, ["object"]);
  if (r.solvers) values("solvers", r.solvers as Obj, ["object"]);
  optional("snapshots", r.snapshots, ["object"]);
  if (r.snapshots) expect("snapshots.frames", (r.snapshots as Obj).frames, ["array"]);
}

/**
 * Checks a parsed line against the JSON Schema (`core/result.schema.json`): every required field
 * present, each of its kind; hashes in hex, the scale and status known, counts whole and not
 * negative, numbers finite (or `"Infinity"` where the harness writes it); the optional fields the
 * readers of records (reports/, `--verify`, `--resume`, the docs) use, where present. Throws a
 * {@link FieldError} naming the first bad field, what it must be and what it is.
 */
function check(o: unknown): void {
  if (kindOf(o) !== "object") throw new FieldError(`not a JSON object but ${describe(o)}`);
  const r = o as Obj;
  checkIdentity(r);
  checkSystems(r);
  checkRun(r);
  checkMeasured(r);
}

/** Why a line of a results file was left out by {@link readResults}. */
export interface SkippedLine {
  /** 1-based line number in the file. */
  line: number;
  /**
   * What is wrong: `not JSON (a torn write?)`, or the bad field, what it must be and what it is
   * (`field "timings" must be an object or null, got the string "garbage"`), or a newer schema.
   */
  reason: string;
}

/** `<file> line 7 skipped: not JSON (a torn write?)`: the warning for a line {@link readResults} left out. */
export function skippedLineWarning(file: string, skipped: SkippedLine): string {
  return `${file} line ${skipped.line} skipped: ${skipped.reason}`;
}

/** What a results text holds: the records that passed the check, and the lines left out. */
export interface ReadResults {
  records: CaseRecord[];
  skipped: SkippedLine[];
}

/** One line read: its record, or why it is unusable and what to do (for the strict reader). */
type LineRead =
  | { ok: true; record: CaseRecord }
  | { ok: false; reason: string; fix: string; detail?: string };

/** One non-empty line's record, upgraded to the current schema, or why it is unusable. */
function parseLine(line: string): LineRead {
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch (e) {
    return {
      ok: false,
      reason: "not JSON (a torn write?)",
      fix: "delete the line, or read the file with readResults to skip it",
      detail: (e as Error).message,
    };
  }
  const version = kindOf(o) === "object" ? (o as Obj).schemaVersion : undefined;
  if (typeof version === "number" && version > SCHEMA_VERSION) {
    return {
      ok: false,
      reason: `schemaVersion ${version} is newer than this harness reads (${SCHEMA_VERSION})`,
      fix: "update mergesplit",
    };
  }
  try {
    check(revive(o, ""));
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    return {
      ok: false,
      reason: e.message,
      fix: "re-run its case or delete the line, or read the file with readResults to skip it",
    };
  }
  return { ok: true, record: o as CaseRecord };
}

/** The non-empty lines of a results text, each with its 1-based number. */
function lines(text: string): { line: number; text: string }[] {
  return text.split("\n").map((raw, k) => ({ line: k + 1, text: raw.trim() }))
    .filter((l) => l.text);
}

/**
 * Reads a `results.jsonl` text tolerantly: every non-empty line that is a valid record (upgraded
 * to the current schema) is kept, and every other one (a torn last line, one that is not JSON, one
 * whose record has a malformed field or a newer schema version) is left out and reported with its
 * 1-based line number and the reason. A run that was killed mid-write keeps its finished cases.
 * {@link parseResults} is the strict reader.
 */
export function readResults(text: string): ReadResults {
  const records: CaseRecord[] = [];
  const skipped: SkippedLine[] = [];
  for (const { line, text: t } of lines(text)) {
    const r = parseLine(t);
    if (r.ok) records.push(r.record);
    else skipped.push({ line, reason: r.reason });
  }
  return { records, skipped };
}

/**
 * Parses a `results.jsonl` text strictly: one record per non-empty line, upgraded to the current
 * schema. Throws a `SyntaxError` naming the first line that is not JSON, whose record has a
 * malformed field (named, with what it must be and what it is) or a newer schema version, and
 * what to do; {@link readResults} skips such lines instead.
 */
export function parseResults(text: string): CaseRecord[] {
  return lines(text).map(({ line, text: t }) => {
    const r = parseLine(t);
    if (r.ok) return r.record;
    throw new SyntaxError(
      r.detail === undefined
        ? `results line ${line}: ${r.reason}; ${r.fix}`
        : `results line ${line} is ${r.reason}: ${r.detail}; ${r.fix}`,
    );
  });
}

/**
 * `llvmpipe (LLVM 15.0.6, 256 bits) (gl)`: the adapter a record ran on, as `--verify`, `--resume`
 * and the report name it (lavapipe and llvmpipe share a description: the backend tells them
 * apart); "" where the record has none.
 */
export function adapterName(
  record: { env?: { adapter?: { description?: string; backend?: string } } | null },
): string {
  const a = record.env?.adapter;
  if (!a) return "";
  return `${a.description || "unnamed adapter"}${a.backend ? ` (${a.backend})` : ""}`;
}

/** Serialises a record as one JSON line (Infinity written as "Infinity"). */
export function recordLine(record: CaseRecord): string {
  return JSON.stringify(record, (_k, v) => (v === Infinity ? "Infinity" : v)) + "\n";
}
