/**
 * One FLIP step on the GPU (kernels and conventions in `flip.wgsl`; the f64 reference is
 * `core/reference/flip_reference.ts`): cell classification, particle-to-grid transfer on a MAC grid, gravity,
 * pressure projection by Jacobi-preconditioned CG with every scalar reduced on the GPU and a
 * GPU-side convergence exit, grid-to-particle transfer with a PIC/FLIP blend, and the velocity of
 * the system's part of every DOF. Encoded only: no readback, no host sync.
 *
 * ```ts
 * const flip = new FlipSolver(device, { particleCount: n, domain, dx, neighborGrid, dt, gravity });
 * const bindings = flip.bind({ pos, mass, dof, dofV, owned, cellStart, sorted, ... });
 * flip.encodeStep(encoder, bindings); // writes partVel of the DOFs with FLIP members
 * ```
 *
 * @module
 */
import {
  CELL_AIR,
  CELL_FLUID,
  CELL_SOLID,
  FACE_FLUID,
  FACE_INACTIVE,
  FACE_SOLID,
  FACE_WALL,
  type FlipGrid,
  flipGrid,
  type OccupiedReading,
} from "../../../core/model/flip_grid.ts";
import {
  type BindingKind,
  bindKernel,
  createGroupLayout,
  createKernel,
  dispatch,
  type Kernel,
  readBuffer,
  storageBuffer,
} from "../../runtime/kernel.ts";
import { defineStruct, type StructLayout } from "../../runtime/struct_layout.ts";
import { withGridNeighbors } from "../../state/grid_cell.ts";
import { deviceLoopBudget, iterationsPerDispatch, totalCost } from "../../runtime/local_solve.ts";
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
  cgStateFloats,
  type CgStats,
  cgStats,
  encodeCgIterations,
} from "../../runtime/cg.ts";
import type { GridGeometry } from "../../state/neighbor_grid.ts";
import flipWgsl from "./flip.wgsl" with { type: "text" };

/** WGSL of the FLIP kernels (after the CG loop and the neighbour-grid preludes). */
export const FLIP_WGSL: string = [
  CG_WGSL,
  withGridNeighbors(flipWgsl),
].join("\n");

/** Uniform `FlipParams` of `flip.wgsl`. */
export const FLIP_PARAMS: StructLayout = defineStruct("FlipParams", [
  ["gridMin", "vec3f"],
  ["dx", "f32"],
  ["dims", "vec4u"],
  ["faceCount", "vec4u"],
  ["nbMin", "vec3f"],
  ["nbCell", "f32"],
  ["nbDims", "vec4u"],
  ["gravity", "vec3f"],
  ["dt", "f32"],
  ["flipRatio", "f32"],
  ["tolerance2", "f32"],
  ["slots", "u32"],
  ["argCount", "u32"],
  ["occupiedAsSolid", "u32"],
  ["restMass", "f32"],
  ["volumeCorrection", "f32"],
  ["iterations", "u32"],
  ["separationDistance", "f32"],
  ["separationStrength", "f32"],
  ["pad1", "u32"],
  ["pad2", "u32"],
]);

const WG = 64;

/**
 * The bit `faces` sets in a face's class word where the face has fluid mass (above every class of
 * `core/model/flip_grid.ts`), so that g2p reads the class word alone; readGrid clears it.
 */
const FACE_MASSIVE = 1 << 8;

/** Every constant of flip.wgsl that TypeScript defines, as `override` values. */
const WGSL_CONSTANTS: Record<string, number> = {
  CELL_AIR,
  CELL_FLUID,
  CELL_SOLID,
  FACE_INACTIVE,
  FACE_FLUID,
  FACE_SOLID,
  FACE_WALL,
  FACE_MASSIVE,
};

/**
 * Entry points of flip.wgsl and of the CG loop (`cg.wgsl`, with the pipeline of apply_a that takes
 * the gate after init_cg in the fused loop, {@link CgGateKernel}).
 */
export type FlipKernel =
  | CgKernel
  | CgGateKernel
  | "gather_particles"
  | "classify_cells"
  | "p2g"
  | "faces"
  | "cell_sides"
  | "init_cg"
  | "pressure_update"
  | "g2p"
  | "part_velocity"
  | "solve_local_init";

/**
 * Bindings (group 0) of each entry point: only those it uses, at most 8 storage buffers (WebGPU's
 * guaranteed `maxStorageBuffersPerShaderStage`; `flip.wgsl` header says how each keeps to it).
 */
