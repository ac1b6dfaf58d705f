/**
 * Solid–solid penetration of a metrics sample on a neighbour grid (kernel and definition in
 * `solid_penetration.wgsl`): each particle of a solid body looks for particles of the other solid
 * bodies within 2r in the 27 cells around it, so the cost is linear in the particles and no
 * invocation loops over a whole body (llvmpipe stops a loop after 65535 iterations; the brute force
 * this replaces did, for the ball of Fig. 6 at `paper` scale against a 231K-particle wall). The grid
 * is rebuilt on the sample's positions, only when a sample is taken.
 *
 * @module
 */
import {
  bindKernel,
  createKernel,
  dispatch,
  type Kernel,
  storageBuffer,
} from "../runtime/kernel.ts";
import { defineStruct, type StructLayout } from "../runtime/struct_layout.ts";
import { withGridNeighbors } from "../state/grid_cell.ts";
import { gridForDomain, NeighborGrid } from "../state/neighbor_grid.ts";

/** WGSL of the kernel (after the grid preludes). */
export const SOLID_PENETRATION_WGSL: string = withGridNeighbors(
  new URL("./solid_penetration.wgsl", import.meta.url),
);

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
  /** The metrics' per-particle results (`array<vec4f>`, 2 per particle): w of the first is written. */
  perParticle: GPUBuffer;
}

/** The solid–solid penetration pass of the metrics. */
export class SolidPenetration {
  readonly #count: number;
  readonly #pos: GPUBuffer;
  readonly #grid: NeighborGrid;
  readonly #kernel: Kernel;
  readonly #bind: GPUBindGroup;
  readonly #owned: GPUBuffer[];

  /** @param device the GPU device; @param options what to measure (see {@link SolidPenetrationOptions}) */
  constructor(device: GPUDevice, options: SolidPenetrationOptions) {
    const n = this.#count = options.count;
    this.#pos = options.pos;
    const solidOf = new Uint32Array(n).fill(NOT_SOLID);
    options.solids.forEach((s, k) => solidOf.fill(k, s.start, s.start + s.count));
    const geometry = gridForDomain(options.domain.min, options.domain.max, 2 * options.radius);
    this.#grid = new NeighborGrid(device, {
      capacity: n,
      ...geometry,
      label: "metrics solid grid",
    });
    const params = device.createBuffer({
      label: "metrics solid params",
      size: SOLID_PARAMS.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(
      params,
      0,
      SOLID_PARAMS.pack({
        gridMin: [...geometry.gridMin],
        cellSize: geometry.cellSize,
        dims: [...geometry.dims, 0],
        count: n,
        radius: options.radius,
      }),
    );
    const solid = storageBuffer(device, { label: "metrics solid of", size: 4 * n, data: solidOf });
    this.#owned = [params, solid];
    const R = "read-only-storage" as const;
    this.#kernel = createKernel(device, {
      label: "metrics solid_penetration",
      code: SOLID_PENETRATION_WGSL,
      entryPoint: "solid_penetration",
      bindings: ["uniform", R, R, R, R, "storage"],
      constants: { NONE: NOT_SOLID },
    });
    this.#bind = bindKernel(device, this.#kernel, [
      params,
      options.pos,
      solid,
      this.#grid.cellStart,
      this.#grid.sorted,
      options.perParticle,
    ]);
  }

  /** Builds the grid on the current positions and measures, into `pass` (after the per-particle pass). */
  encode(pass: GPUComputePassEncoder): void {
    this.#grid.encode(pass, { pos: this.#pos, count: this.#count });
    dispatch(pass, this.#kernel, {
      bindGroup: this.#bind,
      invocations: this.#count,
      workgroupSize: 64,
    });
  }

  /** Frees its buffers and grid. */
  destroy(): void {
    for (const b of this.#owned) b.destroy();
    this.#grid.destroy();
  }
}
