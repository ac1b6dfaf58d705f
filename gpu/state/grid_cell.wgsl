// Uniform neighbor grid (gpu/README.md): the cell of a point, the linear id of a cell and the 27
// cells around a cell. Prelude concatenated in front of the kernels that use the grid
// (gpu/state/grid_cell.ts); they pass their own uniform's gridMin, cellSize and dims.xyz.

// No cell: gridNeighbor outside the grid (cell counts stay below 2^32 - 1).
const NO_CELL: u32 = 0xffffffffu;

// Cell of a point, clamped into the grid: clamp(floor((x - gridMin) / cellSize), 0, dims - 1).
fn gridCell(x: vec3f, gridMin: vec3f, cellSize: f32, dims: vec3u) -> vec3i {
  let c = clamp(floor((x - gridMin) / cellSize), vec3f(0.0), vec3f(dims) - vec3f(1.0));
  return vec3i(c);
}

// Linear id of a cell inside the grid: c.x + dims.x * (c.y + dims.y * c.z).
fn gridCellId(c: vec3i, dims: vec3u) -> u32 {
  return u32(c.x) + dims.x * (u32(c.y) + dims.y * u32(c.z));
}

// Linear id of neighbor n (0..26) of cell c, NO_CELL outside the grid. n = 0, 1, ..., 26 walks
// the 27 cells around c in z, y, x order (x fastest), the order every consumer sums in.
fn gridNeighbor(c: vec3i, n: u32, dims: vec3u) -> u32 {
  let q = c + vec3i(i32(n % 3u), i32((n / 3u) % 3u), i32(n / 9u)) - vec3i(1);
  if (any(q < vec3i(0)) || any(q >= vec3i(dims))) {
    return NO_CELL;
  }
  return gridCellId(q, dims);
}
