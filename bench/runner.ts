/**
 * The bench protocol: for each case, build the scene on the run's device, run the warm-up steps
 * (untimed), run the measured steps, repeat; summarise per-phase times (median, MAD, bootstrap
 * CI, min/max, raw samples) and metrics; append the record to `results.jsonl` as soon as the
 * case finishes, so an interrupted run keeps every finished case.
 *
 * The cases of a run share one device ({@link DeviceLease}), so a pipeline is compiled once per
 * device and reused by the cases after (`compileSeconds` records each case's share, apart from
 * its step times); a case's record is otherwise the same as on a fresh device.
 *
 * A case that produces NaN or explodes is `unstable` (recorded with its metrics; the run goes
 * on); an exception or a lost device is `failed`; a case past its time limit is `timeout`; a case
 * whose GPU work does not complete by its deadline (`gpu/runtime/gpu_deadline.ts`: scaled from the
 * case's own step times, at least a minute) is `gpu-timeout`, its error naming the phase and the
 * pending operation. After a failed case, a lost device or GPU work that did not complete (a
 * `gpu-timeout`, or a time limit that ran out during a GPU wait) the device is destroyed and the
 * next case gets a new one. An interrupt (Ctrl-C) stops the current case without recording it.
 *
 * @module
 */
import type { AdapterChoice, GpuContext } from "../gpu/runtime/device.ts";
import { Engine, RunStopped } from "../gpu/engine.ts";
import { collisionsPossible, sceneSystems } from "../gpu/systems/registry.ts";
import { kernelWorkgroupSizes, pipelineStats } from "../gpu/runtime/kernel.ts";
import { type GpuDeadlineOptions, GpuTimeoutError } from "../gpu/runtime/gpu_deadline.ts";
import { DeviceLease } from "./device_lease.ts";
import { summariseMetrics, TABLE_I_PHASES } from "./case_metrics.ts";
import { MergeOrderProbe } from "./merge_order_probe.ts";
import { caseConfigHash } from "./config_hash.ts";
import type { Progress } from "./output/progress.ts";
import {
  type AdapterRecord,
  type CaseRecord,
  type Environment,
  type PhaseTiming,
  recordLine,
  SAMPLE_FIELDS,
  SCHEMA_VERSION,
} from "../core/result.ts";
import { summarise } from "./statistics.ts";
import type { CaseSpec } from "./cases/suite.ts";
import { isBreakableSolid } from "../core/scene/scene_builder.ts";
import { appendResultLine, ResultsWriteError } from "./output/results_file.ts";
import type { CasePlace } from "./cases/shard.ts";
import { encodeBodies, type Snapshots } from "../core/io/snapshot_codec.ts";
import { readSnapshotFrame } from "./snapshot_frame.ts";
import { DEFAULT_COUPLING } from "../gpu/coupling/coupling.ts";

/** Snapshots recorded per case (the first and last steps included). */
export const SNAPSHOT_FRAMES = 6;
/** Scenes with more particles record every k-th particle, k = ceil(N / SNAPSHOT_MAX_PARTICLES). */
export const SNAPSHOT_MAX_PARTICLES = 20000;

/** How cases are run. */
export interface ProtocolOptions {
  adapter: AdapterChoice;
  /** Steps per repetition; default the scene's duration / dt. */
  steps?: number;
  /** Simulated seconds per repetition (alternative to `steps`). */
  duration?: number;
  /**
   * Untimed steps at the start of each repetition (at most steps − 1); default
   * {@link defaultWarmup}.
   */
  warmup?: number;
  repeat: number;
  /** Steps encoded into one submit at most (`--steps-per-submit`; default {@link BENCH_STEPS_PER_SUBMIT}). */
  stepsPerSubmit?: number;
  /** `--one-workgroup-grouping`: `EngineOptions.oneWorkgroupGrouping` (the same groups). */
  oneWorkgroupGrouping?: boolean;
  /** Per-case limit (s); a GPU wait still pending when it runs out ends the case too. */
  timeout: number;
  /**
   * Deadlines of the case's GPU waits (`gpu/runtime/gpu_deadline.ts`; default a floor of 60 s and
   * 50 × the case's slowest ms per step × the steps pending). Tests give a small floor.
   */
  deadline?: Omit<GpuDeadlineOptions, "notAfter">;
}

