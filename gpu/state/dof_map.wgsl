// Generic DOF (meta-particle) map kernels (gpu/README.md; Truong et al. 2021 Eqs. 1–3, 6–7).
//
// scatter_to_dofs: per DOF slot d, dst[d] = Σ src[m] over memberList[memberStart[d] .. memberStart[d + 1]),
//   in ascending member order (one thread per slot, no atomics, bit-reproducible). Non-live slots have
//   an empty member range and receive 0.
// gather_from_dofs: per particle i, dst[i] = src[dof[i]].

struct DofMapParams {
  count: u32,
}

override WORKGROUP_SIZE: u32 = 64u;

@group(0) @binding(0) var<uniform> params: DofMapParams;
@group(0) @binding(1) var<storage, read> dof: array<u32>;
@group(0) @binding(2) var<storage, read> memberStart: array<u32>;
@group(0) @binding(3) var<storage, read> memberList: array<u32>;
@group(0) @binding(4) var<storage, read> src: array<vec4f>;
@group(0) @binding(5) var<storage, read_write> dst: array<vec4f>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn scatter_to_dofs(@builtin(global_invocation_id) gid: vec3u) {
  let d = gid.x;
  if (d >= params.count) {
    return;
  }
  var sum = vec4f(0.0);
  let end = memberStart[d + 1u];
  for (var k = memberStart[d]; k < end; k++) {
    sum += src[memberList[k]];
  }
  dst[d] = sum;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn gather_from_dofs(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= params.count) {
    return;
  }
  dst[i] = src[dof[i]];
}
