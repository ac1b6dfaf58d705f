/**
 * The simulation engine: one scene, one collision handler, every kernel on WebGPU.
 *
 * One time step (DESIGN.md, paper §3–§5), encoded into one command buffer and submitted with no
 * host sync (`mapAsync`/`onSubmittedWorkDone` happen once per batch of steps, for timings and
 * metrics only):
 *
 * 1. neighbor grid by counting sort (`neighbor_grid.ts`);
 * 2. collision detection, Rules 1–2 with springs excluded, marked pairs (`collision_detection.ts`);
 * 3. per stage (merge-split: two, §5.1; baselines: one):
 *    a. grouping and merging into DOFs (`merge_split.ts`; identity for baselines), in stage 2
 *       with the marked pairs that approach after stage 1;
 *    b. forces: SPH (`sph_forces.ts`) and the handler's (`penalty`, `sph-force`), per particle,
 *       gathered per DOF;
 *    c. integration: implicit cloth by CG (`cloth_system.ts`), explicit SPH, synchronisation of
 *       shared DOFs (Eqs. 17–19) and position update (`integrate.wgsl`);
 *    d. splitting (Eqs. 8–16, 20) into particle velocities;
 * 4. the handler's end-of-step velocity update (impulses), and write-back of particle state
 *    (Eqs. 6–7);
 * 5. metrics every k steps (`metrics.ts`).
 *
 * Coupling reading. The paper (§4) includes a meta-particle spanning two systems "in both
 * simulation systems", lets each integrator produce a velocity, and synchronises them with Eq. 17,
 * "formulated similar to the merging operations"; it does not say which forces and which mass each
 * integrator sees. Here the meta is read as two parts, its cloth members (mass m1) and its fluid
 * members (m2), and each system integrates its own part as a particle of that system: the cloth
 * solve moves the cloth part (mass m1) under the springs, implicitly, plus gravity and the
 * handler's forces on the cloth members; the SPH integrator moves the fluid part (mass m2) under
 * the SPH pressure and viscosity on the fluid members, explicitly, plus gravity and the handler's
 * forces on them. Eq. 17 then is exactly Eq. 3 for merging the two parts, so the meta's momentum
 * changes by dt times the total force on all its members, and ΔĒk (Eq. 19) is Eq. 4: the kinetic
 * energy of the parts' relative motion, kept in the bond and restored with weight β (Eq. 20).
 * A fluid resting on the cloth is therefore carried by the cloth's full spring force (the
 * rest-in-contact test in `engine_test.ts` checks that it settles).
 *
 * Two other readings were rejected. Each integrator moving the whole mass M under only its own
 * system's forces would scale every force on a shared DOF by its system's mass fraction (a fluid
 * resting on cloth carried by a fraction of the spring force); this was rejected on that analysis,
 * not run. Each integrator moving the whole mass under the whole force, the other system's forces
 * explicit, was implemented first: the SPH side then integrates the stiff springs explicitly, and
 * at the `small` scale of fig11 (a fluid block on the cloth) that blew up within 0.1 s.
 *
 * @module
 */
import type { Scene } from "../core/scene.ts";
import { buildParticles, type ParticleSet } from "../core/scene_builder.ts";
import { acquireGpu, type GpuContext } from "./runtime/device.ts";
import { type ClothBindings, ClothSystem } from "./systems/mass-spring/cloth_system.ts";
import { type CollisionBindings, CollisionDetection } from "./state/collision_detection.ts";
import { type CollisionHandler, getHandler } from "./handlers/registry.ts";
import {
  bindKernel,
  createKernel,
  dispatch,
  type Kernel,
  readBuffer,
  storageBuffer,
} from "./runtime/kernel.ts";
import {
  FLAG_CLOTH,
  FLAG_FLUID,
  FLAG_PINNED,
  MergeSplitKernels,
  STATS,
} from "./handlers/merge-split/merge_split.ts";
import { Metrics, type MetricsSample } from "./metrics/metrics.ts";
import { gridForDomain, type GridGeometry, NeighborGrid } from "./state/neighbor_grid.ts";
import { PhaseTimer } from "./runtime/phase_timer.ts";
import { type SphBindings, SphForces } from "./systems/sph/sph_forces.ts";
import { defineStruct, type StructLayout } from "./runtime/struct_layout.ts";

