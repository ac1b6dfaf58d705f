// Exclusive prefix sum of an array<u32> in place, in levels (gpu/runtime/prefix_scan.ts):
//   scan_blocks    per level, bottom up: exclusive scan of each WG-element block in place, the
//                  block's total to the next level (or to the 1-element total)
//   add_offsets    per level, top down: data[i] += scanned total of the blocks before i's block
// Dispatches are 2D (x at most 65535 workgroups); the linear workgroup id is
// `wid.y * nwg.x + wid.x`, and invocations past the end do nothing (but still reach barriers).

/// Workgroup size; also the block length of a level.
override WG: u32 = 256u;

struct ScanParams {
  n: u32, // elements of this level
}

@group(0) @binding(0) var<uniform> scan: ScanParams;
@group(0) @binding(1) var<storage, read_write> scanData: array<u32>;
@group(0) @binding(2) var<storage, read_write> scanSums: array<u32>;

var<workgroup> scratch: array<u32, WG>;

@compute @workgroup_size(WG)
fn scan_blocks(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let block = wid.y * nwg.x + wid.x;
  let i = block * WG + lid;
  let inRange = i < scan.n;
  var own = 0u;
  if (inRange) {
    own = scanData[i];
  }
  scratch[lid] = own;
  workgroupBarrier();
  // Hillis-Steele inclusive scan of the block.
  for (var off = 1u; off < WG; off = off * 2u) {
    var v = scratch[lid];
    if (lid >= off) {
      v = v + scratch[lid - off];
    }
    workgroupBarrier();
    scratch[lid] = v;
    workgroupBarrier();
  }
  if (inRange) {
    scanData[i] = scratch[lid] - own;
  }
  if (lid == WG - 1u && block * WG < scan.n) {
    scanSums[block] = scratch[lid];
  }
}

@compute @workgroup_size(WG)
fn add_offsets(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let block = wid.y * nwg.x + wid.x;
  let i = block * WG + lid;
  if (i < scan.n) {
    scanData[i] = scanData[i] + scanSums[block];
  }
}
