/**
 * The neighbor grid of `gpu/README.md` built on the CPU by a plain counting sort: the reference
 * the GPU grid is checked against, and the grid the kernel tests upload so they do not depend on
 * `neighbor_grid.ts`.
 *
 * @module
 */
import type { GridGeometry } from "./neighbor_grid.ts";

/**
 * Builds `cellStart` (cellCount + 1 entries) and `sorted` (particle indices by cell, ascending
 * within a cell) for the first `count` points of `x`, read with `stride` floats per point (3 for
 * xyz, 4 for vec4); points outside the box clamp into the border cells.
 */
export function referenceGrid(
  x: ArrayLike<number>,
  options: {
    grid: Pick<GridGeometry, "cellSize"> & { gridMin: ArrayLike<number>; dims: ArrayLike<number> };
    stride: 3 | 4;
    count?: number;
  },
): { cellStart: Uint32Array<ArrayBuffer>; sorted: Uint32Array<ArrayBuffer> } {
  const { grid, stride } = options;
  const n = options.count ?? Math.floor(x.length / stride);
  const [dx, dy, dz] = [grid.dims[0], grid.dims[1], grid.dims[2]];
  const cells = dx * dy * dz;
  const cellOf = new Uint32Array(n);
  const cellStart = new Uint32Array(cells + 1);
  for (let i = 0; i < n; i++) {
    const c = [0, 1, 2].map((k) =>
      Math.min(
        Math.max(Math.floor((x[stride * i + k] - grid.gridMin[k]) / grid.cellSize), 0),
        grid.dims[k] - 1,
      )
    );
    cellOf[i] = c[0] + dx * (c[1] + dy * c[2]);
    cellStart[cellOf[i] + 1]++;
  }
  for (let k = 0; k < cells; k++) cellStart[k + 1] += cellStart[k];
  const fill = cellStart.slice(0, cells);
  const sorted = new Uint32Array(Math.max(1, n));
  for (let i = 0; i < n; i++) sorted[fill[cellOf[i]]++] = i;
  return { cellStart, sorted };
}
