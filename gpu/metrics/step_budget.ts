/**
 * The whole-step momentum and energy budget: where a step gains or loses momentum and energy,
 * phase by phase (probes at start, merged, integrated, synced, split and end; Eqs. 2, 4, 8, 9, 17,
 * 19), under any handler and any coupling of systems, on the steps that end with a metrics sample,
 * written into that sample's row. Kernels: `step_budget.wgsl`, untimed. The probes and every
 * column ({@link BUDGET_FIELDS}) are defined in `docs/metrics.md` ("The whole-step budget").
 *
 * @module
 */
import { BUDGET_SAMPLE_FIELDS } from "../../core/result.ts";
import type { SplitBinding } from "../runtime/split_binding.ts";
import { defineStruct, type StructLayout } from "../runtime/struct_layout.ts";
import {
  bindKernel,
  createKernel,
  dispatch,
  type Kernel,
  readBuffer,
  storageBuffer,
} from "../runtime/kernel.ts";
import { BOND_BROKEN_BIT } from "../state/bond_flags.ts";
import type { ParticleState } from "../state/particle_state.ts";
import { BOND_ENERGY_WGSL } from "./bond_energy.ts";
import stepBudgetWgsl from "./step_budget.wgsl" with { type: "text" };

/** WGSL of the budget kernels. */
export const STEP_BUDGET_WGSL: string = [
  BOND_ENERGY_WGSL,
  stepBudgetWgsl,
].join("\n");

/** The budget's columns of a metrics sample row (definitions in `docs/metrics.md`). */
export const BUDGET_FIELDS = BUDGET_SAMPLE_FIELDS;

/** A budget column. */
export type BudgetField = typeof BUDGET_FIELDS[number];

/** The energy terms of the phases, in step order: they sum to `budgetStepEnergy`. */
export const BUDGET_ENERGY_PHASES = [
  "budgetMergeEnergy",
  "budgetPinEnergy",
  "budgetIntegrationEnergy",
  "budgetCouplingEnergy",
  "budgetWallEnergy",
  "budgetSplitEnergy",
  "budgetEndEnergy",
] as const satisfies readonly BudgetField[];

/** Probe slots, in step order (4 vec4 each in the probe buffer). */
export const BUDGET_PROBES = {
  start: 0,
  merged: 1,
  integrated: 2,
  synced: 3,
  split: 4,
  end: 5,
} as const;

/** A probe point of the step. */
export type BudgetProbe = keyof typeof BUDGET_PROBES;

const SLOTS = Object.keys(BUDGET_PROBES).length;

/** Layout of `BudgetParams` in `step_budget.wgsl`. */
export const BUDGET_PARAMS: StructLayout = defineStruct("BudgetParams", [
  ["count", "u32"],
  ["slot", "u32"],
  ["systems", "u32"],
  ["stride", "u32"],
  ["withBonds", "u32"],
  ["row", "u32"],
  ["fields", "u32"],
  ["dt", "f32"],
  ["gravity", "vec3f"],
  ["pad0", "u32"],
]);

