/**
 * The implicit spring-network integrator shared by the implicit systems (mass-spring cloth, and
 * bond-based peridynamics, whose bonds are Hookean springs): on DOFs (meta-particles) on WebGPU,
 * one linearised backward-Euler step
 * (Baraff & Witkin 1998, "Large steps in cloth simulation", Eq. 16) per {@link ImplicitSprings.encodeStep},
 * solved by matrix-free, Jacobi-preconditioned, filtered conjugate gradients (§5.3) with every
 * scalar reduced on the GPU and a GPU-side convergence exit. Formulas, compression clamping and
 * the f64 reference: `core/reference/cloth_reference.ts`; buffer conventions: `gpu/README.md`; merged
 * particles move with their DOF (Truong et al. 2021, Eqs. 6–7), so the step needs no knowledge
 * of merging beyond `dof`, `offset` and the CSR member list.
 *
 * ```ts
 * const cloth = new ImplicitSprings(device, { particleCount: n, springs });
 * const bindings = cloth.bind({ dof, offset, dofX, dofV, dofM, extForce, memberStart, memberList, pinned, dofVOut });
 * cloth.encodeStep(encoder, { bindings, dt: 2e-3, gravity: [0, -9.81, 0] }); // encodes only
 * // then the caller integrates positions: dofX += dt · dofVOut on the system's DOFs
 * ```
 *
 * @module
 */

import { DOF_ACTIVE, DOF_FIXED } from "../../../core/model/dof_flags.ts";
import type { Spring } from "../../../core/model/spring.ts";
import { SpringTable } from "../../../core/model/spring_table.ts";
import {
  type BindingKind,
  bindKernel,
  createGroupLayout,
  createKernel,
  dispatch,
  dispatchShape,
  type Kernel,
  readBuffer,
} from "../../runtime/kernel.ts";
import { type SplitBinding, splitBinding } from "../../runtime/split_binding.ts";
import {
  checkSpringEnds,
  type PackedSprings,
  packSprings,
  SPRING_CSR_WGSL,
  SPRING_WORDS_WGSL,
  springCsrConstants,
} from "../../state/spring_csr.ts";
import { defineStruct, type StructLayout } from "../../runtime/struct_layout.ts";
import {
  deviceLoopBudget,
  iterationsPerDispatch,
  totalCost,
  wgslLoopBudget,
} from "../../runtime/local_solve.ts";
import {
  CG_GATE_KERNELS,
  CG_WGSL,
  cgConstants,
  type CgDispatch,
  cgDispatchSize,
  type CgGateKernel,
  type CgKernel,
  cgKernelUsed,
  type CgLayout,
  type CgLoop,
  cgLoop,
  cgSlotDispatch,
  cgStateFloats,
  type CgStats,
  cgStats,
  encodeCgIterations,
} from "../../runtime/cg.ts";
import implicitSpringsWgsl from "./implicit_springs.wgsl" with { type: "text" };

/**
 * WGSL source of the solver kernels: `gpu/systems/spring-network/implicit_springs.wgsl` after the packed-spring
 * decoding (`spring_csr.wgsl`), its two-binding accessor (`spring_words.wgsl`) and the CG loop
 * (`cg.wgsl` with its preludes).
 */
export const IMPLICIT_SPRINGS_WGSL: string = [
  SPRING_CSR_WGSL,
  SPRING_WORDS_WGSL,
  CG_WGSL,
  implicitSpringsWgsl,
].join("\n");

/**
 * Uniform `ClothParams` of `implicit_springs.wgsl`: slot count (the system's particle span), region
 * stride of the CG scratch, dt, squared relative tolerance, gravity, the number of u32 indirect
 * arguments the gate writes, the drag coefficient, the CG iterations encoded (the loop
 * `solve_local` walks) and the first particle of the span.
 */
export const CLOTH_PARAMS_STRUCT: StructLayout = defineStruct("ClothParams", [
  ["count", "u32"],
  ["stride", "u32"],
  ["dt", "f32"],
  ["tolerance2", "f32"],
  ["gravity", "vec3f"],
  ["argCount", "u32"],
  ["drag", "f32"],
  ["iterations", "u32"],
  ["first", "u32"],
]);

/** Flag bits of `flags` per DOF slot (`core/model/dof_flags.ts`). */
export const CLOTH_DOF_ACTIVE: number = DOF_ACTIVE;
/** The DOF has a pinned member: v' = 0. */
export const CLOTH_DOF_FIXED: number = DOF_FIXED;

/**
 * The CG scratch: three buffers of four regions (each `stride` vec4 long), so that each buffer
 * stays under the per-binding limit at Table I's particle counts; grouped by the kernels that use
 * them (implicit_springs.wgsl cgA, cgB, cgC).
 */
export const CG_BUFFERS = { A: 15, B: 21, C: 22 } as const;
/** Each region's buffer (binding of {@link CG_BUFFERS}) and index within it (WGSL R_*). */
export const CG_REGIONS: Readonly<
  Record<string, { buffer: keyof typeof CG_BUFFERS; index: number }>