/** Where results go, how progress is shown, and what the host says about itself. */
export interface RunIo {
  /**
   * The record's environment for the adapter a case runs on: `captureEnvironment`
   * (`bench/environment.ts`) under Deno; the page's own in a browser.
   */
  environment: (adapter: AdapterRecord) => Environment;
  /** The results file, where each finished case is appended as one line (Deno). */
  resultsFile?: string;
  /** Called with each finished case's line (where there is no results file: a browser page). */
  write?: (line: string) => void;
  /** Each case's place in the run's whole case list (by the case's index), recorded as `case`. */
  places?: readonly CasePlace[];
  /** The place of the case {@link runOne} runs (runSuite sets it from `places`). */
  place?: CasePlace;
  /** Progress of the cases and steps (the terminal's `Progress`, or a page's). */
  progress?: Pick<Progress, "caseStart" | "step" | "caseEnd">;
  /** Polled between batches of steps: true stops the run (Ctrl-C). */
  interrupted?: () => boolean;
  /**
   * The device the cases share ({@link runSuite} passes one); without it a case acquires a device
   * of its own and destroys it when it ends.
   */
  devices?: DeviceLease;
}

/** Steps of one repetition of a case. */
export function caseSteps(
  spec: CaseSpec,
  options: Pick<ProtocolOptions, "steps" | "duration">,
): number {
  return options.steps ??
    Math.max(1, Math.round((options.duration ?? spec.scene.duration) / spec.scene.dt));
}

function phaseTiming(samples: number[], seed: number): PhaseTiming {
  return { ...summarise(samples, { seed }), unit: "ms/step", samples };
}

/**
 * Warm-up steps when none are asked for: 20, but at most a fifth of the steps, so that a short run
 * (`--steps 5` at `paper` scale) still measures most of its steps (the first one compiles the
 * pipelines and is never measured).
 */
export function defaultWarmup(steps: number): number {
  return Math.max(steps > 1 ? 1 : 0, Math.min(20, Math.floor(steps / 5)));
}

/** Warm-up steps of a case of `steps` steps: those asked for (at most steps − 1), else the default. */
function caseWarmup(warmup: number | undefined, steps: number): number {
  return warmup === undefined ? defaultWarmup(steps) : Math.min(warmup, steps - 1);
}

/**
 * The configuration hash the record of `spec` will carry (`CaseRecord.configHash`), before it
 * runs: what `--resume` compares with the records a results file already holds.
 */
export async function specConfigHash(
  spec: CaseSpec,
  options: Pick<ProtocolOptions, "steps" | "duration" | "warmup" | "repeat">,
): Promise<string> {
  const steps = caseSteps(spec, options);
  return await caseConfigHash({
    scene: spec.scene,
    handler: spec.handler,
    handlerParams: spec.handlerParams,
    coupling: spec.coupling ?? DEFAULT_COUPLING,
    steps,
    warmup: caseWarmup(options.warmup, steps),
    repeat: options.repeat,
  });
}

/** What a case runs with, resolved once from its spec and the protocol options. */
interface CasePlan {
  spec: CaseSpec;
  options: ProtocolOptions;
  /** Steps per repetition. */
  steps: number;
  /** Untimed steps at the start of each repetition. */
  warmup: number;
  coupling: NonNullable<CaseSpec["coupling"]>;
  /** The deadlines of the case's GPU waits. */
  deadline: GpuDeadlineOptions;
  /** Polled between batches of steps: why the run stops, or null to go on. */
  shouldStop: () => string | null;
  /** Progress of the steps. */
  progress?: RunIo["progress"];
}

