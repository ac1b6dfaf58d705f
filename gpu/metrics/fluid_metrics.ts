/**
 * Fluid-validity metrics of a sample (docs/design.md "Metrics"), on a neighbour grid built on the
 * sample's positions (`SampleGrid`, as in `solid_penetration.ts`; kernels in `fluid_metrics.wgsl`):
 * the cost is linear in the particles and no invocation loops over a whole body. Every value is 0 in a
 * scene without fluid; `frontX` and `columnHeight` are 0 in a scene without a dam-break probe.
 *
 * Definitions (r = particle radius, h = {@link FLUID_KERNEL_RADII}·r = 4r, the SPH support):
 * - density estimate of a fluid particle: ρ_i = Σ_j m_j W_poly6(|x_i − x_j|, h) over the fluid
 *   particles j of its own body, itself included (Müller et al. 2003 Eq. 3, the density the `sph`
 *   system computes), whatever system integrates the body;
 * - rest density ρ0 of a body: the estimate an interior particle of its initial lattice gets,
 *   m · Σ_{n ∈ ℤ³} W_poly6(|n|·spacing, h) (`latticeRestDensity`). For an SPH body this is its ρ0
 *   (its particle mass is chosen so); m / spacing³ would read a resting lattice as 1 % compressed
 *   at h = 2 spacings, because the kernel sum is not the kernel integral;
 * - `densityErrorMax`, `densityErrorMean`: the compression error max(ρ_i/ρ0 − 1, 0), largest and
 *   mean over every fluid particle. Compression only, as SPH practitioners report it (e.g. the
 *   "average density error" of PCISPH and IISPH): a particle at the free surface or beside a wall
 *   misses neighbours and reads below ρ0, which is a property of the estimate, not an error of
 *   the solver;
 * - `volumeChange`: V/V0 − 1 with V = Σ_i m_i / max(ρ_i, ρ0) over the fluid particles (each
 *   counts its rest volume m/ρ0, less when compressed) and V0 the same at the start. The clamp
 *   keeps the free surface from reading as expansion (a spreading sheet is nearly all surface);
 *   the volume lost to compressed or clustered particles (FLIP's known drift) reads as negative;
 * - `frontX` (dam break): the leading edge of the water along the floor, measured from the back
 *   wall: the {@link FLUID_TOP_K}-th largest of x_i + r − backWallX over the fluid particles within
 *   a floor band y_i − floorY ≤ {@link FLUID_BAND_RADII}·r (the two lowest layers), so up to
 *   k − 1 stray droplets ahead of the front are ignored (and droplets above the band never count);
 *   0 with fewer than k particles in the band;
 * - `columnHeight` (dam break): the height of the water at the back wall: the k-th largest of
 *   y_i + r − floorY over the fluid particles within x_i − backWallX ≤ 4r, same rule.
 *
 * The extents add r (a particle's surface, half a spacing from its centre), so the column built
 * against the wall reads frontX = a and columnHeight = 2a at the start.
 *
 * @module
 */
import { FLUID_SAMPLE_FIELDS } from "../../core/result.ts";
import { latticeRestDensity } from "../../core/model/sph_params.ts";
import {
  bindKernel,
  createKernel,
  dispatch,
  type Kernel,
  storageBuffer,
} from "../runtime/kernel.ts";
import { defineStruct, type StructLayout } from "../runtime/struct_layout.ts";
import { withGridNeighbors } from "../state/grid_cell.ts";
import { SampleGrid, type SampleKernel } from "./sample_grid.ts";
import fluidMetricsWgsl from "./fluid_metrics.wgsl" with { type: "text" };

/** WGSL of the kernels (after the grid preludes). */
export const FLUID_METRICS_WGSL: string = withGridNeighbors(fluidMetricsWgsl);

/** Uniform `FluidParams` of `fluid_metrics.wgsl`. */
export const FLUID_PARAMS: StructLayout = defineStruct("FluidParams", [
  ["gridMin", "vec3f"],
  ["cellSize", "f32"],
  ["dims", "vec4u"],
  ["count", "u32"],
  ["radius", "f32"],
  ["h", "f32"],
  ["probes", "u32"],
  ["backWallX", "f32"],
  ["floorY", "f32"],
  ["band", "f32"],
  ["mode", "u32"],
  ["sample", "u32"],
  ["fields", "u32"],
  ["pad0", "u32"],
  ["pad1", "u32"],
]);

/** Support h of the density estimate in particle radii (the SPH system's h = 4r). */
export const FLUID_KERNEL_RADII = 4;
/** Width of the floor band (frontX) and of the back-wall band (columnHeight) in radii. */
export const FLUID_BAND_RADII = 4;
/** frontX and columnHeight are the k-th largest extents: k − 1 stray particles are ignored. */
export const FLUID_TOP_K = 3;
/** `fluidOf` value of a particle of no fluid body. */
export const NOT_FLUID = 0xffffffff;

/** The sample columns this pass writes (defined in `core/result.ts`). */
export const FLUID_FIELDS = FLUID_SAMPLE_FIELDS;

/** A column this pass writes. */
export type FluidField = typeof FLUID_FIELDS[number];

