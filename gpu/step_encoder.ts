/**
 * One step encoded into one command buffer with no host sync (docs/design.md, paper §3–§5):
 * neighbour grid and collision detection (Rules 1–2); per stage (merge-split: two, §5.1) the
 * handler's begin hook (merging, Eqs. 1–7; identity DOFs without it), the systems' forces, the
 * handler's forces, the systems' integration of their parts of every DOF, the coupling (Eqs.
 * 17–19), the handler's end hook (splitting, Eqs. 8–16, 20); the end-of-step hook (impulses), the
 * write-back (Eqs. 6–7) and, every `metricsEvery` steps, the metrics sample and the step budget.
 *
 * @module
 */
import type { Scene } from "../core/scene/scene.ts";
import type { Coupling } from "./coupling/coupling.ts";
import type { GpuHandler } from "./handlers/handler.ts";
import type { Metrics } from "./metrics/metrics.ts";
import type { BudgetProbe, StepBudget } from "./metrics/step_budget.ts";
import type { Phase } from "./phases.ts";
import { DispatchGate } from "./runtime/dispatch_gate.ts";
import { dispatchesEncoded, indirectDispatchesEncoded } from "./runtime/kernel.ts";
import type { KernelProfiler } from "./runtime/kernel_profiler.ts";
import type { StepClock } from "./runtime/step_clock.ts";
import type { Contacts } from "./state/contacts.ts";
import type { ParticleState } from "./state/particle_state.ts";
import type { GpuSystem } from "./systems/system.ts";

/** What a {@link StepEncoder} encodes: the engine's parts, built elsewhere. */
export interface StepParts {
  device: GPUDevice;
  scene: Scene;
  state: ParticleState;
  contacts: Contacts;
  coupling: Coupling;
  systems: readonly GpuSystem[];
  /** The handler's hooks; `{}` when no two particles may collide (every handler the identity). */
  handler: Partial<GpuHandler>;
  /** Whether collision detection runs (`Engine.collisionsPossible`). */
  detect: boolean;
  metrics: Metrics;
  budget: StepBudget;
  clock: StepClock<Phase>;
  /** Per-kernel timing: the encoder is wrapped and every dispatch named by its phase. */
  profiler?: KernelProfiler;
  /** Whether the handler's stage flags gate its stages (`EngineOptions.stageGates`). */
  stageGates: boolean;
}

/** Encodes the engine's steps; owns the stage gates and the per-phase dispatch counts. */
export class StepEncoder {
  #p: StepParts;
  /** The dispatch gates of stages the handler decides on the GPU (`encodeStageFlag`). */
  #gates: [DispatchGate?, DispatchGate?] = [];
  /** Whether the step being encoded is a budget step (it ends with a metrics sample). */
  #budgetStep = false;
  #dispatches: Partial<Record<Phase, number>> = {};
  #indirect: Partial<Record<Phase, number>> = {};

  /** An encoder of the steps of `parts`. */
  constructor(parts: StepParts) {
    this.#p = parts;
  }

