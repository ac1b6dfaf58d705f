// Fragments of brittle solids: connected components of the member particles over intact bonds
// (Shiloach–Vishkin-style min-label hooking with pointer jumping). Host code and the proof of the
// round bound: gpu/metrics/fragments.ts; f64 reference: `fragments` of
// core/reference/peridynamics_reference.ts.
//
// `parent` is a forest over the particles with parent[x] <= x, always a particle of x's component
// (values only come across intact member–member bonds and only decrease), so it never has a cycle.
// A round, on a forest of stars (every parent a root):
//   snapshot        scratch = parent (the star root of every member)
//   hook            per bond (u, v) with roots a != b: parent[max] = min(parent[max], min(a, b))
//   hook_stagnant   per bond with roots lo < hi: parent[lo] = min(parent[lo], parent[hi]) when
//                   parent[hi] < lo (a star that no neighbour hooked onto, and that had no smaller
//                   neighbour, joins the tree its neighbour hooked into)
//   J × [gate_jump, jump]   pointer jumping parent[x] = parent[parent[x]] until stars again
// A round that changes no parent in the hooks leaves every bond inside one star, whose root is
// the smallest index of the component: the labels. One-thread gates turn the remaining rounds
// (and jumps) into 0-workgroup indirect dispatches.

// The per-particle kernels' grid: `workgroups` × `rows` (2D past 65,535 workgroups,
// gpu/runtime/kernel.ts dispatchShape).
struct FragmentParams {
  count: u32,
  workgroups: u32,
  rows: u32,
  // the fewest particles of a fragment counted in result[R_SIGNIFICANT]
  minSize: u32,
}

override WORKGROUP_SIZE: u32 = 64u;
override BROKEN_BIT: u32;
// Words of `result` (FRAGMENT_RESULT in fragments.ts).
override R_COUNT: u32;
override R_LARGEST: u32;
override R_CONVERGED: u32;
override R_ROUNDS: u32;
override R_SIGNIFICANT: u32;
// Label of a non-member (NONE in fragments.ts).
override NONE: u32;

// Words of `state` (internal).
const S_CHANGED = 0u; // a hook of the current round changed a parent (init: 1, so round 1 runs)
const S_ACTIVE = 1u; // the current round runs
const S_JUMPED = 2u; // the last jump changed a parent (the gate sets 1 so a round's first jump runs)

@group(0) @binding(0) var<uniform> params: FragmentParams;
@group(0) @binding(1) var<storage, read> bondStart: array<u32>;
@group(0) @binding(2) var<storage, read> bondList: array<u32>;
@group(0) @binding(3) var<storage, read> member: array<u32>;
@group(0) @binding(4) var<storage, read_write> parent: array<atomic<u32>>;
// The roots at the start of a round (snapshot); at the end, the size per root.
@group(0) @binding(5) var<storage, read_write> scratch: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> labels: array<u32>;
@group(0) @binding(7) var<storage, read_write> result: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read_write> state: array<atomic<u32>>;
// Indirect dispatch arguments: [0..3) the round's kernels, [3..6) the next jump.
@group(0) @binding(9) var<storage, read_write> args: array<u32>;

