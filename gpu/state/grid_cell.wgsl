// Uniform neighbor grid (gpu/README.md): the cell of a point and the linear id of a cell. Prelude
// concatenated in front of the kernels that use the grid (gpu/state/grid_cell.ts); they pass their
// own uniform's gridMin, cellSize and dims.xyz. The walk over the 27 cells around a cell is in
// grid_neighbors.wgsl.

// Cell of a point, clamped into the grid: clamp(floor((x - gridMin) / cellSize), 0, dims - 1).
fn gridCell(x: vec3f, gridMin: vec3f, cellSize: f32, dims: vec3u) -> vec3i {
  let c = clamp(floor((x - gridMin) / cellSize), vec3f(0.0), vec3f(dims) - vec3f(1.0));
  return vec3i(c);
}

// Linear id of a cell inside the grid: c.x + dims.x * (c.y + dims.y * c.z).
fn gridCellId(c: vec3i, dims: vec3u) -> u32 {
  return u32(c.x) + dims.x * (u32(c.y) + dims.y * u32(c.z));
}
