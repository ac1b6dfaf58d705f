/**
 * The FLIP density correction on the GPU: after the step's position update, a few Jacobi
 * iterations of the unilateral position-based density constraint ρ_i ≤ ρ0_i over the FLIP
 * particles (Macklin & Müller 2013, "Position based fluids", Eqs. 1–12; the f64 reference, with
 * every formula and the reasons, is `core/flip_density_correction.ts`), which undoes FLIP's volume
 * drift (Kugelstadt et al. 2019 correct it on positions after advection too). Each iteration, in
 * one compute pass: a neighbour grid of cell h built on the current positions (its own, so the
 * 27 cells around a particle hold every particle within h of it: the step's grid was built on the
 * positions before the update), `density_weight` (FLIP particles within h of another system's
 * particle are held in place), `density_multiplier`, `density_move` into a scratch buffer; then
 * the scratch is copied back into `pos`. No host sync, no atomics in the sums: a run is repeatable
 * bit for bit.
 *
 * @module
 */
import {
  bindKernel,
  createKernel,
  dispatch,
  type Kernel,
  storageBuffer,
} from "../../runtime/kernel.ts";
import { defineStruct, type StructLayout } from "../../runtime/struct_layout.ts";
import { withGridNeighbors } from "../../state/grid_cell.ts";
import { gridForDomain, NeighborGrid } from "../../state/neighbor_grid.ts";
import { withWallMirrors } from "../../state/wall_mirrors.ts";
import flipDensityCorrectionWgsl from "./flip_density_correction.wgsl" with { type: "text" };

/** WGSL of the kernels (after the neighbour-grid and mirror-image preludes). */
export const FLIP_DENSITY_CORRECTION_WGSL: string = withGridNeighbors(
  withWallMirrors(flipDensityCorrectionWgsl),
);

/** Layout of `DensityParams` in `flip_density_correction.wgsl`. */
export const DENSITY_PARAMS: StructLayout = defineStruct("DensityParams", [
  ["gridMin", "vec3f"],
  ["cellSize", "f32"],
  ["dims", "vec4u"],
  ["domainMin", "vec3f"],
  ["h", "f32"],
  ["domainMax", "vec3f"],
  ["poly6", "f32"],
  ["spiky", "f32"],
  ["pad0", "u32"],
  ["pad1", "u32"],
  ["pad2", "u32"],
]);

/** Options of the {@link FlipDensityCorrection} constructor. */
export interface FlipDensityCorrectionOptions {
  /** Particles N (all of the scene's; the non-FLIP ones have rest density 0). */
  particleCount: number;
  /**
   * The domain box: its walls (particles stay r inside; the neighbours' mirror images across them
   * enter the sums; at least 2h wide) and the grid's extent.
   */
  domain: { min: readonly [number, number, number]; max: readonly [number, number, number] };
  /** Kernel support h (m, > 0). */
  h: number;
  /** Jacobi iterations per step (an integer ≥ 0; 0 encodes nothing). */
  iterations: number;
  /**
   * Rest density ρ0_i per particle (N; `latticeRestDensity` of `core/flip_density_correction.ts`),
   * 0 for a particle that is not FLIP.
   */
  restDensity: Float32Array;
  /** Label prefix of the GPU objects. */
  label: string;
}

/** The buffers the correction reads and moves. */
export interface FlipDensityBindings {
  /** Particle positions `array<vec4f>` (w: radius): read and overwritten. */
  pos: GPUBuffer;
  /** Particle masses `array<f32>`. */
  mass: GPUBuffer;
}

