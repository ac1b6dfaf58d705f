/**
 * Weakly compressible SPH density and force kernels on WebGPU (Müller, Charypar & Gross 2003,
 * paper ref. [3]; formulas and f64 reference in `core/reference/sph_reference.ts`).
 *
 * Per step, after the neighbor grid has been built from the member positions
 * `dofX[dof[i]].xyz + offset[i].xyz` (paper Eqs. 6–7):
 *
 * ```ts
 * const sph = new SphForces(device, { capacity, h, rho0, stiffness, viscosity, grid });
 * const bindings = sph.bind({ cellStart, sorted, mass, dof, offset, dofX, dofV, fluid, density, force });
 * sph.setCount(n);                // queue.writeBuffer of the uniform; no host sync
 * sph.encode(encoder, bindings);  // density pass, then force pass
 * ```
 *
 * Outputs per particle: `density[i]` (ρ_i, 0 for non-fluid) and `force[i].xyz` (pressure +
 * viscosity force, w = 0; 0 for non-fluid). Forces, not accelerations: the caller gathers them
 * per DOF over the CSR member list and divides by the DOF mass (paper Eq. 1).
 *
 * @module
 */

import type { SphWalls } from "../../../core/model/sph_walls.ts";
import { withGridNeighbors } from "../../state/grid_cell.ts";
import {
  type BindingKind,
  type BindingResource,
  bindKernel,
  createKernel,
  dispatch,
  type Kernel,
} from "../../runtime/kernel.ts";
import { defineStruct, type StructLayout } from "../../runtime/struct_layout.ts";
import { withWallMirrors } from "../../state/wall_mirrors.ts";
import sphWgsl from "./sph.wgsl" with { type: "text" };

/**
 * WGSL source of the SPH kernels (`gpu/systems/sph/sph.wgsl` after the grid and mirror-image
 * preludes).
 */
export const SPH_WGSL: string = withGridNeighbors(withWallMirrors(sphWgsl));

/**
 * Uniform `SphParams` of `sph.wgsl`: grid (gpu/README.md), particle count, material parameters
 * and kernel coefficients precomputed in f64: poly6 = 315/(64π h³), spikyGrad = 45/(π h⁴),
 * viscLap = 45/(π h⁵) (Müller et al. 2003, Eqs. 20–22 with h⁻⁶ folded into q = r/h), and the
 * domain's walls (walls = 1: mirror images, see {@link SphForcesOptions.walls}); zeroBits = 0, ORed
 * into the bits of the walls' force so that no compiler contracts f_fluid + f_wall into an FMA
 * (`sph.wgsl`, sph_forces).
 */
export const SPH_PARAMS_STRUCT: StructLayout = defineStruct("SphParams", [
  ["gridMin", "vec3f"],
  ["cellSize", "f32"],
  ["dims", "vec4u"],
  ["count", "u32"],
  ["h", "f32"],
  ["h2", "f32"],
  ["invH", "f32"],
  ["rho0", "f32"],
  ["stiffness", "f32"],
  ["gamma", "f32"],
  ["viscosity", "f32"],
  ["poly6", "f32"],
  ["spikyGrad", "f32"],
  ["viscLap", "f32"],
  ["wallMin", "vec3f"],
  ["walls", "u32"],
  ["wallMax", "vec3f"],
  ["zeroBits", "u32"],
]);

/**
 * Uniform neighbor grid (gpu/README.md): the box `[gridMin, gridMin + cellSize · dims)`; the same
 * shape as `GridGeometry` of `gpu/state/neighbor_grid.ts`, so one can be passed as is.
 */
export interface SphGrid {
  /** Lower corner (xyz). */
  gridMin: readonly number[];
  /** Cell edge; must be ≥ h so that the 27 cells around a particle cover its support. */
  cellSize: number;
  /** Cells per axis (xyz, positive integers). */
  dims: readonly number[];
}