/** A case's step times summed over its repetitions, summarised into its record at the end. */
interface TimingSums {
  /** Per Table I phase, the per-step sums of its parts. */
  perPhase: Record<string, number[]>;
  total: number[];
  transfer: { bytes: number; ms: number };
  wall: { steps: number; ms: number };
  source: "timestamp" | "wall-clock";
}

/** Runs one case; returns its record, or null when interrupted (nothing recorded). */
export async function runOne(
  spec: CaseSpec,
  options: ProtocolOptions,
  io: RunIo,
): Promise<CaseRecord | null> {
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const steps = caseSteps(spec, options);
  const warmup = caseWarmup(options.warmup, steps);
  const coupling = spec.coupling ?? DEFAULT_COUPLING;
  const record = await newCaseRecord(spec, options, io, { steps, warmup, coupling, startedAt });
  const devices = io.devices ??
    new DeviceLease({ adapter: options.adapter, label: `${spec.scene.id} × ${spec.handler}` });
  let gpu: GpuContext | undefined;
  let compiled: ReturnType<typeof pipelineStats> | undefined;
  /** Whether the device cannot serve the next case (it is replaced). */
  let spoilt = false;
  let interrupted = false;
  const shouldStop = () => {
    if (io.interrupted?.()) return "interrupted";
    if (devices.lost) return `device lost: ${devices.lost}`;
    return (performance.now() - t0) / 1000 > options.timeout ? "timeout" : null;
  };
  const deadline = { ...options.deadline, notAfter: t0 + options.timeout * 1000 };
  const plan: CasePlan = {
    spec,
    options,
    steps,
    warmup,
    coupling,
    deadline,
    shouldStop,
    progress: io.progress,
  };
  try {
    gpu = await devices.get();
    compiled = pipelineStats(gpu.device);
    record.env = io.environment(gpu.info);
    await runRepetitions(gpu, plan, record);
  } catch (e) {
    ({ interrupted, spoilt } = recordFailure(e, record, options, devices.lost));
  } finally {
    if (gpu && compiled) recordCompiles(record, gpu, compiled);
    // a device of the case's own, or one that cannot serve the next case, goes
    if (!io.devices || spoilt || devices.lost) devices.replace();
  }
  if (interrupted) return null;
  record.wallSeconds = (performance.now() - t0) / 1000;
  writeRecord(record, io);
  return record;
}

/**
 * The case's record before it runs (status `failed`, nothing measured): what the case is, its
 * protocol and its configuration hash, so that a case that throws is still recorded as what it was.
 */
async function newCaseRecord(
  spec: CaseSpec,
  options: ProtocolOptions,
  io: RunIo,
  run: Pick<CasePlan, "steps" | "warmup" | "coupling"> & { startedAt: string },
): Promise<CaseRecord> {
  const { scene, handler } = spec;
  const { steps, warmup, coupling, startedAt } = run;
  // resolved and checked once, with the case (`checkedCase`): hashed, recorded and run as they are
  const params = spec.handlerParams;
  const hash = await specConfigHash(spec, options);
  return {
    schemaVersion: SCHEMA_VERSION,
    scene: scene.id,
    sceneSource: spec.sceneSource,
    handler,
    handlerParams: { ...params },
    coupling,
    ...(spec.setup ? { setup: spec.setup } : {}),
    systems: Object.keys(scene.systems),
    systemParams: Object.fromEntries(
      sceneSystems(scene).map(({ entry, params }) => [entry.id, { ...params }]),
    ),
    collisionsPossible: collisionsPossible(scene),
    ...(spec.sweep ? { sweep: { ...spec.sweep } } : {}),
    ...(io.place ? { case: { ...io.place } } : {}),
    scale: scene.scale,
    seed: scene.seed,
    steps,
    dt: scene.dt,
    particles: { solid: 0, fluid: 0 },
    status: "failed",
    error: null,
    protocol: { warmupSteps: warmup, repeats: options.repeat, timeoutSeconds: options.timeout },
    timings: null,
    metrics: null,
    stateHash: null,
    repeatable: null,
    hostSyncsPerStep: null,
    env: null,
    configHash: hash,
    startedAt,
    wallSeconds: 0,
  };
}

