/**
 * Uniform-grid neighbor structure built on the GPU by counting sort.
 *
 * Follows the conventions of `gpu/README.md` ("Neighbor grid"): cell of a point
 * `clamp(floor((x - gridMin) / cellSize), 0, dims - 1)`, linear id `c.x + dims.x * (c.y + dims.y * c.z)`,
 * outputs `cellStart` (cellCount + 1 entries, exclusive prefix sum of the per-cell counts) and
 * `sorted` (particle indices grouped by cell, ascending within a cell). The build is deterministic:
 * the same positions give bit-identical buffers.
 *
 * Build steps (kernels in `neighbor_grid.wgsl`, all dispatched in one compute pass): clear counts,
 * count particles per cell (atomic add, remembering each particle's rank in its cell), multi-level
 * exclusive scan of the counts in place into `cellStart` (`gpu/runtime/prefix_scan.ts`), scatter
 * by rank into a scratch list, then one invocation per particle places it in its cell's slice of
 * `sorted` by counting the cell's particles with a lower index (so the result does not depend on
 * the order the atomics handed out ranks).
 *
 * @module
 */

import { withGridCell } from "./grid_cell.ts";
import {
  bindKernel,
  createGroupLayout,
  createKernel,
  dispatch,
  type GroupLayout,
  type Kernel,
} from "../runtime/kernel.ts";
import { defineStruct, type StructLayout } from "../runtime/struct_layout.ts";
import { PrefixScan } from "../runtime/prefix_scan.ts";
import neighborGridWgsl from "./neighbor_grid.wgsl" with { type: "text" };

/** WGSL source of the grid kernels (`gpu/state/neighbor_grid.wgsl` after the grid prelude). */
export const NEIGHBOR_GRID_WGSL: string = withGridCell(neighborGridWgsl);

/** Layout of the `GridParams` uniform in `neighbor_grid.wgsl`. */
export const GRID_PARAMS: StructLayout = defineStruct("GridParams", [
  ["gridMin", "vec3f"],
  ["cellSize", "f32"],
  ["dims", "vec4u"],
  ["count", "u32"],
]);

/** Byte stride of the slots of the GridParams ring (minUniformBufferOffsetAlignment ≤ 256). */
const PARAM_SLOT_BYTES = 256;

/** Geometry of a uniform grid: the box `[gridMin, gridMin + cellSize * dims)`. */
export interface GridGeometry {
  /** Lower corner of the domain. */
  gridMin: readonly [number, number, number];
  /** Edge length of a (cubic) cell; the kernel support h. */
  cellSize: number;
  /** Cells along x, y, z (positive integers). */
  dims: readonly [number, number, number];
}

/** Options of the {@link NeighborGrid} constructor. */
export interface NeighborGridOptions extends GridGeometry {
  /** Most particles a build may insert (sizes `sorted` and the per-particle scratch buffers). */
  capacity: number;
  /** Prefix of every GPU object's label. Default `"neighbor grid"`. */
  label?: string;
  /** Workgroup size of every kernel and block length of the scan: a power of two in [32, 256]. Default 256. */
  workgroupSize?: number;
  /**
   * Slots of the ring holding the particle count for {@link NeighborGrid.encode}. Each encode with
   * a count different from the previous one takes the next slot (written with
   * `queue.writeBuffer`, which lands before the next submit), so at most this many count changes
   * may be encoded into the command buffers of one submit. Default 64.
   */
  countSlots?: number;
}

/** Options of {@link NeighborGrid.encode}. */
export interface NeighborGridEncodeOptions {
  /** Particle positions, `array<vec4f>` (xyz used); at least `count` elements; usage STORAGE. */
  pos: GPUBuffer;
  /** Particles to insert: `pos[0 .. count)`; an integer in [0, capacity]. */
  count: number;
  /** Timestamp writes of the build's compute pass; only used when `encode` begins the pass. */
  timestampWrites?: GPUComputePassTimestampWrites;
}