/** Options of {@link SphForces}. */
export interface SphForcesOptions {
  /** Largest particle count; sizes the scratch buffers and the checks on bound buffers. */
  capacity: number;
  /** Kernel support radius h (m). */
  h: number;
  /** Rest density ρ0 (kg/m³). */
  rho0: number;
  /** Stiffness k of p = k · max((ρ/ρ0)^γ − 1, 0) (Pa). */
  stiffness: number;
  /** Dynamic viscosity μ (Pa·s). */
  viscosity: number;
  /** State-equation exponent γ: 1 (linear, default) or e.g. 7 (Tait). */
  gamma?: number;
  /**
   * The domain's walls: each fluid particle is mirrored across those within h of a particle
   * (Randles & Libersky 1996 ghost particles; `core/reference/sph_reference.ts`), so the wall layer reads
   * its full density and the walls push back with its pressure. Each side must be at least 2h
   * (one wall per axis within h). Absent: no walls (an unbounded fluid).
   */
  walls?: SphWalls;
  /** Neighbor grid; may be given later with {@link SphForces.setGrid}. */
  grid?: SphGrid;
  /** Particles processed by the next encode; default `capacity`. See {@link SphForces.setCount}. */
  count?: number;
  /** `override WORKGROUP_SIZE` of the kernels (1..256, default 64). */
  workgroupSize?: number;
  /** Label prefix of every GPU object; default "sph". */
  label?: string;
  /**
   * The largest storage binding (bytes; default the device's `maxStorageBufferBindingSize`): a
   * smaller value exercises the split gather ({@link SphForces.splitGather}).
   */
  maxBindingSize?: number;
}

/**
 * Buffers the kernels read and write (gpu/README.md layouts; all need `GPUBufferUsage.STORAGE`).
 * N = capacity: per-particle and per-DOF buffers must hold at least N elements.
 */
export interface SphForcesBuffers {
  /** `array<u32>`, cellCount + 1 entries, exclusive prefix sum of the cell counts. */
  cellStart: GPUBuffer;
  /**
   * `array<u32>`, particle indices grouped by cell, ascending within a cell: a permutation of
   * 0 .. count (the kernels run in this order, see `sph.wgsl`).
   */
  sorted: GPUBuffer;
  /** `array<f32>` particle masses. */
  mass: GPUBuffer;
  /** `array<u32>` DOF of each particle. */
  dof: GPUBuffer;
  /** `array<vec4f>` x_i − X_dof (xyz). */
  offset: GPUBuffer;
  /** `array<vec4f>` DOF positions X (Eq. 2), indexed by DOF id. */
  dofX: GPUBuffer;
  /** `array<vec4f>` DOF velocities V (Eq. 3), indexed by DOF id. */
  dofV: GPUBuffer;
  /** `array<u32>` 1 = fluid particle, 0 = another system's particle. */
  fluid: GPUBuffer;
  /** Output `array<f32>` ρ_i. */
  density: GPUBuffer;
  /** Output `array<vec4f>` SPH force (xyz, w = 0). */
  force: GPUBuffer;
  /**
   * `array<f32>` the boundary term of each fluid particle's density (Akinci et al. 2012, Eq. 6),
   * added to the fluid sum; absent: zero (a buffer of this object).
   */
  boundaryDensity?: GPUBuffer;
  /**
   * Output `array<vec2f>` (p_i/ρ_i², ρ_i) by particle index ((0, 0) for non-fluid), for a
   * boundary-coupling handler; absent: a scratch buffer of this object.
   */
  pressure?: GPUBuffer;
}

/** Bind groups of one set of {@link SphForcesBuffers}, from {@link SphForces.bind}. */
export interface SphBindings {
  readonly buffers: Readonly<SphForcesBuffers>;
  readonly gather: GPUBindGroup;
  /** The velocities' gather, where the gather is split in two (`SphForces.splitGather`). */
  readonly gatherVelocity?: GPUBindGroup;
  readonly density: GPUBindGroup;
  readonly forces: GPUBindGroup;
}

/** Options of the encode methods. */
export interface SphEncodeOptions {
  /** Timestamp writes of the compute pass (device feature `timestamp-query`). */
  timestampWrites?: GPUComputePassTimestampWrites;
}

/**
 * Storage bindings of `sph.wgsl` each entry point uses (binding 0, the uniform, is used by all);
 * `read` ones are `read-only-storage`, `write` ones `storage`. At most 8 storage buffers each
 * (WebGPU's guaranteed `maxStorageBuffersPerShaderStage`): the gather writes the member positions
 * and velocities through one binding of the buffer holding both.
 */
const ENTRY_BINDINGS = {
  gather: { read: [2, 3, 4, 5, 6, 7, 8], write: [11] },
  gatherVelocity: { read: [2, 3, 4, 5, 6, 7, 8], write: [11] },
  density: { read: [1, 2, 14, 17], write: [9, 13, 18] },
  forces: { read: [1, 2, 14, 15, 16], write: [10] },
} as const;