/**
 * Runs the case's repetitions on `gpu`, each on an engine of its own, and fills the record: the
 * first repetition's snapshots, GPU counts and metrics, every repetition's step times, the state
 * hash and whether the repetitions agree, and the status (`unstable` when it exploded).
 */
async function runRepetitions(gpu: GpuContext, plan: CasePlan, record: CaseRecord): Promise<void> {
  const { scene, handler } = plan.spec;
  const sums: TimingSums = {
    perPhase: {},
    total: [],
    transfer: { bytes: 0, ms: 0 },
    wall: { steps: 0, ms: 0 },
    source: "wall-clock",
  };
  const hashes: string[] = [];
  for (let r = 0; r < plan.options.repeat; r++) {
    const engine = await Engine.create(scene, {
      handler,
      gpu,
      handlerParams: plan.spec.handlerParams,
      coupling: plan.coupling,
      deadline: plan.deadline,
      steps: plan.steps,
      stepsPerSubmit: plan.options.stepsPerSubmit ?? BENCH_STEPS_PER_SUBMIT,
      oneWorkgroupGrouping: plan.options.oneWorkgroupGrouping,
    });
    try {
      hashes.push(await runRepetition(engine, r, plan, record, sums));
    } finally {
      engine.destroy();
    }
  }
  record.timings = caseTimings(sums, scene.seed);
  record.stateHash = hashes[0];
  record.repeatable = hashes.every((h) => h === hashes[0]);
  record.status = record.metrics?.summary.exploded ? "unstable" : "ok";
}

/**
 * Steps the bench encodes into one submit unless `--steps-per-submit` says (`EngineOptions.
 * stepsPerSubmit`, recorded as `gpu.stepsPerSubmit`): a submit's fixed host cost spread over 8
 * steps where the host bounds the step, and a stop still seen within a few steps. The
 * state is the same for any count.
 */
export const BENCH_STEPS_PER_SUBMIT = 8;

/**
 * Runs repetition `r` of the case on `engine`: its steps (with the snapshot frames on the first
 * repetition), then on the first repetition its solver statistics, GPU counts, snapshots, host
 * syncs and metrics into the record; adds its step times to `sums`; returns its state hash.
 */
async function runRepetition(
  engine: Engine,
  r: number,
  plan: CasePlan,
  record: CaseRecord,
  sums: TimingSums,
): Promise<string> {
  const { scene } = plan.spec;
  const solid = engine.particles.bodies.filter((b) => b.kind !== "fluid").reduce(
    (a, b) => a + b.count,
    0,
  );
  record.particles = { solid, fluid: engine.count - solid };
  const run = await runSteps(engine, r, plan);
  // A run whose length is not a multiple of metricsEvery ends with a sample of its final
  // state (a short run, e.g. `--steps 5` at paper scale, has no other).
  if (r === 0) engine.sampleFinalState();
  if (r === 0) record.solvers = await engine.readAllSolverStats();
  if (r === 0) record.gpu = await gpuRecord(engine);
  if (r === 0) {
    record.snapshots = {
      bodies: engine.particles.bodies.map((x) => ({ name: x.name, kind: x.kind })),
      body: encodeBodies(engine.particles.body, run.stride),
      count: Math.ceil(engine.count / run.stride),
      stride: run.stride,
      radius: scene.radius,
      domain: run.domain,
      frames: run.frames,
    };
  }
  addTimings(sums, engine.timings);
  if (r === 0) {
    record.hostSyncsPerStep = (engine.hostSyncs - run.syncs0) / (plan.steps - plan.warmup);
    record.metrics = await metricsRecord(engine, scene, run.orderProbe);
  }
  return await engine.stateHash();
}

