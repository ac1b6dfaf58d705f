/**
 * Kernel repulsion between bodies on WebGPU: a constant contact pressure pushed through the SPH
 * spiky-kernel gradient, a smooth penalty that ignores the fluid's own density and pressure (the
 * SPH-based coupling of the literature is the `akinci` handler). Formula and f64 reference: `kernelRepulsionForces` in
 * `core/baselines.ts`.
 *
 * For every particle j of another body within the SPH support h (0 < r = |x_i − x_j| < h):
 *
 *   f_i += −k m_i m_j / ρ0² · ∇W_spiky(x_i − x_j, h) = k m_i m_j / ρ0² · 45/(π h⁶) (h − r)² · n̂,
 *   n̂ = (x_i − x_j)/r,
 *
 * the symmetric SPH pressure term m_i m_j (p_i/ρ_i² + p_j/ρ_j²)(−∇W) evaluated at the rest
 * density ρ_i = ρ_j = ρ0 with p_i = p_j = k/2: the **stiffness k (Pa) is the contact pressure**
 * pushing bodies apart (weak/strong in paper Figs. 3–4 differ by a factor of 10). Since h exceeds
 * r_i + r_j, the neighbors come from the grid (cell size ≥ h), not from the contact list;
 * particles of the same body never interact (their own solver handles them). The pair scalar is
 * computed from symmetric terms, so f_ji = −f_ij bit for bit and Σ f_i = 0 up to summation
 * rounding (momentum is conserved).
 *
 * The force is **accumulated**: `force[i].xyz += f_i` (w kept); clear the buffer first to get it
 * alone.
 *
 * ```ts
 * const coupling = new KernelRepulsion(device, { capacity, h, rho0: 1000, stiffness: 1e3, grid });
 * const bindings = coupling.bind({ pos, mass, body, cellStart, sorted, force });
 * coupling.setCount(n);
 * coupling.encode(encoder, bindings);
 * ```
 *
 * @module
 */

import { withGridNeighbors } from "../../state/grid_cell.ts";
import {
  checkNonNegative,
  CountedPass,
  type CountedPassOptions,
  type CountedPassSpec,
  type ParticlePassBindings,
} from "../../runtime/particle_pass.ts";
import { defineStruct, type StructLayout } from "../../runtime/struct_layout.ts";
import kernelRepulsionWgsl from "./kernel_repulsion.wgsl" with { type: "text" };

/** WGSL source of the kernel (`gpu/handlers/kernel-repulsion/kernel_repulsion.wgsl` after the grid preludes). */
export const KERNEL_REPULSION_WGSL: string = withGridNeighbors(kernelRepulsionWgsl);

/**
 * Uniform `KernelRepulsionParams` of `kernel_repulsion.wgsl`: grid (gpu/README.md), count, h², 1/h
 * and coef = k/ρ0² · 45/(π h⁴) (precomputed in f64).
 */
export const KERNEL_REPULSION_PARAMS_STRUCT: StructLayout = defineStruct("KernelRepulsionParams", [
  ["gridMin", "vec3f"],
  ["cellSize", "f32"],
  ["dims", "vec4u"],
  ["count", "u32"],
  ["h2", "f32"],
  ["invH", "f32"],
  ["coef", "f32"],
]);

/** Uniform neighbor grid (gpu/README.md), the shape of `GridGeometry` in `gpu/state/neighbor_grid.ts`. */
export interface KernelRepulsionGrid {
  /** Lower corner (xyz). */
  gridMin: readonly number[];
  /** Cell edge; must be ≥ h. */
  cellSize: number;
  /** Cells per axis (xyz, positive integers). */
  dims: readonly number[];
}

/** Material parameters of {@link KernelRepulsion}. */
export interface KernelRepulsionParams {
  /** SPH support radius h (m, > 0). */
  h: number;
  /** Rest density ρ0 (kg/m³, > 0). */
  rho0: number;
  /** Contact pressure k (Pa, ≥ 0). */
  stiffness: number;
}

/** Options of {@link KernelRepulsion} (default label "sph coupling force"; no contact slots). */
export interface KernelRepulsionOptions extends CountedPassOptions, KernelRepulsionParams {
  /** Neighbor grid; may be given later with {@link KernelRepulsion.setGrid}. */
  grid?: KernelRepulsionGrid;
}

/** Buffers of {@link KernelRepulsion.bind} (all `STORAGE`; N = capacity). */
export interface KernelRepulsionBuffers {
  /** `array<vec4f>`, N: xyz member position (w unused). */
  pos: GPUBuffer;
  /** `array<f32>`, N: particle mass. */
  mass: GPUBuffer;
  /** `array<u32>`, N: body id. */
  body: GPUBuffer;
  /** `array<u32>`, cellCount + 1: exclusive prefix sum of the cell counts. */
  cellStart: GPUBuffer;
  /** `array<u32>`, N: particle indices grouped by cell, ascending within a cell. */
  sorted: GPUBuffer;
  /** `array<vec4f>`, N: forces, read and accumulated into (xyz). */
  force: GPUBuffer;
}

/** Bind group of one set of {@link KernelRepulsionBuffers}, from {@link KernelRepulsion.bind}. */
export type KernelRepulsionBindings = ParticlePassBindings<KernelRepulsionBuffers>;

const OWNER = "KernelRepulsion";

