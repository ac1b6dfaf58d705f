/**
 * Fragment count and largest fragment of brittle solids (peridynamic fracture metrics), computed
 * entirely on the GPU: connected components of the member particles over their intact bonds.
 * Kernels: `fragments.wgsl`; f64 reference: `fragments` of `core/reference/peridynamics_reference.ts`.
 *
 * ```ts
 * const frag = new Fragments(device, { count: n, bondStart, bondList, member });
 * frag.encode(encoder); // encodes only; result = [count, largest, converged, rounds, significant]
 * const { count, largest } = await frag.read(); // tests / batched readbacks
 * ```
 *
 * Inputs (`gpu/README.md`, `ParticleState`): the ascending bond lists in CSR form
 * `bondList[bondStart[i] .. bondStart[i + 1])`, an entry's low 31 bits the partner, its
 * {@link BOND_BROKEN_BIT} a broken bond; a bond may be listed under one or both ends. `member`
 * (`array<u32>`, nonzero = counted): non-members are no fragment and join none, bonds touching one
 * are ignored.
 *
 * Algorithm (min-label hooking and pointer jumping, after Shiloach & Vishkin 1982, "An O(log n)
 * parallel connectivity algorithm", J. Algorithms 3): a forest `parent` with parent[x] ≤ x, always
 * within x's component, starts as singletons (every tree a star). Each round, on stars: snapshot
 * the roots; `hook`: per intact bond whose ends have roots a ≠ b, parent[max(a, b)] ←
 * min(·, min(a, b)); `hook_stagnant`: per such bond, lo = min(a, b), hi = max(a, b), parent[lo] ←
 * min(·, parent[hi]) when parent[hi] < lo; then pointer jumping parent[x] ← parent[parent[x]] until
 * stars again. A round whose hooks change nothing leaves every bond inside one star, and its root
 * (parent[x] ≤ x for all x) is the smallest index of the component: the labels are unique whatever
 * the scheduling.
 *
 * Round bound. Every parent value is a root of the round's snapshot (hooks write roots or copy
 * parents). Take a component with k ≥ 2 stars and a star of root r; it has a bond to a star of root
 * s ≠ r. If some such s < r, `hook` gives parent[r] < r. Otherwise every neighbouring root s > r
 * gets parent[s] ≤ r in `hook`: either one equals r (s hooked onto r), or all are < r and
 * `hook_stagnant` gives parent[r] ≤ parent[s] < r. So every star ends the round in a tree with
 * another star, and the number of trees of the component at least halves: after ⌈log2 N⌉ rounds
 * with changes each component is one tree, and the next round changes nothing. Pointer jumping on
 * a tree of depth d ≤ N − 1 makes stars in ⌈log2 d⌉ jumps (after j jumps x's parent is its
 * ancestor at distance ≥ min(2^j, depth(x)); jumping in place only moves it further). Hence
 * {@link Fragments.rounds} = ⌈log2 N⌉ + 2 rounds (one of margin) of {@link Fragments.jumps} =
 * max(1, ⌈log2 N⌉) jumps each are encoded; one-thread gates turn the rounds after convergence, and
 * the jumps after a jump that changed nothing, into 0-workgroup indirect dispatches (as in
 * `gpu/systems/spring-network/implicit_springs.ts`). `result[2]` (converged) is 1 when a round changed nothing,
 * `result[3]` counts the rounds run (≤ ⌈log2 N⌉ + 1).
 *
 * Then labels (parent of members, 0xffffffff for non-members), per-root sizes by `atomicAdd`, and
 * count (roots) and largest (`atomicMax`) into `result`: integer atomics only. Every invocation
 * loops over one particle's bonds at most, so llvmpipe's loop limit is never near.
 *
 * @module
 */
import {
  type BindingKind,
  bindKernel,
  createKernel,
  dispatch,
  dispatchShape,
  type Kernel,
  readBuffer,
  storageBuffer,
} from "../runtime/kernel.ts";
import { defineStruct, type StructLayout } from "../runtime/struct_layout.ts";
import { BOND_BROKEN_BIT } from "../state/bond_flags.ts";
import fragmentsWgsl from "./fragments.wgsl" with { type: "text" };