/**
 * Runs a repetition's steps in segments between the warm-up boundary (where the timings and the
 * host-sync count restart) and, on the first repetition, the snapshot steps, where it reads a
 * snapshot frame and samples the merge-order probe. Returns the frames, how they were read, the
 * probe and the host syncs at the end of the warm-up.
 */
async function runSteps(engine: Engine, r: number, plan: CasePlan): Promise<{
  frames: Snapshots["frames"];
  stride: number;
  domain: Snapshots["domain"];
  orderProbe: MergeOrderProbe | undefined;
  syncs0: number;
}> {
  const { scene } = plan.spec;
  const { steps, warmup, options } = plan;
  const onProgress = (offset: number) => (d: number) =>
    plan.progress?.step(r * steps + offset + d, options.repeat * steps);
  // Segments between the warm-up boundary and the snapshot steps (first repetition only).
  const frameSteps = r === 0
    ? [
      ...new Set(Array.from({ length: SNAPSHOT_FRAMES }, (_, k) =>
        Math.round((k * steps) / (SNAPSHOT_FRAMES - 1)))),
    ]
    : [];
  const bounds = [...new Set([warmup, ...frameSteps, steps])].sort((a, b) => a - b);
  const stride = Math.max(1, Math.ceil(engine.count / SNAPSHOT_MAX_PARTICLES));
  const domain = {
    min: [...scene.domain.min],
    max: [...scene.domain.max],
  } as Snapshots["domain"];
  const frames: Snapshots["frames"] = [];
  const orderProbe = r === 0 && engine.handler.id === "merge-split" &&
      engine.collisionsPossible
    ? new MergeOrderProbe()
    : undefined;
  let done = 0;
  // Snapshot reads (readSnapshotFrame) and the merge-order probe bypass engine.hostSyncs, so
  // they are not counted here.
  let syncs0 = engine.hostSyncs;
  for (const b of bounds) {
    if (b > done) {
      await engine.run(b - done, { shouldStop: plan.shouldStop, onProgress: onProgress(done) });
      done = b;
    }
    if (b === warmup) {
      engine.resetTimings();
      syncs0 = engine.hostSyncs;
    }
    // Positions and, with solid bodies, the fragments of the last metrics sample at or
    // before step b (its step is the frame's fragmentsStep), in one readback.
    if (frameSteps.includes(b)) {
      await orderProbe?.sample(engine);
      frames.push(
        await engine.deadline.wait(readSnapshotFrame(engine, { domain, stride }), {
          phase: `the snapshot frame at step ${b}`,
          operation: "mapAsync of the snapshot readback",
        }),
      );
    }
  }
  return { frames, stride, domain, orderProbe, syncs0 };
}

/**
 * The record's GPU counts of a run (its first repetition): dispatches per step and per phase,
 * host time per step, peak buffer bytes, workgroup sizes, and the handler's own statistics.
 */
async function gpuRecord(engine: Engine): Promise<CaseRecord["gpu"]> {
  const byPhase = engine.dispatchesPerPhase;
  const stats = await engine.readStats();
  return {
    dispatchesPerStep: Object.entries(byPhase)
      .filter(([p]) => p !== "metrics")
      .reduce((a, [, n]) => a + n, 0),
    dispatchesByPhase: { ...byPhase },
    indirectPerStep: Object.entries(engine.indirectDispatchesPerPhase)
      .filter(([p]) => p !== "metrics")
      .reduce((a, [, n]) => a + n, 0),
    ...(engine.timings.host.steps > 0
      ? { hostMsPerStep: engine.timings.host.ms / engine.timings.host.steps }
      : {}),
    stepsPerSubmit: engine.stepsPerSubmit,
    peakBufferBytes: engine.peakBufferBytes,
    workgroupSizes: kernelWorkgroupSizes(engine.gpu.device),
    ...(stats.groupingRounds ? { groupingRounds: stats.groupingRounds } : {}),
    ...(engine.handler.stages === 2 && engine.collisionsPossible
      ? { stage2Runs: stats.stage2Runs, steps: engine.step }
      : {}),
    ...(engine.collisionsPossible
      ? { contactsDropped: stats.overflow, contactSlots: engine.maxPerParticle }
      : {}),
    ...(engine.collisionsPossible ? engine.handler.report?.(stats) : {}),
  };
}

