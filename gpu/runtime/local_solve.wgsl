// Helpers of the one-workgroup CG solves (`solve_local` in gpu/runtime/cg.wgsl): on an adapter
// where a dispatch has a fixed cost of tens of µs (llvmpipe), a small system's five dispatches per
// CG iteration cost more than their arithmetic, so one workgroup runs iteration after iteration with barriers instead. Its invocations take the
// slots lid, lid + SUM_WORKGROUP_SIZE, … and run the dispatched kernels' per-slot functions; each
// slot's term of a dot product goes to `state` and the invocation that owns a chunk of
// SUM_WORKGROUP_SIZE slots adds them up in place in workgroup_sum's tree order (chunk_trees), so
// the partial sums, their totals and every iterate are bit for bit the dispatched kernels'.
// llvmpipe stops an invocation's loops after 65,535 iterations in all: a dispatch takes only as
// many iterations as fit LOCAL_BUDGET loop iterations of its busiest invocation; the host encodes
// enough dispatches for the worst case, and those after the solve ends return at once.
//
// A prelude after workgroup_sum.wgsl; the owner declares `state: array<f32>` (read_write) and
// runs its local kernel with workgroup size SUM_WORKGROUP_SIZE.

// Loop iterations one invocation may spend in one dispatch (below llvmpipe's 65,535).
override LOCAL_BUDGET: u32 = 60000u;

var<workgroup> w_max: atomic<u32>;
var<workgroup> w_value: u32;

// The largest `v` of the workgroup, the same value in every invocation. Uniform control flow.
fn workgroup_max(lid: u32, v: u32) -> u32 {
  if (lid == 0u) {
    atomicStore(&w_max, 0u);
  }
  workgroupBarrier();
  atomicMax(&w_max, v);
  workgroupBarrier();
  if (lid == 0u) {
    w_value = atomicLoad(&w_max);
  }
  return workgroupUniformLoad(&w_value);
}

// state[s] (a non-negative count) as invocation 0 reads it after the workgroup's writes, in every
// invocation. Uniform control flow.
fn state_u32(lid: u32, s: u32) -> u32 {
  storageBarrier();
  if (lid == 0u) {
    w_value = u32(max(state[s], 0.0));
  }
  return workgroupUniformLoad(&w_value);
}

// The terms state[terms + c·W .. terms + (c + 1)·W) of each chunk c < chunks (W =
// SUM_WORKGROUP_SIZE) summed in place in workgroup_sum's order into state[partials + c], by the
// chunk's owner. Uniform control flow.
fn chunk_trees(lid: u32, terms: u32, partials: u32, chunks: u32) {
  storageBarrier();
  for (var c = lid; c < chunks; c += SUM_WORKGROUP_SIZE) {
    let base = terms + c * SUM_WORKGROUP_SIZE;
    for (var stride = SUM_WORKGROUP_SIZE / 2u; stride > 0u; stride = stride / 2u) {
      for (var i = 0u; i < stride; i++) {
        state[base + i] = state[base + i] + state[base + i + stride];
      }
    }
    state[partials + c] = state[base];
  }
  storageBarrier();
}

// Loop iterations of chunk_trees and a total over `chunks` partial sums (partials_total and
// workgroup_sum) in one invocation: what a dot product costs the local kernel's loop budget.
fn total_cost(chunks: u32) -> u32 {
  let owned = (chunks + SUM_WORKGROUP_SIZE - 1u) / SUM_WORKGROUP_SIZE;
  return owned * (SUM_WORKGROUP_SIZE + 8u) + owned + 8u;
}