/** WGSL source of the fragment kernels (`gpu/metrics/fragments.wgsl`). */
export const FRAGMENTS_WGSL: string = fragmentsWgsl;

/** Layout of the uniform `FragmentParams` of `fragments.wgsl`: particle count N, workgroups. */
export const FRAGMENT_PARAMS: StructLayout = defineStruct("FragmentParams", [
  ["count", "u32"],
  ["workgroups", "u32"],
  ["rows", "u32"],
  ["minSize", "u32"],
]);

/** Words of the {@link Fragments.result} buffer (`array<u32>`). */
export const FRAGMENT_RESULT = {
  /** Number of fragments (components of members). */
  COUNT: 0,
  /** Size of the largest fragment (0 without members). */
  LARGEST: 1,
  /** 1 when the last round run changed nothing (the labels are final). */
  CONVERGED: 2,
  /** Rounds run, the one that found nothing to change included. */
  ROUNDS: 3,
  /** Fragments of at least `significantSize` particles ({@link FragmentsOptions}). */
  SIGNIFICANT: 4,
} as const;

/** Bytes of the {@link Fragments.result} buffer: one u32 per word of {@link FRAGMENT_RESULT}. */
const RESULT_BYTES = 4 * Object.keys(FRAGMENT_RESULT).length;

/** Label of a non-member in {@link Fragments.labels}. */
export const NO_FRAGMENT = 0xffffffff;

/** Options of {@link Fragments}. */
export interface FragmentsOptions {
  /** Particle count N (≥ 1). */
  count: number;
  /** `array<u32>` N + 1: CSR offsets of the bond lists. */
  bondStart: GPUBuffer;
  /** `array<u32>`: partner indices, {@link BOND_BROKEN_BIT} set on broken bonds. */
  bondList: GPUBuffer;
  /** `array<u32>` N: nonzero for the particles whose fragments are counted. */
  member: GPUBuffer;
  /** Label prefix of every GPU object (default "fragments"). */
  label?: string;
  /**
   * The fewest particles of a fragment counted in `significant` (default 1: every fragment); the
   * metrics give 1 % of the solid particles, rounded up.
   */
  significantSize?: number;
  /**
   * Workgroups per row of the per-particle dispatches (default 65,535, the most WebGPU allows along
   * x); more particles run as a 2D grid. A smaller value exercises that path on small inputs.
   */
  rowLength?: number;
}

/** What {@link Fragments.read} returns. */
export interface FragmentCount {
  /** Number of fragments. */
  count: number;
  /** Size of the largest fragment (0 without members). */
  largest: number;
  /** Whether the components converged within the encoded rounds (always, by the round bound). */
  converged: boolean;
  /** Rounds run. */
  rounds: number;
  /** Fragments of at least `significantSize` particles. */
  significant: number;
}

type FragmentKernel =
  | "init"
  | "gate_round"
  | "snapshot"
  | "hook"
  | "hook_stagnant"
  | "gate_jump"
  | "jump"
  | "check"
  | "label"
  | "tally"
  | "stats";

/** Bindings (group 0 of fragments.wgsl) of each entry point. */
const KERNEL_BINDINGS: Record<FragmentKernel, readonly number[]> = {
  init: [0, 4, 7, 8],
  gate_round: [0, 7, 8, 9],
  snapshot: [0, 3, 4, 5],
  hook: [0, 1, 2, 3, 4, 5, 8],
  hook_stagnant: [0, 1, 2, 3, 4, 5, 8],
  gate_jump: [0, 8, 9],
  jump: [0, 3, 4, 8],
  check: [7, 8],
  label: [0, 3, 4, 5, 6],
  tally: [0, 3, 5, 6],
  stats: [0, 3, 5, 6, 7],
};
const READ_ONLY = new Set([1, 2, 3]);
const WORKGROUP_SIZE = 64;
/** Byte offsets of the indirect arguments of the round's kernels and of a jump. */
const ROUND_ARGS = 0;
const JUMP_ARGS = 12;