const KERNEL_BINDINGS: Record<FlipKernel, readonly number[]> = {
  gather_particles: [3, 4, 5, 30],
  classify_cells: [1, 2, 5, 6, 7, 8, 29],
  p2g: [1, 2, 6, 7, 9, 26, 28, 30],
  faces: [8, 9, 10, 26, 27, 28],
  cell_sides: [8, 10, 13, 14, 27, 29],
  init_cg: [11, 12, 14, 15, 16, 17, 31, 32],
  gate: [17, 18, 19],
  gate_final: [17],
  pap_finish: [17],
  apply_a: [14, 15, 16, 17, 32],
  apply_a_gate: [14, 15, 16, 17, 32],
  update_x: [11, 12, 15, 16, 17, 31, 32],
  update_p: [17, 31, 32],
  update_x_fused: [11, 12, 15, 16, 17, 31, 32],
  update_p_fused: [17, 31, 32],
  pressure_update: [10, 11, 17, 27],
  g2p: [1, 6, 7, 10, 25, 26, 27, 30],
  part_velocity: [2, 4, 20, 21, 22, 23, 24, 25],
  solve_local: [11, 12, 14, 15, 16, 17, 31, 32],
  solve_local_init: [11, 12, 14, 15, 16, 17, 31, 32],
};
const WRITABLE = new Set([
  8,
  9,
  10,
  11,
  12,
  13,
  14,
  15,
  16,
  17,
  19,
  24,
  25,
  26,
  27,
  28,
  29,
  30,
  31,
  32,
]);

/**
 * The kernels that read faces: one pipeline over all axes' faces (`FACE_AXIS` = `ALL_AXES`), or,
 * where the face arrays are one buffer per axis, one per axis, dispatched for x, y, z.
 */
const FACE_KERNELS: ReadonlySet<FlipKernel> = new Set([
  "p2g",
  "faces",
  "cell_sides",
  "pressure_update",
  "g2p",
]);

/** The per-face arrays (one buffer, or one per axis bound in the same slot): binding → name. */
const FACE_ARRAYS: ReadonlyMap<number, string> = new Map([
  [9, "face mass"],
  [26, "face u_old"],
  [27, "face u"],
  [28, "face other velocity"],
  [10, "face classes"],
]);

const AXES = ["x", "y", "z"] as const;

/** `FACE_AXIS` of the face kernels that run over all three axes' faces (flip.wgsl `ALL_AXES`). */
const ALL_AXES = 3;

/** Buffers of the scene the solver reads (and `partVel`, which it writes). */
export interface FlipBuffers {
  /** `array<vec4f>` N: particle positions at the start of the stage. */
  pos: GPUBuffer;
  /** `array<f32>` N: particle masses. */
  mass: GPUBuffer;
  /** `array<u32>` N: DOF of each particle. */
  dof: GPUBuffer;
  /** `array<vec4f>` N slots: DOF velocities at the start of the stage. */
  dofV: GPUBuffer;
  /** `array<u32>` N: nonzero for the particles of this FLIP system. */
  owned: GPUBuffer;
  /** The neighbour grid built on `pos` (cell edge ≥ dx): cell offsets and sorted particles. */
  cellStart: GPUBuffer;
  sorted: GPUBuffer;
  /** The DOF member lists (CSR). */
  memberStart: GPUBuffer;
  memberList: GPUBuffer;
  /** The system's part of every DOF (`PartSlice`): mass, handler force in, velocity out. */
  partMass: GPUBuffer | GPUBufferBinding;
  partForce: GPUBuffer | GPUBufferBinding;
  partVel: GPUBuffer | GPUBufferBinding;
}