> = {
  P: { buffer: "A", index: 0 },
  AP: { buffer: "A", index: 1 },
  DM: { buffer: "A", index: 2 },
  XP: { buffer: "A", index: 3 },
  X: { buffer: "B", index: 0 },
  R: { buffer: "B", index: 1 },
  Z: { buffer: "B", index: 2 },
  INVD: { buffer: "B", index: 3 },
  VHAT: { buffer: "C", index: 0 },
  G: { buffer: "C", index: 1 },
  DG: { buffer: "C", index: 2 },
  F: { buffer: "C", index: 3 },
};
const REGIONS_PER_BUFFER = 4;

/** Every constant of implicit_springs.wgsl that TypeScript defines, as `override` values. */
const WGSL_CONSTANTS: Record<string, number> = {
  ACTIVE: CLOTH_DOF_ACTIVE,
  FIXED: CLOTH_DOF_FIXED,
  ...Object.fromEntries(Object.entries(CG_REGIONS).map(([k, v]) => [`R_${k}`, v.index])),
};

/** Options of {@link ImplicitSprings}. */
export interface ImplicitSpringsOptions {
  /** Particles = DOF slots N of the scene (all systems). */
  particleCount: number;
  /** Springs between cloth particles (a `SpringTable`, or objects from `buildClothSprings`); indices < N. */
  springs: SpringTable | readonly Spring[];
  /**
   * Per particle, nonzero for cloth particles: DOFs with a cloth member are integrated by this
   * system. Default: every particle that is an end of a spring. The solver's slots span the first
   * to the last of them (see {@link ImplicitSprings.firstParticle}).
   */
  cloth?: ArrayLike<number | boolean>;
  /**
   * Linear drag coefficient c (1/s, default 0): a force −c·M·v on every DOF with a cloth member,
   * integrated implicitly (air resistance; lets a sheet come to rest).
   */
  drag?: number;
  /** CG iterations encoded per step (default 100); the GPU skips those after convergence. */
  maxIterations?: number;
  /** CG stop: sqrt(rᵀz / r₀ᵀz₀) ≤ tolerance (Jacobi-preconditioned residual; default 1e-5). */
  tolerance?: number;
  /** `override WORKGROUP_SIZE` of the per-slot kernels (1..256, default 64). */
  workgroupSize?: number;
  /** Label prefix of every GPU object (default "cloth"). */
  label?: string;
  /**
   * Run the CG iterations in one workgroup (`solve_local`: one dispatch for many iterations, bit
   * for bit the dispatched kernels' result) when the system is small enough that the worst case
   * fits a few dispatches' loop budget and the device offers the storage bindings it needs.
   * Default true; false always dispatches kernels per iteration ({@link fusedLoop}).
   */
  localSolve?: boolean;
  /**
   * Without solve_local, run three direct dispatches per iteration where the solve has at most
   * `FUSED_MAX_CHUNKS` workgroups (`cg.ts` {@link cgLoop}). Default true; false runs five, the
   * one-workgroup totals and the gate's indirect arguments, at any size.
   */
  fusedLoop?: boolean;
  /**
   * Loop iterations a `solve_local` invocation may spend per dispatch (default
   * `deviceLoopBudget`: `LOCAL_BUDGET` on a software adapter, null on a GPU); a smaller value
   * exercises the hand-over between its dispatches; null: no cap, a solve of at most
   * `UNCAPPED_LOCAL_MAX_CHUNKS` workgroups runs in one dispatch.
   */
  localBudget?: number | null;
  /**
   * Largest storage binding in bytes (default: the device's `maxStorageBufferBindingSize`). Spring
   * words past it are bound as a second range of the same buffer (`split_binding.ts`); a smaller
   * value exercises that path on small networks.
   */
  maxBindingSize?: number;
  /**
   * Workgroups per row of the per-slot dispatches (default 65,535, the most WebGPU allows along
   * x); more slots run as a 2D grid. A smaller value exercises that path on small networks.
   */
  rowLength?: number;
}

/**
 * Buffers of a step (gpu/README.md layouts, `GPUBufferUsage.STORAGE`, N = particleCount).
 * All are read only, except `dofVOut`, written on the system's DOF slots only.
 */
export interface ClothBuffers {
  /** `array<u32>` N: DOF of each particle. */
  dof: GPUBuffer;
  /** `array<vec4f>` N: x_i − X_dof(i) (xyz). */
  offset: GPUBuffer;
  /** `array<vec4f>` N slots: DOF positions X. */
  dofX: GPUBuffer;
  /** `array<vec4f>` N slots: DOF velocities V at the start of the step. */
  dofV: GPUBuffer;
  /** `array<f32>` N slots: DOF masses (sum of member masses). */
  dofM: GPUBuffer | GPUBufferBinding;
  /** `array<vec4f>` N slots: external force on each DOF (xyz; other systems' forces). */
  extForce: GPUBuffer | GPUBufferBinding;
  /** `array<u32>` N + 1: CSR offsets of the DOF member lists. */
  memberStart: GPUBuffer;
  /** `array<u32>` N: members, ascending within a DOF. */
  memberList: GPUBuffer;
  /** Output `array<vec4f>` N slots: new velocities (w = 0) of the system's DOFs; may be `dofV`. */
  dofVOut: GPUBuffer | GPUBufferBinding;
  /** `array<u32>` N: nonzero for pinned particles (default: none pinned). */
  pinned?: GPUBuffer;
}

