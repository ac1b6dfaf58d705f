/**
 * The simulation engine: one scene under one collision handler, every kernel on WebGPU. It reads
 * as build (`engine_parts.ts`, validated and owned by a `GpuSession`), step (`step_encoder.ts`:
 * one command buffer per step, no host sync; paper §3–§5), run (batches of steps, one readback
 * each), reads and destroy. It names no system and no handler (both come from their registries).
 *
 * @module
 */
import type { CollisionOutputs } from "./state/collision_detection.ts";
import type { Scene } from "../core/scene/scene.ts";
import type { ParticleSet } from "../core/scene/scene_builder.ts";
import {
  buildEngineParts,
  destroyParts,
  type EngineParts,
  readPartStats,
  readSolverStats,
  type ResolvedParts,
  resolveParts,
} from "./engine_parts.ts";
import type { EngineOptions } from "./engine_options.ts";
import type { CouplingReading } from "./coupling/coupling.ts";
import type { GpuHandler } from "./handlers/handler.ts";
import type { MetricsSample } from "./metrics/metrics.ts";
import { acquireGpu, type GpuContext } from "./runtime/device.ts";
import { beginKernelRecord, keepPipelineLabels } from "./runtime/kernel.ts";
import { GpuDeadline } from "./runtime/gpu_deadline.ts";
import { buildInSession, GpuSession } from "./runtime/gpu_session.ts";
import type { KernelProfiler } from "./runtime/kernel_profiler.ts";
import { type Phase, PHASES } from "./phases.ts";
import { RunStopped } from "./run_stopped.ts";
import type { StepClock, StepTimings } from "./runtime/step_clock.ts";
import { checkStepsPerSubmit, type RunOptions, StepRunner } from "./step_runner.ts";
import { StepEncoder } from "./step_encoder.ts";
import type { GridGeometry } from "./state/neighbor_grid.ts";
import type { ParticleState } from "./state/particle_state.ts";
import type { GpuSystem, SolverStats } from "./systems/system.ts";

export { type EngineOptions, type Phase, PHASES, RunStopped, type StepTimings };

/** One scene under one handler on the GPU. */
export class Engine {
  readonly scene: Scene;
  readonly gpu: GpuContext;
  readonly handler: GpuHandler;
  /** The handler's parameters as run (scene values with the overrides). */
  readonly handlerParams: Readonly<Record<string, number>>;
  readonly systems: readonly GpuSystem[];
  /** How the systems see a meta-particle they share (`EngineOptions.coupling`, the paper's by default). */
  readonly coupling: CouplingReading;
  readonly particles: ParticleSet;
  readonly count: number;
  readonly grid: GridGeometry;
  readonly state: ParticleState;
  /** Steps taken so far. */
  step = 0;
  /** Steps encoded into one submit at most (`EngineOptions.stepsPerSubmit`). */
  readonly stepsPerSubmit: number;
  /** K: contact, pair and marked slots per particle (`contactSlots` unless given). */
  readonly maxPerParticle: number;
  /**
   * Whether any two particles may collide (`EngineParts`); when none may, the step encodes no
   * collision detection and no handler hook: every handler is the identity there.
   */
  readonly collisionsPossible: boolean;
  /** The deadlines of the engine's GPU waits; readers of its buffers (a snapshot) race them too. */
  readonly deadline: GpuDeadline;
  #session: GpuSession;
  #parts: EngineParts;
  #steps: StepEncoder;
  #clock: StepClock<Phase>;
  #destroyed = false;
  /** Per-kernel timing (`EngineOptions.profiler`): one readback per step. */
  #profiler: KernelProfiler | undefined;
  #runner: StepRunner;