/** Options of {@link FlipSolver}. */
export interface FlipSolverOptions {
  /** Particles N (all systems). */
  particleCount: number;
  /** The box the MAC grid covers (its walls are solid). */
  domain: { min: readonly [number, number, number]; max: readonly [number, number, number] };
  /** Cell edge dx (m). */
  dx: number;
  /** Geometry of the neighbour grid the buffers hold (its cell edge must be ≥ dx). */
  neighborGrid: GridGeometry;
  /** Time step (s). */
  dt: number;
  /** Gravity (m/s²). */
  gravity: readonly number[];
  /** PIC/FLIP blend φ in [0, 1] (1: pure FLIP; default 0.97). */
  flipRatio?: number;
  /** CG stop: |r| ≤ tolerance |b| (default 1e-4). */
  tolerance?: number;
  /** CG iterations encoded per step (default 100); the GPU skips those after convergence. */
  maxIterations?: number;
  /**
   * Cells holding only other systems' particles: `fluid` (default, the paper's reading: pressure
   * unknowns with no velocity of their own) or `solid` (moving boundaries); `flip.wgsl` header.
   */
  occupied?: OccupiedReading;
  /**
   * Volume correction γ in [0, 1] (default 0: classic FLIP): over-dense FLUID cells get a target
   * divergence γ·max(0, M_c/(ρ0 dx³) − 1)·dx/dt (`core/reference/flip_reference.ts` volumeCorrectionTarget).
   */
  volumeCorrection?: number;
  /** Rest density ρ0 of the volume correction (kg/m³, default 1000). */
  rho0?: number;
  /**
   * Particle separation after G2P (default none): FLIP pairs closer than `distance` (≤ dx) get
   * `strength` × half their overlap per step as velocity (`core/reference/flip_reference.ts`
   * separationVelocity).
   */
  separation?: { distance: number; strength: number };
  /** Label prefix of every GPU object (default "flip"). */
  label?: string;
  /**
   * Run the CG iterations in one workgroup (`solve_local`: one dispatch for many iterations, bit
   * for bit the dispatched kernels' result; `gpu/runtime/local_solve.wgsl`) when at least two fit
   * one dispatch's loop budget. Default true; false dispatches kernels per iteration ({@link fusedLoop}).
   */
  localSolve?: boolean;
  /**
   * Without solve_local, run three direct dispatches per iteration where the solve has at most
   * `FUSED_MAX_CHUNKS` workgroups (`cg.ts` {@link cgLoop}). Default true; false runs five, the
   * one-workgroup totals and the gate's indirect arguments, at any size.
   */
  fusedLoop?: boolean;
  /**
   * Loop iterations a `solve_local` invocation may spend per dispatch (default `deviceLoopBudget`:
   * `LOCAL_BUDGET` on a software adapter, null on a GPU); a smaller value exercises the hand-over
   * between its dispatches; null: no cap, a grid of at most `UNCAPPED_LOCAL_MAX_CHUNKS` workgroups
   * of slots runs its projection in one dispatch.
   */
  localBudget?: number | null;
  /**
   * The largest storage binding in bytes (default: the device's `maxStorageBufferBindingSize`):
   * where each face quantity of the whole grid fits it, it is one buffer and the face kernels run
   * once over all faces; else one buffer per axis and those kernels run per axis (`flip.wgsl`
   * header). A smaller value exercises the per-axis path on small grids.
   */
  maxBindingSize?: number;
}

/** CG statistics of the last projection (relative residual |r| / |b|, 0 when b = 0). */
export type FlipSolverStats = CgStats;

/**
 * Bind groups of one set of {@link FlipBuffers}: one per pipeline of a kernel (one per axis for the
 * face kernels where they run per axis).
 */
export interface FlipBindings {
  readonly groups: Readonly<Record<FlipKernel, readonly GPUBindGroup[]>>;
}

/**
 * Checks a {@link FlipSolver}'s options (the particle count, the neighbour grid's cell against dx,
 * the PIC/FLIP blend, the separation, the volume correction and its rest density, the CG stop)
 * and returns the values the solver keeps; throws a `RangeError` naming the first bad one.
 */
