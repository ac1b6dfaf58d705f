/**
 * Two-way fluid–solid coupling with boundary particles on WebGPU (Akinci et al. 2012, "Versatile
 * rigid-fluid coupling for incompressible SPH"): the SPH-based baseline of paper §6.1 as the
 * literature defines it. Every non-fluid particle is a boundary particle with volume
 * V_b = 1/Σ_k W_bk and Ψ_b = ρ0 V_b (Eqs. 4–5); it enters the fluid's density sum (Eq. 6) and
 * receives the mirrored pressure and friction forces (Eqs. 9–14). Formulas in `akinci.wgsl`;
 * f64 reference `core/reference/akinci_reference.ts`.
 *
 * Per stage, with the neighbour grid built over all particles (cell ≥ h):
 *
 * ```ts
 * const akinci = new AkinciCoupling(device, { capacity, h, rho0, soundSpeed, friction, grid });
 * const bindings = akinci.bind({ pos, vel, mass, kind, cellStart, sorted, boundaryDensity, pressure, force });
 * akinci.encodeBoundary(encoder, bindings); // Ψ_b, then Σ_b Ψ_b W_ib into boundaryDensity
 * // ... the SPH density pass adds boundaryDensity and writes pressure = (p/ρ², ρ) ...
 * akinci.encodeForces(encoder, bindings);   // Eqs. 10–14 added into force
 * ```
 *
 * @module
 */

import { AKINCI_EPSILON } from "../../../core/model/akinci_params.ts";
import { poly6Coefficient } from "../../../core/model/sph_kernels.ts";
import { withGridNeighbors } from "../../state/grid_cell.ts";
import type { GridGeometry } from "../../state/neighbor_grid.ts";
import { KIND_BITS } from "../../state/particle_state.ts";
import {
  type BindingKind,
  bindKernel,
  createKernel,
  dispatch,
  type Kernel,
} from "../../runtime/kernel.ts";
import { defineStruct, type StructLayout } from "../../runtime/struct_layout.ts";
import akinciWgsl from "./akinci.wgsl" with { type: "text" };

/** WGSL source of the kernels (`akinci.wgsl` after the grid preludes). */
export const AKINCI_WGSL: string = withGridNeighbors(akinciWgsl);

/**
 * Uniform `AkinciParams` of `akinci.wgsl`: grid, count, h², 1/h, ρ0, the fluid's kernel
 * coefficients poly6 = 315/(64π h³) and spikyGrad = 45/(π h⁴) (as `sph.wgsl`), nuCoef = σ h c_s / 2
 * (Eq. 13: ν = nuCoef / ρ_i) and ε h² with ε = 0.01 (Eq. 12), precomputed in f64.
 */
export const AKINCI_PARAMS_STRUCT: StructLayout = defineStruct("AkinciParams", [
  ["gridMin", "vec3f"],
  ["cellSize", "f32"],
  ["dims", "vec4u"],
  ["count", "u32"],
  ["h2", "f32"],
  ["invH", "f32"],
  ["rho0", "f32"],
  ["poly6", "f32"],
  ["spikyGrad", "f32"],
  ["nuCoef", "f32"],
  ["epsH2", "f32"],
  ["volumeScale", "f32"],
]);

/** Material parameters of {@link AkinciCoupling}: the fluid's, and the boundary friction σ. */
export interface AkinciCouplingParams {
  /** The fluid's kernel support h (m, > 0). */
  h: number;
  /** The fluid's rest density ρ0 (kg/m³, > 0). */
  rho0: number;
  /** The fluid's speed of sound c_s (m/s, ≥ 0): c_s² = dp/dρ at ρ0 = γ k / ρ0. */
  soundSpeed: number;
  /** Boundary friction (viscosity) coefficient σ of Eq. 13 (≥ 0). */
  friction: number;
  /**
   * Scale of the boundary volume Ψ_b of Eq. 5 (> 0; default 1, as published): Ψ sets how much a
   * boundary particle raises the fluid's density and how hard the mirrored pressure pushes, so it
   * is the coupling's stiffness knob for a sweep (`--sweep akinci.volumeScale=...`).
   */
  volumeScale?: number;
}

