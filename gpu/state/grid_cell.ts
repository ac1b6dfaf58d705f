/**
 * The WGSL preludes of the uniform neighbor grid (gpu/README.md): `gpu/state/grid_cell.wgsl` (cell
 * of a point, linear cell id) and `gpu/state/grid_neighbors.wgsl` (the walk over the 27 cells
 * around a cell, in z, y, x order, as 9 row ranges `[begin, end)` of `sorted`). WGSL has no include, so
 * each kernel that uses the grid loads its source with {@link withGridCell} (it builds the grid)
 * or {@link withGridNeighbors} (it sums over neighbors of a built grid): the preludes' functions
 * take the grid as arguments, each kernel keeps its own uniform declaration, and the neighbor walk
 * reads the kernel's `cellStart: array<u32>`.
 *
 * @module
 */

/** WGSL source of the cell prelude (`gpu/state/grid_cell.wgsl`). */
export const GRID_CELL_WGSL: string = Deno.readTextFileSync(
  new URL("./grid_cell.wgsl", import.meta.url),
);

/** WGSL source of the neighbor walk (`gpu/state/grid_neighbors.wgsl`; needs `cellStart`). */
export const GRID_NEIGHBORS_WGSL: string = Deno.readTextFileSync(
  new URL("./grid_neighbors.wgsl", import.meta.url),
);

/** Reads a `.wgsl` file (a URL relative to the caller) and puts the cell prelude in front. */
export function withGridCell(url: URL): string {
  return `${GRID_CELL_WGSL}\n${Deno.readTextFileSync(url)}`;
}

/** Like {@link withGridCell}, with the neighbor walk too (the kernel declares `cellStart`). */
export function withGridNeighbors(url: URL): string {
  return `${GRID_CELL_WGSL}\n${GRID_NEIGHBORS_WGSL}\n${Deno.readTextFileSync(url)}`;
}