function checkFlipOptions(options: FlipSolverOptions): {
  n: number;
  flipRatio: number;
  volumeCorrection: number;
  tolerance: number;
  maxIterations: number;
} {
  const n = options.particleCount;
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`FlipSolver: options.particleCount must be an integer >= 1, got ${n}`);
  }
  const nb = options.neighborGrid;
  if (!(nb.cellSize >= options.dx)) {
    throw new RangeError(
      `FlipSolver: the neighbour grid's cell (${nb.cellSize} m) must be at least options.dx ` +
        `(${options.dx} m): give the system neighborRadius = dx`,
    );
  }
  const flipRatio = options.flipRatio ?? 0.97;
  if (!(flipRatio >= 0 && flipRatio <= 1)) {
    throw new RangeError(`FlipSolver: options.flipRatio must be in [0, 1], got ${flipRatio}`);
  }
  const sep = options.separation;
  if (sep && !(sep.distance > 0 && sep.distance <= options.dx && sep.strength >= 0)) {
    throw new RangeError(
      `FlipSolver: options.separation needs 0 < distance ≤ dx and strength ≥ 0, got ` +
        `${JSON.stringify(sep)}`,
    );
  }
  const volumeCorrection = options.volumeCorrection ?? 0;
  if (!(volumeCorrection >= 0 && volumeCorrection <= 1)) {
    throw new RangeError(
      `FlipSolver: options.volumeCorrection must be in [0, 1], got ${volumeCorrection}`,
    );
  }
  if (!((options.rho0 ?? 1000) > 0)) {
    throw new RangeError(`FlipSolver: options.rho0 must be > 0, got ${options.rho0}`);
  }
  const tolerance = options.tolerance ?? 1e-4;
  if (!(tolerance >= 0) || !Number.isFinite(tolerance)) {
    throw new RangeError(`FlipSolver: options.tolerance must be finite and >= 0`);
  }
  const maxIterations = options.maxIterations ?? 100;
  if (!Number.isInteger(maxIterations) || maxIterations < 0) {
    throw new RangeError(`FlipSolver: options.maxIterations must be an integer >= 0`);
  }
  return { n, flipRatio, volumeCorrection, tolerance, maxIterations };
}

/** The FLIP step of one system (see the module doc). */
export class FlipSolver {
  /** The MAC grid. */
  readonly grid: FlipGrid;
  /** Cells, faces (u, v and w together) and 4-cell CG slots. */
  readonly cells: number;
  readonly faces: number;
  readonly slots: number;
  /** Faces of each axis (u, v, w). */
  readonly axisFaces: readonly [number, number, number];
  /**
   * Whether the face arrays are one buffer per axis and the face kernels run once per axis (a face
   * quantity of the whole grid exceeds the largest storage binding); else each runs once over all
   * faces.
   */
  readonly perAxis: boolean;
  /** CG iterations encoded per step and the relative tolerance. */
  readonly maxIterations: number;
  readonly tolerance: number;
  readonly #device: GPUDevice;
  readonly #n: number;
  readonly #label: string;
  readonly #kernels: Record<FlipKernel, readonly Kernel[]>;
  readonly #internal: Map<number, GPUBuffer>;
  /** The face arrays, binding → one buffer per pipeline of a face kernel ([x, y, z] or [all]). */
  readonly #faceArrays: Map<number, readonly GPUBuffer[]>;
  /** `FACE_AXIS` of each pipeline of a face kernel: [0, 1, 2] per axis, or [ALL_AXES]. */
  readonly #faceAxes: readonly number[];
  readonly #owned: GPUBuffer[] = [];
  readonly #params: GPUBuffer;
  readonly #paramsGroup: GPUBindGroup;
  readonly #args: GPUBuffer;
  /** Iterations one `solve_local` dispatch takes; 0 where the CG runs as dispatched kernels. */
  readonly localIterations: number;
  /** The CG loop a projection runs (`cg.ts` {@link cgLoop}). */
  readonly loop: CgLoop;

