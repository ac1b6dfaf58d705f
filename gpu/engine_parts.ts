/**
 * The build of an engine's parts for one scene under one handler: particles, shared state, the
 * neighbour grid and contacts, the systems and their coupling, the handler, the metrics, the step
 * budget and the clock. It names no system and no handler (both come from their registries).
 *
 * @module
 */
import type { Scene } from "../core/scene/scene.ts";
import { buildParticles, type ParticleSet } from "../core/scene/scene_builder.ts";
import { Coupling, DEFAULT_COUPLING } from "./coupling/coupling.ts";
import type { EngineOptions } from "./engine_options.ts";
import type { GpuHandler } from "./handlers/handler.ts";
import { applicableHandler, getHandler, handlerParams } from "./handlers/registry.ts";
import { Metrics } from "./metrics/metrics.ts";
import { StepBudget } from "./metrics/step_budget.ts";
import { type Phase, PHASES } from "./phases.ts";
import type { GpuContext } from "./runtime/device.ts";
import { StepClock } from "./runtime/step_clock.ts";
import { readBuffer } from "./runtime/kernel.ts";
import { deviceContactSlots } from "./state/contact_slots.ts";
import { Contacts } from "./state/contacts.ts";
import { ParticleState } from "./state/particle_state.ts";
import {
  collisionsPossible,
  createSystems,
  planSystems,
  type SystemPlan,
} from "./systems/registry.ts";
import type { GpuSystem, SolverStats } from "./systems/system.ts";

/** An engine's parts, built and wired, before any step. */
export interface EngineParts {
  particles: ParticleSet;
  /** K: contact, pair and marked slots per particle. */
  maxPerParticle: number;
  /**
   * Whether any two particles may collide: more than one body, or a body whose system collides
   * with itself. When none may, no pair can exist, so every handler is the identity (merge-split's
   * stage 2 would repeat stage 1 bit for bit) and the step skips detection and the handler's hooks.
   */
  collisionsPossible: boolean;
  state: ParticleState;
  contacts: Contacts;
  coupling: Coupling;
  systems: GpuSystem[];
  handler: GpuHandler;
  metrics: Metrics;
  budget: StepBudget;
  clock: StepClock<Phase>;
}

/** What `Engine.create` resolves and checks once, before any GPU object exists. */
export interface ResolvedParts {
  /** The handler's parameters (`handlerParams`: the scene's values with the overrides). */
  handlerParams: Readonly<Record<string, number>>;
  /** The scene's systems and their parameters (`planSystems`). */
  plan: SystemPlan;
}

/**
 * The handler's parameters and the system plan of `scene`, resolved and checked once: the
 * handler applies to the scene, parameters given resolved (`options.handlerParams`, from the
 * bench's case) are taken as they are, else the scene's values with `options.params`.
 */
export function resolveParts(
  scene: Scene,
  options: Pick<EngineOptions, "handler" | "params" | "handlerParams">,
): ResolvedParts {
  applicableHandler(scene, options.handler);
  if (options.handlerParams && options.params) {
    throw new TypeError(
      "options.params: give the overrides or options.handlerParams (already resolved with " +
        "them), not both",
    );
  }
  return {
    handlerParams: options.handlerParams ?? handlerParams(scene, options.handler, options.params),
    plan: planSystems(scene),
  };
}

/**
 * `scene` as the metrics size their sample storage from it: its duration at least `steps` × dt,
 * so that a run longer than the scene's own duration (`--duration`, `--steps`) has a slot for
 * every sample it takes.
 */
export function sampledScene(scene: Scene, steps: number | undefined): Scene {
  return steps !== undefined && steps * scene.dt > scene.duration
    ? { ...scene, duration: steps * scene.dt }
    : scene;
}

/**
 * Builds the parts of `scene` under `options.handler` on `gpu` from the parameters and the plan
 * resolved once ({@link ResolvedParts}). Throws what a part's build throws (a `GpuMemoryError`
 * past the memory budget).
 */