/** Bindings of one entry point, in binding order, with their kind. */
function entryBindings(key: keyof typeof ENTRY_BINDINGS): [number, BindingKind][] {
  const { read, write } = ENTRY_BINDINGS[key];
  return [
    [0, "uniform"] as [number, BindingKind],
    ...read.map((b): [number, BindingKind] => [b, "read-only-storage"]),
    ...write.map((b): [number, BindingKind] => [b, "storage"]),
  ].sort((x, y) => x[0] - y[0]);
}

const ENTRY_POINTS = {
  gather: "sph_gather",
  gatherVelocity: "sph_gather",
  density: "sph_density",
  forces: "sph_forces",
} as const;

/** Binding number of each user buffer, and its element size in bytes (per particle or DOF). */
const USER_BINDINGS: Record<keyof SphForcesBuffers, [number, number]> = {
  cellStart: [1, 4],
  sorted: [2, 4],
  mass: [3, 4],
  dof: [4, 4],
  offset: [5, 16],
  dofX: [6, 16],
  dofV: [7, 16],
  fluid: [8, 4],
  density: [9, 4],
  force: [10, 16],
  boundaryDensity: [17, 4],
  pressure: [18, 8],
};

/** The buffers of {@link SphForcesBuffers} that may be left out. */
const OPTIONAL_BUFFERS: ReadonlySet<string> = new Set(["boundaryDensity", "pressure"]);