  private constructor(
    scene: Scene,
    gpu: GpuContext,
    options: EngineOptions & ResolvedParts & { owns: boolean; gpuDeadline: GpuDeadline },
  ) {
    this.scene = scene;
    this.gpu = gpu;
    this.deadline = options.gpuDeadline;
    // the kernels this engine creates are its record, not those of engines before it on the device
    beginKernelRecord(gpu.device);
    // the profiler names each dispatch by its pipeline's label: no pipeline under another label
    if (options.profiler) keepPipelineLabels(gpu.device);
    this.#profiler = options.profiler;
    this.#session = new GpuSession(gpu, {
      owns: options.owns,
      memoryBudget: options.memoryBudget,
    });
    this.handlerParams = options.handlerParams;
    this.stepsPerSubmit = options.stepsPerSubmit ?? 1;
    const parts = this.#parts = buildEngineParts(scene, gpu, options);
    ({ particles: this.particles, state: this.state, handler: this.handler } = parts);
    ({ systems: this.systems, maxPerParticle: this.maxPerParticle } = parts);
    this.count = parts.particles.count;
    this.grid = parts.contacts.grid.geometry;
    this.collisionsPossible = parts.collisionsPossible;
    this.coupling = parts.coupling.reading;
    this.#clock = parts.clock;
    this.#steps = new StepEncoder({
      ...parts,
      device: gpu.device,
      scene,
      handler: this.collisionsPossible ? this.handler : {},
      detect: this.collisionsPossible,
      profiler: options.profiler,
      stageGates: options.stageGates ?? true,
    });
    this.#runner = new StepRunner({
      device: gpu.device,
      steps: this.#steps,
      clock: this.#clock,
      deadline: this.deadline,
      session: this.#session,
      profiler: options.profiler,
      stepsPerSubmit: this.stepsPerSubmit,
    });
  }

  /**
   * Builds the engine for `scene` under `options.handler`, validating every GPU object (a WGSL
   * or binding error throws here, naming the problem) and the parameters (a `ParamError` names
   * the field; parameters given resolved, `options.handlerParams`, are not resolved again). The
   * validation's wait has the floor of `options.deadline` (a `GpuTimeoutError` past it). A build
   * that fails clears the device's kernel cache (its objects may be invalid).
   */
  static async create(scene: Scene, options: EngineOptions): Promise<Engine> {
    checkStepsPerSubmit(options.stepsPerSubmit ?? 1);
    const resolved = resolveParts(scene, options);
    const gpu = options.gpu ?? await acquireGpu({ adapter: options.adapter ?? "default" });
    const gpuDeadline = new GpuDeadline(options.deadline);
    return await buildInSession(gpu, {
      what: `${scene.id} at scale ${scene.scale} under ${options.handler}`,
      owns: !options.gpu,
      deadline: gpuDeadline,
      build: () =>
        new Engine(scene, gpu, { ...options, ...resolved, owns: !options.gpu, gpuDeadline }),
      cleanup: (engine) => engine.destroy(),
    });
  }

  /**
   * Runs `steps` steps (`step_runner.ts`), `stepsPerSubmit` to a submit ({@link
   * Engine.stepsPerSubmit}); timings are resolved and read back once per batch (`batchSteps`),
   * which is the only host sync. A batch whose wait does not complete by its deadline ({@link Engine.deadline}) throws a `GpuTimeoutError` naming the batch, its steps and
   * the pending operation; the engine (and its device) cannot be used after it.
   * `shouldStop` is asked after every step (a GL submit blocks, so no timer fires in a batch): a
   * reason makes the next step the batch's last, then {@link RunStopped}; the engine goes on.
   */
  async run(steps: number, options: RunOptions = {}): Promise<void> {
    if (this.#destroyed) throw new Error("Engine.run: the engine was destroyed");
    await this.#runner.run(steps, () => this.step++, options);
  }

  /**
   * Takes a metrics sample of the current state unless the last step took one (every
   * `scene.metricsEvery` steps): the end of a run that is not a multiple of it. One submit, no
   * readback; not timed.
   */
  sampleFinalState(): void {
    if (this.step % this.scene.metricsEvery === 0) return;
    const encoder = this.gpu.device.createCommandEncoder({ label: "final metrics sample" });
    this.#parts.metrics.encodeSample(encoder, { time: this.step * this.scene.dt });
    this.gpu.device.queue.submit([encoder.finish()]);
  }

  /** Forgets the timings measured so far (e.g. after warm-up steps), the profiler's too. */
  resetTimings(): void {
    this.#clock.reset();
    this.#profiler?.reset();
  }

  /** Reads every metrics sample taken so far (one readback). */
  async readMetrics(): Promise<MetricsSample[]> {
    const t0 = performance.now();
    const rows = await this.#read(this.#parts.metrics.read(), "the metrics", "metrics samples");
    this.#clock.countTransfer(rows.length * 64, performance.now() - t0);
    return rows;
  }

  /**
   * Fragment label per particle (`Metrics.fragmentLabels`) as of the last metrics sample, i.e. the
   * last step that is a multiple of `scene.metricsEvery`; meaningful only once a sample has been
   * taken and when the scene has solid bodies. Read it back with a snapshot, never per step.
   */
  get fragmentLabels(): GPUBuffer {
    return this.#parts.metrics.fragmentLabels;
  }

  /**
   * Dispatches the last encoded step recorded, per phase (`metrics`: the last sample's; the
   * others are the same every step). Indirect dispatches count whether or not the GPU then runs
   * any workgroup (stage 2 when nothing approaches, grouping rounds after convergence).
   */
  get dispatchesPerPhase(): Readonly<Partial<Record<Phase, number>>> {
    return this.#steps.dispatches;
  }

  /**
   * Of {@link Engine.dispatchesPerPhase}, those recorded as indirect dispatches (a stage gate's, a
   * solver's or grouping's own), per phase: wgpu 29 adds a validation dispatch to each.
   */
  get indirectDispatchesPerPhase(): Readonly<Partial<Record<Phase, number>>> {
    return this.#steps.indirectDispatches;
  }

  /**
   * Peak bytes of GPU buffers alive on the engine's device since the engine was built, beyond
   * those alive before (on a device shared with earlier cases: the same as on a fresh device).
   */
  get peakBufferBytes(): number {
    return this.#session.peakBufferBytes;
  }

  /** Host syncs so far: one per batch of steps inside {@link Engine.run}, plus one per read. */
  get hostSyncs(): number {
    return this.#clock.hostSyncs;
  }

  /** Timings measured so far. */
  get timings(): StepTimings<Phase> {
    return this.#clock.timings;
  }

  /**
   * The collision detection's output buffers (contacts, colliding pairs, marked pairs, each K
   * slots per particle): the contact graph of the last step, for diagnostics and tests.
   */
  get collisions(): CollisionOutputs {
    return this.#parts.contacts.outputs;
  }

  /** Particle positions and velocities now (vec4 per particle), one readback each. */
  readState(): Promise<{ pos: Float32Array; vel: Float32Array }> {
    this.#clock.countTransfer(0, 0, 2);
    return this.#read(this.state.read(), "the state", "positions and velocities");
  }

  /** Particle positions now (vec4 per particle, w = radius), one readback. */
  async readPositions(): Promise<Float32Array> {
    this.#clock.countTransfer(0, 0);
    return (await this.#read(this.state.read({ velocities: false }), "the positions")).pos;
  }

  /** SHA-256 (hex) of the particle positions and velocities: equal on equal state, bit for bit. */
  stateHash(): Promise<string> {
    this.#clock.countTransfer(0, 0, 2);
    return this.#read(this.state.hash(), "the state hash", "positions and velocities");
  }

  /** The handler's statistics by name (none when it keeps none) and the pair-list overflows. */
  readStats(): Promise<Readonly<Record<string, number>> & { overflow: number }> {
    const what = "pair-list overflows and handler statistics";
    return this.#read(readPartStats(this.#parts, this.gpu.device), "the handler statistics", what);
  }

  /** Statistics of the last solve of every system that has one, by system id (one read each). */
  readAllSolverStats(): Promise<Record<string, SolverStats>> {
    return this.#read(readSolverStats(this.systems), "the solver statistics");
  }

  /** Waits for the readback `work` of `what` (of `operand`) within the engine's deadline. */
  #read<T>(work: Promise<T>, what: string, operand = what.replace(/^the /, "")): Promise<T> {
    return this.deadline.wait(work, {
      phase: `${what} readback`,
      operation: `mapAsync of the ${operand}`,
    });
  }

  /** Frees every GPU object of the engine (and the device when the engine acquired it). */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    destroyParts(this.#parts);
    this.#steps?.destroy();
    this.#session?.close();
  }
}
