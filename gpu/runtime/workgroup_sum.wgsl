// Deterministic workgroup sums (prelude of the kernels that fuse a dot product into the kernel
// producing its terms: the implicit solvers' conjugate gradients). The owner
// sets SUM_WORKGROUP_SIZE to the workgroup size of the kernels that call workgroup_sum.

override SUM_WORKGROUP_SIZE: u32 = 64u;
var<workgroup> wsum: array<f32, SUM_WORKGROUP_SIZE>;

// Tree sum of one value per invocation over the workgroup (fixed order, so runs repeat bit for
// bit); every invocation gets the total. Call in uniform control flow.
fn workgroup_sum(lid: u32, v: f32) -> f32 {
  wsum[lid] = v;
  workgroupBarrier();
  for (var stride = SUM_WORKGROUP_SIZE / 2u; stride > 0u; stride = stride / 2u) {
    if (lid < stride) {
      wsum[lid] = wsum[lid] + wsum[lid + stride];
    }
    workgroupBarrier();
  }
  let total = wsum[0];
  workgroupBarrier();
  return total;
}
