/**
 * The simulation engine: one scene, its systems, one collision handler, every kernel on WebGPU.
 * It names no system and no handler (both come from their registries by string id). One step
 * (DESIGN.md; paper §3–§5) is encoded into one command buffer with no host sync: neighbour grid
 * and collision detection (Rules 1–2); per stage (merge-split: two, §5.1) the handler's begin hook
 * (merging, Eqs. 1–7; identity DOFs without it), the systems' forces, the handler's forces, the
 * systems' integration of their parts of every DOF, the coupling (Eqs. 17–19; its readings in
 * `gpu/coupling/coupling.wgsl`), the handler's end hook (splitting, Eqs. 8–16, 20); the
 * end-of-step hook (impulses), the write-back (Eqs. 6–7) and the metrics every k steps.
 *
 * @module
 */
import { handlerApplies, type Scene } from "../core/scene.ts";
import { buildParticles, type ParticleSet } from "../core/scene_builder.ts";
import { Coupling } from "./coupling/coupling.ts";
import type { EngineOptions } from "./engine_options.ts";
import type { GpuHandler } from "./handlers/handler.ts";
import { getHandler, handlerParams } from "./handlers/registry.ts";
import { Metrics, type MetricsSample } from "./metrics/metrics.ts";
import { type BudgetProbe, StepBudget } from "./metrics/step_budget.ts";
import { acquireGpu, type GpuContext } from "./runtime/device.ts";
import {
  beginKernelRecord,
  clearKernelCache,
  dispatchesEncoded,
  keepPipelineLabels,
  readBuffer,
} from "./runtime/kernel.ts";
import { GpuDeadline, type GpuWait } from "./runtime/gpu_deadline.ts";
import { GpuMemoryError, trackBufferMemory } from "./runtime/buffer_memory.ts";
import { GpuSession } from "./runtime/gpu_session.ts";
import { DispatchGate } from "./runtime/dispatch_gate.ts";
import type { KernelProfiler } from "./runtime/kernel_profiler.ts";
import { buildValidated } from "./runtime/validated.ts";
import { type Phase, PHASES } from "./phases.ts";
import { RunStopped } from "./run_stopped.ts";
import { StepClock, type StepTimings } from "./runtime/step_clock.ts";
import { Contacts } from "./state/contacts.ts";
import { deviceContactSlots } from "./state/contact_slots.ts";
import type { GridGeometry } from "./state/neighbor_grid.ts";
import { type HandlerStats, ParticleState } from "./state/particle_state.ts";
import { createSystems, planSystems } from "./systems/registry.ts";
import type { GpuSystem, SolverStats } from "./systems/system.ts";

export { type Phase, PHASES };
export type { StepTimings };
export { RunStopped };
export type { EngineOptions };

/** One scene under one handler on the GPU. */
export class Engine {
  readonly scene: Scene;
  readonly gpu: GpuContext;
  readonly handler: GpuHandler;
  /** The handler's parameters as run (scene values with the overrides). */
  readonly handlerParams: Readonly<Record<string, number>>;
  readonly systems: readonly GpuSystem[];
  readonly particles: ParticleSet;
  readonly count: number;
  readonly grid: GridGeometry;
  readonly state: ParticleState;
  /** Steps taken so far. */
  step = 0;
  /** K: contact, pair and marked slots per particle (`contactSlots` unless given). */
  readonly maxPerParticle: number;
  /**
   * Whether any two particles may collide: more than one body, or a body whose system collides
   * with itself. When none may, the step encodes no collision detection and no handler hook
   * (no pair can exist, so every handler is the identity and merge-split's stage 2 would repeat
   * stage 1 bit for bit): the phases a single fluid body does not need cost nothing.
   */
  readonly collisionsPossible: boolean;
  #session: GpuSession;
  #contacts: Contacts;
  #coupling: Coupling;
  #metrics: Metrics;
  #budget: StepBudget;
  /** Whether the step being encoded is a budget step (it ends with a metrics sample). */
  #budgetStep = false;
  #clock: StepClock<Phase>;
  #destroyed = false;
  /** The dispatch gates of stages the handler decides on the GPU (`encodeStageFlag`). */
  #gates: [DispatchGate?, DispatchGate?] = [];
  /** Whether the handler's stage flags gate its stages (`EngineOptions.stageGates`). */
  #stageGates: boolean;
  /** Dispatches encoded per phase in the last step (metrics: the last sample). */
  #dispatches: Partial<Record<Phase, number>> = {};
  /** Per-kernel timing (`EngineOptions.profiler`): one readback per step. */
  #profiler: KernelProfiler | undefined;
  /** Batches of steps run so far (for the phase a GPU wait names). */
  #batches = 0;
  /**
   * The deadlines of the engine's GPU waits (`EngineOptions.deadline`): every batch's readback,
   * every read of results. Readers of the engine's buffers outside it (a snapshot) race their own
   * waits with it too.
   */
  readonly deadline: GpuDeadline;