  /** Builds the grid buffers and the pipelines; throws a `RangeError` naming a bad option. */
  constructor(device: GPUDevice, options: FlipSolverOptions) {
    const checked = checkFlipOptions(options);
    this.#n = checked.n;
    this.tolerance = checked.tolerance;
    this.maxIterations = checked.maxIterations;
    this.#device = device;
    const label = this.#label = options.label ?? "flip";
    const grid = this.grid = flipGrid(options.domain.min, options.domain.max, options.dx);
    const [nx, ny, nz] = grid.dims;
    const cells = this.cells = nx * ny * nz;
    const fu = (nx + 1) * ny * nz, fv = nx * (ny + 1) * nz, fw = nx * ny * (nz + 1);
    this.faces = fu + fv + fw;
    this.axisFaces = [fu, fv, fw];
    const bindingLimit = Math.min(
      options.maxBindingSize ?? device.limits.maxStorageBufferBindingSize,
      device.limits.maxBufferSize,
    );
    this.perAxis = 4 * this.faces > bindingLimit;
    this.#faceAxes = this.perAxis ? [0, 1, 2] : [ALL_AXES];
    const slots = this.slots = Math.ceil(cells / 4);
    if (Math.ceil(slots / WG) > 65535) {
      throw new RangeError(
        `FlipSolver: ${cells} cells need more than 65535 workgroups of CG slots; use a larger dx`,
      );
    }
    // the scalars, three partial sums per workgroup of the CG kernels, then solve_local's slot terms
    // (two ranges, padded to whole workgroups); an iteration of it costs each invocation the same
    // loop iterations whatever the data (flip.wgsl solve_local); its setup: the CG's start the
    // first dispatch takes (solve_local_init: per slot it owns, one iteration and init_slot's 4;
    // two chunk_trees), the gate after it (two totals of the partial sums, within one totalCost)
    // and a margin
    const chunks = Math.ceil(slots / WG);
    this.localIterations = options.localSolve === false
      ? 0
      : iterationsPerDispatch(31 * chunks + 3 * totalCost(chunks, WG) + 16, {
        setup: 5 * chunks + 3 * totalCost(chunks, WG) + 8,
        chunks,
        budget: options.localBudget === undefined ? deviceLoopBudget(device) : options.localBudget,
      });
    this.loop = cgLoop({
      chunks,
      localIterations: this.localIterations,
      fused: options.fusedLoop,
    });
    const layout: CgLayout = {
      chunks,
      workgroupSize: WG,
      residualNorm: true,
      local: this.loop === "local",
    };
    const built = this.#createBuffers(layout);
    this.#faceArrays = built.faceArrays;
    this.#args = built.args;
    this.#internal = built.internal;
    this.#params = this.#createParams(options, { ...checked, argCount: built.argCount });
    const kernels = this.#kernels = this.#createKernels(layout);
    this.#paramsGroup = bindKernel(device, kernels.gate[0], [this.#params], {
      group: 1,
      label: `${label} params bind group`,
    });
  }

  /** Creates a buffer the solver owns (destroyed with it), filled with `data` where given. */
  #buffer(name: string, size: number, usage: number, data?: ArrayBufferView): GPUBuffer {
    const b = storageBuffer(this.#device, { label: `${this.#label} ${name}`, size, data, usage });
    this.#owned.push(b);
    return b;
  }

  /**
   * Creates the grid's buffers (the CG state and vectors, the face arrays, the indirect arguments,
   * the cells' and particles' scratch) and returns the internal ones by binding, the face arrays,
   * and the indirect arguments with their count.
   */
  #createBuffers(layout: CgLayout): {
    faceArrays: Map<number, readonly GPUBuffer[]>;
    args: GPUBuffer;
    internal: Map<number, GPUBuffer>;
    argCount: number;
  } {
    const buffer = this.#buffer.bind(this);
    const n = this.#n, cells = this.cells, slots = this.slots;
    const ST = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const state = buffer("cg state", 4 * cgStateFloats(layout), ST);
    const vec = (name: string) => buffer(name, 16 * slots, ST);
    const faceArrays = new Map(
      [...FACE_ARRAYS].map(([b, name]) => [
        b,
        this.perAxis
          ? AXES.map((axis, a) => buffer(`${name} ${axis}`, 4 * this.axisFaces[a], ST))
          : [buffer(name, 4 * this.faces, ST)],
      ]),
    );
    const counts = [Math.ceil(slots / WG), 1];
    const full = new Uint32Array(counts.flatMap((c) => [c, 1, 1]));
    const argsFull = buffer("indirect args (full)", full.byteLength, ST, full);
    const args = buffer("indirect args", full.byteLength, ST | GPUBufferUsage.INDIRECT);
    const ap = vec("Ap and cell right-hand sides");
    const internal = new Map<number, GPUBuffer>([
      [8, buffer("cell types", 4 * cells, ST)],
      // the cells' right-hand sides lie in A p's buffer (flip.wgsl cellRhs)
      [13, ap],
      [14, buffer("cell open sides", 4 * cells, ST)],
      [11, vec("q")],
      [12, vec("r")],
      [31, vec("z")],
      [32, vec("p")],
      [15, ap],
      [16, vec("inverse diagonal")],
      [17, state],
      [18, argsFull],
      [19, args],
      [25, buffer("particle velocities", 16 * n, ST)],
      [30, buffer("particle DOF velocities", 16 * n, ST)],
      [29, buffer("cell masses", 4 * cells, ST)],
    ]);
    return { faceArrays, args, internal, argCount: full.length };
  }

  /** Creates the uniform of the step's parameters (`FLIP_PARAMS`) and writes it. */
  #createParams(
    options: FlipSolverOptions,
    { flipRatio, volumeCorrection, argCount }: {
      flipRatio: number;
      volumeCorrection: number;
      argCount: number;
    },
  ): GPUBuffer {
    const { grid, cells, slots } = this;
    const [nx, ny, nz] = grid.dims;
    const [fu, fv, fw] = this.axisFaces;
    const nb = options.neighborGrid;
    const params = this.#buffer(
      "params",
      FLIP_PARAMS.size,
      GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    );
    this.#device.queue.writeBuffer(
      params,
      0,
      FLIP_PARAMS.pack({
        gridMin: [...grid.min],
        dx: grid.dx,
        dims: [nx, ny, nz, cells],
        faceCount: [fu, fv, fw, this.faces],
        nbMin: [...nb.gridMin],
        nbCell: nb.cellSize,
        nbDims: [...nb.dims, this.#n],
        gravity: [...options.gravity],
        dt: options.dt,
        flipRatio,
        tolerance2: this.tolerance ** 2,
        slots,
        argCount,
        occupiedAsSolid: options.occupied === "solid" ? 1 : 0,
        restMass: (options.rho0 ?? 1000) * grid.dx ** 3,
        volumeCorrection,
        iterations: this.maxIterations,
        separationDistance: options.separation?.distance ?? 0,
        separationStrength: options.separation?.strength ?? 0,
        pad1: 0,
        pad2: 0,
      }),
    );
    return params;
  }

  /**
   * Creates the pipelines of the entry points this solver uses: one per `FACE_AXIS` of
   * `#faceAxes` for the face kernels (labelled with the axis where per axis), apply_a_gate from
   * its entry point and constants ({@link CG_GATE_KERNELS}).
   */
  #createKernels(layout: CgLayout): Record<FlipKernel, Kernel[]> {
    const device = this.#device, label = this.#label;
    const paramsLayout = createGroupLayout(device, `${label} params layout`, ["uniform"]);
    const kernels = {} as Record<FlipKernel, Kernel[]>;
    for (const kernel of this.#kernelNames()) {
      const gated = kernel === "apply_a_gate" ? CG_GATE_KERNELS[kernel] : undefined;
      const axes = FACE_KERNELS.has(kernel) ? this.#faceAxes : [ALL_AXES];
      kernels[kernel] = axes.map((a) =>
        createKernel(device, {
          label: a === ALL_AXES ? `${label} ${kernel}` : `${label} ${kernel} ${AXES[a]}`,
          code: FLIP_WGSL,
          entryPoint: gated?.entryPoint ?? kernel,
          groups: [
            KERNEL_BINDINGS[kernel].map((b) =>
              [b, (WRITABLE.has(b) ? "storage" : "read-only-storage") as BindingKind] as const
            ),
            paramsLayout,
          ],
          constants: {
            ...WGSL_CONSTANTS,
            ...cgConstants(layout),
            LOCAL_ITERATIONS: Math.max(1, this.localIterations),
            FACE_AXIS: a,
            ...gated?.constants,
          },
        })
      );
    }
    return kernels;
  }

  /** Bind groups of the scene's buffers (reuse them every step). */
  bind(buffers: FlipBuffers): FlipBindings {
    const map = new Map<number, GPUBuffer | GPUBufferBinding>([...this.#internal]);
    const user: [keyof FlipBuffers, number][] = [
      ["pos", 1],
      ["mass", 2],
      ["dof", 3],
      ["dofV", 4],
      ["owned", 5],
      ["cellStart", 6],
      ["sorted", 7],
      ["memberStart", 20],
      ["memberList", 21],
      ["partMass", 22],
      ["partForce", 23],
      ["partVel", 24],
    ];
    for (const [name, binding] of user) {
      const b = buffers[name];
      if (!b) throw new TypeError(`FlipSolver.bind: buffers.${name} is missing`);
      map.set(binding, b);
    }
    const groups = {} as Record<FlipKernel, GPUBindGroup[]>;
    for (const kernel of this.#kernelNames()) {
      groups[kernel] = this.#kernels[kernel].map((k, a) => {
        for (const [b, buffers] of this.#faceArrays) map.set(b, buffers[a]);
        return bindKernel(this.#device, k, map);
      });
    }
    return { groups };
  }

  /** Encodes one FLIP step (one compute pass): writes `partVel` of the DOFs with FLIP members. */
  encodeStep(
    encoder: GPUCommandEncoder,
    bindings: FlipBindings,
    options: { timestampWrites?: GPUComputePassTimestampWrites } = {},
  ): void {
    const pass = encoder.beginComputePass({
      label: `${this.#label} step`,
      timestampWrites: options.timestampWrites,
    });
    const run = (kernel: FlipKernel, size: number | CgDispatch, axis = 0) => {
      dispatch(pass, this.#kernels[kernel][axis], {
        bindGroup: [bindings.groups[kernel][axis], this.#paramsGroup],
        ...(typeof size === "number" || size === "slots"
          ? { invocations: size === "slots" ? this.slots : size, workgroupSize: WG }
          : cgDispatchSize(size, this.#args)),
      });
    };
    // a face kernel: each of its pipelines (all axes, or x, y, z)
    const overFaces = (kernel: FlipKernel, size: (a: number) => number) => {
      this.#faceAxes.forEach((a, k) => run(kernel, size(a), k));
    };
    const faces = (a: number) => a === ALL_AXES ? this.faces : this.axisFaces[a];
    run("gather_particles", this.#n);
    run("classify_cells", this.cells);
    overFaces("p2g", faces);
    overFaces("faces", faces);
    overFaces("cell_sides", () => this.cells);
    // where the loop is solve_local's, its first dispatch takes init_cg (solve_local_init)
    let initInLoop = this.loop === "local" && this.maxIterations > 0;
    if (!initInLoop) run("init_cg", this.slots);
    // the gate after init_cg is the loop's, its last gate_final pressure_update's
    encodeCgIterations((kernel, how) => {
      run(initInLoop && kernel === "solve_local" ? "solve_local_init" : kernel, how);
      initInLoop = false;
    }, {
      iterations: this.maxIterations,
      localIterations: this.localIterations,
      loop: this.loop,
      gate: true,
      gateFinal: false,
    });
    overFaces("pressure_update", faces);
    overFaces("g2p", () => this.#n);
    run("part_velocity", this.#n);
    pass.end();
  }

  /**
   * The kernels this solver uses (those of its CG loop, {@link cgKernelUsed}: apply_a_gate in the
   * fused loop).
   */
  #kernelNames(): FlipKernel[] {
    return (Object.keys(KERNEL_BINDINGS) as FlipKernel[])
      .filter((k) =>
        k === "solve_local_init"
          ? this.loop === "local"
          : cgKernelUsed(k as CgKernel | CgGateKernel, this.loop)
      );
  }

  /** Statistics of the last projection (one readback: outside the step loop). */
  async readSolverStats(): Promise<FlipSolverStats> {
    return cgStats(new Float32Array(await readBuffer(this.#device, this.#internal.get(17)!)));
  }

  /**
   * The grid after the last step (readbacks, for tests): cell types, per face the mass, u_old, u,
   * the other particles' velocity and the class, q per cell.
   */
  async readGrid(): Promise<{
    cellType: Uint32Array;
    faceMass: Float32Array;
    faceOld: Float32Array;
    faceU: Float32Array;
    faceOther: Float32Array;
    faceClass: Uint32Array;
    q: Float32Array;
  }> {
    const read = (k: number) => readBuffer(this.#device, this.#internal.get(k)!);
    // a face array's three axes, u then v then w, as 32-bit words (one buffer, or one per axis)
    const faces = async (k: number) => {
      const words = new Uint32Array(this.faces);
      let at = 0;
      for (const [a, b] of this.#faceArrays.get(k)!.entries()) {
        const length = this.perAxis ? this.axisFaces[a] : this.faces;
        const axis = new Uint32Array(await readBuffer(this.#device, b), 0, length);
        words.set(axis, at);
        at += axis.length;
      }
      return words;
    };
    const f32 = async (k: number) => new Float32Array((await faces(k)).buffer);
    return {
      cellType: new Uint32Array(await read(8)).slice(0, this.cells),
      faceMass: await f32(9),
      faceOld: await f32(26),
      faceU: await f32(27),
      faceOther: await f32(28),
      faceClass: (await faces(10)).map((c) => c & ~FACE_MASSIVE),
      q: new Float32Array(await read(11)).slice(0, this.cells),
    };
  }

  /** Frees the buffers it created. */
  destroy(): void {
    for (const b of this.#owned) b.destroy();
  }
}
