/**
 * Coupling of different integrators over K systems (paper §4, Eqs. 17–19): per-DOF part masses,
 * the mass and the handler forces each system integrates a DOF with, the K velocities the systems
 * produce merged into one (Eq. 17 as a left fold of Eq. 3 over the parts, ΔĒk by Eq. 19 for the
 * split's β term, Eq. 20), then the position update and the domain boundary. Kernels:
 * `coupling.wgsl`, which also states the two readings of "include the meta-particle in both
 * systems" that {@link COUPLING_READINGS} selects.
 *
 * @module
 */
import type { Scene } from "../../core/scene/scene.ts";
import { PAPER_COUPLING } from "../../core/setups.ts";
import {
  type BoundEntry,
  createBoundKernel,
  dispatch,
  type Kernel,
  storageBuffer,
} from "../runtime/kernel.ts";
import { type SplitBinding, splitBinding } from "../runtime/split_binding.ts";
import { defineStruct, type StructLayout } from "../runtime/struct_layout.ts";
import type { ParticleState } from "../state/particle_state.ts";
import type { PartSlice } from "../state/part_slice.ts";
import couplingWgsl from "./coupling.wgsl" with { type: "text" };

/**
 * WGSL of the coupling kernels, without the part buffers' accessors (appended per binding variant,
 * see `coupling.wgsl`).
 */
export const COUPLING_WGSL: string = couplingWgsl;

/**
 * How the kernels bind the part forces and velocities: `one range` when each fits one binding
 * (the gather and the sync one dispatch each), `two ranges` when they are bound as ranges A and B
 * (`split_binding.ts`; two dispatches each, so that no kernel binds more than 8 storage buffers).
 */
type PartRanges = "one range" | "two ranges";

/**
 * The accessors of the part buffers that `coupling.wgsl`'s per-DOF steps call, per binding
 * variant: element e of partForce / partVel, and the part mass the force gather reads (through the
 * read_write binding the fused gather wrote it through, else through the read-only binding 10).
 */
const PART_ACCESS_WGSL: Record<PartRanges, string> = {
  "one range": `
// part buffers in range A only; the part masses through the read_write binding 7
fn part_force(e: u32) -> vec4f { return g_partForceA[e]; }
fn set_part_force(e: u32, f: vec4f) { g_partForceA[e] = f; }
fn part_vel(e: u32) -> vec4f { return s_partVelA[e]; }
fn gathered_part_mass(e: u32) -> f32 { return g_masses[e]; }
`,
  "two ranges": `
// part buffers in ranges A (below PART_CHUNK) and B; the part masses through binding 10
fn part_force(e: u32) -> vec4f {
  if (e < PART_CHUNK) { return g_partForceA[e]; }
  return g_partForceB[e - PART_CHUNK];
}
fn set_part_force(e: u32, f: vec4f) {
  if (e < PART_CHUNK) {
    g_partForceA[e] = f;
  } else {
    g_partForceB[e - PART_CHUNK] = f;
  }
}
fn part_vel(e: u32) -> vec4f {
  if (e < PART_CHUNK) { return s_partVelA[e]; }
  return s_partVelB[e - PART_CHUNK];
}
fn gathered_part_mass(e: u32) -> f32 { return g_partMass[e]; }
`,
};

/** Layout of `CouplingParams` in `coupling.wgsl`. */
export const COUPLING_PARAMS: StructLayout = defineStruct("CouplingParams", [
  ["count", "u32"],
  ["systems", "u32"],
  ["stride", "u32"],
  ["reading", "u32"],
  ["dt", "f32"],
  ["radius", "f32"],
  ["pad0", "u32"],
  ["pad1", "u32"],
  ["gravity", "vec3f"],
  ["pad2", "u32"],
  ["domainMin", "vec3f"],
  ["pad3", "u32"],
  ["domainMax", "vec3f"],
  ["pad4", "u32"],
]);

/**
 * How each system sees a meta-particle it shares with other systems (the paper, §4, leaves it
 * open): `own-part` — it integrates its own members alone (mass m_s, the handler's forces on
 * them); `whole` — it integrates the whole meta-particle as a regular particle (mass M, the
 * handler's forces on every member), the paper's literal wording. The index is the WGSL value.
 */
export const COUPLING_READINGS = ["own-part", "whole"] as const;

/** A coupling reading. */
export type CouplingReading = typeof COUPLING_READINGS[number];

/**
 * The reading an engine or a case runs under when none is named: the paper's, `whole` ("We include
 * these meta-particles in both simulation systems", §4; `core/setups.ts`).
 */
export const DEFAULT_COUPLING: CouplingReading = PAPER_COUPLING;