/** Bind groups of one set of {@link ClothBuffers}, from {@link ImplicitSprings.bind}. */
export interface ClothBindings {
  /** The buffers bound. */
  readonly buffers: Readonly<ClothBuffers>;
  /** Group 0 of each entry point. */
  readonly groups: Readonly<Record<ClothKernel, GPUBindGroup>>;
}

/** Options of {@link ImplicitSprings.encodeStep}. */
export interface ClothStepOptions {
  /** Bind groups from {@link ImplicitSprings.bind}. */
  bindings: ClothBindings;
  /** Time step (s, > 0). */
  dt: number;
  /** Gravity acceleration (default 0). */
  gravity?: readonly number[];
  /** Overrides {@link ImplicitSpringsOptions.tolerance} for this step. */
  tolerance?: number;
  /** Overrides {@link ImplicitSpringsOptions.maxIterations} for this step. */
  maxIterations?: number;
  /** Timestamp writes of the step's compute pass. */
  timestampWrites?: GPUComputePassTimestampWrites;
  /**
   * The stage of the two-stage integration (§5.1) this solve belongs to: stage 1 saves its
   * solution per particle, stage 2 starts from it (a warm start, the optimisation the paper names
   * for stage 2; the convergence test stays relative to the cold start's residual, so it asks for
   * the same accuracy). Each stage's iterations are summed for {@link ImplicitSprings.readSolverStats}.
   * Default: a lone solve (cold, counted as stage 1, nothing saved).
   */
  stage?: 1 | 2;
  /**
   * Whether stage 2 starts from stage 1's solution (default true); false solves stage 2 cold, as
   * the paper's tests did (§6.3: "an optimization that is not included in our tests").
   */
  warmStart?: boolean;
}

/** CG statistics of the last step run, from {@link ImplicitSprings.readSolverStats}. */
export interface ClothSolverStats extends CgStats {
  /** Per stage (1, 2): solves run and their CG iterations summed, since the solver was built. */
  stages?: { solves: number; iterations: number }[];
}

/**
 * Entry points of `implicit_springs.wgsl` and of the CG loop (`cg.wgsl`, with the pipeline of
 * apply_a that takes the gate before the fused loop, {@link CgGateKernel}).
 */
export type ClothKernel =
  | CgKernel
  | CgGateKernel
  | "classify"
  | "classify_values"
  | "spring_forces"
  | "init_cg"
  | "init_cg_warm"
  | "warm_residual"
  | "finish_stage1"
  | "finish_stage1_save"
  | "finish_stage2";

const READ: BindingKind = "read-only-storage";
const WRITE: BindingKind = "storage";

/**
 * Bindings (group 0 of implicit_springs.wgsl, all storage buffers) of each entry point: at most 8,
 * WebGPU's guaranteed `maxStorageBuffersPerShaderStage` (classifying the slots is two entry points
 * for that, 6 and 8 where one would bind 11); `solve_local`, 8, runs where the device offers them.
 */
const KERNEL_BINDINGS: Record<ClothKernel, ReadonlyArray<number>> = {
  classify: [1, 7, 8, 9, 10, 11],
  classify_values: [1, 2, 3, 4, 5, 11, 15, 22],
  spring_forces: [11, 12, 13, 14, 15, 20, 22],
  init_cg: [6, 11, 15, 16, 21, 22],
  init_cg_warm: [6, 11, 15, 16, 21, 22, 23],
  gate: [16, 17, 18],
  gate_final: [16],
  pap_finish: [16],
  apply_a: [11, 12, 13, 14, 15, 16, 20],
  apply_a_gate: [11, 12, 13, 14, 15, 16, 20],
  update_x: [11, 15, 16, 21],
  update_p: [11, 15, 16, 21],
  update_x_fused: [11, 15, 16, 21],
  update_p_fused: [11, 15, 16, 21],
  warm_residual: [11, 15, 16, 21],
  finish_stage1: [11, 16, 19, 21, 22, 24],
  finish_stage1_save: [11, 16, 19, 21, 22, 23, 24],
  finish_stage2: [11, 16, 19, 21, 22, 24],
  solve_local: [11, 12, 13, 14, 15, 16, 20, 21],
};
const WRITABLE = new Set([11, 15, 16, 18, 19, 21, 22, 23, 24]);

/** Binding and bytes per element (N elements; memberStart N + 1) of the step's buffers. */
const USER_BINDINGS: Record<keyof ClothBuffers, [number, number]> = {
  dof: [1, 4],
  offset: [2, 16],
  dofX: [3, 16],
  dofV: [4, 16],
  dofM: [5, 4],
  extForce: [6, 16],
  memberStart: [7, 4],
  memberList: [8, 4],
  pinned: [10, 4],
  dofVOut: [19, 16],
};

