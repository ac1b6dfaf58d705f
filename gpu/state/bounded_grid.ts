/**
 * A uniform grid over a domain that one `cellStart` binding can index.
 *
 * @module
 */
import { gridForDomain, type GridGeometry } from "./neighbor_grid.ts";

/**
 * The grid over `domain` with cells of at least `cellSize`, larger where the domain holds more
 * cells than one `cellStart` binding can index (`maxStorageBufferBindingSize / 4`): a kernel that
 * visits the 27 cells around its particle and tests distances finds the same neighbours in larger
 * cells, only more slowly (a paper-scale scene's domain at 2r would need tens of millions of cells).
 * Used by the engine's neighbour grid (`contacts.ts`) and the metrics' sample grids.
 */
export function boundedGrid(
  device: GPUDevice,
  domain: { min: readonly [number, number, number]; max: readonly [number, number, number] },
  cellSize: number,
): GridGeometry {
  const maxCells = Math.floor(device.limits.maxStorageBufferBindingSize / 4) - 1;
  const cells = (g: GridGeometry) => g.dims[0] * g.dims[1] * g.dims[2];
  let geometry = gridForDomain(domain.min, domain.max, cellSize);
  if (cells(geometry) <= maxCells) return geometry;
  const volume = [0, 1, 2].reduce((v, a) => v * (domain.max[a] - domain.min[a]), 1);
  let size = Math.max(cellSize, Math.cbrt(volume / maxCells));
  geometry = gridForDomain(domain.min, domain.max, size);
  while (cells(geometry) > maxCells) {
    size *= 1.01; // the ceiling of each axis can add a layer of cells
    geometry = gridForDomain(domain.min, domain.max, size);
  }
  return geometry;
}