export function buildEngineParts(
  scene: Scene,
  gpu: GpuContext,
  options: EngineOptions & ResolvedParts,
): EngineParts {
  const device = gpu.device;
  const particles = buildParticles(scene);
  const maxPerParticle = options.maxPerParticle ?? deviceContactSlots(device, particles.count);
  const plan = options.plan;
  const entry = getHandler(options.handler);
  const state = new ParticleState(device, { particles, ...plan, systemOf: plan.bodySystem });
  const reach = [
    2 * scene.radius,
    plan.reach,
    entry.neighborRadius?.(options.handlerParams, scene) ?? 0,
  ];
  const contacts = new Contacts(device, {
    state,
    scene,
    reach: Math.max(...reach),
    maxPerParticle,
    maxRadius: particles.radius.reduce((a, r) => Math.max(a, r), 0),
  });
  const grid = contacts.grid;
  const coupling = new Coupling(device, {
    state,
    systems: plan.systems.length,
    reading: options.coupling ?? DEFAULT_COUPLING,
    scene,
  });
  const systems = createSystems(plan, {
    device,
    scene,
    particles,
    state,
    grid,
    part: (index) => coupling.slice(index),
    localBudget: options.localBudget,
  });
  const handler = entry.create({
    device,
    scene,
    params: options.handlerParams,
    state,
    collisions: contacts.outputs,
    maxPerParticle,
    grid,
    localBudget: options.localBudget,
    oneWorkgroupGrouping: options.oneWorkgroupGrouping,
  });
  const metrics = Metrics.forScene(device, {
    scene: sampledScene(scene, options.steps),
    particles,
    buffers: state.buffers,
    handlerStats: handler.stats,
  });
  const budget = StepBudget.forState(device, {
    state,
    parts: { systems: coupling.systems, stride: coupling.stride, ...coupling.parts },
    dt: scene.dt,
    gravity: scene.gravity,
    target: metrics.budgetTarget,
  });
  const clock = new StepClock(device, {
    phases: PHASES,
    // a profiled step has one pass per dispatch: the phases' own timestamps are not written
    timestamps: (options.timing ?? true) && gpu.timestamps && !options.profiler,
    batchSteps: options.batchSteps ?? 100,
  });
  const enc = device.createCommandEncoder({ label: "engine init" });
  metrics.encodeInit(enc);
  device.queue.submit([enc.finish()]);
  return {
    particles,
    maxPerParticle,
    collisionsPossible: collisionsPossible(scene),
    state,
    contacts,
    coupling,
    systems,
    handler,
    metrics,
    budget,
    clock,
  };
}

/** The handler's statistics by name (`GpuHandler.stats`; none when it keeps none) and the pair-list overflows. */
export async function readPartStats(
  parts: EngineParts,
  device: GPUDevice,
): Promise<Readonly<Record<string, number>> & { overflow: number }> {
  const encoder = device.createCommandEncoder({ label: "pair-list overflows" });
  parts.contacts.encodeOverflow(encoder);
  device.queue.submit([encoder.finish()]);
  const words = await readBuffer(device, parts.contacts.outputs.overflow);
  return { ...await parts.handler.stats?.read(), overflow: new Uint32Array(words)[0] };
}

/** Statistics of the last solve of every system that has one, by system id (one read each). */
export async function readSolverStats(
  systems: readonly GpuSystem[],
): Promise<Record<string, SolverStats>> {
  const out: Record<string, SolverStats> = {};
  for (const s of systems) if (s.readSolverStats) out[s.id] = await s.readSolverStats();
  return out;
}

/** Frees every GPU object of the parts (those a failed build left too: each may be missing). */
export function destroyParts(parts: Partial<EngineParts> | undefined): void {
  parts?.handler?.destroy();
  for (const s of parts?.systems ?? []) s.destroy();
  for (
    const part of [parts?.coupling, parts?.metrics, parts?.budget, parts?.clock, parts?.contacts]
  ) {
    part?.destroy();
  }
  parts?.state?.destroy();
}