  /** Dispatches the last encoded step recorded, per phase (`Engine.dispatchesPerPhase`). */
  get dispatches(): Readonly<Partial<Record<Phase, number>>> {
    return { ...this.#dispatches };
  }

  /** Of {@link StepEncoder.dispatches}, the indirect ones, per phase. */
  get indirectDispatches(): Readonly<Partial<Record<Phase, number>>> {
    return { ...this.#indirect };
  }

  /**
   * Whether the last stage's DOF velocities go into the write-back's dispatch: the handler
   * splits nothing (no `encodeEnd`) and has no end-of-step hook, so nothing works on `velOut`
   * between them; the splitting phase of the last stage then dispatches nothing.
   */
  get #dofWriteBack(): boolean {
    const h = this.#p.handler;
    return !h.encodeEnd && !h.encodeEndOfStep;
  }

  /** Whether step `step` (0-based) ends with a metrics sample and the step budget's probes. */
  samples(step: number): boolean {
    return (step + 1) % this.#p.scene.metricsEvery === 0;
  }

  /** Encodes step `step` (0-based; the metrics sample is stamped with the time after it). */
  encode(step: number): GPUCommandEncoder {
    const { scene, handler: h, clock } = this.#p;
    const real = this.#p.device.createCommandEncoder({ label: `step ${step}` });
    const encoder = this.#p.profiler?.wrap(real) ?? real;
    h.prepareStep?.(step, encoder);
    this.#budgetStep = this.samples(step);
    this.#probe(encoder, "start");
    this.#counted("neighborSearch", () => {
      this.#p.contacts.encodeGrid(encoder, clock.writes("neighborSearch"));
    });
    if (this.#p.detect) {
      this.#counted("collisionDetection", () => {
        this.#p.contacts.encodeDetection(encoder, clock.writes("collisionDetection"));
      });
    }
    for (let s = 1; s <= (h.stages ?? 1); s++) this.#stage(encoder, s as 1 | 2);
    this.#counted("endOfStep", () => {
      h.encodeEndOfStep?.(encoder);
      inPass(encoder, "write back", clock.writes("endOfStep"), (pass) => {
        if (this.#dofWriteBack) this.#p.state.encodeDofWriteBack(pass);
        else this.#p.state.encodeWriteBack(pass);
      });
      for (const s of this.#p.systems) s.encodeEndOfStep?.(encoder);
    });
    this.#probe(encoder, "end");
    if (this.#budgetStep) {
      this.#counted("metrics", () => {
        this.#p.metrics.encodeSample(encoder, {
          time: (step + 1) * scene.dt,
          timestampWrites: clock.writes("metrics"),
        });
      });
      this.#p.budget.encodeFinish(encoder, this.#p.metrics.taken - 1);
    }
    return encoder;
  }

  /** Frees the stage gates. */
  destroy(): void {
    for (const g of this.#gates) g?.destroy();
  }

  #stage(encoder: GPUCommandEncoder, stage: 1 | 2): void {
    const { state, handler: h } = this.#p;
    let gate: DispatchGate | undefined;
    this.#counted(`merging${stage}`, () => {
      inPass(encoder, `merging stage ${stage}`, this.#at(`merging${stage}`), (pass) => {
        const flag = h.encodeStageFlag?.(pass, stage);
        if (flag && this.#p.stageGates) {
          gate = this.#gates[stage - 1] ??= new DispatchGate(this.#p.device, {
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
      this.#stageBody(encoder, stage);
    } finally {
      gate?.end();
    }
  }

  /** The integration and splitting of a stage (gated with it when the handler gates it). */
  #stageBody(encoder: GPUCommandEncoder, stage: 1 | 2): void {
    const { state, handler: h, systems, coupling } = this.#p;
    this.#counted(`integration${stage}`, () => {
      inPass(
        encoder,
        `integration stage ${stage}`,
        this.#at(`integration${stage}`, "begin"),
        () => {},
      );
      h.encodeBeforeForces?.(encoder);
      for (const s of systems) s.encodeForces(encoder);
      encoder.clearBuffer(state.buffers.handlerForce);
      h.encodeForces?.(encoder);
      inPass(encoder, `coupling gather ${stage}`, undefined, (p) => coupling.encodeGather(p));
      for (const s of systems) s.encodeIntegrate(encoder, { stage });
      inPass(encoder, `coupling sync ${stage}`, this.#at(`integration${stage}`, "end"), (pass) => {
        coupling.encodeSync(pass);
      });
    });
    this.#probe(encoder, "integrated");
    this.#probe(encoder, "synced");
    const last = stage === (h.stages ?? 1);
    const deferred = last && this.#dofWriteBack;
    this.#counted(`splitting${stage}`, () => {
      inPass(encoder, `splitting stage ${stage}`, this.#at(`splitting${stage}`), (pass) => {
        if (h.encodeEnd) h.encodeEnd(pass, stage);
        else if (!deferred) state.encodeDofVelocities(pass);
      });
    });
    if (deferred && this.#budgetStep) {
      // the probe after splitting reads velOut, which the write-back writes only at the end
      if (this.#p.profiler) this.#p.profiler.phase = "budget probes";
      inPass(encoder, "DOF velocities for the step budget", undefined, (pass) => {
        state.encodeDofVelocities(pass);
      });
    }
    this.#probe(encoder, "split");
  }

  #at(phase: Phase, part?: "begin" | "end"): GPUComputePassTimestampWrites | undefined {
    return this.#p.clock.writes(phase, part);
  }

  /** The step budget's probe at `point`, on budget steps only (untimed, uncounted). */
  #probe(encoder: GPUCommandEncoder, point: BudgetProbe): void {
    if (!this.#budgetStep) return;
    if (this.#p.profiler) this.#p.profiler.phase = "budget probes";
    this.#p.budget.encodeProbe(encoder, point);
  }

  /** Runs `encode` and records how many dispatches it encoded under `phase`. */
  #counted(phase: Phase, encode: () => void): void {
    if (this.#p.profiler) this.#p.profiler.phase = phase;
    const before = dispatchesEncoded();
    const indirect = indirectDispatchesEncoded();
    encode();
    this.#dispatches[phase] = dispatchesEncoded() - before;
    this.#indirect[phase] = indirectDispatchesEncoded() - indirect;
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