/**
 * The implicit mass-spring system of the cloth particles, stepping every live DOF with at least
 * one cloth member. Per particle the springs are stored in CSR form, packed at 4 bytes per entry
 * (partner and parameter class, `spring_csr.ts`), so forces and A p are per-slot gathers, summed in
 * a fixed order (bit-reproducible runs); the linearised blocks are recomputed where needed.
 *
 * Step (one compute pass, only encoded; no readback): classify DOF slots (owners, active/fixed;
 * then drag mass, mass, v̂ and the particle positions) → per-particle spring forces and block
 * diagonals → right-hand side, Jacobi preconditioner and CG start (with rᵀz partial sums) → gate →
 * `maxIterations` × [A p (with pᵀAp partial sums), pᵀAp total, x/r/z update (with rᵀz partial
 * sums), gate, p update] → v' into `dofVOut`, the warm start saved and the iterations recorded,
 * in one kernel with the last gate. The dot products are summed inside the kernels that produce
 * their terms (per-workgroup tree sums, then in a fixed order: bit-reproducible). The loop runs
 * as `cg.ts` {@link cgLoop} picks: five dispatches per iteration, whose one-workgroup gate turns
 * converged iterations into 0-workgroup indirect dispatches; three fused ones, the first of which
 * takes the gate after the CG start; or `solve_local`, which takes it too. Each loop kernel also
 * early-outs on the converged flag.
 */
export class ImplicitSprings {
  /** Device of the pipelines. */
  readonly device: GPUDevice;
  /** Particles = DOF slots N of the scene. */
  readonly particleCount: number;
  /**
   * The first particle of the system's span: the solver's slots are the particles
   * `firstParticle ... firstParticle + slotCount − 1` (those not flagged cloth are holes).
   */
  readonly firstParticle: number;
  /** Slots of the solve (the span of the system's particles; ≥ 1), the size of its vectors. */
  readonly slotCount: number;
  /** Springs given at construction. */
  readonly springCount: number;
  /** Default CG iterations encoded per step. */
  readonly maxIterations: number;
  /** Default CG relative tolerance. */
  readonly tolerance: number;
  /** Linear drag coefficient c (1/s). */
  readonly drag: number;
  /** Workgroup size of the per-slot kernels. */
  readonly workgroupSize: number;
  /** Label prefix. */
  readonly label: string;
  /** The packed network (host copy; the GPU's words change as springs break). */
  readonly packed: PackedSprings;
  readonly #stride: number;
  /** The kernels; group 1 (the params uniform) has one layout shared by all. */
  readonly #kernels: Record<ClothKernel, Kernel>;
  readonly #internal: Map<number, GPUBuffer>;
  readonly #owned: GPUBuffer[] = [];
  readonly #args: GPUBuffer;
  readonly #rowLength: number | undefined;
  readonly #argCount: number;
  readonly #params = new Map<string, { buffer: GPUBuffer; group: GPUBindGroup }>();
  readonly #words: SplitBinding;
  /**
   * Iterations one `solve_local` dispatch surely takes (its worst case: every member and spring in
   * one invocation's slots); 0 where the CG runs as dispatched kernels only.
   */
  readonly localIterations: number;
  /** The CG loop a solve runs (`cg.ts` {@link cgLoop}). */
  readonly loop: CgLoop;

