// Deterministic reductions of vec4 arrays over masked DOF slots (fixed-order tree reduction).
//
// reduce_first: per slot i < count with (mask[i] & maskBits) != 0 the value
//   MODE 0 (dot): vec4(dot(a[i], b[i]), 0, 0, 0);   MODE 1 (sum): a[i];
//   each workgroup sums its WORKGROUP_SIZE values by a binary tree in workgroup memory.
// reduce_partials: the same tree over the vec4 partial sums of the previous pass.
// Each pass writes the first dstWidth components of its workgroup sum to
//   dst[dstIndex + dstWidth * workgroup_id.x ..]: intermediate passes (dstWidth 4) into a partials
//   buffer, the last pass (a single workgroup) into the caller's scalar buffer.
// The summation order depends only on the slot count and WORKGROUP_SIZE: runs repeat bit for bit.

struct ReduceParams {
  count: u32,
  maskBits: u32,
  dstIndex: u32,
  dstWidth: u32,
}

override WORKGROUP_SIZE: u32 = 256u; // a power of two
override MODE: u32 = 0u; // 0: dot(a, b); 1: sum of a

@group(0) @binding(0) var<uniform> params: ReduceParams;
@group(0) @binding(1) var<storage, read> a: array<vec4f>;
@group(0) @binding(2) var<storage, read> b: array<vec4f>;
@group(0) @binding(3) var<storage, read> mask: array<u32>;
@group(0) @binding(4) var<storage, read> partialIn: array<vec4f>;
@group(0) @binding(5) var<storage, read_write> dst: array<f32>;

var<workgroup> tree: array<vec4f, WORKGROUP_SIZE>;

fn reduce_store(local: u32, group: u32, value: vec4f) {
  tree[local] = value;
  workgroupBarrier();
  for (var stride = WORKGROUP_SIZE / 2u; stride > 0u; stride = stride / 2u) {
    if (local < stride) {
      tree[local] = tree[local] + tree[local + stride];
    }
    workgroupBarrier();
  }
  if (local == 0u) {
    let sum = tree[0];
    let base = params.dstIndex + params.dstWidth * group;
    for (var c = 0u; c < params.dstWidth; c++) {
      dst[base + c] = sum[c];
    }
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn reduce_first(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(local_invocation_index) local: u32,
  @builtin(workgroup_id) wid: vec3u,
) {
  let i = gid.x;
  var value = vec4f(0.0);
  if (i < params.count && (mask[i] & params.maskBits) != 0u) {
    if (MODE == 0u) {
      value = vec4f(dot(a[i], b[i]), 0.0, 0.0, 0.0);
    } else {
      value = a[i];
    }
  }
  reduce_store(local, wid.x, value);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn reduce_partials(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(local_invocation_index) local: u32,
  @builtin(workgroup_id) wid: vec3u,
) {
  let i = gid.x;
  var value = vec4f(0.0);
  if (i < params.count) {
    value = partialIn[i];
  }
  reduce_store(local, wid.x, value);
}