/** The WGSL name of a column's or slot's override: `budgetMergeEnergy` → `C_MERGE_ENERGY`. */
function overrideName(prefix: string, name: string): string {
  return `${prefix}_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
}

/** A column's name without the prefix: `budgetMergeEnergy` → `mergeEnergy`. */
function budgetName(field: BudgetField): string {
  const rest = field.slice("budget".length);
  return rest[0].toLowerCase() + rest.slice(1);
}

/** What the budget reads (the engine's state and coupling buffers) and where it writes. */
export interface StepBudgetOptions {
  /** Particles N (= DOF slots). */
  count: number;
  /** The coupling's part buffers: K systems, slices of `stride` elements. */
  systems: number;
  stride: number;
  dt: number;
  gravity: readonly [number, number, number];
  buffers: {
    mass: GPUBuffer;
    pos: GPUBuffer;
    vel: GPUBuffer;
    /** The velocities a stage ends with. */
    velOut: GPUBuffer;
    handlerForce: GPUBuffer;
    bondStart: GPUBuffer;
    bondList: GPUBuffer;
    bondClass: GPUBuffer;
    springClasses: GPUBuffer;
    memberStart: GPUBuffer;
    memberList: GPUBuffer;
    pinned: GPUBuffer;
    dofM: GPUBuffer;
    dofV: GPUBuffer;
    syncEnergy: GPUBuffer;
    /** Part masses m_s at s·stride + d (the first K slices). */
    partMass: GPUBuffer;
    /** The part velocities as bound by the coupling (one or two ranges, `split_binding.ts`). */
    partVel: SplitBinding;
  };
  /** The metrics' samples (`array<f32>`, `fields` per row) and the column of each budget field. */
  samples: GPUBuffer;
  fields: number;
  columns: Readonly<Record<BudgetField, number>>;
}

/** The budget probes and the kernel that writes the budget's columns. */
export class StepBudget {
  readonly device: GPUDevice;
  readonly #probes: GPUBuffer;
  readonly #own: GPUBuffer[] = [];
  readonly #finishParams: GPUBuffer;
  readonly #opts: StepBudgetOptions;
  /** Each probe's kernel, and the particle probes' bond energies where they count them. */
  readonly #passes: Record<
    BudgetProbe,
    { kernel: Kernel; bind: GPUBindGroup; bonds?: { kernel: Kernel; bind: GPUBindGroup } }
  >;
  readonly #finish: { kernel: Kernel; bind: GPUBindGroup };

  /** Builds the kernels and binds them to the buffers of `options`. */
  /**
   * The budget of an engine's step: the particle state's buffers, the coupling's K part slices of
   * `stride` elements (`mass`, `vel`) and the metrics' samples (`target`).
   */
  static forState(
    device: GPUDevice,
    options: {
      state: ParticleState;
      parts: { systems: number; stride: number; mass: GPUBuffer; vel: SplitBinding };
      dt: number;
      gravity: readonly number[];
      target: Pick<StepBudgetOptions, "samples" | "fields" | "columns">;
    },
  ): StepBudget {
    const { state, parts } = options;
    const b = state.buffers;
    return new StepBudget(device, {
      count: state.count,
      systems: parts.systems,
      stride: parts.stride,
      dt: options.dt,
      gravity: [options.gravity[0], options.gravity[1], options.gravity[2]],
      buffers: {
        mass: b.mass,
        pos: b.pos,
        vel: b.vel,
        velOut: b.velOut,
        handlerForce: b.handlerForce,
        bondStart: b.bondStart,
        bondList: b.bondList,
        bondClass: b.bondClass,
        springClasses: b.springClasses,
        memberStart: b.memberStart,
        memberList: b.memberList,
        pinned: b.pinned,
        dofM: b.dofM,
        dofV: b.dofV,
        syncEnergy: b.syncEnergy,
        partMass: parts.mass,
        partVel: parts.vel,
      },
      ...options.target,
    });
  }

  constructor(device: GPUDevice, options: StepBudgetOptions) {
    this.device = device;
    this.#opts = options;
    const o = options;
    const b = o.buffers;
    this.#probes = storageBuffer(device, { label: "step budget probes", size: 64 * SLOTS });
    this.#own.push(this.#probes);
    const constants = {
      BROKEN_BIT: BOND_BROKEN_BIT,
      PART_CHUNK: b.partVel.firstLength,
      ...Object.fromEntries(
        Object.entries(BUDGET_PROBES).map(([k, v]) => [overrideName("S", k), v]),
      ),
      ...Object.fromEntries(
        BUDGET_FIELDS.map((f) => [overrideName("C", budgetName(f)), o.columns[f]]),
      ),
    };
    const params = (slot: number, withBonds: boolean, label: string) => {
      const buf = device.createBuffer({
        label: `step budget ${label} params`,
        size: BUDGET_PARAMS.size,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      });
      this.#own.push(buf);
      device.queue.writeBuffer(buf, 0, this.#pack(slot, withBonds, 0));
      return buf;
    };
    const R = "read-only-storage" as const;
    // each probe binds only what it reads (at most 8 storage buffers, WebGPU's guaranteed limit
    // per stage; the particles' bond energies are a second dispatch for that)
    const kernel = (entryPoint: string, bindings: number[]) =>
      createKernel(device, {
        label: `step budget ${entryPoint}`,
        code: STEP_BUDGET_WGSL,
        entryPoint,
        bindings: ["uniform", ...bindings.map((n) => [n, R] as const), [9, "storage"]],
        constants,
      });
    const particles = kernel("probe_particles", [1, 2, 3, 4]);
    const bonds = kernel("probe_bonds", [2, 5, 6, 7, 8]);
    const dofs = kernel("probe_dofs", [1, 2, 3, 4, 5, 6]);
    const parts = kernel("probe_parts", [1, 2, 3, 4, 5, 6, 7]);
    const bindParticles = (probe: BudgetProbe, vel: GPUBuffer, withBonds: boolean) => {
      const buffers = new Map<number, GPUBuffer>([
        [0, params(BUDGET_PROBES[probe], withBonds, probe)],
        [1, b.mass],
        [2, b.pos],
        [3, vel],
        [4, b.handlerForce],
        [5, b.bondStart],
        [6, b.bondList],
        [7, b.bondClass],
        [8, b.springClasses],
        [9, this.#probes],
      ]);
      const label = `step budget ${probe} bind group`;
      return {
        kernel: particles,
        bind: bindKernel(device, particles, buffers, { label }),
        bonds: withBonds
          ? {
            kernel: bonds,
            bind: bindKernel(device, bonds, buffers, {
              label: `step budget ${probe} bonds bind group`,
            }),
          }
          : undefined,
      };
    };
    const bindDofs = (probe: BudgetProbe) => ({
      kernel: dofs,
      bind: bindKernel(device, dofs, [
        params(BUDGET_PROBES[probe], false, probe),
        b.memberStart,
        b.memberList,
        b.pinned,
        b.dofM,
        b.dofV,
        b.syncEnergy,
        this.#probes,
      ], { label: `step budget ${probe} bind group` }),
    });
    this.#passes = {
      start: bindParticles("start", b.vel, true),
      merged: bindDofs("merged"),
      integrated: {
        kernel: parts,
        bind: bindKernel(device, parts, [
          params(BUDGET_PROBES.integrated, false, "integrated"),
          b.memberStart,
          b.memberList,
          b.pinned,
          b.partMass,
          b.partVel.first,
          b.handlerForce,
          b.partVel.second,
          this.#probes,
        ], { label: "step budget integrated bind group" }),
      },
      synced: bindDofs("synced"),
      split: bindParticles("split", b.velOut, false),
      end: bindParticles("end", b.vel, true),
    };
    const finish = createKernel(device, {
      label: "step budget finish",
      code: STEP_BUDGET_WGSL,
      entryPoint: "finish",
      bindings: ["uniform", R, "storage"],
      constants,
    });
    this.#finishParams = params(0, false, "finish");
    this.#finish = {
      kernel: finish,
      bind: bindKernel(device, finish, [this.#finishParams, this.#probes, o.samples]),
    };
  }

  #pack(slot: number, withBonds: boolean, row: number): ArrayBuffer {
    const o = this.#opts;
    return BUDGET_PARAMS.pack({
      count: o.count,
      slot,
      systems: o.systems,
      stride: o.stride,
      withBonds: withBonds ? 1 : 0,
      row,
      fields: o.fields,
      dt: o.dt,
      gravity: [...o.gravity],
      pad0: 0,
    });
  }

  /**
   * Encodes the probe at `point` in a compute pass of its own (inside a dispatch gate's region its
   * dispatch is gated with the stage, like every other).
   */
  encodeProbe(encoder: GPUCommandEncoder, point: BudgetProbe): void {
    const { kernel, bind, bonds } = this.#passes[point];
    const pass = encoder.beginComputePass({ label: `step budget ${point}` });
    dispatch(pass, kernel, { bindGroup: bind, workgroups: 1 });
    if (bonds) dispatch(pass, bonds.kernel, { bindGroup: bonds.bind, workgroups: 1 });
    pass.end();
  }

  /**
   * Encodes the budget's columns of sample `row` from the probes of the step (after its last
   * probe). Writes its parameters with `queue.writeBuffer`: at most one per submit.
   */
  encodeFinish(encoder: GPUCommandEncoder, row: number): void {
    this.device.queue.writeBuffer(this.#finishParams, 0, this.#pack(0, false, row));
    const pass = encoder.beginComputePass({ label: "step budget finish" });
    dispatch(pass, this.#finish.kernel, { bindGroup: this.#finish.bind, workgroups: 1 });
    pass.end();
  }

  /** The probe slots (16 floats per slot in {@link BUDGET_PROBES} order; tests). */
  async readProbes(): Promise<Float32Array> {
    return new Float32Array(await readBuffer(this.device, this.#probes));
  }

  /** Frees the budget's own buffers. */
  destroy(): void {
    for (const b of this.#own) b.destroy();
  }
}