/** Options of {@link AkinciCoupling}. */
export interface AkinciCouplingOptions extends AkinciCouplingParams {
  /** Particles (every invocation handles one); sizes the checks and the Ψ buffer. */
  capacity: number;
  /** The neighbour grid the kernels walk (cell ≥ h). */
  grid: GridGeometry;
  /** `override WORKGROUP_SIZE` (1..256, default 64). */
  workgroupSize?: number;
  /** Label prefix of every GPU object; default "akinci". */
  label?: string;
}

/** Buffers of {@link AkinciCoupling.bind} (all `STORAGE`; N = capacity). */
export interface AkinciCouplingBuffers {
  /** `array<vec4f>` particle positions (xyz). */
  pos: GPUBuffer;
  /** `array<vec4f>` particle velocities (xyz). */
  vel: GPUBuffer;
  /** `array<f32>` particle masses. */
  mass: GPUBuffer;
  /** `array<u32>` body-kind bits (`KIND_BITS`; fluid particles have `KIND_BITS.fluid`). */
  kind: GPUBuffer;
  /** `array<u32>` cellCount + 1: exclusive prefix sum of the cell counts. */
  cellStart: GPUBuffer;
  /** `array<u32>` particle indices grouped by cell. */
  sorted: GPUBuffer;
  /** Output `array<f32>` Σ_b Ψ_b W_ib per fluid particle (0 for others). */
  boundaryDensity: GPUBuffer;
  /** `array<vec2f>` (p_i/ρ_i², ρ_i) per fluid particle, from the SPH density pass. */
  pressure: GPUBuffer;
  /** `array<vec4f>` forces, accumulated into (xyz). */
  force: GPUBuffer;
}

/** Bind groups of one set of buffers, from {@link AkinciCoupling.bind}. */
export interface AkinciBindings {
  /** The buffers bound. */
  readonly buffers: Readonly<AkinciCouplingBuffers>;
  /** `akinci_psi` (Eqs. 4–5). */
  readonly psi: GPUBindGroup;
  /** `akinci_density` (Eq. 6). */
  readonly density: GPUBindGroup;
  /** `akinci_forces` (Eqs. 10–14). */
  readonly forces: GPUBindGroup;
}

/** Binding number and bytes per particle of each user buffer. */
const USER_BINDINGS: Record<keyof AkinciCouplingBuffers, [number, number]> = {
  pos: [1, 16],
  vel: [2, 16],
  mass: [3, 4],
  kind: [4, 4],
  cellStart: [5, 4],
  sorted: [6, 4],
  boundaryDensity: [9, 4],
  pressure: [10, 8],
  force: [11, 16],
};

/**
 * Read and written bindings of each entry point (0, the uniform, is used by all): at most 8
 * storage buffers each, WebGPU's guaranteed `maxStorageBuffersPerShaderStage` (the forces pass
 * reads the fluid particles' masses from the Ψ buffer, not `mass`).
 */
const ENTRY_BINDINGS = {
  psi: { entryPoint: "akinci_psi", read: [1, 3, 4, 5, 6], write: [7] },
  density: { entryPoint: "akinci_density", read: [1, 4, 5, 6, 8], write: [9] },
  forces: { entryPoint: "akinci_forces", read: [1, 2, 4, 5, 6, 8, 10], write: [11] },
} as const;

const OWNER = "AkinciCoupling";

/**
 * The three passes of Akinci's coupling (see the module comment). Bindings (group 0 of
 * `akinci.wgsl`): 0 `params`; 1 `pos`, 2 `vel`, 3 `mass`, 4 `kind`, 5 `cellStart`, 6 `sorted`;
 * 7/8 Ψ of boundary particles and mass of fluid particles (owned by this object, see
 * {@link AkinciCoupling.psiMass}); 9 `boundaryDensity`; 10 `pressure`; 11 `force`.
 */