function positive(value: number, name: string): number {
  if (!(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(`SphForces: ${name} must be a finite number > 0, got ${value}`);
  }
  return value;
}

function nonNegative(value: number, name: string): number {
  if (!(value >= 0) || !Number.isFinite(value)) {
    throw new RangeError(`SphForces: ${name} must be a finite number >= 0, got ${value}`);
  }
  return value;
}

/**
 * Density pass and force pass of weakly compressible SPH (Müller et al. 2003; see
 * `core/reference/sph_reference.ts` for the formulas), encoded into a caller's command encoder.
 *
 * Bindings (group 0 of `sph.wgsl`): 0 `params` uniform; 1 `cellStart`, 2 `sorted`, 3 `mass`,
 * 4 `dof`, 5 `offset`, 6 `dofX`, 7 `dofV`, 8 `fluid` (read-only storage); 9 `density`,
 * 10 `force` (storage, written); 11, 13–16 scratch owned by this object: 11 the member buffer
 * the gather writes (positions with fluid mass, then velocities), 14 and 15 its two ranges that
 * the later kernels read, 13/16 (p/ρ², 1/ρ); 17 `boundaryDensity` (read), 18 `pressure`
 * (written), the boundary-coupling channel (optional). Kernels (`runtime/kernel.ts`): `sph_gather`
 * and `sph_density` (one pass, {@link encodeDensity}), `sph_forces` ({@link encodeForces}); with
 * walls, `sph_density` and `sph_forces` add the mirror images' terms themselves.
 */
export class SphForces {
  /** Device the pipelines live on. */
  readonly device: GPUDevice;
  /** Label prefix of every GPU object. */
  readonly label: string;
  /** Largest particle count. */
  readonly capacity: number;
  /** Workgroup size of the kernels. */
  readonly workgroupSize: number;
  /** Material parameters as given. */
  readonly material: Readonly<{
    h: number;
    rho0: number;
    stiffness: number;
    viscosity: number;
    gamma: number;
  }>;
  /** The domain's walls, if any (see {@link SphForcesOptions.walls}). */
  readonly walls: Readonly<SphWalls> | undefined;
  #grid: SphGrid | undefined;
  #count: number;
  readonly #params: GPUBuffer;
  /** Member positions with fluid mass (16·capacity bytes), then velocities from `#velOffset`. */
  readonly #xmVel: GPUBuffer;
  /** Byte offset of the velocities in `#xmVel` (a storage-binding offset, so aligned). */
  readonly #velOffset: number;
  readonly #aux: GPUBuffer;
  readonly #noBoundary: GPUBuffer;
  readonly #pressure: GPUBuffer;
  readonly #kernels: Partial<Record<keyof typeof ENTRY_POINTS, Kernel>>;
  /**
   * Whether the gather writes the positions and the velocities in two dispatches, each through a
   * binding of its half: where the whole scratch buffer is more than the device's
   * `maxStorageBufferBindingSize` (llvmpipe's 128 MiB at Table I's 6.5M-particle bowl).
   */
  readonly splitGather: boolean;

  /** Creates the pipelines, the uniform and the scratch buffers (see {@link SphForcesOptions}). */
  constructor(device: GPUDevice, options: SphForcesOptions) {
    if (!device) throw new TypeError("SphForces: device is required");
    if (!options) throw new TypeError("SphForces: options are required");
    this.device = device;
    this.label = options.label ?? "sph";
    const capacity = options.capacity;
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`SphForces: options.capacity must be an integer >= 1, got ${capacity}`);
    }
    this.capacity = capacity;
    const wg = options.workgroupSize ?? 64;
    if (!Number.isInteger(wg) || wg < 1 || wg > 256) {
      throw new RangeError(
        `SphForces: options.workgroupSize must be an integer in 1..256, got ${wg}`,
      );
    }
    this.workgroupSize = wg;
    const gamma = options.gamma ?? 1;
    if (!(gamma >= 1) || !Number.isFinite(gamma)) {
      throw new RangeError(`SphForces: options.gamma must be a finite number >= 1, got ${gamma}`);
    }
    this.material = Object.freeze({
      h: positive(options.h, "options.h"),
      rho0: positive(options.rho0, "options.rho0"),
      stiffness: nonNegative(options.stiffness, "options.stiffness"),
      viscosity: nonNegative(options.viscosity, "options.viscosity"),
      gamma,
    });
    this.walls = options.walls && this.#checkWalls(options.walls);
    this.#count = this.#checkCount(options.count ?? capacity, "options.count");
    if (options.grid) this.#grid = this.#checkGrid(options.grid, "options.grid");

    const label = this.label;
    this.#params = device.createBuffer({
      label: `${label} params`,
      size: SPH_PARAMS_STRUCT.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    const scratch = (name: string, stride: number) =>
      device.createBuffer({
        label: `${label} ${name}`,
        size: stride * capacity,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
      });
    // the member positions and velocities in one buffer, each range a binding of its own to the
    // kernels that read them (xm, vel) and one binding to the gather that writes both
    const align = device.limits.minStorageBufferOffsetAlignment;
    this.#velOffset = Math.ceil((16 * capacity) / align) * align;
    this.#xmVel = device.createBuffer({
      label: `${label} member position and fluid mass, then velocity`,
      size: this.#velOffset + 16 * capacity,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    });
    this.#aux = scratch("pressure over density squared and inverse density", 8);
    this.#noBoundary = scratch("no boundary density", 4); // zero-initialised, never written
    this.#pressure = scratch("pressure over density squared and density", 8);

    const limit = options.maxBindingSize ?? device.limits.maxStorageBufferBindingSize;
    this.splitGather = this.#velOffset + 16 * capacity > limit;
    const kernel = (key: keyof typeof ENTRY_POINTS, part = 0) =>
      createKernel(device, {
        label: `${label} ${key}`,
        code: SPH_WGSL,
        entryPoint: ENTRY_POINTS[key],
        bindings: entryBindings(key),
        constants: { WORKGROUP_SIZE: wg, VEL_OFFSET: this.#velOffset / 16, GATHER_PART: part },
      });
    this.#kernels = {
      gather: kernel("gather", this.splitGather ? 1 : 0),
      ...(this.splitGather ? { gatherVelocity: kernel("gatherVelocity", 2) } : {}),
      density: kernel("density"),
      forces: kernel("forces"),
    };
    this.#writeParams();
  }

  /** Particles processed by the next encodes. */
  get count(): number {
    return this.#count;
  }

  /** The grid set last, if any. */
  get grid(): SphGrid | undefined {
    return this.#grid;
  }

  /**
   * Sets the neighbor grid (gpu/README.md). It must be built from the member positions
   * `dofX[dof[i]] + offset[i]` the kernels see, or with cellSize ≥ h + 2 · (largest displacement
   * since the build). Writes the uniform with `queue.writeBuffer`: the value applies to every
   * command buffer submitted afterwards, so all encodes of one submission share it.
   */
  setGrid(grid: SphGrid): void {
    this.#grid = this.#checkGrid(grid, "grid");
    this.#writeParams();
  }

  /** Sets the particle count (≤ capacity) of the next submissions; same timing as {@link setGrid}. */
  setCount(count: number): void {
    this.#count = this.#checkCount(count, "count");
    this.#writeParams();
  }

  /**
   * Creates the bind groups of a set of buffers; reuse them across steps. Throws a `TypeError`
   * naming a buffer without `STORAGE` usage and a `RangeError` naming one smaller than capacity.
   */
  bind(buffers: SphForcesBuffers): SphBindings {
    if (!buffers) throw new TypeError("SphForces.bind: buffers are required");
    for (const [name, [, stride]] of Object.entries(USER_BINDINGS)) {
      const buffer = buffers[name as keyof SphForcesBuffers];
      if (!buffer && OPTIONAL_BUFFERS.has(name)) continue;
      if (!buffer) throw new TypeError(`SphForces.bind: buffers.${name} is missing`);
      if (!(buffer.usage & GPUBufferUsage.STORAGE)) {
        throw new TypeError(`SphForces.bind: buffers.${name} needs GPUBufferUsage.STORAGE`);
      }
      const need = name === "cellStart" ? 8 : stride * this.capacity;
      if (buffer.size < need) {
        throw new RangeError(
          `SphForces.bind: buffers.${name} has ${buffer.size} bytes, needs at least ${need}`,
        );
      }
    }
    const members = 16 * this.capacity;
    const positions = { buffer: this.#xmVel, offset: 0, size: members };
    const velocities = { buffer: this.#xmVel, offset: this.#velOffset, size: members };
    const byBinding = new Map<number, BindingResource>([
      [0, this.#params],
      [11, this.splitGather ? positions : this.#xmVel],
      [13, this.#aux],
      [14, positions],
      [15, velocities],
      [16, this.#aux],
      [17, this.#noBoundary],
      [18, this.#pressure],
    ]);
    for (const [name, [binding]] of Object.entries(USER_BINDINGS)) {
      const buffer = buffers[name as keyof SphForcesBuffers];
      if (buffer) byBinding.set(binding, buffer);
    }
    const group = (key: keyof typeof ENTRY_POINTS) =>
      bindKernel(this.device, this.#kernels[key]!, byBinding);
    const gatherVelocity = this.splitGather
      ? bindKernel(
        this.device,
        this.#kernels.gatherVelocity!,
        new Map([...byBinding, [11, velocities]]),
      )
      : undefined;
    return Object.freeze({
      buffers: Object.freeze({ ...buffers }),
      gather: group("gather"),
      ...(gatherVelocity ? { gatherVelocity } : {}),
      density: group("density"),
      forces: group("forces"),
    });
  }

  /**
   * Encodes one compute pass: gather member positions and velocities (Eqs. 6–7), then densities
   * ρ_i (notes Eq. 45) and pressures into `density` and the scratch buffers.
   */
  encodeDensity(
    encoder: GPUCommandEncoder,
    bindings: SphBindings,
    options: SphEncodeOptions = {},
  ): void {
    this.#checkEncode(bindings);
    const pass = encoder.beginComputePass({
      label: `${this.label} density pass`,
      timestampWrites: options.timestampWrites,
    });
    const size = this.#size();
    dispatch(pass, this.#kernels.gather!, { bindGroup: bindings.gather, ...size });
    if (this.splitGather) {
      dispatch(pass, this.#kernels.gatherVelocity!, {
        bindGroup: bindings.gatherVelocity!,
        ...size,
      });
    }
    dispatch(pass, this.#kernels.density!, { bindGroup: bindings.density, ...size });
    pass.end();
  }

  /**
   * Encodes the force pass (pressure, notes Eq. 47, and viscosity, Müller Eq. 14 × V_i) into
   * `force`. Must follow {@link encodeDensity} with the same bindings in submission order.
   */
  encodeForces(
    encoder: GPUCommandEncoder,
    bindings: SphBindings,
    options: SphEncodeOptions = {},
  ): void {
    this.#checkEncode(bindings);
    const pass = encoder.beginComputePass({
      label: `${this.label} force pass`,
      timestampWrites: options.timestampWrites,
    });
    dispatch(pass, this.#kernels.forces!, { bindGroup: bindings.forces, ...this.#size() });
    pass.end();
  }

  /** {@link encodeDensity} then {@link encodeForces}. */
  encode(encoder: GPUCommandEncoder, bindings: SphBindings): void {
    this.encodeDensity(encoder, bindings);
    this.encodeForces(encoder, bindings);
  }

  /** Destroys the uniform and scratch buffers (not the bound buffers). */
  destroy(): void {
    this.#params.destroy();
    this.#xmVel.destroy();
    this.#aux.destroy();
    this.#noBoundary.destroy();
    this.#pressure.destroy();
  }

  /** One invocation per particle (a 2D grid past 65,535 workgroups). */
  #size(): { invocations: number; workgroupSize: number } {
    return { invocations: this.#count, workgroupSize: this.workgroupSize };
  }

  #checkCount(count: number, name: string): number {
    if (!Number.isInteger(count) || count < 0 || count > this.capacity) {
      throw new RangeError(
        `SphForces: ${name} must be an integer in 0..${this.capacity} (capacity), got ${count}`,
      );
    }
    return count;
  }

  #checkGrid(grid: SphGrid, name: string): SphGrid {
    if (
      !grid || !grid.gridMin || grid.gridMin.length !== 3 || !grid.gridMin.every(Number.isFinite)
    ) {
      throw new RangeError(`SphForces: ${name}.gridMin must be 3 finite numbers`);
    }
    if (
      !grid.dims || grid.dims.length !== 3 || !grid.dims.every((d) => Number.isInteger(d) && d >= 1)
    ) {
      throw new RangeError(`SphForces: ${name}.dims must be 3 integers >= 1`);
    }
    if (!(grid.cellSize >= this.material.h) || !Number.isFinite(grid.cellSize)) {
      throw new RangeError(
        `SphForces: ${name}.cellSize (${grid.cellSize}) must be finite and >= h (${this.material.h})`,
      );
    }
    const cells = grid.dims[0] * grid.dims[1] * grid.dims[2];
    if (cells >= 2 ** 32 - 1) throw new RangeError(`SphForces: ${name}.dims has too many cells`);
    return { gridMin: [...grid.gridMin], cellSize: grid.cellSize, dims: [...grid.dims] };
  }

  #checkWalls(walls: SphWalls): Readonly<SphWalls> {
    const { h } = this.material;
    for (let a = 0; a < 3; a++) {
      const [lo, hi] = [walls.min?.[a], walls.max?.[a]];
      if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(hi - lo >= 2 * h)) {
        throw new RangeError(
          `SphForces: options.walls spans [${lo}, ${hi}] on axis ${a}: the box must be finite and ` +
            `at least 2h = ${2 * h} wide (one wall per axis within h of a particle)`,
        );
      }
    }
    return Object.freeze({ min: [...walls.min], max: [...walls.max] });
  }

  #checkEncode(bindings: SphBindings): void {
    if (!this.#grid) throw new Error("SphForces: no grid; pass options.grid or call setGrid first");
    if (!bindings?.gather) throw new TypeError("SphForces: bindings must come from SphForces.bind");
    const [x, y, z] = this.#grid.dims;
    const need = 4 * (x * y * z + 1);
    if (bindings.buffers.cellStart.size < need) {
      throw new RangeError(
        `SphForces: buffers.cellStart has ${bindings.buffers.cellStart.size} bytes, the grid needs ${need}`,
      );
    }
  }

  #writeParams(): void {
    const { h, rho0, stiffness, viscosity, gamma } = this.material;
    const grid = this.#grid ?? { gridMin: [0, 0, 0], cellSize: h, dims: [1, 1, 1] };
    const [x, y, z] = grid.dims;
    const data = SPH_PARAMS_STRUCT.pack({
      gridMin: grid.gridMin,
      cellSize: grid.cellSize,
      dims: [x, y, z, x * y * z],
      count: this.#count,
      h,
      h2: h * h,
      invH: 1 / h,
      rho0,
      stiffness,
      gamma,
      viscosity,
      poly6: 315 / (64 * Math.PI * h * h * h),
      spikyGrad: 45 / (Math.PI * h * h * h * h),
      viscLap: 45 / (Math.PI * h * h * h * h * h),
      wallMin: this.walls?.min ?? [0, 0, 0],
      walls: this.walls ? 1 : 0,
      wallMax: this.walls?.max ?? [0, 0, 0],
      zeroBits: 0,
    });
    this.device.queue.writeBuffer(this.#params, 0, data);
  }
}