/** A coupling kernel with its bind group. */
interface BoundKernel {
  kernel: Kernel;
  bind: GPUBindGroup;
}

/** The gather's and the sync's kernels, each in encode order (entry points of `coupling.wgsl`). */
interface CouplingKernels {
  gather: BoundKernel[];
  sync: BoundKernel[];
}

/** Elements per system slice of the part buffers: a multiple of 64 (256-byte aligned slices). */
export function partStride(count: number): number {
  return Math.ceil(Math.max(1, count) / 64) * 64;
}

/**
 * The part buffers of K systems and the coupling kernels: the gather (part masses, then part
 * forces) and the sync (velocities, then positions), each one dispatch when the part buffers fit
 * one binding each, else two (the part buffers bound as two ranges), every kernel binding only
 * what it uses, at most 8 storage buffers (WebGPU's guaranteed limit per stage).
 */
export class Coupling {
  /** Systems K. */
  readonly systems: number;
  /** Elements per slice. */
  readonly stride: number;
  readonly #count: number;
  readonly #buffers: GPUBuffer[];
  readonly #masses: GPUBuffer;
  readonly #partForce: GPUBuffer;
  readonly #partVel: GPUBuffer;
  readonly #velRanges: SplitBinding;
  readonly #params: GPUBuffer;
  readonly #k: CouplingKernels;
  /** How the systems see a meta-particle they share. */
  readonly reading: CouplingReading;