const SPEC: CountedPassSpec<KernelRepulsionBuffers, KernelRepulsionParams> = {
  owner: OWNER,
  label: "sph coupling force",
  code: KERNEL_REPULSION_WGSL,
  entryPoint: "kernel_repulsion",
  contacts: false,
  paramsSize: KERNEL_REPULSION_PARAMS_STRUCT.size,
  // cellStart: at least 2 entries here, checked against the grid by encode
  buffers: {
    pos: [1, 16, "N"],
    mass: [2, 4, "N"],
    body: [3, 4, "N"],
    cellStart: [4, 4, 2],
    sorted: [5, 4, "N"],
    force: [6, 16, "N"],
  },
  output: "force",
  checkParams: (p, name) => checkParams(p, name),
  pack: (count, params) => packUniform(count, params, undefined),
};

/**
 * Kernel repulsion pass (see the module comment), adding the coupling forces into `force`.
 * Bindings (group 0 of `kernel_repulsion.wgsl`): 0 `params` uniform; 1 `pos`, 2 `mass`, 3 `body`,
 * 4 `cellStart`, 5 `sorted` (read-only storage); 6 `force` (storage, accumulated).
 */
export class KernelRepulsion extends CountedPass<KernelRepulsionBuffers, KernelRepulsionParams> {
  // not a #private field: the base constructor packs the uniform before this class's fields exist
  protected gridNow: KernelRepulsionGrid | undefined;

  /** Creates the pipeline and the uniform (see {@link KernelRepulsionOptions}). */
  constructor(device: GPUDevice, options: KernelRepulsionOptions) {
    super(device, SPEC, options);
    if (options.grid) this.setGrid(options.grid, "options.grid");
  }

  /** The grid set last, if any. */
  get grid(): KernelRepulsionGrid | undefined {
    return this.gridNow;
  }

  /** Sets the neighbor grid (cellSize ≥ h); same timing as {@link setCount}. */
  setGrid(grid: KernelRepulsionGrid, name = "grid"): void {
    this.gridNow = checkGrid(grid, name, this.params.h);
    this.write();
  }

  /** Encodes one compute pass adding the coupling forces into `force` (a grid must be set). */
  override encode(
    encoder: GPUCommandEncoder,
    bindings: KernelRepulsionBindings,
    options: { timestampWrites?: GPUComputePassTimestampWrites } = {},
  ): void {
    if (!this.gridNow) {
      throw new Error("KernelRepulsion: no grid; pass options.grid or call setGrid first");
    }
    if (!bindings?.group) throw new TypeError("KernelRepulsion: bindings must come from bind()");
    const [x, y, z] = this.gridNow.dims;
    const need = 4 * (x * y * z + 1);
    if (bindings.buffers.cellStart.size < need) {
      throw new RangeError(
        `KernelRepulsion: buffers.cellStart has ${bindings.buffers.cellStart.size} bytes, the grid needs ${need}`,
      );
    }
    super.encode(encoder, bindings, options);
  }

  /** A new h must still fit the grid. */
  protected override checkNext(next: KernelRepulsionParams): Readonly<KernelRepulsionParams> {
    const params = super.checkNext(next);
    if (this.gridNow) checkGrid(this.gridNow, "grid", params.h);
    return params;
  }

  protected override packUniform(count: number, params: Readonly<KernelRepulsionParams>) {
    return packUniform(count, params, this.gridNow);
  }
}

function checkGrid(grid: KernelRepulsionGrid, name: string, h: number): KernelRepulsionGrid {
  if (!grid || !grid.gridMin || grid.gridMin.length !== 3 || !grid.gridMin.every(Number.isFinite)) {
    throw new RangeError(`KernelRepulsion: ${name}.gridMin must be 3 finite numbers`);
  }
  if (
    !grid.dims || grid.dims.length !== 3 || !grid.dims.every((d) => Number.isInteger(d) && d >= 1)
  ) {
    throw new RangeError(`KernelRepulsion: ${name}.dims must be 3 integers >= 1`);
  }
  if (!(grid.cellSize >= h) || !Number.isFinite(grid.cellSize)) {
    throw new RangeError(
      `KernelRepulsion: ${name}.cellSize (${grid.cellSize}) must be finite and >= h (${h})`,
    );
  }
  if (grid.dims[0] * grid.dims[1] * grid.dims[2] >= 2 ** 32 - 1) {
    throw new RangeError(`KernelRepulsion: ${name}.dims has too many cells`);
  }
  return { gridMin: [...grid.gridMin], cellSize: grid.cellSize, dims: [...grid.dims] };
}

function packUniform(
  count: number,
  params: Readonly<KernelRepulsionParams>,
  gridNow: KernelRepulsionGrid | undefined,
): ArrayBuffer {
  const { h, rho0, stiffness } = params;
  const grid = gridNow ?? { gridMin: [0, 0, 0], cellSize: h, dims: [1, 1, 1] };
  const [x, y, z] = grid.dims;
  return KERNEL_REPULSION_PARAMS_STRUCT.pack({
    gridMin: grid.gridMin,
    cellSize: grid.cellSize,
    dims: [x, y, z, x * y * z],
    count,
    h2: h * h,
    invH: 1 / h,
    coef: (stiffness / (rho0 * rho0)) * 45 / (Math.PI * h * h * h * h),
  });
}

function checkParams(p: KernelRepulsionParams, name: string): Readonly<KernelRepulsionParams> {
  const positive = (v: unknown, what: string) => {
    if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) {
      throw new RangeError(
        `KernelRepulsion: ${name}.${what} must be a finite number > 0, got ${v}`,
      );
    }
    return v;
  };
  const k = checkNonNegative(OWNER, `${name}.stiffness`, p.stiffness);
  return Object.freeze({ h: positive(p.h, "h"), rho0: positive(p.rho0, "rho0"), stiffness: k });
}
