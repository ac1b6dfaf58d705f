/**
 * The whole-step momentum and energy budget: where a step gains or loses momentum and energy,
 * phase by phase, under any handler and any coupling of systems. Measured on the steps that end
 * with a metrics sample (every `metricsEvery` steps), written into that sample's row; kernels:
 * `step_budget.wgsl`. Off the timed phases: its passes carry no timestamps.
 *
 * Probes reduce the state at the phase boundaries of the step (one workgroup each, fixed order):
 * - `start`: the particles before the step (x, v, bonds);
 * - `merged`: the DOFs after merging (Eqs. 1–3 under merge-split; every particle its own DOF
 *   under the baselines), split into DOFs without and with a pinned member;
 * - `integrated`: the parts the systems produced (v_s of each system's part, weights m_s, Eq. 17's
 *   inputs), over the DOFs without a pinned member, and the handler's forces on their members;
 * - `synced`: the DOFs after the coupling's sync (Eq. 17, pinned DOFs fixed, the domain walls);
 * - `split`: the particle velocities the last stage ends with (Eq. 8 under merge-split);
 * - `end`: the particles after the end of the step (impulses, write-back, systems' end of step).
 * Stage 2's probes overwrite stage 1's; when stage 2 does not run (merge-split's GPU decision,
 * §5.1) its probes do not either, and stage 1's stand: the budget is that of the stage whose
 * result the step keeps.
 *
 * Columns ({@link BUDGET_FIELDS}; momenta are magnitudes |ΔP| in N·s, energies signed changes in J,
 * for the one step; g gravity, Δt the step, M_free the mass of the DOFs without a pinned member):
 * - `budgetMomentumScale` Σ m|v| + Δt |g| Σ m at the start: what the momentum terms compare with;
 * - `budgetMergeMomentum` |P_merged − P_start| (Eq. 2 conserves it: 0 up to rounding);
 * - `budgetPinMomentum` what the pinned DOFs' supports absorb (the momentum a meta-particle with
 *   a pinned member had after merging: a pinned group is fixed whole);
 * - `budgetIntegrationMomentum` |P_integrated − P_merged − Δt M_free g − Δt ΣF_handler| over the
 *   unpinned DOFs: the impulse of forces other than gravity and the handler's from outside the
 *   unpinned set — springs to pinned particles, the cloth's air drag, a FLIP grid's walls — and
 *   the solvers' residuals (internal forces cancel);
 * - `budgetHandlerImpulse` Δt |ΣF_handler| over every particle (pinned ones included): the
 *   handler's forces that do not cancel (Newton's third law: 0 for penalty, kernel repulsion and
 *   Akinci's mirrored forces, Eq. 14);
 * - `budgetHandlerImbalance` |ΣF_handler| / Σ|F_handler| over every particle: the fraction of the
 *   handler's forces that does not cancel (0 without forces; f32 rounding is ~10⁻⁶);
 * - `budgetWallMomentum` |P_synced − P_integrated| over the unpinned DOFs: Eq. 17 conserves it,
 *   so this is what the domain walls absorb;
 * - `budgetSplitMomentum` |P_split − P_synced| (Eq. 8 conserves it);
 * - `budgetEndMomentum` |P_end − P_split| (impulses exchanged in pairs conserve it, except with
 *   a pinned partner, whose support takes its share);
 * - `budgetExternalMomentum` |P_end − P_start − Δt M_free g|: everything but gravity that the
 *   step's momentum change owes to the outside (supports, walls, drag);
 * - `budgetMergeEnergy` ΔK of merging (Eq. 4: ≤ 0, the inelastic merge);
 * - `budgetPinEnergy` ΔK of fixing the pinned DOFs (≤ 0);
 * - `budgetIntegrationEnergy` ΔK of the systems' integration + ΔU_gravity + ΔU_elastic of the
 *   step (positions move only in the coupling's position update, counted here): the work of the
 *   non-conservative forces — damping, viscosity, drag, the handler's forces, the integrators'
 *   numerical dissipation; bonds that break take their energy with them and show here too;
 * - `budgetCouplingEnergy` −ΣΔĒk of the sync (Eq. 19: ≤ 0, the coupling of different integrators);
 * - `budgetWallEnergy` ΔK of the domain walls (≤ 0, inelastic);
 * - `budgetSplitEnergy` ΔK of splitting (Eq. 9's energy restoration; 0 without merge-split);
 * - `budgetEndEnergy` ΔK of the end of the step (impulses, velocity projection);
 * - `budgetStepEnergy` ΔE of the whole step, kinetic + gravity + elastic: the sum of the seven
 *   phase terms above, exactly (they telescope).
 *
 * @module
 */
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

/** WGSL of the budget kernels. */
export const STEP_BUDGET_WGSL: string = [
  BOND_ENERGY_WGSL,
  Deno.readTextFileSync(new URL("./step_budget.wgsl", import.meta.url)),
].join("\n");

/** The budget's columns of a metrics sample row (definitions in the module doc). */
export const BUDGET_FIELDS = [
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