/** WGSL of the integration, coupling and write-back kernels. */
export const INTEGRATE_WGSL: string = Deno.readTextFileSync(
  new URL("./coupling/integrate.wgsl", import.meta.url),
);

/** Layout of `IntegrateParams` in `integrate.wgsl`. */
export const INTEGRATE_PARAMS: StructLayout = defineStruct("IntegrateParams", [
  ["count", "u32"],
  ["dt", "f32"],
  ["radius", "f32"],
  ["pad0", "u32"],
  ["gravity", "vec3f"],
  ["pad1", "u32"],
  ["domainMin", "vec3f"],
  ["pad2", "u32"],
  ["domainMax", "vec3f"],
  ["pad3", "u32"],
]);

/** The timed phases of a step (GPU timestamps around their compute passes). */
export const PHASES = [
  "neighborSearch",
  "collisionDetection",
  "merging1",
  "integration1",
  "splitting1",
  "merging2",
  "integration2",
  "splitting2",
  "endOfStep",
  "metrics",
] as const;

/** A timed phase. */
export type Phase = typeof PHASES[number];

/** Per-step durations (ms) of each phase, from timestamps or (total only) the wall clock. */
export interface StepTimings {
  /** `timestamp` when the adapter has `timestamp-query`, else `wall-clock`. */
  source: "timestamp" | "wall-clock";
  /** ms per step for each phase (timestamp source), one entry per measured step (0 when the phase did not run in that step). */
  phases: Partial<Record<Phase, number[]>>;
  /** ms per step in total: the sum of the phases, or the wall clock of a batch / its steps. */
  total: number[];
  /** Host↔GPU transfers: bytes read back and ms spent waiting on readbacks. */
  transfer: { bytes: number; ms: number };
}

/** Options of {@link Engine.create}. */
export interface EngineOptions {
  /** Handler id (see `gpu/handlers/registry.ts`). */
  handler: string;
  /** A GPU to use; otherwise one is acquired with `adapter`. */
  gpu?: GpuContext;
  adapter?: "default" | "software";
  /** Time phases with GPU timestamps when available (default true). */
  timing?: boolean;
  /** Steps per batch between readbacks of timings (default 100). */
  batchSteps?: number;
  /** Pair list slots per particle (default 16). */
  maxPerParticle?: number;
}

/** What a run measured and how. */
export interface RunResult {
  steps: number;
  metrics: MetricsSample[];
  timings: StepTimings;
  /** CG statistics of the last cloth solve. */
  solver: { iterations: number; relativeResidual: number; converged: boolean };
  /** Pair-list overflows (partners dropped because a slot was full), cumulative. */
  overflow: number;
}

/** Thrown by {@link Engine.run} when `shouldStop` gives a reason (timeout, interrupt). */
export class RunStopped extends Error {
  /** Why the run stopped, e.g. `timeout`. */
  readonly reason: string;
  /** Steps completed in this call. */
  readonly completed: number;
  /** @param reason why the run stopped; @param completed steps completed in this call */
  constructor(reason: string, completed: number) {
    super(`run stopped after ${completed} steps: ${reason}`);
    this.name = "RunStopped";
    this.reason = reason;
    this.completed = completed;
  }
}

