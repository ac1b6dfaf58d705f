/**
 * The WGSL preludes of the uniform neighbor grid (gpu/README.md): `gpu/state/grid_cell.wgsl` (cell
 * of a point, linear cell id) and `gpu/state/grid_neighbors.wgsl` (the walk over the 27 cells
 * around a cell, in z, y, x order, as 9 row ranges `[begin, end)` of `sorted`). WGSL has no
 * include, so each kernel that uses the grid puts the preludes before its source with
 * {@link withGridCell} (it builds the grid) or {@link withGridNeighbors} (it sums over neighbors of
 * a built grid): the preludes' functions
 * take the grid as arguments, each kernel keeps its own uniform declaration, and the neighbor walk
 * reads the kernel's `cellStart: array<u32>`.
 *
 * @module
 */
import gridCellWgsl from "./grid_cell.wgsl" with { type: "text" };
import gridNeighborsWgsl from "./grid_neighbors.wgsl" with { type: "text" };

/** WGSL source of the cell prelude (`gpu/state/grid_cell.wgsl`). */
export const GRID_CELL_WGSL: string = gridCellWgsl;

/** WGSL source of the neighbor walk (`gpu/state/grid_neighbors.wgsl`; needs `cellStart`). */
export const GRID_NEIGHBORS_WGSL: string = gridNeighborsWgsl;

/** A kernel's WGSL `code` with the cell prelude in front. */
export function withGridCell(code: string): string {
  return `${GRID_CELL_WGSL}\n${code}`;
}

/** Like {@link withGridCell}, with the neighbor walk too (the kernel declares `cellStart`). */
export function withGridNeighbors(code: string): string {
  return `${GRID_CELL_WGSL}\n${GRID_NEIGHBORS_WGSL}\n${code}`;
}
