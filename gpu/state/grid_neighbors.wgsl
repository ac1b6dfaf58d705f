// The walk over the 27 cells around a cell of a built neighbor grid (gpu/README.md), defined once
// for every kernel that sums over neighbors. Prelude after grid_cell.wgsl (withGridNeighbors in
// gpu/state/grid_cell.ts); the kernel declares `cellStart: array<u32>` (cellCount + 1 entries)
// and `sorted`, and walks
//
//   for (var nb = 0u; nb < 27u; nb++) {
//     let span = gridNeighborRange(c, nb, dims);
//     for (var k = span.x; k < span.y; k++) { let j = sorted[k]; ... }
//   }
//
// nb = 0, 1, ..., 26 visits the cells in z, y, x order (x fastest), then the particles of a cell
// in `sorted` order: the summation order of every consumer.

// The range [begin, end) of `sorted` holding the particles of neighbor nb (0..26) of cell c;
// empty (0, 0) when that cell lies outside the grid.
fn gridNeighborRange(c: vec3i, nb: u32, dims: vec3u) -> vec2u {
  let q = c + vec3i(i32(nb % 3u), i32((nb / 3u) % 3u), i32(nb / 9u)) - vec3i(1);
  if (any(q < vec3i(0)) || any(q >= vec3i(dims))) {
    return vec2u(0u);
  }
  let cell = gridCellId(q, dims);
  return vec2u(cellStart[cell], cellStart[cell + 1u]);
}