/** One scene under one handler on the GPU. */
export class Engine {
  readonly scene: Scene;
  readonly gpu: GpuContext;
  readonly handler: CollisionHandler;
  readonly particles: ParticleSet;
  readonly count: number;
  readonly grid: GridGeometry;
  /** Steps taken so far. */
  step = 0;
  #ownsGpu: boolean;
  #b: Record<string, GPUBuffer> = {};
  #neighbor: NeighborGrid;
  #collision: CollisionDetection;
  #collisionBind: CollisionBindings;
  #sph: SphForces;
  #sphBind: SphBindings;
  #cloth: ClothSystem;
  #clothBind: ClothBindings;
  #ms: MergeSplitKernels;
  #metrics: Metrics;
  #timer: PhaseTimer | null;
  #batchSteps: number;
  #k: Record<"gather" | "sync" | "writeBack", { kernel: Kernel; bind: GPUBindGroup }>;
  #params: GPUBuffer;
  #timings: StepTimings;
  #inBatch = 0;
  #batchStart = 0;
  #hostSyncs = 0;
  #gpuErrors: string[] = [];
  #onGpuError = (e: Event) => {
    this.#gpuErrors.push((e as GPUUncapturedErrorEvent).error.message);
  };
  #destroyed = false;

  private constructor(
    scene: Scene,
    gpu: GpuContext,
    options: EngineOptions & { ownsGpu: boolean },
  ) {
    this.scene = scene;
    this.gpu = gpu;
    this.#ownsGpu = options.ownsGpu;
    const device = gpu.device;
    const p = this.particles = buildParticles(scene);
    const n = this.count = p.count;
    const K = options.maxPerParticle ?? 16;
    this.#batchSteps = options.batchSteps ?? 100;

    // ---- particle state and DOF buffers (gpu/README.md)
    const pos = new Float32Array(4 * n);
    const vel = new Float32Array(4 * n);
    const flags = new Uint32Array(n);
    const cloth = new Uint32Array(n);
    const fluid = new Uint32Array(n);
    const pinned = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      for (let a = 0; a < 3; a++) {
        pos[4 * i + a] = p.x[3 * i + a];
        vel[4 * i + a] = p.v[3 * i + a];
      }
      pos[4 * i + 3] = p.radius[i];
      const kind = p.bodies[p.body[i]].kind;
      cloth[i] = kind === "cloth" ? 1 : 0;
      fluid[i] = kind === "fluid" ? 1 : 0;
      pinned[i] = p.pinned[i];
      flags[i] = (cloth[i] ? FLAG_CLOTH : 0) | (fluid[i] ? FLAG_FLUID : 0) |
        (pinned[i] ? FLAG_PINNED : 0);
    }
    // bonded partners (springs are never collisions, §5.1), ascending per particle
    const partners: number[][] = Array.from({ length: n }, () => []);
    for (const s of p.springs) {
      partners[s.i].push(s.j);
      partners[s.j].push(s.i);
    }
    const bondStart = new Uint32Array(n + 1);
    const bondList: number[] = [];
    for (let i = 0; i < n; i++) {
      bondStart[i] = bondList.length;
      bondList.push(...partners[i].sort((a, b) => a - b));
    }
    bondStart[n] = bondList.length;
    const springs = new Uint32Array(4 * Math.max(1, p.springs.length));
    const springF = new Float32Array(springs.buffer);
    p.springs.forEach((s, k) => {
      springs[4 * k] = s.i;
      springs[4 * k + 1] = s.j;
      springF[4 * k + 2] = s.restLength;
      springF[4 * k + 3] = s.ks;
    });
    const selfCollision = Uint32Array.from(scene.bodies.map((b) => (b.kind === "fluid" ? 0 : 1)));

    const B = (
      label: string,
      bytes: number,
      data?: ArrayBufferView,
    ) => (this.#b[label] = storageBuffer(device, { label, size: bytes, data }));
    B("pos", 16 * n, pos);
    B("vel", 16 * n, vel);
    B("rest", 16 * n, pos);
    B("mass", 4 * n, Float32Array.from(p.mass));
    B("body", 4 * n, p.body);
    B("flags", 4 * n, flags);
    B("cloth", 4 * n, cloth);
    B("fluid", 4 * n, fluid);
    B("pinned", 4 * n, pinned);
    B("selfCollision", 4 * selfCollision.length, selfCollision);
    B("bondStart", 4 * (n + 1), bondStart);
    B(
      "bondList",
      4 * Math.max(1, bondList.length),
      Uint32Array.from(bondList.length ? bondList : [0]),
    );
    B("springs", springs.byteLength, springs);
    for (const name of ["dof", "memberList", "dofM", "clothMass", "density"]) B(name, 4 * n);
    B("memberStart", 4 * (n + 1));
    for (
      const name of [
        "offset",
        "dofX",
        "dofV",
        "velOut",
        "velTmp",
        "fSph",
        "fHandler",
        "fExt",
        "vCloth",
      ]
    ) {
      B(name, 16 * n);
    }
    B("level", 32 * n);
    B("stats", 4 * STATS.length);

    // ---- grid, detection, systems
    const h = scene.sph.h;
    this.grid = gridForDomain(scene.domain.min, scene.domain.max, Math.max(h, 2 * scene.radius));
    this.#neighbor = new NeighborGrid(device, {
      capacity: n,
      ...this.grid,
      label: "neighbor grid",
    });
    const b = this.#b;
    this.#collision = new CollisionDetection(device, {
      capacity: n,
      maxPerParticle: K,
      grid: this.grid,
    });
    const out = this.#collision.createOutputs();
    Object.assign(this.#b, out);
    this.#collision.setCount(n);
    this.#collisionBind = this.#collision.bind({
      pos: b.pos,
      vel: b.vel,
      body: b.body,
      selfCollision: b.selfCollision,
      bondStart: b.bondStart,
      bondList: b.bondList,
      cellStart: this.#neighbor.cellStart,
      sorted: this.#neighbor.sorted,
      ...out,
    });
    this.#sph = new SphForces(device, {
      capacity: n,
      h,
      rho0: scene.sph.rho0,
      stiffness: scene.sph.stiffness,
      viscosity: scene.sph.viscosity,
      grid: this.grid,
      count: n,
    });
    this.#sphBind = this.#sph.bind({
      cellStart: this.#neighbor.cellStart,
      sorted: this.#neighbor.sorted,
      mass: b.mass,
      dof: b.dof,
      offset: b.offset,
      dofX: b.dofX,
      dofV: b.dofV,
      fluid: b.fluid,
      density: b.density,
      force: b.fSph,
    });
    this.#cloth = new ClothSystem(device, {
      particleCount: n,
      springs: p.springs,
      cloth,
      maxIterations: scene.cloth.cgIterations,
      tolerance: scene.cloth.cgTolerance,
      drag: scene.cloth.drag,
    });
    this.#clothBind = this.#cloth.bind({
      dof: b.dof,
      offset: b.offset,
      dofX: b.dofX,
      dofV: b.dofV,
      dofM: b.clothMass, // the cloth part of each DOF (see the coupling reading above)
      extForce: b.fExt,
      memberStart: b.memberStart,
      memberList: b.memberList,
      dofVOut: b.vCloth,
      pinned: b.pinned,
      cloth: b.cloth,
    });
    this.#ms = new MergeSplitKernels(device, {
      capacity: n,
      maxPerParticle: K,
      buffers: {
        pos: b.pos,
        vel: b.vel,
        mass: b.mass,
        flags: b.flags,
        pairCount: b.pairCount,
        pairs: b.pairs,
        markedCount: b.markedCount,
        marked: b.marked,
        dof: b.dof,
        memberStart: b.memberStart,
        memberList: b.memberList,
        offset: b.offset,
        dofX: b.dofX,
        dofV: b.dofV,
        dofM: b.dofM,
        level: b.level,
        velOut: b.velOut,
        stats: b.stats,
      },
    });
    this.handler = getHandler(options.handler).create({
      device,
      scene,
      count: n,
      maxPerParticle: K,
      grid: this.grid,
      buffers: {
        pos: b.pos,
        vel: b.vel,
        mass: b.mass,
        body: b.body,
        contacts: b.contacts,
        contactCount: b.contactCount,
        cellStart: this.#neighbor.cellStart,
        sorted: this.#neighbor.sorted,
        force: b.fHandler,
        velOut: b.velOut,
        velTmp: b.velTmp,
      },
    });

    // ---- integration kernels
    this.#params = device.createBuffer({
      label: "integrate params",
      size: INTEGRATE_PARAMS.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(
      this.#params,
      0,
      INTEGRATE_PARAMS.pack({
        count: n,
        dt: scene.dt,
        radius: scene.radius,
        pad0: 0,
        gravity: [...scene.gravity],
        pad1: 0,
        domainMin: [...scene.domain.min],
        pad2: 0,
        domainMax: [...scene.domain.max],
        pad3: 0,
      }),
    );
    const R = "read-only-storage" as const;
    const W = "storage" as const;
    const mk = (
      entryPoint: string,
      bindings: ("uniform" | typeof R | typeof W)[],
      buffers: (GPUBuffer | GPUBufferBinding)[],
    ) => {
      const kernel = createKernel(device, {
        label: `integrate ${entryPoint}`,
        code: INTEGRATE_WGSL,
        entryPoint,
        bindings,
      });
      return { kernel, bind: bindKernel(device, kernel, [this.#params, ...buffers]) };
    };
    this.#k = {
      gather: mk("gather_forces", ["uniform", R, R, R, R, R, R, W, W], [
        b.memberStart,
        b.memberList,
        b.fSph,
        b.fHandler,
        b.flags,
        b.level,
        b.fExt,
        b.clothMass,
      ]),
      sync: mk("integrate_sync", ["uniform", R, R, R, R, R, R, W, W, W], [
        b.memberStart,
        b.memberList,
        b.vCloth,
        b.fSph,
        b.fHandler,
        b.flags,
        b.level,
        b.dofX,
        b.dofV,
      ]),
      writeBack: mk("write_back", ["uniform", R, R, R, R, W, W], [
        b.dof,
        b.offset,
        b.dofX,
        b.velOut,
        b.pos,
        b.vel,
      ]),
    };

    // ---- metrics and timing
    const clothBody = p.bodies.find((x) => x.kind === "cloth");
    const steps = Math.round(scene.duration / scene.dt);
    this.#metrics = new Metrics(device, {
      count: n,
      cloth: {
        start: clothBody?.start ?? 0,
        rows: clothBody?.rows ?? 0,
        cols: clothBody?.cols ?? 0,
      },
      springCount: p.springs.length,
      radius: scene.radius,
      spacing: scene.bodies.find((x) => x.kind === "cloth")?.spacing ?? 2 * scene.radius,
      gravity: [...scene.gravity] as [number, number, number],
      origin: [...scene.domain.min] as [number, number, number],
      capacity: Math.ceil(steps / scene.metricsEvery) + 64,
      buffers: {
        pos: b.pos,
        vel: b.vel,
        mass: b.mass,
        flags: b.flags,
        rest: b.rest,
        springs: b.springs,
        stats: b.stats,
      },
    });
    const timing = (options.timing ?? true) && gpu.timestamps;
    this.#timer = timing
      ? new PhaseTimer(device, {
        phases: [...PHASES],
        capacitySteps: this.#batchSteps,
        label: "phase timer",
      })
      : null;
    this.#timings = {
      source: this.#timer ? "timestamp" : "wall-clock",
      phases: {},
      total: [],
      transfer: { bytes: 0, ms: 0 },
    };
    device.addEventListener("uncapturederror", this.#onGpuError);
    const enc = device.createCommandEncoder({ label: "engine init" });
    this.#metrics.encodeInit(enc);
    device.queue.submit([enc.finish()]);
  }

  /**
   * Builds the engine for `scene` under `options.handler`, validating every GPU object
   * (a WGSL or binding error throws here, naming the problem).
   */
  static async create(scene: Scene, options: EngineOptions): Promise<Engine> {
    getHandler(options.handler);
    if (!scene.applicableHandlers.includes(options.handler)) {
      throw new RangeError(
        `handler "${options.handler}" does not apply to scene "${scene.id}"; it takes: ${
          scene.applicableHandlers.join(", ")
        }`,
      );
    }
    const gpu = options.gpu ?? await acquireGpu({ adapter: options.adapter ?? "default" });
    gpu.device.pushErrorScope("validation");
    gpu.device.pushErrorScope("out-of-memory");
    let engine: Engine | undefined;
    let failure: unknown;
    try {
      engine = new Engine(scene, gpu, { ...options, ownsGpu: !options.gpu });
    } catch (e) {
      failure = e;
    }
    const oom = await gpu.device.popErrorScope();
    const invalid = await gpu.device.popErrorScope();
    const gpuError = oom ?? invalid;
    if (failure !== undefined || gpuError || !engine) {
      engine?.destroy();
      if (failure !== undefined && !gpuError) throw failure;
      throw new Error(
        `GPU setup failed for ${scene.id} under ${options.handler}: ${
          gpuError?.message ?? String(failure)
        }`,
      );
    }
    return engine;
  }

  #writes(phase: Phase, part?: "begin" | "end"): GPUComputePassTimestampWrites | undefined {
    return this.#timer?.writes(phase, this.#inBatch, part ? { part } : undefined);
  }

  #pass(
    encoder: GPUCommandEncoder,
    label: string,
    timestampWrites?: GPUComputePassTimestampWrites,
  ) {
    return encoder.beginComputePass({ label, timestampWrites });
  }

  #stage(encoder: GPUCommandEncoder, stage: 1 | 2): void {
    const n = this.count;
    const h = this.handler;
    const b = this.#b;
    let pass = this.#pass(encoder, `merging stage ${stage}`, this.#writes(`merging${stage}`));
    if (stage === 2) this.#ms.encodeMarkApproaching(pass, { count: n });
    this.#ms.encodeGroup(pass, { stage, count: n, grouping: h.grouping });
    this.#ms.encodeMerge(pass, { stage, count: n });
    pass.end();
    // forces and integration
    this.#sph.encodeDensity(encoder, this.#sphBind, {
      timestampWrites: this.#writes(`integration${stage}`, "begin"),
    });
    this.#sph.encodeForces(encoder, this.#sphBind);
    encoder.clearBuffer(b.fHandler);
    h.encodeForces(encoder);
    pass = this.#pass(encoder, `gather forces stage ${stage}`);
    dispatch(pass, this.#k.gather.kernel, {
      bindGroup: this.#k.gather.bind,
      invocations: n,
      workgroupSize: 64,
    });
    pass.end();
    this.#cloth.encodeStep(encoder, {
      bindings: this.#clothBind,
      dt: this.scene.dt,
      gravity: this.scene.gravity,
    });
    pass = this.#pass(
      encoder,
      `integrate stage ${stage}`,
      this.#writes(`integration${stage}`, "end"),
    );
    dispatch(pass, this.#k.sync.kernel, {
      bindGroup: this.#k.sync.bind,
      invocations: n,
      workgroupSize: 64,
    });
    pass.end();
    pass = this.#pass(encoder, `splitting stage ${stage}`, this.#writes(`splitting${stage}`));
    this.#ms.encodeSplit(pass, { stage, count: n });
    pass.end();
  }

  /** Encodes and submits one step (no host sync). */
  #encodeStep(): GPUCommandEncoder {
    const device = this.gpu.device;
    const n = this.count;
    const ms = this.handler.mergeSplit;
    this.#ms.setParams({
      count: n,
      seed: this.scene.seed,
      step: this.step,
      alpha: ms.alpha,
      beta: ms.beta,
      nMin: ms.nMin,
      nMax: ms.nMax,
    });
    const encoder = device.createCommandEncoder({ label: `step ${this.step}` });
    this.#neighbor.encode(encoder, {
      pos: this.#b.pos,
      count: n,
      timestampWrites: this.#writes("neighborSearch"),
    });
    this.#collision.encode(encoder, this.#collisionBind, {
      timestampWrites: this.#writes("collisionDetection"),
    });
    for (let s = 1; s <= this.handler.stages; s++) this.#stage(encoder, s as 1 | 2);
    this.handler.encodeEnd(encoder);
    const pass = this.#pass(encoder, "write back", this.#writes("endOfStep"));
    dispatch(pass, this.#k.writeBack.kernel, {
      bindGroup: this.#k.writeBack.bind,
      invocations: n,
      workgroupSize: 64,
    });
    pass.end();
    this.step++;
    if (this.step % this.scene.metricsEvery === 0) {
      this.#metrics.encodeSample(encoder, {
        time: this.step * this.scene.dt,
        timestampWrites: this.#writes("metrics"),
      });
    }
    return encoder;
  }

  /**
   * Runs `steps` steps. Each step is one submit; timings are resolved and read back once per batch
   * (`batchSteps`), which is the only host sync.
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
    const device = this.gpu.device;
    for (let s = 0; s < steps; s++) {
      if (this.#inBatch === 0) this.#batchStart = performance.now();
      const encoder = this.#encodeStep();
      this.#inBatch++;
      const last = s === steps - 1 || this.#inBatch === this.#batchSteps;
      if (last && this.#timer) this.#timer.resolve(encoder);
      device.queue.submit([encoder.finish()]);
      if (last) {
        await this.#endBatch();
        options.onProgress?.(s + 1);
        const reason = options.shouldStop?.() ?? null;
        if (reason !== null) throw new RunStopped(reason, s + 1);
      }
    }
  }

  /** Forgets the timings measured so far (e.g. after warm-up steps). */
  resetTimings(): void {
    this.#timings = { ...this.#timings, phases: {}, total: [], transfer: { bytes: 0, ms: 0 } };
  }

  async #endBatch(): Promise<void> {
    const steps = this.#inBatch;
    const t0 = performance.now();
    this.#hostSyncs++;
    if (this.#timer) {
      const d = await this.#timer.read();
      for (let s = 0; s < steps; s++) {
        let total = 0;
        for (const ph of PHASES) {
          // A phase that did not run in a step (stage 2 of a one-stage handler, metrics between
          // samples) costs 0 ms in that step, so means are per step, amortised.
          const raw = d.ms[ph]?.[s];
          const v = raw === undefined || Number.isNaN(raw) ? 0 : raw;
          (this.#timings.phases[ph] ??= []).push(v);
          total += v;
        }
        this.#timings.total.push(total);
      }
      this.#timings.transfer.bytes += 16 * PHASES.length * steps;
    } else {
      await this.gpu.device.queue.onSubmittedWorkDone();
      const per = (performance.now() - this.#batchStart) / steps;
      for (let s = 0; s < steps; s++) this.#timings.total.push(per);
    }
    this.#timings.transfer.ms += performance.now() - t0;
    this.#inBatch = 0;
    if (this.#gpuErrors.length) {
      throw new Error(`GPU error during steps up to ${this.step}: ${this.#gpuErrors[0]}`);
    }
  }

  /** Reads every metrics sample taken so far (one readback). */
  async readMetrics(): Promise<MetricsSample[]> {
    const t0 = performance.now();
    this.#hostSyncs++;
    const rows = await this.#metrics.read();
    this.#timings.transfer.ms += performance.now() - t0;
    this.#timings.transfer.bytes += rows.length * 64;
    return rows;
  }

  /**
   * Host syncs (mapAsync or onSubmittedWorkDone) so far: one per batch of steps inside
   * {@link Engine.run}, plus one per explicit read.
   */
  get hostSyncs(): number {
    return this.#hostSyncs;
  }

  /** Timings measured so far. */
  get timings(): StepTimings {
    return this.#timings;
  }

  /** Particle positions and velocities now (vec4 per particle), one readback each. */
  async readState(): Promise<{ pos: Float32Array; vel: Float32Array }> {
    const device = this.gpu.device;
    this.#hostSyncs += 2;
    return {
      pos: new Float32Array(await readBuffer(device, this.#b.pos, { size: 16 * this.count })),
      vel: new Float32Array(await readBuffer(device, this.#b.vel, { size: 16 * this.count })),
    };
  }

  /** Particle positions now (vec4 per particle, w = radius), one readback. */
  async readPositions(): Promise<Float32Array> {
    this.#hostSyncs++;
    return new Float32Array(
      await readBuffer(this.gpu.device, this.#b.pos, { size: 16 * this.count }),
    );
  }

  /** SHA-256 (hex) of the particle positions and velocities: equal on equal state, bit for bit. */
  async stateHash(): Promise<string> {
    const { pos, vel } = await this.readState();
    const bytes = new Uint8Array(pos.byteLength + vel.byteLength);
    bytes.set(new Uint8Array(pos.buffer), 0);
    bytes.set(new Uint8Array(vel.buffer), pos.byteLength);
    const digest = await crypto.subtle.digest("SHA-256", bytes);
    return [...new Uint8Array(digest)].map((x) => x.toString(16).padStart(2, "0")).join("");
  }

  /** Merge/split statistics (see `merge_split.ts` STATS) and pair-list overflows. */
  async readStats(): Promise<
    {
      momentumError: number;
      energyError: number;
      stage2Pairs: number;
      groups: number;
      largestGroup: number;
      overflow: number;
    }
  > {
    const device = this.gpu.device;
    const raw = await readBuffer(device, this.#b.stats);
    const u = new Uint32Array(raw);
    const f = new Float32Array(raw);
    const overflow = new Uint32Array(await readBuffer(device, this.#b.overflow))[0];
    return {
      momentumError: f[STATS.momentumError],
      energyError: f[STATS.energyError],
      stage2Pairs: u[STATS.stage2Pairs],
      groups: u[STATS.groups],
      largestGroup: u[STATS.largestGroup],
      overflow,
    };
  }

  /** CG statistics of the last cloth solve (one readback). */
  readSolverStats(): Promise<{ iterations: number; relativeResidual: number; converged: boolean }> {
    return this.#cloth.readSolverStats();
  }

  /** Frees every GPU object of the engine (and the device when the engine acquired it). */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.gpu.device.removeEventListener("uncapturederror", this.#onGpuError);
    this.handler.destroy();
    this.#ms.destroy();
    this.#metrics.destroy();
    this.#timer?.destroy();
    this.#cloth.destroy();
    this.#sph.destroy();
    this.#collision.destroy();
    this.#neighbor.destroy();
    for (const buf of Object.values(this.#b)) buf.destroy();
    this.#params.destroy();
    if (this.#ownsGpu) this.gpu.device.destroy();
  }
}
