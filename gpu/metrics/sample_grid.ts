/**
 * The neighbour grid a metrics pass builds at sample time (`solid_penetration.ts`,
 * `fluid_metrics.ts`): a uniform grid over the scene's domain, rebuilt on the sample's positions
 * only when a sample is taken, so that a per-particle kernel visits the 27 cells around its
 * particle and no invocation loops over a whole body. It owns the pass's params uniform, whose
 * struct begins with the grid geometry and the particle count (`gridMin: vec3f, cellSize: f32,
 * dims: vec4u, count: u32`), and binds per-particle kernels over `cellStart` and `sorted`.
 * The grid holds every particle, or only some (`members`: a buffer of their positions, which
 * `sorted` then indexes), while the kernels still run once per particle of `pos`.
 *
 * @module
 */
import {
  type BindingResource,
  bindKernel,
  createKernel,
  dispatch,
  type Kernel,
  type KernelOptions,
} from "../runtime/kernel.ts";
import type { StructLayout } from "../runtime/struct_layout.ts";
import { boundedGrid } from "../state/bounded_grid.ts";
import { type GridGeometry, NeighborGrid } from "../state/neighbor_grid.ts";

/** Options of {@link SampleGrid}. */
export interface SampleGridOptions {
  /** Particles N. */
  count: number;
  /** The scene's domain (the grid covers it; particles outside fall into its border cells). */
  domain: { min: readonly [number, number, number]; max: readonly [number, number, number] };
  /** Edge of a cell (m): the reach of the kernels. */
  cellSize: number;
  /** Positions (`array<vec4f>`, N): bound after the params; the grid is built on them too. */
  pos: GPUBuffer;
  /**
   * The grid's particles when they are not the N of `pos`: a buffer of M positions
   * (`array<vec4f>`, filled by the caller before {@link SampleGrid.encode}); `sorted` then holds
   * indices into it. Default: `pos`, N.
   */
  members?: { pos: GPUBuffer; count: number };
  /** Layout of the params uniform: `gridMin`, `cellSize`, `dims`, `count`, then the pass's own. */
  params: StructLayout;
  /** Label prefix: `<label> grid`, `<label> params`. */
  label: string;
}

/** Options of {@link SampleGrid.kernel}: a kernel's, less the bindings, plus its buffers. */
export interface SampleKernelOptions extends Omit<KernelOptions, "bindings" | "groups"> {
  /** Read-only buffers bound after `pos` and before `cellStart`, `sorted`. */
  inputs: readonly BindingResource[];
  /** Read-write buffers bound after `sorted`. */
  outputs: readonly BindingResource[];
}

/** A per-particle kernel bound by {@link SampleGrid.kernel}. */
export interface SampleKernel {
  kernel: Kernel;
  bindGroup: GPUBindGroup;
}

/** A neighbour grid built at sample time, with the params uniform of the pass that reads it. */
export class SampleGrid {
  /** The device the grid and buffers belong to. */
  readonly device: GPUDevice;
  /** Particles N. */
  readonly count: number;
  /** The grid's geometry over the domain. */
  readonly geometry: GridGeometry;
  /** The params uniform (binding 0 of every kernel of the pass). */
  readonly params: GPUBuffer;
  readonly #layout: StructLayout;
  readonly #pos: GPUBuffer;
  readonly #members: { pos: GPUBuffer; count: number };
  readonly #grid: NeighborGrid;

  /** @param device the GPU device; @param options the grid (see {@link SampleGridOptions}) */
  constructor(device: GPUDevice, options: SampleGridOptions) {
    this.device = device;
    this.count = options.count;
    this.#layout = options.params;
    this.#pos = options.pos;
    this.#members = options.members ?? { pos: options.pos, count: options.count };
    this.geometry = boundedGrid(device, options.domain, options.cellSize);
    this.#grid = new NeighborGrid(device, {
      capacity: Math.max(1, this.#members.count),
      ...this.geometry,
      label: `${options.label} grid`,
    });
    this.params = device.createBuffer({
      label: `${options.label} params`,
      size: options.params.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
  }

  /**
   * Writes the params uniform (`queue.writeBuffer`): the grid geometry and the count, then
   * `values`, the pass's own members.
   */
  writeParams(values: Readonly<Record<string, number | readonly number[]>>): void {
    const g = this.geometry;
    this.device.queue.writeBuffer(
      this.params,
      0,
      this.#layout.pack({
        gridMin: [...g.gridMin],
        cellSize: g.cellSize,
        dims: [...g.dims, 0],
        count: this.count,
        ...values,
      }),
    );
  }

  /**
   * Creates a kernel over the grid and binds it: params (uniform), `pos`, the `inputs`,
   * `cellStart`, `sorted` (read-only) and the `outputs` (read-write), in binding order.
   */
  kernel(options: SampleKernelOptions): SampleKernel {
    const { inputs, outputs, ...kernelOptions } = options;
    const R = "read-only-storage" as const;
    const kernel = createKernel(this.device, {
      ...kernelOptions,
      bindings: [
        "uniform",
        R,
        ...inputs.map(() => R),
        R,
        R,
        ...outputs.map(() => "storage" as const),
      ],
    });
    const bindGroup = bindKernel(this.device, kernel, [
      this.params,
      this.#pos,
      ...inputs,
      this.#grid.cellStart,
      this.#grid.sorted,
      ...outputs,
    ]);
    return { kernel, bindGroup };
  }

  /**
   * Builds the grid on the current positions (of the members), then runs `kernel` once per
   * particle, into `pass`.
   */
  encode(pass: GPUComputePassEncoder, kernel: SampleKernel): void {
    this.#grid.encode(pass, this.#members);
    dispatch(pass, kernel.kernel, {
      bindGroup: kernel.bindGroup,
      invocations: this.count,
      workgroupSize: 64,
    });
  }

  /** Frees the params uniform and the grid. */
  destroy(): void {
    this.params.destroy();
    this.#grid.destroy();
  }
}
