// The walk over the 27 cells around a cell of a built neighbor grid (gpu/README.md), defined once
// for every kernel that sums over neighbors. Prelude after grid_cell.wgsl (withGridNeighbors in
// gpu/state/grid_cell.ts); the kernel declares `cellStart: array<u32>` (cellCount + 1 entries)
// and `sorted`, and walks
//
//   for (var row = 0u; row < 9u; row++) {
//     let span = gridNeighborRow(c, row, dims);
//     for (var k = span.x; k < span.y; k++) { let j = sorted[k]; ... }
//   }
//
// The up-to-three cells of a row along x have consecutive ids, so their slices of `sorted` are one
// contiguous range: 9 ranges (rows in z, then y order) visit the 27 cells in z, y, x order (x
// fastest), then the particles of a cell in `sorted` order: the summation order of every consumer.

// The range [begin, end) of `sorted` holding the particles of the cells (c.x - 1 ..= c.x + 1, y, z)
// clipped to the grid, with (y, z) = c.yz + (row % 3, row / 3) - 1 (row 0..8); empty (0, 0) when
// that row lies outside the grid.
fn gridNeighborRow(c: vec3i, row: u32, dims: vec3u) -> vec2u {
  let q = c.yz + vec2i(i32(row % 3u), i32(row / 3u)) - vec2i(1);
  if (any(q < vec2i(0)) || any(q >= vec2i(dims.yz))) {
    return vec2u(0u);
  }
  let x0 = max(c.x - 1, 0);
  let x1 = min(c.x + 1, i32(dims.x) - 1);
  let first = gridCellId(vec3i(x0, q), dims);
  let last = gridCellId(vec3i(x1, q), dims);
  return vec2u(cellStart[first], cellStart[last + 1u]);
}