/**
 * Computes the grid covering the box `[min, max]` with cubic cells of edge `cellSize`:
 * `dims[a] = max(1, ceil((max[a] - min[a]) / cellSize))`, `gridMin = min`.
 *
 * Throws a `RangeError` when `cellSize` is not positive and finite or a bound is not finite.
 */
export function gridForDomain(
  min: readonly [number, number, number],
  max: readonly [number, number, number],
  cellSize: number,
): GridGeometry {
  if (!(cellSize > 0) || !Number.isFinite(cellSize)) {
    throw new RangeError(`gridForDomain: cellSize must be positive and finite, got ${cellSize}`);
  }
  const dims = [0, 1, 2].map((a) => {
    if (!Number.isFinite(min[a]) || !Number.isFinite(max[a])) {
      throw new RangeError(
        `gridForDomain: domain bounds must be finite, got min ${min} and max ${max}`,
      );
    }
    return Math.max(1, Math.ceil((max[a] - min[a]) / cellSize));
  }) as [number, number, number];
  return { gridMin: [min[0], min[1], min[2]], cellSize, dims };
}

/**
 * A uniform grid over particle positions, rebuilt on the GPU by {@link NeighborGrid.encode}.
 *
 * Other kernels bind {@link NeighborGrid.cellStart} and {@link NeighborGrid.sorted} (both
 * usage STORAGE | COPY_SRC) read-only after the build.
 *
 * @example
 * const grid = new NeighborGrid(device, { capacity: n, ...gridForDomain([0, 0, 0], [1, 1, 1], h) });
 * const encoder = device.createCommandEncoder({ label: "step" });
 * grid.encode(encoder, { pos, count: n });
 * device.queue.submit([encoder.finish()]);
 */
export class NeighborGrid {
  /** The device the buffers and pipelines belong to. */
  readonly device: GPUDevice;
  /** Label prefix of the GPU objects. */
  readonly label: string;
  /** Most particles a build may insert. */
  readonly capacity: number;
  /** Lower corner of the domain. */
  readonly gridMin: readonly [number, number, number];
  /** Cell edge length. */
  readonly cellSize: number;
  /** Cells along x, y, z. */
  readonly dims: readonly [number, number, number];
  /** `dims[0] * dims[1] * dims[2]`. */
  readonly cellCount: number;
  /** Workgroup size of the kernels (the `WG` override). */
  readonly workgroupSize: number;
  /**
   * `array<u32>`, cellCount + 1 entries: cell k holds `sorted[cellStart[k] .. cellStart[k + 1])`;
   * the last entry is the particle count. Usage STORAGE | COPY_SRC.
   */
  readonly cellStart: GPUBuffer;
  /**
   * `array<u32>`, capacity entries (the first `count` valid): particle indices grouped by cell,
   * ascending within a cell. Usage STORAGE | COPY_SRC.
   */
  readonly sorted: GPUBuffer;
  /**
   * `array<u32>`, capacity entries: the linear cell id of each particle at the last build.
   * Usage STORAGE | COPY_SRC.
   */
  readonly particleCell: GPUBuffer;

  readonly #rank: GPUBuffer;
  readonly #unsorted: GPUBuffer;
  readonly #params: GPUBuffer;
  readonly #countSlots: number;
  #slot = -1;
  #slotCount = -1;
  readonly #kernels: Record<
    "clear" | "count" | "scatter" | "orderCells",
    Kernel
  >;
  readonly #scan: PrefixScan;
  readonly #ownBuffers: GPUBuffer[] = [];
  #bindGroup: GPUBindGroup | undefined;
  #bindGroupPos: GPUBuffer | undefined;