  /**
   * @param device the GPU device
   * @param options.state the shared particle state; options.systems K; options.reading see
   *   {@link COUPLING_READINGS}; options.scene dt, gravity, radius and domain
   */
  constructor(
    device: GPUDevice,
    options: {
      state: ParticleState;
      systems: number;
      reading: CouplingReading;
      scene: Scene;
      /**
       * Largest storage binding in bytes (default: the device's `maxStorageBufferBindingSize`);
       * part forces and velocities past it are bound as a second range of their buffer
       * (`split_binding.ts`). A smaller value exercises that path on small scenes.
       */
      maxBindingSize?: number;
    },
  ) {
    const n = this.#count = options.state.count;
    const K = this.systems = options.systems;
    const S = this.stride = partStride(n);
    this.reading = options.reading;
    const reading = COUPLING_READINGS.indexOf(options.reading);
    if (reading < 0) {
      throw new RangeError(
        `unknown coupling reading "${options.reading}"; valid: ${COUPLING_READINGS.join(", ")}`,
      );
    }
    const buf = (label: string, bytes: number) => storageBuffer(device, { label, size: bytes });
    this.#masses = buf("coupling part and system masses", 8 * K * S);
    this.#partForce = buf("coupling part force", 16 * K * S);
    this.#partVel = buf("coupling part velocity", 16 * K * S);
    const dummy = buf("coupling part ranges (second range unused)", 16);
    this.#buffers = [this.#masses, this.#partForce, this.#partVel, dummy];
    const ranges = (buffer: GPUBuffer, name: string) =>
      splitBinding(buffer, {
        device,
        elementBytes: 16,
        dummy,
        limit: options.maxBindingSize,
        name: `coupling ${name}`,
      });
    const force = ranges(this.#partForce, "part force");
    const vel = this.#velRanges = ranges(this.#partVel, "part velocity");
    // the second range is the dummy unless the buffer is past one binding
    const parts = force.second.buffer === dummy && vel.second.buffer === dummy
      ? "one range"
      : "two ranges";
    this.#params = this.#createParams(device, options.scene, reading);
    this.#k = this.#createKernels(device, options.state.buffers, { force, vel, parts });
  }

  /** Creates the uniform of the coupling's parameters (`COUPLING_PARAMS`) and writes it. */
  #createParams(device: GPUDevice, scene: Scene, reading: number): GPUBuffer {
    const params = device.createBuffer({
      label: "coupling params",
      size: COUPLING_PARAMS.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(
      params,
      0,
      COUPLING_PARAMS.pack({
        count: this.#count,
        systems: this.systems,
        stride: this.stride,
        reading,
        dt: scene.dt,
        radius: scene.radius,
        pad0: 0,
        pad1: 0,
        gravity: [...scene.gravity],
        pad2: 0,
        domainMin: [...scene.domain.min],
        pad3: 0,
        domainMax: [...scene.domain.max],
        pad4: 0,
      }),
    );
    return params;
  }

  /**
   * The pipelines of the gather (part masses, part forces) and the sync (velocities, positions),
   * each bound to the state's buffers and the part buffers (`force`, `vel`: their binding ranges):
   * the fused entry points `gather` and `sync` when `parts` is `one range`, else two each.
   */
  #createKernels(
    device: GPUDevice,
    b: ParticleState["buffers"],
    { force, vel, parts }: { force: SplitBinding; vel: SplitBinding; parts: PartRanges },
  ): CouplingKernels {
    const R = "read-only-storage" as const;
    const W = "storage" as const;
    const code = `${COUPLING_WGSL}\n${PART_ACCESS_WGSL[parts]}`;
    // each entry point binds only the buffers it uses (`[binding, kind, buffer]` of coupling.wgsl)
    const mk = (entryPoint: string, bindings: BoundEntry[]) =>
      createBoundKernel(device, {
        label: `coupling ${entryPoint}`,
        code,
        entryPoint,
        entries: [[0, "uniform", this.#params], ...bindings],
        constants: {
          READING_WHOLE: COUPLING_READINGS.indexOf("whole"),
          PART_CHUNK: force.firstLength,
        },
      });
    if (parts === "one range") {
      return {
        gather: [mk("gather", [
          [1, R, b.memberStart],
          [2, R, b.memberList],
          [3, R, b.system],
          [4, R, b.mass],
          [5, R, b.handlerForce],
          [6, R, b.dofM],
          [7, W, this.#masses],
          [8, W, force.first],
        ])],
        sync: [mk("sync", [
          [1, R, b.memberStart],
          [2, R, b.memberList],
          [3, R, b.pinned],
          [4, R, this.#masses],
          [5, R, vel.first],
          [6, W, b.dofX],
          [7, W, b.dofV],
          [8, W, b.syncEnergy],
        ])],
      };
    }
    return {
      gather: [
        mk("gather_masses", [
          [1, R, b.memberStart],
          [2, R, b.memberList],
          [3, R, b.system],
          [4, R, b.mass],
          [6, R, b.dofM],
          [7, W, this.#masses],
        ]),
        mk("gather_forces", [
          [1, R, b.memberStart],
          [2, R, b.memberList],
          [3, R, b.system],
          [5, R, b.handlerForce],
          [8, W, force.first],
          [9, W, force.second],
          [10, R, this.#masses],
        ]),
      ],
      sync: [
        mk("sync_velocities", [
          [1, R, b.memberStart],
          [2, R, b.memberList],
          [3, R, b.pinned],
          [4, R, this.#masses],
          [5, R, vel.first],
          [7, W, b.dofV],
          [8, W, b.syncEnergy],
          [9, R, vel.second],
        ]),
        mk("sync_positions", [
          [1, R, b.memberStart],
          [6, W, b.dofX],
          [7, W, b.dofV],
        ]),
      ],
    };
  }

  /** The slice of system `s` (0 ≤ s < K) of the part buffers. */
  slice(s: number): PartSlice {
    if (!(Number.isInteger(s) && s >= 0 && s < this.systems)) {
      throw new RangeError(`Coupling.slice: system index ${s} is not in 0..${this.systems - 1}`);
    }
    const S = this.stride;
    const n = this.#count;
    return {
      mass: { buffer: this.#masses, offset: 4 * (this.systems + s) * S, size: 4 * n },
      force: { buffer: this.#partForce, offset: 16 * s * S, size: 16 * n },
      vel: { buffer: this.#partVel, offset: 16 * s * S, size: 16 * n },
    };
  }

  /**
   * The whole part buffers, for the step budget (`gpu/metrics/step_budget.ts`): `mass` holds the
   * part masses m_s of system s at s·stride + d (its first K slices; Eq. 17's weights), `vel` the
   * velocities v_s the systems produced at the same places, bound as one or two ranges.
   */
  get parts(): { mass: GPUBuffer; vel: SplitBinding } {
    return { mass: this.#masses, vel: this.#velRanges };
  }

  #run(pass: GPUComputePassEncoder, kernels: readonly BoundKernel[]): void {
    for (const { kernel, bind } of kernels) {
      dispatch(pass, kernel, { bindGroup: bind, invocations: this.#count, workgroupSize: 64 });
    }
  }

  /**
   * Part masses, system masses and part forces of every DOF (before the systems integrate; one
   * dispatch, two when the part buffers are bound as two ranges).
   */
  encodeGather(pass: GPUComputePassEncoder): void {
    this.#run(pass, this.#k.gather);
  }

  /**
   * One velocity per DOF (Eqs. 17, 19), then the position update and the boundary (after the
   * systems; one dispatch, two when the part buffers are bound as two ranges).
   */
  encodeSync(pass: GPUComputePassEncoder): void {
    this.#run(pass, this.#k.sync);
  }

  /** Frees the part buffers. */
  destroy(): void {
    for (const b of this.#buffers) b.destroy();
    this.#params.destroy();
  }
}
