// Uniform-grid neighbor structure built by counting sort (see gpu/README.md, "Neighbor grid").
//
// Build order, all dispatches in one compute pass (each dispatch sees the previous one's writes):
//   clear_counts   cellStart[0 ..= cellCount] = 0 (on a build of its own: clearBuffer before the pass)
//   count          particleCell[i] = cell of pos[i]; rank[i] = atomicAdd(cellStart[cell], 1)
//   (scan)         exclusive prefix sum of the counts in place (gpu/runtime/prefix_scan.wgsl)
//   scatter        unsorted[cellStart[cell] + rank[i]] = i (the ranks' order is the atomics' order,
//                  which varies from run to run)
//   order_cells    one invocation per particle: sorted[cellStart[cell] + #{j in its cell's slice
//                  of unsorted with j < i}] = i, so each cell's slice of `sorted` is ascending
//                  whatever the atomics' order; O(particles in the cell) per invocation, so no
//                  loop comes near llvmpipe's 65,535-iteration cap (an insertion sort per cell
//                  did, from a few hundred particles in one cell in a scrambled order)
// cellStart has cellCount + 1 entries; the last is never counted into, so after the exclusive
// scan it holds the particle count.
//
// Large dispatches are 2D (x at most 65535 workgroups); the linear workgroup id is
// `wid.y * nwg.x + wid.x`, and invocations past the end do nothing (but still reach barriers).

/// Workgroup size of every kernel.
override WG: u32 = 256u;

struct GridParams {
  gridMin: vec3f,
  cellSize: f32,
  dims: vec4u, // xyz: cells per axis, w: cellCount = x * y * z
  count: u32, // particles to insert: pos[0 .. count)
}

// ---- grid kernels (bind group 0, layout "neighbor grid") ----
@group(0) @binding(0) var<uniform> grid: GridParams;
@group(0) @binding(1) var<storage, read> pos: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> cellStart: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> sorted: array<u32>;
@group(0) @binding(4) var<storage, read_write> particleCell: array<u32>;
@group(0) @binding(5) var<storage, read_write> rank: array<u32>;
@group(0) @binding(6) var<storage, read_write> unsorted: array<u32>;

fn linearWorkgroup(wid: vec3u, nwg: vec3u) -> u32 {
  return wid.y * nwg.x + wid.x;
}

/// Linear cell id of a point (gpu/state/grid_cell.wgsl, prepended by the owner).
fn cellOf(x: vec3f) -> u32 {
  return gridCellId(gridCell(x, grid.gridMin, grid.cellSize, grid.dims.xyz), grid.dims.xyz);
}

@compute @workgroup_size(WG)
fn clear_counts(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let k = linearWorkgroup(wid, nwg) * WG + lid;
  if (k <= grid.dims.w) {
    atomicStore(&cellStart[k], 0u);
  }
}

@compute @workgroup_size(WG)
fn count(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let i = linearWorkgroup(wid, nwg) * WG + lid;
  if (i < grid.count) {
    let cell = cellOf(pos[i].xyz);
    particleCell[i] = cell;
    rank[i] = atomicAdd(&cellStart[cell], 1u);
  }
}

@compute @workgroup_size(WG)
fn scatter(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let i = linearWorkgroup(wid, nwg) * WG + lid;
  if (i < grid.count) {
    unsorted[atomicLoad(&cellStart[particleCell[i]]) + rank[i]] = i;
  }
}

@compute @workgroup_size(WG)
fn order_cells(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let i = linearWorkgroup(wid, nwg) * WG + lid;
  if (i >= grid.count) {
    return;
  }
  let cell = particleCell[i];
  let begin = atomicLoad(&cellStart[cell]);
  let end = atomicLoad(&cellStart[cell + 1u]);
  var before = 0u;
  for (var k = begin; k < end; k++) {
    before += select(0u, 1u, unsorted[k] < i);
  }
  sorted[begin + before] = i;
}