export class AkinciCoupling {
  /** Device the pipelines live on. */
  readonly device: GPUDevice;
  /** Label prefix of every GPU object. */
  readonly label: string;
  /** Particles. */
  readonly capacity: number;
  /** Workgroup size of the kernels. */
  readonly workgroupSize: number;
  /** Parameters as given. */
  readonly params: Readonly<AkinciCouplingParams>;
  readonly #uniform: GPUBuffer;
  readonly #psiMass: GPUBuffer;
  readonly #kernels: Record<keyof typeof ENTRY_BINDINGS, Kernel>;
  readonly #cells: number;

  /** Creates the pipelines, the uniform and the Ψ buffer (see {@link AkinciCouplingOptions}). */
  constructor(device: GPUDevice, options: AkinciCouplingOptions) {
    if (!device) throw new TypeError(`${OWNER}: device is required`);
    if (!options) throw new TypeError(`${OWNER}: options are required`);
    this.device = device;
    this.label = options.label ?? "akinci";
    const { capacity } = options;
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`${OWNER}: options.capacity must be an integer >= 1, got ${capacity}`);
    }
    this.capacity = capacity;
    const wg = options.workgroupSize ?? 64;
    if (!Number.isInteger(wg) || wg < 1 || wg > 256) {
      throw new RangeError(
        `${OWNER}: options.workgroupSize must be an integer in 1..256, got ${wg}`,
      );
    }
    this.workgroupSize = wg;
    const check = (name: keyof AkinciCouplingParams, min: "positive" | "non-negative") => {
      const v = options[name];
      const ok = typeof v === "number" && Number.isFinite(v) &&
        (min === "positive" ? v > 0 : v >= 0);
      if (!ok) {
        throw new RangeError(
          `${OWNER}: options.${name} must be a finite number ${
            min === "positive" ? "> 0" : ">= 0"
          }, got ${v}`,
        );
      }
      return v;
    };
    this.params = Object.freeze({
      h: check("h", "positive"),
      rho0: check("rho0", "positive"),
      soundSpeed: check("soundSpeed", "non-negative"),
      friction: check("friction", "non-negative"),
      volumeScale: options.volumeScale === undefined ? 1 : check("volumeScale", "positive"),
    });
    const grid = options.grid;
    if (!grid || !(grid.cellSize >= this.params.h)) {
      throw new RangeError(
        `${OWNER}: options.grid.cellSize (${grid?.cellSize}) must be >= h (${this.params.h})`,
      );
    }
    const [x, y, z] = grid.dims;
    this.#cells = x * y * z;
    const { h, rho0, soundSpeed, friction, volumeScale } = this.params;
    this.#uniform = device.createBuffer({
      label: `${this.label} params`,
      size: AKINCI_PARAMS_STRUCT.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(
      this.#uniform,
      0,
      AKINCI_PARAMS_STRUCT.pack({
        gridMin: [...grid.gridMin],
        cellSize: grid.cellSize,
        dims: [x, y, z, this.#cells],
        count: capacity,
        h2: h * h,
        invH: 1 / h,
        rho0,
        poly6: poly6Coefficient(h),
        spikyGrad: 45 / (Math.PI * h * h * h * h),
        nuCoef: friction * h * soundSpeed / 2,
        epsH2: AKINCI_EPSILON * h * h,
        volumeScale: volumeScale ?? 1,
      }),
    );
    this.#psiMass = device.createBuffer({
      label: `${this.label} boundary psi and fluid mass`,
      size: 4 * capacity,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    });
    const kernel = (key: keyof typeof ENTRY_BINDINGS) => {
      const { entryPoint, read, write } = ENTRY_BINDINGS[key];
      const bindings: [number, BindingKind][] = [
        [0, "uniform"] as [number, BindingKind],
        ...read.map((b): [number, BindingKind] => [b, "read-only-storage"]),
        ...write.map((b): [number, BindingKind] => [b, "storage"]),
      ].sort((p, q) => p[0] - q[0]);
      return createKernel(device, {
        label: `${this.label} ${key}`,
        code: AKINCI_WGSL,
        entryPoint,
        bindings,
        constants: { WORKGROUP_SIZE: wg, KIND_FLUID: KIND_BITS.fluid },
      });
    };
    this.#kernels = { psi: kernel("psi"), density: kernel("density"), forces: kernel("forces") };
  }

  /**
   * Per particle (`array<f32>`), written by {@link encodeBoundary}: Ψ_b of a boundary particle
   * (Eqs. 4–5), the mass m_i of a fluid particle. Eq. 10 takes Ψ of the boundary side and m of the
   * fluid side, so the forces pass reads both from this one buffer and binds 8 storage buffers.
   */
  get psiMass(): GPUBuffer {
    return this.#psiMass;
  }

  /**
   * Creates the bind groups of a set of buffers; reuse them across steps. Throws a `TypeError`
   * naming a missing buffer or one without `STORAGE` usage and a `RangeError` naming one too small.
   */
  bind(buffers: AkinciCouplingBuffers): AkinciBindings {
    if (!buffers) throw new TypeError(`${OWNER}.bind: buffers are required`);
    const byBinding = new Map<number, GPUBuffer>([
      [0, this.#uniform],
      [7, this.#psiMass],
      [8, this.#psiMass],
    ]);
    for (const [name, [binding, stride]] of Object.entries(USER_BINDINGS)) {
      const buffer = buffers[name as keyof AkinciCouplingBuffers];
      if (!buffer) throw new TypeError(`${OWNER}.bind: buffers.${name} is missing`);
      if (!(buffer.usage & GPUBufferUsage.STORAGE)) {
        throw new TypeError(`${OWNER}.bind: buffers.${name} needs GPUBufferUsage.STORAGE`);
      }
      const need = name === "cellStart" ? 4 * (this.#cells + 1) : stride * this.capacity;
      if (buffer.size < need) {
        throw new RangeError(
          `${OWNER}.bind: buffers.${name} has ${buffer.size} bytes, needs at least ${need}`,
        );
      }
      byBinding.set(binding, buffer);
    }
    const group = (key: keyof typeof ENTRY_BINDINGS) =>
      bindKernel(this.device, this.#kernels[key], byBinding);
    return Object.freeze({
      buffers: Object.freeze({ ...buffers }),
      psi: group("psi"),
      density: group("density"),
      forces: group("forces"),
    });
  }

  /**
   * One pass: Ψ of every boundary particle (Eqs. 4–5) and the mass of every fluid particle (for
   * {@link encodeForces}), then each fluid particle's Σ_b Ψ_b W_ib.
   */
  encodeBoundary(encoder: GPUCommandEncoder, bindings: AkinciBindings): void {
    const pass = encoder.beginComputePass({ label: `${this.label} boundary pass` });
    const size = { invocations: this.capacity, workgroupSize: this.workgroupSize };
    dispatch(pass, this.#kernels.psi, { bindGroup: bindings.psi, ...size });
    dispatch(pass, this.#kernels.density, { bindGroup: bindings.density, ...size });
    pass.end();
  }

  /**
   * The pressure and friction forces (Eqs. 10–13) on fluid particles and their reactions on the
   * boundary particles (Eqs. 9, 14), added into `force`. Reads `pressure`, so it must follow the
   * SPH density pass of the same stage.
   */
  encodeForces(encoder: GPUCommandEncoder, bindings: AkinciBindings): void {
    const pass = encoder.beginComputePass({ label: `${this.label} force pass` });
    dispatch(pass, this.#kernels.forces, {
      bindGroup: bindings.forces,
      invocations: this.capacity,
      workgroupSize: this.workgroupSize,
    });
    pass.end();
  }

  /** Destroys the uniform and the Ψ buffer (bound buffers belong to the caller). */
  destroy(): void {
    this.#uniform.destroy();
    this.#psiMass.destroy();
  }
}
