/**
 * Solid–solid penetration of a metrics sample on a neighbour grid (kernel and definition in
 * `solid_penetration.wgsl`): each particle of a solid body looks for particles of the other solid
 * bodies within 2r in the 27 cells around it, so the cost is linear in the particles and no
 * invocation loops over a whole body (llvmpipe stops a loop after 65535 iterations; the brute force
 * this replaces did, for the ball of Fig. 6 at `paper` scale against a 231K-particle wall). The grid
 * (`SampleGrid`) is rebuilt on the sample's positions, only when a sample is taken.
 *
 * @module
 */
import { storageBuffer } from "../runtime/kernel.ts";
import { defineStruct, type StructLayout } from "../runtime/struct_layout.ts";
import { withGridNeighbors } from "../state/grid_cell.ts";
import { SampleGrid, type SampleKernel } from "./sample_grid.ts";
import solidPenetrationWgsl from "./solid_penetration.wgsl" with { type: "text" };

/** WGSL of the kernel (after the grid preludes). */
export const SOLID_PENETRATION_WGSL: string = withGridNeighbors(solidPenetrationWgsl);

/** Uniform `SolidParams` of `solid_penetration.wgsl`. */
export const SOLID_PARAMS: StructLayout = defineStruct("SolidParams", [
  ["gridMin", "vec3f"],
  ["cellSize", "f32"],
  ["dims", "vec4u"],
  ["count", "u32"],
  ["radius", "f32"],
]);

/** `solidOf` value of a particle of no solid body. */
export const NOT_SOLID = 0xffffffff;

/** Options of {@link SolidPenetration}. */
export interface SolidPenetrationOptions {
  /** Particles N. */
  count: number;
  /** The solid bodies as particle ranges (two or more, else there is nothing to measure). */
  solids: readonly { start: number; count: number }[];
  /** Collision radius r (m): overlaps are pairs closer than 2r. */
  radius: number;
  /** The scene's domain (the grid covers it; particles outside fall into its border cells). */
  domain: { min: readonly [number, number, number]; max: readonly [number, number, number] };
  /** Positions (`array<vec4f>`, N). */
  pos: GPUBuffer;
  /** The metrics' per-particle results (`array<vec4f>`, N): w is written. */
  perParticle: GPUBuffer;
}

/** The solid–solid penetration pass of the metrics. */
export class SolidPenetration {
  readonly #grid: SampleGrid;
  readonly #kernel: SampleKernel;
  readonly #solid: GPUBuffer;

  /** @param device the GPU device; @param options what to measure (see {@link SolidPenetrationOptions}) */
  constructor(device: GPUDevice, options: SolidPenetrationOptions) {
    const n = options.count;
    const solidOf = new Uint32Array(n).fill(NOT_SOLID);
    options.solids.forEach((s, k) => solidOf.fill(k, s.start, s.start + s.count));
    this.#grid = new SampleGrid(device, {
      count: n,
      domain: options.domain,
      cellSize: 2 * options.radius,
      pos: options.pos,
      params: SOLID_PARAMS,
      label: "metrics solid",
    });
    this.#grid.writeParams({ radius: options.radius });
    this.#solid = storageBuffer(device, { label: "metrics solid of", size: 4 * n, data: solidOf });
    this.#kernel = this.#grid.kernel({
      label: "metrics solid_penetration",
      code: SOLID_PENETRATION_WGSL,
      entryPoint: "solid_penetration",
      constants: { NONE: NOT_SOLID },
      inputs: [this.#solid],
      outputs: [options.perParticle],
    });
  }

  /** Builds the grid on the current positions and measures, into `pass` (after the per-particle pass). */
  encode(pass: GPUComputePassEncoder): void {
    this.#grid.encode(pass, this.#kernel);
  }

  /** Frees its buffers and grid. */
  destroy(): void {
    this.#solid.destroy();
    this.#grid.destroy();
  }
}
