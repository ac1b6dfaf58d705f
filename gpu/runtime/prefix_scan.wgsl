// Exclusive prefix sum of an array<u32> in place (gpu/runtime/prefix_scan.ts). With ITEMS > 1
// elements per invocation:
//   sum_items      invocation t: partials[t] = sum of data[t*ITEMS .. (t+1)*ITEMS) (no barrier)
//   (levels)       the workgroup scan below, on the partials
//   spread_items   invocation t: data[t*ITEMS + k] = partials[t] + sum of the elements before k
//                  in its run (no barrier)
// and, in levels (the data itself when ITEMS = 1):
//   scan_blocks    per level, bottom up: exclusive scan of each WG-element block in place, the
//                  block's total to the next level (or to the 1-element total)
//   add_offsets    per level, top down: data[i] += scanned total of the blocks before i's block
// When the runs fit one workgroup (n ≤ WG·ITEMS), scan_single does all three in one dispatch: the
// same integer sums, so the same result.
// The runs of ITEMS elements divide the elements the workgroup kernels see, and so their barriers,
// by ITEMS: a barrier costs every invocation of the workgroup a context switch on a CPU adapter
// (llvmpipe), where one element per invocation made the barriers the whole cost of the scan. The
// per-run loops live in kernels without barriers.
// Dispatches are 2D (x at most 65535 workgroups); the linear workgroup id is
// `wid.y * nwg.x + wid.x`, and invocations past the end do nothing (but still reach barriers).

/// Workgroup size; also the block length of a level.
override WG: u32 = 256u;
/// Consecutive elements per invocation of sum_items and spread_items.
override ITEMS: u32 = 16u;

struct ScanParams {
  n: u32, // elements of this level (of the data, for sum_items and spread_items)
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

// The run of invocation t: elements [t * ITEMS, min((t + 1) * ITEMS, n)), empty past the end.
fn runOf(t: u32) -> vec2u {
  let first = min(t * ITEMS, scan.n);
  return vec2u(first, min(first + ITEMS, scan.n));
}

@compute @workgroup_size(WG)
fn sum_items(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let t = (wid.y * nwg.x + wid.x) * WG + lid;
  let run = runOf(t);
  var sum = 0u;
  for (var i = run.x; i < run.y; i++) {
    sum += scanData[i];
  }
  if (run.x < run.y) {
    scanSums[t] = sum;
  }
}

@compute @workgroup_size(WG)
fn spread_items(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let t = (wid.y * nwg.x + wid.x) * WG + lid;
  let run = runOf(t);
  if (run.x == run.y) {
    return;
  }
  var acc = scanSums[t];
  for (var i = run.x; i < run.y; i++) {
    let x = scanData[i];
    scanData[i] = acc;
    acc += x;
  }
}

// One workgroup, n ≤ WG·ITEMS: sum_items, scan_blocks (one block) and spread_items in one dispatch.
// scanSums is the 1-element total.
@compute @workgroup_size(WG)
fn scan_single(@builtin(local_invocation_index) lid: u32) {
  let run = runOf(lid);
  var own = 0u;
  for (var i = run.x; i < run.y; i++) {
    own += scanData[i];
  }
  scratch[lid] = own;
  workgroupBarrier();
  for (var off = 1u; off < WG; off = off * 2u) {
    var v = scratch[lid];
    if (lid >= off) {
      v = v + scratch[lid - off];
    }
    workgroupBarrier();
    scratch[lid] = v;
    workgroupBarrier();
  }
  var acc = scratch[lid] - own;
  for (var i = run.x; i < run.y; i++) {
    let x = scanData[i];
    scanData[i] = acc;
    acc += x;
  }
  if (lid == WG - 1u) {
    scanSums[0] = scratch[lid];
  }
}