  /** Builds the spring CSR, the scratch buffers and the pipelines (see {@link ImplicitSpringsOptions}). */
  constructor(device: GPUDevice, options: ImplicitSpringsOptions) {
    const { n, wg } = checkSizes(device, options);
    this.maxIterations = checkIterations(options.maxIterations ?? 100, "options.maxIterations");
    this.tolerance = checkTolerance(options.tolerance ?? 1e-5, "options.tolerance");
    this.drag = options.drag ?? 0;
    if (!(this.drag >= 0) || !Number.isFinite(this.drag)) {
      throw new RangeError(
        `ImplicitSprings: options.drag must be a finite number >= 0, got ${options.drag}`,
      );
    }
    if (!Array.isArray(options.springs) && !(options.springs instanceof SpringTable)) {
      throw new TypeError("ImplicitSprings: options.springs must be a SpringTable or an array");
    }
    this.device = device;
    this.particleCount = n;
    this.springCount = options.springs.length;
    this.workgroupSize = wg;
    const label = this.label = options.label ?? "cloth";
    // the springs' ends checked against N, then the system's span, then the CSR by slot
    const springsName = "ImplicitSprings: options.springs";
    checkSpringEnds(options.springs, { particleCount: n, name: springsName });
    const springs = SpringTable.from(options.springs);
    const clothFlags = clothFlagsOf(springs, options.cloth, n);
    const first = this.firstParticle = Math.max(0, clothFlags.indexOf(1));
    const slots = this.slotCount = Math.max(1, clothFlags.lastIndexOf(1) + 1 - first);
    this.#stride = Math.ceil(slots / 16) * 16;
    // the springs by slot (4 bytes per entry)
    const packed = this.packed = packSprings(springs, {
      particleCount: slots,
      offset: first,
      name: springsName,
    });
    const S = GPUBufferUsage.STORAGE;
    const words = this.#buffer(
      "spring words",
      Math.max(4, packed.words.byteLength),
      S | GPUBufferUsage.COPY_SRC,
      packed.words.length ? packed.words : new Uint32Array(1),
    );
    const split = this.#words = splitBinding(words, {
      device,
      elementBytes: 4,
      dummy: this.#buffer("spring words (second range unused)", 16, S),
      limit: options.maxBindingSize,
      name: `${label} spring words`,
    });
    // the scalars, one partial sum per workgroup of the per-slot kernels, then solve_local's
    // per-slot terms (padded to whole workgroups)
    const chunks = Math.ceil(slots / wg);
    const local = options.localSolve ?? true;
    const bindingsNeeded = KERNEL_BINDINGS.solve_local.length;
    const localBudget = options.localBudget === undefined
      ? deviceLoopBudget(device)
      : options.localBudget;
    this.localIterations = local &&
        device.limits.maxStorageBuffersPerShaderStage >= bindingsNeeded
      ? localIterationsPerDispatch(slots, {
        entries: packed.words.length,
        workgroupSize: wg,
        budget: localBudget,
      })
      : 0;
    this.loop = cgLoop({
      chunks,
      localIterations: this.localIterations,
      fused: options.fusedLoop,
    });
    const layout: CgLayout = {
      chunks,
      workgroupSize: wg,
      residualNorm: false,
      local: this.loop === "local",
    };
    const built = this.#createBuffers({ layout, clothFlags, words, rowLength: options.rowLength });
    this.#argCount = built.argCount;
    this.#args = built.args;
    this.#rowLength = options.rowLength;
    this.#internal = built.internal;
    this.#kernels = this.#createKernels({ layout, split, localBudget });
  }

  /** Creates a buffer the solver owns (destroyed with it), filled with `data` where given. */
  #buffer(name: string, size: number, usage: number, data?: ArrayBufferView): GPUBuffer {
    const b = this.device.createBuffer({
      label: `${this.label} ${name}`,
      size: Math.max(16, Math.ceil(size / 4) * 4),
      usage,
      mappedAtCreation: data !== undefined,
    });
    if (data) {
      new Uint8Array(b.getMappedRange()).set(
        new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      );
      b.unmap();
    }
    this.#owned.push(b);
    return b;
  }

  /**
   * Creates the solver's buffers after the spring words (the CG state and vectors, the indirect
   * arguments, the flags, CSR and warm start) and returns the internal ones by binding, with the
   * indirect arguments and their count.
   */
  #createBuffers(
    { layout, clothFlags, words, rowLength }: {
      layout: CgLayout;
      clothFlags: Uint32Array;
      words: GPUBuffer;
      rowLength: number | undefined;
    },
  ): { internal: Map<number, GPUBuffer>; args: GPUBuffer; argCount: number } {
    const n = this.particleCount, slots = this.slotCount, packed = this.packed;
    const buffer = this.#buffer.bind(this);
    const S = GPUBufferUsage.STORAGE;
    const state = buffer("solver state", 4 * cgStateFloats(layout), S | GPUBufferUsage.COPY_SRC);
    const cg = Object.fromEntries(
      Object.keys(CG_BUFFERS).map((
        k,
      ) => [k, buffer(`cg vectors ${k}`, 16 * REGIONS_PER_BUFFER * this.#stride, S)]),
    ) as Record<keyof typeof CG_BUFFERS, GPUBuffer>;
    // per-slot kernels (2D past 65,535 workgroups), then the one-workgroup ones
    const full = new Uint32Array([
      ...dispatchShape(layout.chunks, rowLength),
      1,
      1,
      1,
      1,
    ]);
    const argsFull = buffer("indirect args (full)", full.byteLength, S, full);
    const args = buffer("indirect args", full.byteLength, S | GPUBufferUsage.INDIRECT);
    const internal = new Map<number, GPUBuffer>([
      [9, buffer("cloth flags", 4 * n, S, clothFlags)],
      [10, buffer("no pins", 4 * n, S)],
      [11, buffer("slot owners and flags", 16 * slots, S)],
      [12, buffer("spring start", 4 * (slots + 1), S | GPUBufferUsage.COPY_SRC, packed.start)],
      [13, words],
      [14, buffer("spring classes", packed.classes.byteLength, S, packed.classes)],
      [CG_BUFFERS.A, cg.A],
      [CG_BUFFERS.B, cg.B],
      [CG_BUFFERS.C, cg.C],
      [16, state],
      [17, argsFull],
      [18, args],
      [23, buffer("warm start", 16 * slots, S)],
      [24, buffer("per-stage iterations", 16, S | GPUBufferUsage.COPY_SRC)],
    ]);
    return { internal, args, argCount: full.length };
  }

  /** Creates the pipelines of the entry points this solver uses, one params layout shared. */
  #createKernels(
    { layout, split, localBudget }: {
      layout: CgLayout;
      split: SplitBinding;
      localBudget: number | null;
    },
  ): Record<ClothKernel, Kernel> {
    const { device, label, packed } = this;
    const params = createGroupLayout(device, `${label} params bind group layout`, ["uniform"]);
    const kernels = {} as Record<ClothKernel, Kernel>;
    for (const kernel of this.#kernelNames()) {
      const variant = kernel in CG_GATE_KERNELS ? CG_GATE_KERNELS[kernel as CgGateKernel] : null;
      kernels[kernel] = createKernel(device, {
        label: `${label} ${kernel}`,
        code: IMPLICIT_SPRINGS_WGSL,
        entryPoint: variant?.entryPoint ?? kernel,
        groups: [
          KERNEL_BINDINGS[kernel].map((b) => [b, WRITABLE.has(b) ? WRITE : READ] as const),
          params,
        ],
        constants: {
          ...WGSL_CONSTANTS,
          ...springCsrConstants(packed),
          WORDS_CHUNK: split.firstLength,
          WORKGROUP_SIZE: this.workgroupSize,
          ...cgConstants(layout),
          LOCAL_BUDGET: wgslLoopBudget(localBudget, this.localIterations),
          ...variant?.constants,
        },
      });
    }
    return kernels;
  }

  /**
   * The springs in per-slot CSR form (`spring_csr.ts`; slot k is particle `firstParticle + k`,
   * partners are slots too): `start` (`array<u32>`, `slotCount` + 1), `words`
   * (`array<u32>`, partner | class; every spring listed under both ends, in spring-list order)
   * with its two bindings `wordRanges`, and `classes` (`array<SpringClass>`). An entry rewritten to
   * class 0 (a broken bond) no longer acts.
   */
  get springCsr(): {
    start: GPUBuffer;
    words: GPUBuffer;
    wordRanges: SplitBinding;
    classes: GPUBuffer;
  } {
    return {
      start: this.#internal.get(12)!,
      words: this.#internal.get(13)!,
      wordRanges: this.#words,
      classes: this.#internal.get(14)!,
    };
  }

  /**
   * `array<vec4u>` per slot k (particle `firstParticle + k`), written by every step: x the slot
   * that owns the particle's DOF (its first member of this system; 0xffffffff for a particle the
   * system does not own), y on owner slots {@link CLOTH_DOF_ACTIVE} (integrated by this system)
   * plus {@link CLOTH_DOF_FIXED} when a member is pinned, z the DOF.
   */
  get slotInfo(): GPUBuffer {
    return this.#internal.get(11)!;
  }

  /**
   * Binding of the per-particle spring forces `array<vec4f>` ({@link ImplicitSprings.slotCount}
   * entries, particle `firstParticle + k` at k; xyz: Σ over the particle's springs of f_i at the
   * start of the step), written by {@link ImplicitSprings.encodeStep}
   * before its solve. Lets an explicit integrator of a shared DOF see the springs explicitly.
   */
  get springForce(): GPUBufferBinding {
    const { buffer, index } = CG_REGIONS.F;
    return {
      buffer: this.#internal.get(CG_BUFFERS[buffer])!,
      offset: 16 * index * this.#stride,
      size: 16 * this.slotCount,
    };
  }

  /**
   * Bind groups of a set of step buffers; reuse them across steps (create one per buffer set, e.g.
   * two for ping-ponged velocities). Throws a `TypeError` naming a missing buffer or one without
   * `STORAGE` usage, a `RangeError` naming one too small.
   */
  bind(buffers: ClothBuffers): ClothBindings {
    if (!buffers) throw new TypeError("ImplicitSprings.bind: buffers are required");
    const n = this.particleCount;
    const byBinding = new Map<number, GPUBufferBinding>(
      [...this.#internal].map(([k, buffer]) => [k, { buffer }]),
    );
    byBinding.set(13, this.#words.first);
    byBinding.set(20, this.#words.second);
    for (const [name, [binding, bytes]] of Object.entries(USER_BINDINGS)) {
      const given = buffers[name as keyof ClothBuffers];
      if (!given) {
        if (name === "pinned") continue;
        throw new TypeError(`ImplicitSprings.bind: buffers.${name} is missing`);
      }
      const b: GPUBufferBinding = given instanceof GPUBuffer ? { buffer: given } : given;
      if (!(b.buffer.usage & GPUBufferUsage.STORAGE)) {
        throw new TypeError(`ImplicitSprings.bind: buffers.${name} needs GPUBufferUsage.STORAGE`);
      }
      const need = bytes * (name === "memberStart" ? n + 1 : n);
      const size = b.size ?? b.buffer.size - (b.offset ?? 0);
      if (size < need) {
        throw new RangeError(
          `ImplicitSprings.bind: buffers.${name} has ${size} bytes, needs at least ${need}`,
        );
      }
      byBinding.set(binding, b);
    }
    const groups = {} as Record<ClothKernel, GPUBindGroup>;
    for (const kernel of this.#kernelNames()) {
      groups[kernel] = bindKernel(this.device, this.#kernels[kernel], byBinding);
    }
    return Object.freeze({ buffers: Object.freeze({ ...buffers }), groups: Object.freeze(groups) });
  }

  /**
   * The kernels this solver uses: those of its CG loop ({@link cgKernelUsed}), and apply_a_gate
   * wherever the loop takes no indirect arguments (the warm start's A x takes the first gate).
   */
  #kernelNames(): ClothKernel[] {
    return (Object.keys(KERNEL_BINDINGS) as ClothKernel[]).filter((k) =>
      k === "apply_a_gate"
        ? this.loop !== "dispatched"
        : cgKernelUsed(k as CgKernel | CgGateKernel, this.loop)
    );
  }

  /** Uniform bind group of (dt, gravity, tolerance, iterations); immutable, cached per value. */
  #paramsGroup(
    dt: number,
    gravity: readonly number[],
    tolerance: number,
    iterations: number,
  ): GPUBindGroup {
    const key = `${dt}|${gravity.join(",")}|${tolerance}|${iterations}`;
    const cached = this.#params.get(key);
    if (cached) return cached.group;
    const buffer = this.device.createBuffer({
      label: `${this.label} params dt=${dt}`,
      size: CLOTH_PARAMS_STRUCT.size,
      usage: GPUBufferUsage.UNIFORM,
      mappedAtCreation: true,
    });
    new Uint8Array(buffer.getMappedRange()).set(
      new Uint8Array(CLOTH_PARAMS_STRUCT.pack({
        count: this.slotCount,
        stride: this.#stride,
        dt,
        tolerance2: tolerance * tolerance,
        gravity: [...gravity],
        argCount: this.#argCount,
        drag: this.drag,
        iterations,
        first: this.firstParticle,
      })),
    );
    buffer.unmap();
    const group = bindKernel(this.device, this.#kernels.classify, [buffer], {
      group: 1,
      label: `${this.label} params bind group dt=${dt}`,
    });
    // Bounded cache (adaptive dt): forget the oldest; commands already encoded keep it alive.
    if (this.#params.size >= 64) this.#params.delete(this.#params.keys().next().value!);
    this.#params.set(key, { buffer, group });
    return group;
  }

  /**
   * Encodes one backward-Euler step (one compute pass) into `encoder`: reads the DOF state of
   * `options.bindings`, writes v' to `dofVOut` on the DOF slots that are live with a cloth member
   * (0 on fixed ones; other slots untouched). No readback, no queue writes: several steps may be
   * encoded into one submission, also with different dt.
   */
  encodeStep(encoder: GPUCommandEncoder, options: ClothStepOptions): void {
    if (!encoder) throw new TypeError("ImplicitSprings.encodeStep: encoder is required");
    const bindings = options?.bindings;
    if (!bindings?.groups) {
      throw new TypeError("ImplicitSprings.encodeStep: options.bindings must come from bind()");
    }
    const dt = options.dt;
    if (!(dt > 0) || !Number.isFinite(dt)) {
      throw new RangeError(
        `ImplicitSprings.encodeStep: options.dt must be finite and > 0, got ${dt}`,
      );
    }
    const gravity = options.gravity ?? [0, 0, 0];
    if (gravity.length !== 3 || !gravity.every(Number.isFinite)) {
      throw new RangeError(
        `ImplicitSprings.encodeStep: options.gravity must be 3 finite numbers, got ${gravity}`,
      );
    }
    const tolerance = checkTolerance(options.tolerance ?? this.tolerance, "options.tolerance");
    const iterations = checkIterations(
      options.maxIterations ?? this.maxIterations,
      "options.maxIterations",
    );
    const params = this.#paramsGroup(dt, gravity, tolerance, iterations);
    const pass = encoder.beginComputePass({
      label: `${this.label} backward Euler step`,
      timestampWrites: options.timestampWrites,
    });
    const run = (kernel: ClothKernel, how: CgDispatch) => {
      dispatch(pass, this.#kernels[kernel], {
        bindGroup: [bindings.groups[kernel], params],
        ...(how === "slots"
          ? {
            invocations: this.slotCount,
            workgroupSize: this.workgroupSize,
            rowLength: this.#rowLength,
          }
          : cgDispatchSize(how, this.#args)),
      });
    };
    const stage = options.stage;
    const warm = options.warmStart ?? true;
    const loop = this.loop;
    run("classify", "slots");
    run("classify_values", "slots");
    run("spring_forces", "slots");
    if (stage === 2 && warm && iterations > 0) {
      // x₀ = stage 1's Δv (p of init_cg_warm): r₀ = b − A x₀ (the first gate keeps the cold
      // r₀ᵀz₀ as reference); the five-kernel loop's warm start runs on the gate's indirect
      // arguments, elsewhere its A x takes the gate itself
      run("init_cg_warm", "slots");
      const how = cgSlotDispatch(loop);
      if (loop === "dispatched") {
        run("gate", "one");
        run("apply_a", how);
      } else run("apply_a_gate", how);
      run("warm_residual", how);
    } else run("init_cg", "slots");
    // the gate after init_cg or the warm start is the loop's, the last one the finish kernel's
    encodeCgIterations(run, {
      iterations,
      localIterations: this.localIterations,
      loop,
      gate: true,
      gateFinal: false,
    });
    run(
      stage === 2 ? "finish_stage2" : stage === 1 && warm ? "finish_stage1_save" : "finish_stage1",
      "slots",
    );
    pass.end();
  }

  /**
   * Reads the CG statistics of the last step executed (a readback: call it outside the step loop,
   * after the submission).
   */
  async readSolverStats(): Promise<ClothSolverStats> {
    const s = new Float32Array(await readBuffer(this.device, this.#internal.get(16)!));
    const h = new Uint32Array(await readBuffer(this.device, this.#internal.get(24)!));
    return {
      stages: [0, 1].map((k) => ({ solves: h[2 * k + 1], iterations: h[2 * k] })),
      ...cgStats(s),
    };
  }

  /** Destroys the buffers this object created (not the bound ones). */
  destroy(): void {
    for (const b of this.#owned) b.destroy();
    for (const { buffer } of this.#params.values()) buffer.destroy();
    this.#params.clear();
  }
}

/**
 * Checks the device and the options' particle count and workgroup size (the first checks of the
 * constructor, in its order); returns the count N and the workgroup size.
 */
function checkSizes(
  device: GPUDevice,
  options: ImplicitSpringsOptions,
): { n: number; wg: number } {
  if (!device) throw new TypeError("ImplicitSprings: device is required");
  if (!options) throw new TypeError("ImplicitSprings: options are required");
  const n = options.particleCount;
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(
      `ImplicitSprings: options.particleCount must be an integer >= 1, got ${n}`,
    );
  }
  const wg = options.workgroupSize ?? 64;
  if (!Number.isInteger(wg) || wg < 1 || wg > 256) {
    throw new RangeError(
      `ImplicitSprings: options.workgroupSize must be an integer in 1..256, got ${wg}`,
    );
  }
  return { n, wg };
}

/**
 * The system's particles, one flag each (1: cloth): those of `cloth` where given (every spring
 * must join two of them), else the springs' ends.
 */
function clothFlagsOf(
  springs: SpringTable,
  cloth: ImplicitSpringsOptions["cloth"],
  n: number,
): Uint32Array {
  const clothFlags = new Uint32Array(n);
  if (cloth) {
    if (cloth.length !== n) {
      throw new RangeError(
        `ImplicitSprings: options.cloth has length ${cloth.length}, expected ${n}`,
      );
    }
    for (let i = 0; i < n; i++) clothFlags[i] = cloth[i] ? 1 : 0;
    for (let k = 0; k < springs.length; k++) {
      const [i, j] = [springs.i[k], springs.j[k]];
      if (!clothFlags[i] || !clothFlags[j]) {
        throw new RangeError(
          `ImplicitSprings: options.springs[${k}] joins ${i} and ${j}, but only particles ` +
            "flagged in options.cloth belong to the system: flag both ends or drop the spring",
        );
      }
    }
  } else {
    for (let k = 0; k < springs.length; k++) {
      clothFlags[springs.i[k]] = clothFlags[springs.j[k]] = 1;
    }
  }
  return clothFlags;
}

function checkIterations(v: number, name: string): number {
  if (!Number.isInteger(v) || v < 0) {
    throw new RangeError(`ImplicitSprings: ${name} must be an integer >= 0, got ${v}`);
  }
  return v;
}

function checkTolerance(v: number, name: string): number {
  if (!(v >= 0) || !Number.isFinite(v)) {
    throw new RangeError(`ImplicitSprings: ${name} must be finite and >= 0, got ${v}`);
  }
  return v;
}

/**
 * Iterations a `solve_local` dispatch surely fits in the loop budget (default `LOCAL_BUDGET`; null:
 * no cap, `iterationsPerDispatch`) per
 * invocation, for `n` slots, `entries` spring CSR entries and workgroup size `wg`: the worst case
 * puts every slot's member chain (at most `n` members in all) and spring in one invocation's slots
 * (as `local_cost` in the WGSL counts them). 0 when not even one fits (the dispatched kernels
 * run). One is enough: the host then encodes one dispatch per iteration, each a single direct
 * dispatch instead of five, and in practice an invocation meets about 1/wg of the worst case, so
 * the first dispatch usually takes the whole solve and the others return at once.
 */
export function localIterationsPerDispatch(
  n: number,
  options: { entries: number; workgroupSize: number; budget?: number | null },
): number {
  const { entries, workgroupSize: wg } = options;
  const chunks = Math.ceil(n / wg);
  const work = n + entries + 3 * chunks + 2 * totalCost(chunks, wg) + 16;
  // the setup: counting the work, the gate the first dispatch takes (one total), a margin
  const setup = chunks + n + totalCost(chunks, wg) + 8;
  return iterationsPerDispatch(work, { setup, chunks, budget: options.budget, least: 1 });
}