/** A fluid body as a particle range, with the lattice it was sampled on. */
export interface FluidRange {
  start: number;
  count: number;
  /** Lattice spacing (m). */
  spacing: number;
  /** Mass of each particle (kg). */
  particleMass: number;
}

/** Options of {@link FluidMetrics}. */
export interface FluidMetricsOptions {
  /** Particles N. */
  count: number;
  /** The fluid bodies (one or several). */
  fluids: readonly FluidRange[];
  /** Collision radius r (m); h = 4r. */
  radius: number;
  /** The scene's domain (the grid covers it; particles outside fall into its border cells). */
  domain: { min: readonly [number, number, number]; max: readonly [number, number, number] };
  /** The dam-break probe (scene.damBreak): without it frontX and columnHeight stay 0. */
  probe?: { backWallX: number; floorY: number };
  /** Positions (`array<vec4f>`) and masses (`array<f32>`) of the N particles. */
  pos: GPUBuffer;
  mass: GPUBuffer;
  /** The metrics' samples (`array<f32>`, `fields` per row) and the column of each field. */
  samples: GPUBuffer;
  fields: number;
  columns: Readonly<Record<FluidField, number>>;
}

/** The fluid-validity pass of the metrics. */
export class FluidMetrics {
  readonly device: GPUDevice;
  readonly #opts: FluidMetricsOptions;
  readonly #grid: SampleGrid;
  readonly #density: SampleKernel;
  readonly #reduce: Kernel;
  readonly #reduceBind: GPUBindGroup;
  readonly #owned: GPUBuffer[];

  /** @param device the GPU device; @param options what to measure (see {@link FluidMetricsOptions}) */
  constructor(device: GPUDevice, options: FluidMetricsOptions) {
    this.device = device;
    this.#opts = options;
    const n = options.count;
    const h = FLUID_KERNEL_RADII * options.radius;
    const fluidOf = new Uint32Array(n).fill(NOT_FLUID);
    options.fluids.forEach((f, k) => fluidOf.fill(k, f.start, f.start + f.count));
    const rho0 = Float32Array.from(
      options.fluids,
      (f) => latticeRestDensity(f.particleMass, f.spacing, h),
    );
    this.#grid = new SampleGrid(device, {
      count: n,
      domain: options.domain,
      cellSize: h,
      pos: options.pos,
      params: FLUID_PARAMS,
      label: "metrics fluid",
    });
    const fluid = storageBuffer(device, { label: "metrics fluid of", size: 4 * n, data: fluidOf });
    const rest = storageBuffer(device, {
      label: "metrics fluid rest density",
      size: rho0.byteLength,
      data: rho0,
    });
    const perFluid = storageBuffer(device, { label: "metrics fluid per particle", size: 8 * n });
    const state = storageBuffer(device, { label: "metrics fluid initial volume", size: 16 });
    this.#owned = [fluid, rest, perFluid, state];
    const c = options.columns;
    const constants = {
      NONE: NOT_FLUID,
      TOP_K: FLUID_TOP_K,
      F_FRONT_X: c.frontX,
      F_COLUMN_HEIGHT: c.columnHeight,
      F_DENSITY_ERROR_MAX: c.densityErrorMax,
      F_DENSITY_ERROR_MEAN: c.densityErrorMean,
      F_VOLUME_CHANGE: c.volumeChange,
    };
    this.#density = this.#grid.kernel({
      label: "metrics fluid_density",
      code: FLUID_METRICS_WGSL,
      entryPoint: "fluid_density",
      constants,
      inputs: [options.mass, fluid, rest],
      outputs: [perFluid],
    });
    const R = "read-only-storage" as const;
    this.#reduce = createKernel(device, {
      label: "metrics fluid_reduce",
      code: FLUID_METRICS_WGSL,
      entryPoint: "fluid_reduce",
      bindings: ["uniform", R, R, R, "storage", "storage"],
      constants,
    });
    this.#reduceBind = bindKernel(device, this.#reduce, [
      this.#grid.params,
      options.pos,
      fluid,
      perFluid,
      state,
      options.samples,
    ]);
  }

  /**
   * Measures into `pass` (mode 0: records the initial volume; 1: writes row `sample` of the
   * samples). Writes its parameters with `queue.writeBuffer`, so at most one call per submit.
   */
  encode(pass: GPUComputePassEncoder, options: { mode: 0 | 1; sample: number }): void {
    const o = this.#opts;
    this.#grid.writeParams({
      radius: o.radius,
      h: FLUID_KERNEL_RADII * o.radius,
      probes: o.probe ? 1 : 0,
      backWallX: o.probe?.backWallX ?? 0,
      floorY: o.probe?.floorY ?? 0,
      band: FLUID_BAND_RADII * o.radius,
      mode: options.mode,
      sample: options.sample,
      fields: o.fields,
      pad0: 0,
      pad1: 0,
    });
    this.#grid.encode(pass, this.#density);
    dispatch(pass, this.#reduce, { bindGroup: this.#reduceBind, workgroups: 1 });
  }

  /** Frees its buffers and grid. */
  destroy(): void {
    for (const b of this.#owned) b.destroy();
    this.#grid.destroy();
  }
}