/** Adds a repetition's step times to the case's sums (Table I's phases: the sums of their parts). */
function addTimings(sums: TimingSums, t: Engine["timings"]): void {
  sums.source = t.source;
  for (const [name, parts] of Object.entries(TABLE_I_PHASES)) {
    const cols = parts.map((p) => t.phases[p] ?? []);
    const n = Math.max(0, ...cols.map((c) => c.length));
    if (n === 0) continue;
    const sum = Array.from(
      { length: n },
      (_, s) => cols.reduce((a, c) => a + (c[s] ?? 0), 0),
    );
    (sums.perPhase[name] ??= []).push(...sum);
  }
  sums.total.push(...t.total);
  sums.transfer.bytes += t.transfer.bytes;
  sums.transfer.ms += t.transfer.ms;
  sums.wall.steps += t.wall.steps;
  sums.wall.ms += t.wall.ms;
}

/** The record's timings: each phase's summary (and the total's) over every repetition's steps. */
function caseTimings(sums: TimingSums, seed: number): CaseRecord["timings"] {
  const phases: Record<string, PhaseTiming> = {};
  for (const [name, samples] of Object.entries(sums.perPhase)) {
    phases[name] = phaseTiming(samples, seed);
  }
  phases.total = phaseTiming(sums.total, seed);
  const { source, transfer, wall } = sums;
  return {
    source,
    phases,
    transfer,
    ...(wall.steps > 0 ? { wall: { steps: wall.steps, msPerStep: wall.ms / wall.steps } } : {}),
  };
}

/**
 * The record's metrics of a run (its first repetition): the summary of its metrics series (with
 * the particle counts each metric is relative to, and the merge-order probe's) and the series.
 */
async function metricsRecord(
  engine: Engine,
  scene: CaseSpec["scene"],
  orderProbe: MergeOrderProbe | undefined,
): Promise<CaseRecord["metrics"]> {
  const series = await engine.readMetrics();
  const bodies = engine.particles.bodies;
  return {
    summary: {
      ...summariseMetrics(series, {
        referenceSpeed: scene.cfl.referenceSpeed,
        breakableBonds: engine.particles.springs.breakableCount(),
        crossingParticles: bodies.filter((b) => b.kind !== "cloth")
          .reduce((n, b) => n + b.count, 0),
        sheetParticles: bodies.filter((b) => b.kind === "cloth")
          .reduce((n, b) => n + b.count, 0),
        breakableParticles: bodies.filter(isBreakableSolid)
          .reduce((n, b) => n + b.count, 0),
        fluid: scene.bodies.some((b) => b.kind === "fluid"),
        fluidParticles: bodies.filter((b) => b.kind === "fluid")
          .reduce((n, b) => n + b.count, 0),
        damBreak: scene.damBreak && {
          columnWidth: scene.damBreak.columnWidth,
          gravity: Math.hypot(...scene.gravity),
          tankLength: scene.domain.max[0] - scene.damBreak.backWallX,
          radius: scene.radius,
        },
      }),
      ...orderProbe?.summary(scene.cfl.referenceSpeed),
    },
    series: {
      every: scene.metricsEvery,
      fields: [...SAMPLE_FIELDS],
      rows: series.map((row) => SAMPLE_FIELDS.map((f) => row[f])),
    },
  };
}

/**
 * Records why a case stopped (`timeout`, `gpu-timeout` or `failed`, with the error) and says
 * whether it was interrupted (nothing recorded) and whether its device is spoilt (it is replaced).
 */