fn is_member(x: u32) -> bool {
  return x < params.count && member[x] != 0u;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn init(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let x = gid.x + gid.y * nwg.x * WORKGROUP_SIZE;
  if (x >= params.count) {
    return;
  }
  atomicStore(&parent[x], x);
  if (x == 0u) {
    atomicStore(&result[R_COUNT], 0u);
    atomicStore(&result[R_LARGEST], 0u);
    atomicStore(&result[R_CONVERGED], 0u);
    atomicStore(&result[R_ROUNDS], 0u);
    atomicStore(&result[R_SIGNIFICANT], 0u);
    atomicStore(&state[S_CHANGED], 1u);
    atomicStore(&state[S_ACTIVE], 0u);
    atomicStore(&state[S_JUMPED], 0u);
  }
}

// One thread: runs the round when the previous one changed something, else records convergence.
@compute @workgroup_size(1)
fn gate_round() {
  let run = atomicLoad(&state[S_CHANGED]) != 0u;
  atomicStore(&state[S_CHANGED], 0u);
  atomicStore(&state[S_ACTIVE], select(0u, 1u, run));
  atomicStore(&state[S_JUMPED], select(0u, 1u, run));
  if (run) {
    atomicAdd(&result[R_ROUNDS], 1u);
  } else {
    atomicStore(&result[R_CONVERGED], 1u);
  }
  args[0] = select(0u, params.workgroups, run);
  args[1] = params.rows;
  args[2] = 1u;
}

// One thread, after the last round: converged when that round changed nothing.
@compute @workgroup_size(1)
fn check() {
  if (atomicLoad(&state[S_CHANGED]) == 0u) {
    atomicStore(&result[R_CONVERGED], 1u);
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn snapshot(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let x = gid.x + gid.y * nwg.x * WORKGROUP_SIZE;
  if (!is_member(x)) {
    return;
  }
  atomicStore(&scratch[x], atomicLoad(&parent[x]));
}

// The partner of bond-list entry k when the bond is intact and joins two members, else NONE.
fn intact_partner(k: u32) -> u32 {
  let e = bondList[k];
  let v = e & ~BROKEN_BIT;
  if ((e & BROKEN_BIT) != 0u || !is_member(v)) {
    return NONE;
  }
  return v;
}

// Conditional hooking: every root takes the smallest root of a star bonded to it, if smaller.
// Only roots are written, with roots: the result does not depend on scheduling.
@compute @workgroup_size(WORKGROUP_SIZE)
fn hook(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let u = gid.x + gid.y * nwg.x * WORKGROUP_SIZE;
  if (!is_member(u)) {
    return;
  }
  let a = atomicLoad(&scratch[u]);
  var changed = false;
  for (var k = bondStart[u]; k < bondStart[u + 1u]; k++) {
    let v = intact_partner(k);
    if (v == NONE) {
      continue;
    }
    let b = atomicLoad(&scratch[v]);
    if (a != b) {
      let lo = min(a, b);
      if (atomicMin(&parent[max(a, b)], lo) > lo) {
        changed = true;
      }
    }
  }
  if (changed) {
    atomicStore(&state[S_CHANGED], 1u);
  }
}

// Hooking of stagnant stars: the smaller root lo of a bond joins the parent its larger neighbour
// hi took in `hook` when that is smaller still (after `hook`, parent[hi] <= lo).
@compute @workgroup_size(WORKGROUP_SIZE)
fn hook_stagnant(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let u = gid.x + gid.y * nwg.x * WORKGROUP_SIZE;
  if (!is_member(u)) {
    return;
  }
  let a = atomicLoad(&scratch[u]);
  var changed = false;
  for (var k = bondStart[u]; k < bondStart[u + 1u]; k++) {
    let v = intact_partner(k);
    if (v == NONE) {
      continue;
    }
    let b = atomicLoad(&scratch[v]);
    if (a != b) {
      let lo = min(a, b);
      let up = atomicLoad(&parent[max(a, b)]);
      if (up < lo && atomicMin(&parent[lo], up) > up) {
        changed = true;
      }
    }
  }
  if (changed) {
    atomicStore(&state[S_CHANGED], 1u);
  }
}

// One thread: the next jump runs while the round runs and the previous jump changed something.
@compute @workgroup_size(1)
fn gate_jump() {
  let run = atomicLoad(&state[S_ACTIVE]) != 0u && atomicLoad(&state[S_JUMPED]) != 0u;
  atomicStore(&state[S_JUMPED], 0u);
  args[3] = select(0u, params.workgroups, run);
  args[4] = params.rows;
  args[5] = 1u;
}

// Pointer jumping; only thread x writes parent[x] (in place: reads may already see jumped
// parents, which only moves x further up its tree).
@compute @workgroup_size(WORKGROUP_SIZE)
fn jump(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let x = gid.x + gid.y * nwg.x * WORKGROUP_SIZE;
  if (!is_member(x)) {
    return;
  }
  let p = atomicLoad(&parent[x]);
  let up = atomicLoad(&parent[p]);
  if (up != p) {
    atomicStore(&parent[x], up);
    atomicStore(&state[S_JUMPED], 1u);
  }
}

// Labels (NONE for non-members) and cleared per-root sizes.
@compute @workgroup_size(WORKGROUP_SIZE)
fn label(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let x = gid.x + gid.y * nwg.x * WORKGROUP_SIZE;
  if (x >= params.count) {
    return;
  }
  labels[x] = select(NONE, atomicLoad(&parent[x]), is_member(x));
  atomicStore(&scratch[x], 0u);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn tally(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let x = gid.x + gid.y * nwg.x * WORKGROUP_SIZE;
  if (!is_member(x)) {
    return;
  }
  atomicAdd(&scratch[labels[x]], 1u);
}

// Fragment count (roots), largest fragment (max of the per-root sizes) and the fragments of at
// least params.minSize particles.
@compute @workgroup_size(WORKGROUP_SIZE)
fn stats(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let x = gid.x + gid.y * nwg.x * WORKGROUP_SIZE;
  if (!is_member(x) || labels[x] != x) {
    return;
  }
  let size = atomicLoad(&scratch[x]);
  atomicAdd(&result[R_COUNT], 1u);
  atomicMax(&result[R_LARGEST], size);
  if (size >= params.minSize) {
    atomicAdd(&result[R_SIGNIFICANT], 1u);
  }
}
