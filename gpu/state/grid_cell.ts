/**
 * The WGSL prelude of the uniform neighbor grid (`gpu/state/grid_cell.wgsl`: cell of a point, linear
 * cell id, the 27 neighbor cells in z, y, x order; gpu/README.md). WGSL has no include, so each
 * kernel that walks the grid loads its source with {@link withGridCell}: the prelude's functions
 * take the grid as arguments, and each kernel keeps its own uniform declaration.
 *
 * @module
 */

/** WGSL source of the prelude (`gpu/state/grid_cell.wgsl`). */
export const GRID_CELL_WGSL: string = Deno.readTextFileSync(
  new URL("./grid_cell.wgsl", import.meta.url),
);

/** Reads a `.wgsl` file (a URL relative to the caller) and puts the grid prelude in front. */
export function withGridCell(url: URL): string {
  return `${GRID_CELL_WGSL}\n${Deno.readTextFileSync(url)}`;
}