function recordFailure(
  e: unknown,
  record: CaseRecord,
  options: ProtocolOptions,
  lost: string | null | undefined,
): { interrupted: boolean; spoilt: boolean } {
  if (e instanceof RunStopped && e.reason === "interrupted") {
    return { interrupted: true, spoilt: false };
  }
  if (e instanceof RunStopped && e.reason === "timeout") {
    record.status = "timeout";
    record.error = `exceeded --timeout of ${options.timeout} s`;
    return { interrupted: false, spoilt: false };
  }
  if (e instanceof GpuTimeoutError && e.reason === "case time limit") {
    record.status = "timeout";
    record.error = `exceeded --timeout of ${options.timeout} s while ${e.operation} in ` +
      `${e.phase} was pending (the device was replaced)`;
  } else if (e instanceof GpuTimeoutError) {
    record.status = "gpu-timeout";
    record.error = `${e.name}: ${e.message} (the device was replaced for the next case)`;
  } else {
    // a constructor that threw leaves the buffers it made alive (until garbage collection: on
    // a large scene, gigabytes), a failed run may leave an invalid pipeline in the cache
    record.status = "failed";
    record.error = (e instanceof Error ? `${e.name}: ${e.message}` : String(e)) +
      (lost ? ` (device lost: ${lost})` : "");
  }
  return { interrupted: false, spoilt: true };
}

/** Records the case's share of pipeline compiles: the seconds and the pipelines made and reused. */
function recordCompiles(
  record: CaseRecord,
  gpu: GpuContext,
  compiled: ReturnType<typeof pipelineStats>,
): void {
  const now = pipelineStats(gpu.device);
  record.compileSeconds = now.seconds - compiled.seconds;
  record.pipelines = {
    created: now.created - compiled.created,
    reused: now.reused - compiled.reused,
  };
}

/** Writes a finished case's line: appended to the results file, and given to `io.write`. */
function writeRecord(record: CaseRecord, io: RunIo): void {
  const line = recordLine(record);
  if (io.resultsFile) {
    appendResultLine(io.resultsFile, line, {
      what: `${record.scene} × ${record.handler} (scale ${record.scale})`,
    });
  }
  io.write?.(line);
}

/**
 * Runs every case in order on one device (`io.devices`, or one acquired for the run and given
 * back at its end), replaced after a case that spoilt it; stops early (without recording the
 * current case) on interrupt, and at a case that could not be written to the results file
 * (`writeError`: the message of its {@link ResultsWriteError}; the cases before it are in the
 * file).
 */
export async function runSuite(
  cases: readonly CaseSpec[],
  options: ProtocolOptions,
  io: RunIo,
): Promise<{ records: CaseRecord[]; interrupted: boolean; writeError?: string }> {
  const records: CaseRecord[] = [];
  const devices = io.devices ?? new DeviceLease({ adapter: options.adapter });
  try {
    for (let k = 0; k < cases.length; k++) {
      const c = cases[k];
      io.progress?.caseStart(k, `${c.scene.id} × ${c.handler}`);
      let rec: CaseRecord | null;
      try {
        rec = await runOne(c, options, { ...io, devices, place: io.places?.[k] });
      } catch (e) {
        if (!(e instanceof ResultsWriteError)) throw e;
        io.progress?.caseEnd("failed", "not written");
        return { records, interrupted: false, writeError: e.message };
      }
      if (!rec) {
        io.progress?.caseEnd("interrupted", "not recorded");
        return { records, interrupted: true };
      }
      records.push(rec);
      const m = rec.metrics?.summary;
      io.progress?.caseEnd(
        rec.status,
        rec.error ??
          (m
            ? `pass-through ${m.passThroughMax}, rebound ${(+m.fluidRebound).toFixed(2)} m/s, ${
              rec.timings?.phases.total.median.toFixed(1)
            } ms/step`
            : ""),
      );
    }
    return { records, interrupted: false };
  } finally {
    // a lease of the caller's stays the caller's to give back
    if (!io.devices) devices.release();
  }
}