  private constructor(
    scene: Scene,
    gpu: GpuContext,
    options: EngineOptions & { ownsGpu: boolean; gpuDeadline: GpuDeadline },
  ) {
    this.scene = scene;
    this.gpu = gpu;
    this.deadline = options.gpuDeadline;
    const device = gpu.device;
    // the kernels this engine creates are its record, not those of engines before it on the device
    beginKernelRecord(device);
    // the profiler names each dispatch by its pipeline's label: no pipeline under another label
    if (options.profiler) keepPipelineLabels(device);
    this.#stageGates = options.stageGates ?? true;
    this.#profiler = options.profiler;
    this.#session = new GpuSession(gpu, {
      owns: options.ownsGpu,
      memoryBudget: options.memoryBudget,
    });
    const p = this.particles = buildParticles(scene);
    const K = this.maxPerParticle = options.maxPerParticle ?? deviceContactSlots(device, p.count);
    this.count = p.count;
    const plan = planSystems(scene);
    this.collisionsPossible = p.bodies.length > 1 || plan.selfCollision.some(Boolean);
    const hEntry = getHandler(options.handler);
    this.handlerParams = handlerParams(scene, options.handler, options.params);
    const state = this.state = new ParticleState(device, {
      particles: p,
      ...plan,
      systemOf: plan.bodySystem,
    });
    const reach = [
      2 * scene.radius,
      plan.reach,
      hEntry.neighborRadius?.(this.handlerParams, scene) ?? 0,
    ];
    this.#contacts = new Contacts(device, {
      state,
      scene,
      reach: Math.max(...reach),
      maxPerParticle: K,
      maxRadius: p.radius.reduce((a, r) => Math.max(a, r), 0),
    });
    const grid = this.#contacts.grid;
    this.grid = grid.geometry;
    this.#coupling = new Coupling(device, {
      state,
      systems: plan.systems.length,
      reading: options.coupling ?? "own-part",
      scene,
    });
    this.systems = createSystems(plan, {
      device,
      scene,
      particles: p,
      state,
      grid,
      part: (index) => this.#coupling.slice(index),
    });
    this.handler = hEntry.create({
      device,
      scene,
      params: this.handlerParams,
      state,
      collisions: this.#contacts.outputs,
      maxPerParticle: K,
      grid,
    });
    this.#metrics = Metrics.forScene(device, { scene, particles: p, buffers: state.buffers });
    this.#budget = StepBudget.forState(device, {
      state,
      parts: {
        systems: this.#coupling.systems,
        stride: this.#coupling.stride,
        ...this.#coupling.parts,
      },
      dt: scene.dt,
      gravity: scene.gravity,
      target: this.#metrics.budgetTarget,
    });
    this.#clock = new StepClock(device, {
      phases: PHASES,
      // a profiled step has one pass per dispatch: the phases' own timestamps are not written
      timestamps: (options.timing ?? true) && gpu.timestamps && !options.profiler,
      batchSteps: options.batchSteps ?? 100,
    });
    const enc = device.createCommandEncoder({ label: "engine init" });
    this.#metrics.encodeInit(enc);
    device.queue.submit([enc.finish()]);
  }

  /**
   * Builds the engine for `scene` under `options.handler`, validating every GPU object (a WGSL
   * or binding error throws here, naming the problem) and the parameters (a `ParamError` names
   * the field). The validation's wait has the floor of `options.deadline` (a `GpuTimeoutError`
   * past it). A build that fails clears the device's kernel cache (its objects may be invalid).
   */
  static async create(scene: Scene, options: EngineOptions): Promise<Engine> {
    const why = getHandler(options.handler).notApplicable?.(scene);
    if (!handlerApplies(scene, options.handler) || why) {
      throw new RangeError(
        `handler "${options.handler}" does not apply to scene "${scene.id}"; ${
          why ?? `it takes: ${scene.applicableHandlers.join(", ")}`
        }`,
      );
    }
    handlerParams(scene, options.handler, options.params);
    planSystems(scene);
    const gpu = options.gpu ?? await acquireGpu({ adapter: options.adapter ?? "default" });
    const gpuDeadline = new GpuDeadline(options.deadline);
    try {
      const what = `${scene.id} under ${options.handler}`;
      return await gpuDeadline.wait(
        buildValidated(gpu.device, {
          what,
          build: () => new Engine(scene, gpu, { ...options, ownsGpu: !options.gpu, gpuDeadline }),
          cleanup: (engine) => engine.destroy(),
        }),
        { phase: `the build of ${what}`, operation: "popErrorScope of its validation" },
      );
    } catch (e) {
      // a constructor that threw leaves its budget on the device (and, when it acquired the
      // device, the device itself); a pipeline it cached may be invalid
      trackBufferMemory(gpu.device).setBudget(null);
      clearKernelCache(gpu.device);
      if (!options.gpu) gpu.device.destroy();
      if (e instanceof GpuMemoryError) {
        throw new GpuMemoryError(
          `${scene.id} at scale ${scene.scale} under ${options.handler} ${e.message}`,
          e,
        );
      }
      throw e;
    }
  }

  #stage(encoder: GPUCommandEncoder, stage: 1 | 2): void {
    const { state } = this;
    const h: Partial<GpuHandler> = this.collisionsPossible ? this.handler : {};
    const at = (phase: Phase, part?: "begin" | "end") => this.#clock.writes(phase, part);
    let gate: DispatchGate | undefined;
    this.#counted(`merging${stage}`, () => {
      inPass(encoder, `merging stage ${stage}`, at(`merging${stage}`), (pass) => {
        const flag = h.encodeStageFlag?.(pass, stage);
        if (flag && this.#stageGates) {
          gate = this.#gates[stage - 1] ??= new DispatchGate(this.gpu.device, {
            label: `stage ${stage} gate`,
            flag,
          });
          gate.encodeOpen(pass);
          gate.begin();
        }
        if (h.encodeBegin) h.encodeBegin(pass, stage);
        else state.encodeIdentityDofs(pass);
      });
    });
    try {
      this.#probe(encoder, "merged");
      this.#stageBody(encoder, stage, h);
    } finally {
      gate?.end();
    }
  }

  /** The integration and splitting of a stage (gated with it when the handler gates it). */
  #stageBody(encoder: GPUCommandEncoder, stage: 1 | 2, h: Partial<GpuHandler>): void {
    const { state } = this;
    const at = (phase: Phase, part?: "begin" | "end") => this.#clock.writes(phase, part);
    this.#counted(`integration${stage}`, () => {
      inPass(encoder, `integration stage ${stage}`, at(`integration${stage}`, "begin"), () => {});
      h.encodeBeforeForces?.(encoder);
      for (const s of this.systems) s.encodeForces(encoder);
      encoder.clearBuffer(state.buffers.handlerForce);
      h.encodeForces?.(encoder);
      inPass(encoder, `coupling gather ${stage}`, undefined, (p) => this.#coupling.encodeGather(p));
      for (const s of this.systems) s.encodeIntegrate(encoder, { stage });
      inPass(encoder, `coupling sync ${stage}`, at(`integration${stage}`, "end"), (pass) => {
        this.#coupling.encodeSync(pass);
      });
    });
    this.#probe(encoder, "integrated");
    this.#probe(encoder, "synced");
    this.#counted(`splitting${stage}`, () => {
      inPass(encoder, `splitting stage ${stage}`, at(`splitting${stage}`), (pass) => {
        if (h.encodeEnd) h.encodeEnd(pass, stage);
        else state.encodeDofVelocities(pass);
      });
    });
    this.#probe(encoder, "split");
  }

  /** The step budget's probe at `point`, on budget steps only (untimed, uncounted). */
  #probe(encoder: GPUCommandEncoder, point: BudgetProbe): void {
    if (!this.#budgetStep) return;
    if (this.#profiler) this.#profiler.phase = "budget probes";
    this.#budget.encodeProbe(encoder, point);
  }

  /** Runs `encode` and records how many dispatches it encoded under `phase`. */
  #counted(phase: Phase, encode: () => void): void {
    if (this.#profiler) this.#profiler.phase = phase;
    const before = dispatchesEncoded();
    encode();
    this.#dispatches[phase] = dispatchesEncoded() - before;
  }

  /** Encodes one step (no host sync). */
  #encodeStep(): GPUCommandEncoder {
    const h: Partial<GpuHandler> = this.collisionsPossible ? this.handler : {};
    h.prepareStep?.(this.step);
    const real = this.gpu.device.createCommandEncoder({ label: `step ${this.step}` });
    const encoder = this.#profiler?.wrap(real) ?? real;
    this.#budgetStep = (this.step + 1) % this.scene.metricsEvery === 0;
    this.#probe(encoder, "start");
    this.#counted("neighborSearch", () => {
      this.#contacts.encodeGrid(encoder, this.#clock.writes("neighborSearch"));
    });
    if (this.collisionsPossible) {
      this.#counted("collisionDetection", () => {
        this.#contacts.encodeDetection(encoder, this.#clock.writes("collisionDetection"));
      });
    }
    for (let s = 1; s <= (h.stages ?? 1); s++) this.#stage(encoder, s as 1 | 2);
    this.#counted("endOfStep", () => {
      h.encodeEndOfStep?.(encoder);
      inPass(encoder, "write back", this.#clock.writes("endOfStep"), (pass) => {
        this.state.encodeWriteBack(pass);
      });
      for (const s of this.systems) s.encodeEndOfStep?.(encoder);
    });
    this.#probe(encoder, "end");
    this.step++;
    if (this.#budgetStep) {
      this.#counted("metrics", () => {
        this.#metrics.encodeSample(encoder, {
          time: this.step * this.scene.dt,
          timestampWrites: this.#clock.writes("metrics"),
        });
      });
      this.#budget.encodeFinish(encoder, this.#metrics.taken - 1);
    }
    return encoder;
  }

  /**
   * Runs `steps` steps. Each step is one submit; timings are resolved and read back once per batch
   * (`batchSteps`), which is the only host sync. A batch whose wait does not complete by its
   * deadline ({@link Engine.deadline}) throws a `GpuTimeoutError` naming the batch, its steps and
   * the pending operation; the engine (and its device) cannot be used after it.
   */
  async run(
    steps: number,
    options: {
      onProgress?: (done: number) => void;
      /** Asked after every batch; a non-null reason stops the run with a {@link RunStopped}. */
      shouldStop?: () => string | null;
    } = {},
  ): Promise<void> {
    if (this.#destroyed) throw new Error("Engine.run: the engine was destroyed");
    let first = this.step;
    for (let s = 0; s < steps; s++) {
      this.#clock.beginStep();
      const encoder = this.#encodeStep();
      const ends = this.#clock.endStep(encoder, s === steps - 1);
      this.#profiler?.resolve(encoder);
      this.gpu.device.queue.submit([encoder.finish()]);
      if (this.#profiler) {
        await this.deadline.wait(this.#profiler.read(), {
          phase: `profiled step ${this.step - 1}`,
          operation: "mapAsync of the kernel profiler readback",
        });
      }
      if (!ends) continue;
      const batch: Omit<GpuWait, "operation"> = {
        phase: `step batch ${++this.#batches} (steps ${first}–${this.step - 1})`,
        steps: this.step - first,
      };
      const done = await this.#clock.endBatch({
        guard: (work, operation) => this.deadline.wait(work, { ...batch, operation }),
      });
      this.deadline.observe(done.steps, done.ms);
      first = this.step;
      this.#session.throwReported(`steps up to ${this.step}`);
      options.onProgress?.(s + 1);
      const reason = options.shouldStop?.() ?? null;
      if (reason !== null) throw new RunStopped(reason, s + 1);
    }
  }

  /**
   * Takes a metrics sample of the current state unless the last step took one (every
   * `scene.metricsEvery` steps): the end of a run that is not a multiple of it. One submit, no
   * readback; not timed.
   */
  sampleFinalState(): void {
    if (this.step % this.scene.metricsEvery === 0) return;
    const encoder = this.gpu.device.createCommandEncoder({ label: "final metrics sample" });
    this.#metrics.encodeSample(encoder, { time: this.step * this.scene.dt });
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
    const rows = await this.deadline.wait(this.#metrics.read(), {
      phase: "the metrics readback",
      operation: "mapAsync of the metrics samples",
    });
    this.#clock.countTransfer(rows.length * 64, performance.now() - t0);
    return rows;
  }

  /**
   * Fragment label per particle (`Metrics.fragmentLabels`) as of the last metrics sample, i.e. the
   * last step that is a multiple of `scene.metricsEvery`; meaningful only once a sample has been
   * taken and when the scene has solid bodies. Read it back with a snapshot, never per step.
   */
  get fragmentLabels(): GPUBuffer {
    return this.#metrics.fragmentLabels;
  }

  /**
   * Dispatches the last encoded step recorded, per phase (`metrics`: the last sample's; the
   * others are the same every step). Indirect dispatches count whether or not the GPU then runs
   * any workgroup (stage 2 when nothing approaches, grouping rounds after convergence).
   */
  get dispatchesPerPhase(): Readonly<Partial<Record<Phase, number>>> {
    return { ...this.#dispatches };
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

  /** Particle positions and velocities now (vec4 per particle), one readback each. */
  readState(): Promise<{ pos: Float32Array; vel: Float32Array }> {
    this.#clock.countTransfer(0, 0, 2);
    return this.deadline.wait(this.state.read(), {
      phase: "the state readback",
      operation: "mapAsync of the positions and velocities",
    });
  }

  /** Particle positions now (vec4 per particle, w = radius), one readback. */
  async readPositions(): Promise<Float32Array> {
    this.#clock.countTransfer(0, 0);
    const read = this.state.read({ velocities: false });
    return (await this.deadline.wait(read, {
      phase: "the positions readback",
      operation: "mapAsync of the positions",
    })).pos;
  }

  /** SHA-256 (hex) of the particle positions and velocities: equal on equal state, bit for bit. */
  async stateHash(): Promise<string> {
    this.#clock.countTransfer(0, 0, 2);
    return await this.deadline.wait(this.state.hash(), {
      phase: "the state hash",
      operation: "mapAsync of the positions and velocities",
    });
  }

  /** Handler statistics (`HANDLER_STATS`) and pair-list overflows. */
  async readStats(): Promise<HandlerStats & { overflow: number }> {
    const read = async () => {
      const overflow = new Uint32Array(
        await readBuffer(this.gpu.device, this.#contacts.outputs.overflow),
      )[0];
      return { ...await this.state.readStats(), overflow };
    };
    return await this.deadline.wait(read(), {
      phase: "the handler statistics readback",
      operation: "mapAsync of the pair-list overflows and handler statistics",
    });
  }

  /**
   * Statistics of the last solve of every system that has one, by system id (one readback each;
   * outside the step loop).
   */
  async readAllSolverStats(): Promise<Record<string, SolverStats>> {
    const out: Record<string, SolverStats> = {};
    for (const s of this.systems) {
      if (!s.readSolverStats) continue;
      out[s.id] = await this.deadline.wait(s.readSolverStats(), {
        phase: `the solver statistics readback of ${s.id}`,
        operation: "mapAsync of the solver statistics",
      });
    }
    return out;
  }

  /** Frees every GPU object of the engine (and the device when the engine acquired it). */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.handler?.destroy();
    for (const s of this.systems ?? []) s.destroy();
    this.#coupling?.destroy();
    this.#metrics?.destroy();
    this.#budget?.destroy();
    this.#clock?.destroy();
    this.#contacts?.destroy();
    for (const g of this.#gates ?? []) g?.destroy();
    this.state?.destroy();
    this.#session?.close();
  }
}

/** Records `body` in a compute pass of its own, with the pass's timestamp writes. */
function inPass(
  encoder: GPUCommandEncoder,
  label: string,
  timestampWrites: GPUComputePassTimestampWrites | undefined,
  body: (pass: GPUComputePassEncoder) => void,
): void {
  const pass = encoder.beginComputePass({ label, timestampWrites });
  body(pass);
  pass.end();
}