/** One FLIP system's density correction (module doc). */
export class FlipDensityCorrection {
  /** Jacobi iterations per {@link FlipDensityCorrection.encode}. */
  readonly iterations: number;
  readonly #count: number;
  readonly #grid: NeighborGrid;
  readonly #params: GPUBuffer;
  readonly #rest: GPUBuffer;
  readonly #mu: GPUBuffer;
  readonly #posOut: GPUBuffer;
  readonly #invMass: GPUBuffer;
  readonly #weight: Kernel;
  readonly #multiplier: Kernel;
  readonly #move: Kernel;
  readonly #device: GPUDevice;
  readonly #label: string;
  #bind?: {
    pos: GPUBuffer;
    mass: GPUBuffer;
    weightGroup: GPUBindGroup;
    group: GPUBindGroup;
    moveGroup: GPUBindGroup;
  };

  /** Builds the grid, buffers and pipelines; RangeError naming a bad option. */
  constructor(device: GPUDevice, options: FlipDensityCorrectionOptions) {
    const { particleCount: n, h, iterations, label } = options;
    if (!Number.isInteger(n) || n < 1) {
      throw new RangeError(`${label}: particleCount must be an integer ≥ 1, got ${n}`);
    }
    if (!(h > 0) || !Number.isFinite(h)) {
      throw new RangeError(`${label}: h must be finite and > 0, got ${h}`);
    }
    if (!Number.isInteger(iterations) || iterations < 0) {
      throw new RangeError(`${label}: iterations must be an integer ≥ 0, got ${iterations}`);
    }
    if (options.restDensity.length !== n) {
      throw new RangeError(
        `${label}: restDensity must have particleCount = ${n} entries, got ${options.restDensity.length}`,
      );
    }
    for (let a = 0; a < 3; a++) {
      const [lo, hi] = [options.domain.min[a], options.domain.max[a]];
      if (!(hi - lo >= 2 * h)) {
        throw new RangeError(
          `${label}: domain spans [${lo}, ${hi}] on axis ${a}: the box must be at least 2h = ` +
            `${2 * h} wide (its walls' mirror images: one wall per axis within h of a particle)`,
        );
      }
    }
    this.#device = device;
    this.#label = label;
    this.#count = n;
    this.iterations = iterations;
    const geometry = gridForDomain(options.domain.min, options.domain.max, h);
    this.#grid = new NeighborGrid(device, {
      ...geometry,
      capacity: n,
      label: `${label} density grid`,
    });
    this.#params = device.createBuffer({
      label: `${label} density params`,
      size: DENSITY_PARAMS.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(
      this.#params,
      0,
      DENSITY_PARAMS.pack({
        gridMin: geometry.gridMin,
        cellSize: geometry.cellSize,
        dims: [...geometry.dims, n],
        domainMin: options.domain.min,
        h,
        domainMax: options.domain.max,
        poly6: 315 / (64 * Math.PI * h ** 9),
        spiky: 45 / (Math.PI * h ** 6),
        pad0: 0,
        pad1: 0,
        pad2: 0,
      }),
    );
    this.#rest = storageBuffer(device, {
      label: `${label} density rest`,
      size: 4 * n,
      data: options.restDensity,
    });
    this.#mu = storageBuffer(device, { label: `${label} density mu`, size: 4 * n });
    this.#posOut = storageBuffer(device, { label: `${label} density pos out`, size: 16 * n });
    this.#invMass = storageBuffer(device, { label: `${label} density inverse mass`, size: 4 * n });
    const R = "read-only-storage" as const;
    const W = "storage" as const;
    const kernel = (entryPoint: string) =>
      createKernel(device, {
        label: `${label} ${entryPoint}`,
        code: FLIP_DENSITY_CORRECTION_WGSL,
        entryPoint,
        bindings: ["uniform", R, R, R, R, R, W, W, W],
        constants: { WG: 64 },
      });
    this.#weight = kernel("density_weight");
    this.#multiplier = kernel("density_multiplier");
    this.#move = kernel("density_move");
  }

  /**
   * Encodes the iterations on `b.pos` (its positions are replaced by the corrected ones); nothing
   * when iterations = 0.
   */
  encode(encoder: GPUCommandEncoder, b: FlipDensityBindings): void {
    if (this.iterations === 0) return;
    const bind = this.#bindings(b);
    for (let it = 0; it < this.iterations; it++) {
      // the grid in a pass of its own: its counts are zeroed by clearBuffer, not a dispatch
      this.#grid.encode(encoder, { pos: b.pos, count: this.#count });
      const pass = encoder.beginComputePass({ label: `${this.#label} density correction` });
      const shape = { invocations: this.#count, workgroupSize: 64 };
      dispatch(pass, this.#weight, { bindGroup: bind.weightGroup, ...shape });
      dispatch(pass, this.#multiplier, { bindGroup: bind.group, ...shape });
      dispatch(pass, this.#move, { bindGroup: bind.moveGroup, ...shape });
      pass.end();
      encoder.copyBufferToBuffer(this.#posOut, 0, b.pos, 0, 16 * this.#count);
    }
  }

  /** Frees its buffers (not the bound `pos` and `mass`). */
  destroy(): void {
    this.#grid.destroy();
    for (const buf of [this.#params, this.#rest, this.#mu, this.#posOut, this.#invMass]) {
      buf.destroy();
    }
  }

  #bindings(b: FlipDensityBindings) {
    if (this.#bind && this.#bind.pos === b.pos && this.#bind.mass === b.mass) return this.#bind;
    const buffers = (k: Kernel) =>
      bindKernel(this.#device, k, [
        this.#params,
        b.pos,
        b.mass,
        this.#rest,
        this.#grid.cellStart,
        this.#grid.sorted,
        this.#mu,
        this.#posOut,
        this.#invMass,
      ]);
    this.#bind = {
      pos: b.pos,
      mass: b.mass,
      weightGroup: buffers(this.#weight),
      group: buffers(this.#multiplier),
      moveGroup: buffers(this.#move),
    };
    return this.#bind;
  }
}