  /**
   * Creates the buffers and pipelines of a grid. Throws a `RangeError` naming the bad option
   * (non-integer or non-positive dims or capacity, bad cell size, a grid too large for the
   * device's `maxStorageBufferBindingSize`).
   */
  constructor(device: GPUDevice, options: NeighborGridOptions) {
    const label = options.label ?? "neighbor grid";
    const { capacity, cellSize } = options;
    const dims = [options.dims[0], options.dims[1], options.dims[2]] as const;
    const gridMin = [options.gridMin[0], options.gridMin[1], options.gridMin[2]] as const;
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`${label}: capacity must be a positive integer, got ${capacity}`);
    }
    if (!(cellSize > 0) || !Number.isFinite(cellSize)) {
      throw new RangeError(`${label}: cellSize must be positive and finite, got ${cellSize}`);
    }
    if (!dims.every((d) => Number.isInteger(d) && d >= 1)) {
      throw new RangeError(
        `${label}: dims must be three positive integers, got [${dims}]; use gridForDomain(min, max, cellSize)`,
      );
    }
    if (!gridMin.every(Number.isFinite)) {
      throw new RangeError(`${label}: gridMin must be finite, got [${gridMin}]`);
    }
    const wg = options.workgroupSize ?? 256;
    if (!Number.isInteger(wg) || wg < 32 || wg > 256 || (wg & (wg - 1)) !== 0) {
      throw new RangeError(
        `${label}: workgroupSize must be a power of two in [32, 256], got ${wg}`,
      );
    }
    const countSlots = options.countSlots ?? 64;
    if (!Number.isInteger(countSlots) || countSlots < 1) {
      throw new RangeError(`${label}: countSlots must be a positive integer, got ${countSlots}`);
    }
    const cellCount = dims[0] * dims[1] * dims[2];
    const maxBinding = Math.min(
      device.limits.maxStorageBufferBindingSize,
      device.limits.maxBufferSize,
    );
    if ((cellCount + 1) * 4 > maxBinding || cellCount >= 2 ** 32 - 1) {
      throw new RangeError(
        `${label}: ${cellCount} cells need a cellStart buffer of ${(cellCount + 1) * 4} bytes, ` +
          `more than the device allows (${maxBinding}); use a larger cellSize or a smaller domain`,
      );
    }
    if (capacity * 16 > maxBinding) {
      throw new RangeError(
        `${label}: capacity ${capacity} needs a pos binding of ${capacity * 16} bytes, more than ` +
          `the device allows (${maxBinding})`,
      );
    }

    this.device = device;
    this.label = label;
    this.capacity = capacity;
    this.gridMin = gridMin;
    this.cellSize = cellSize;
    this.dims = dims;
    this.cellCount = cellCount;
    this.workgroupSize = wg;
    this.#countSlots = countSlots;

    const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC;
    const buffer = (name: string, size: number, usage: number) => {
      const b = device.createBuffer({ label: `${label} ${name}`, size, usage });
      this.#ownBuffers.push(b);
      return b;
    };
    // COPY_DST: a build on its own command encoder zeroes the counts with clearBuffer
    this.cellStart = buffer("cellStart", (cellCount + 1) * 4, storage | GPUBufferUsage.COPY_DST);
    this.sorted = buffer("sorted", capacity * 4, storage);
    this.particleCell = buffer("particleCell", capacity * 4, storage);
    this.#rank = buffer("rank", capacity * 4, GPUBufferUsage.STORAGE);
    this.#unsorted = buffer("unsorted", capacity * 4, GPUBufferUsage.STORAGE);
    this.#params = buffer(
      "params ring",
      countSlots * PARAM_SLOT_BYTES,
      GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    );

    const gridLayout = createGroupLayout(device, `${label} layout`, [
      { type: "uniform", hasDynamicOffset: true, minBindingSize: GRID_PARAMS.size },
      "read-only-storage",
      "storage",
      "storage",
      "storage",
      "storage",
      "storage",
    ]);
    const kernel = (entryPoint: string, layout: GroupLayout) =>
      createKernel(device, {
        label: `${label} ${entryPoint}`,
        code: NEIGHBOR_GRID_WGSL,
        entryPoint,
        bindings: layout,
        constants: { WG: wg },
      });
    this.#kernels = {
      clear: kernel("clear_counts", gridLayout),
      count: kernel("count", gridLayout),
      scatter: kernel("scatter", gridLayout),
      orderCells: kernel("order_cells", gridLayout),
    };

    this.#scan = new PrefixScan(device, {
      label,
      data: this.cellStart,
      n: cellCount + 1,
      workgroupSize: wg,
    });
  }

  /**
   * Encodes a full rebuild of the grid from `pos[0 .. count)`. Records only commands (no host
   * sync): when `target` is a command encoder a compute pass labelled `<label> build` is begun
   * (with `options.timestampWrites`) and ended; when it is a compute pass the dispatches are
   * appended to it, and the caller's later dispatches in that pass see the results (the pass's
   * pipeline and bind group 0 are left changed: set them again).
   *
   * Throws a `RangeError` when `count` is not an integer in [0, capacity] or `pos` is too small.
   */
  encode(
    target: GPUCommandEncoder | GPUComputePassEncoder,
    options: NeighborGridEncodeOptions,
  ): void {
    const { pos, count } = options;
    if (!Number.isInteger(count) || count < 0 || count > this.capacity) {
      throw new RangeError(
        `${this.label}: count must be an integer in [0, ${this.capacity}] (the capacity), got ${count}; ` +
          "construct the grid with a larger capacity",
      );
    }
    if (pos.size < count * 16) {
      throw new RangeError(
        `${this.label}: pos buffer "${pos.label}" has ${pos.size} bytes, fewer than ${count} vec4f`,
      );
    }
    if (count !== this.#slotCount) {
      this.#slot = (this.#slot + 1) % this.#countSlots;
      this.#slotCount = count;
      this.device.queue.writeBuffer(
        this.#params,
        this.#slot * PARAM_SLOT_BYTES,
        GRID_PARAMS.pack({
          gridMin: this.gridMin,
          cellSize: this.cellSize,
          dims: [...this.dims, this.cellCount],
          count,
        }),
      );
    }
    const ownPass = "beginComputePass" in target;
    // the counts zeroed before the pass on an encoder (a transfer command, not a dispatch: one
    // dispatch fewer a step), by clear_counts inside a caller's pass
    if (ownPass) target.clearBuffer(this.cellStart, 0, (this.cellCount + 1) * 4);
    const pass = ownPass
      ? target.beginComputePass({
        label: `${this.label} build`,
        timestampWrites: options.timestampWrites,
      })
      : target;
    const workgroupSize = this.workgroupSize;
    const k = this.#kernels;
    const grid = {
      bindGroup: this.#gridBindGroup(pos),
      dynamicOffsets: [[this.#slot * PARAM_SLOT_BYTES]],
      workgroupSize,
    };
    if (!ownPass) dispatch(pass, k.clear, { ...grid, invocations: this.cellCount + 1 });
    dispatch(pass, k.count, { ...grid, invocations: count });
    this.#scan.encode(pass);
    dispatch(pass, k.scatter, { ...grid, invocations: count });
    dispatch(pass, k.orderCells, { ...grid, invocations: count });
    if (ownPass) pass.end();
  }

  /** Destroys the buffers the grid owns (not `pos`). */
  destroy(): void {
    for (const b of this.#ownBuffers) b.destroy();
    this.#scan.destroy();
  }

  #gridBindGroup(pos: GPUBuffer): GPUBindGroup {
    if (this.#bindGroup && this.#bindGroupPos === pos) return this.#bindGroup;
    this.#bindGroupPos = pos;
    this.#bindGroup = bindKernel(this.device, this.#kernels.count, [
      { buffer: this.#params, size: GRID_PARAMS.size },
      pos,
      this.cellStart,
      this.sorted,
      this.particleCell,
      this.#rank,
      this.#unsorted,
    ], { label: `${this.label} bind group (pos "${pos.label}")` });
    return this.#bindGroup;
  }
}