/**
 * Connected components of the member particles over intact bonds, on the GPU (module doc):
 * {@link Fragments.encode} only encodes (no host sync) and writes {@link Fragments.result} and
 * {@link Fragments.labels}.
 */
export class Fragments {
  /** Device of the pipelines. */
  readonly device: GPUDevice;
  /** Particle count N. */
  readonly count: number;
  /** Rounds encoded per {@link Fragments.encode} (⌈log2 N⌉ + 2; the GPU skips those after convergence). */
  readonly rounds: number;
  /** Pointer jumps encoded per round (max(1, ⌈log2 N⌉); skipped once a jump changes nothing). */
  readonly jumps: number;
  /** Label prefix. */
  readonly label: string;
  readonly #kernels: Record<FragmentKernel, Kernel>;
  readonly #groups: Record<FragmentKernel, GPUBindGroup>;
  readonly #owned: GPUBuffer[];
  readonly #result: GPUBuffer;
  readonly #labels: GPUBuffer;
  readonly #args: GPUBuffer;
  readonly #rowLength: number | undefined;

  /** Creates the scratch buffers, pipelines and bind groups (see {@link FragmentsOptions}). */
  constructor(device: GPUDevice, options: FragmentsOptions) {
    if (!device) throw new TypeError("Fragments: device is required");
    if (!options) throw new TypeError("Fragments: options are required");
    const n = options.count;
    if (!Number.isInteger(n) || n < 1 || n >= BOND_BROKEN_BIT) {
      throw new RangeError(`Fragments: options.count must be an integer in 1..2^31-1, got ${n}`);
    }
    const [workgroups, rows] = dispatchShape(Math.ceil(n / WORKGROUP_SIZE), options.rowLength);
    const need = { bondStart: 4 * (n + 1), bondList: 4, member: 4 * n } as const;
    for (const [name, bytes] of Object.entries(need)) {
      const b = options[name as keyof typeof need];
      if (!(b instanceof GPUBuffer)) {
        throw new TypeError(`Fragments: options.${name} must be a GPUBuffer`);
      }
      if (!(b.usage & GPUBufferUsage.STORAGE)) {
        throw new TypeError(`Fragments: options.${name} needs GPUBufferUsage.STORAGE`);
      }
      if (b.size < bytes) {
        throw new RangeError(
          `Fragments: options.${name} has ${b.size} bytes, needs at least ${bytes}`,
        );
      }
    }
    this.device = device;
    this.count = n;
    this.#rowLength = options.rowLength;
    const log2 = Math.ceil(Math.log2(n));
    this.rounds = log2 + 2;
    this.jumps = Math.max(1, log2);
    const label = this.label = options.label ?? "fragments";

    const params = device.createBuffer({
      label: `${label} params`,
      size: Math.max(16, FRAGMENT_PARAMS.size),
      usage: GPUBufferUsage.UNIFORM,
      mappedAtCreation: true,
    });
    new Uint8Array(params.getMappedRange()).set(
      new Uint8Array(
        FRAGMENT_PARAMS.pack({
          count: n,
          workgroups,
          rows,
          minSize: Math.max(1, Math.ceil(options.significantSize ?? 1)),
        }),
      ),
    );
    params.unmap();
    const parent = storageBuffer(device, { label: `${label} parent`, size: 4 * n });
    const scratch = storageBuffer(device, { label: `${label} roots / sizes`, size: 4 * n });
    this.#labels = storageBuffer(device, { label: `${label} labels`, size: 4 * n });
    this.#result = storageBuffer(device, { label: `${label} result`, size: RESULT_BYTES });
    const state = storageBuffer(device, { label: `${label} state`, size: 16 });
    this.#args = storageBuffer(device, {
      label: `${label} indirect args`,
      size: 24,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.INDIRECT,
    });
    this.#owned = [params, parent, scratch, this.#labels, this.#result, state, this.#args];
    const buffers = new Map<number, GPUBuffer>([
      [0, params],
      [1, options.bondStart],
      [2, options.bondList],
      [3, options.member],
      [4, parent],
      [5, scratch],
      [6, this.#labels],
      [7, this.#result],
      [8, state],
      [9, this.#args],
    ]);
    const constants = {
      BROKEN_BIT: BOND_BROKEN_BIT,
      NONE: NO_FRAGMENT,
      ...Object.fromEntries(Object.entries(FRAGMENT_RESULT).map(([k, v]) => [`R_${k}`, v])),
    };
    const kernels = {} as Record<FragmentKernel, Kernel>;
    const groups = {} as Record<FragmentKernel, GPUBindGroup>;
    for (const [name, bindings] of Object.entries(KERNEL_BINDINGS)) {
      const kernel = name as FragmentKernel;
      const one = kernel === "gate_round" || kernel === "gate_jump" || kernel === "check";
      kernels[kernel] = createKernel(device, {
        label: `${label} ${kernel}`,
        code: FRAGMENTS_WGSL,
        entryPoint: kernel,
        bindings: bindings.map((b): readonly [number, BindingKind] => [
          b,
          b === 0 ? "uniform" : READ_ONLY.has(b) ? "read-only-storage" : "storage",
        ]),
        constants: one ? constants : { ...constants, WORKGROUP_SIZE },
      });
      groups[kernel] = bindKernel(device, kernels[kernel], buffers);
    }
    this.#kernels = kernels;
    this.#groups = groups;
  }

  /**
   * `array<u32>` of 4 words ({@link FRAGMENT_RESULT}): fragment count, largest fragment size,
   * converged (1/0), rounds run; written by {@link Fragments.encode}.
   */
  get result(): GPUBuffer {
    return this.#result;
  }

  /**
   * `array<u32>` N: per particle, the smallest member index of its fragment; {@link NO_FRAGMENT}
   * (0xffffffff) for non-members. Written by {@link Fragments.encode}.
   */
  get labels(): GPUBuffer {
    return this.#labels;
  }

  /**
   * Encodes the whole computation (one compute pass, no readback, no queue writes) on the bond
   * lists and member mask as they are when the commands execute.
   */
  encode(encoder: GPUCommandEncoder): void {
    if (!encoder) throw new TypeError("Fragments.encode: encoder is required");
    const pass = encoder.beginComputePass({ label: `${this.label} components` });
    const run = (kernel: FragmentKernel, indirectOffset?: number) => {
      const bindGroup = this.#groups[kernel];
      const k = this.#kernels[kernel];
      if (indirectOffset !== undefined) {
        dispatch(pass, k, { bindGroup, indirect: this.#args, indirectOffset });
      } else {
        const one = kernel === "gate_round" || kernel === "gate_jump" || kernel === "check";
        dispatch(
          pass,
          k,
          one ? { bindGroup, workgroups: 1 } : {
            bindGroup,
            invocations: this.count,
            workgroupSize: WORKGROUP_SIZE,
            rowLength: this.#rowLength,
          },
        );
      }
    };
    run("init");
    for (let r = 0; r < this.rounds; r++) {
      run("gate_round");
      run("snapshot", ROUND_ARGS);
      run("hook", ROUND_ARGS);
      run("hook_stagnant", ROUND_ARGS);
      for (let j = 0; j < this.jumps; j++) {
        run("gate_jump");
        run("jump", JUMP_ARGS);
      }
    }
    run("check");
    run("label");
    run("tally");
    run("stats");
    pass.end();
  }

  /** Reads {@link Fragments.result} back (one mapAsync: tests and batched readbacks only). */
  async read(): Promise<FragmentCount> {
    const r = new Uint32Array(
      await readBuffer(this.device, this.#result, { size: RESULT_BYTES }),
    );
    return {
      count: r[FRAGMENT_RESULT.COUNT],
      largest: r[FRAGMENT_RESULT.LARGEST],
      converged: r[FRAGMENT_RESULT.CONVERGED] === 1,
      rounds: r[FRAGMENT_RESULT.ROUNDS],
      significant: r[FRAGMENT_RESULT.SIGNIFICANT],
    };
  }

  /** Destroys the buffers this object created (not the bond lists or the member mask). */
  destroy(): void {
    for (const b of this.#owned) b.destroy();
  }
}
