// Particle merging-and-splitting on the GPU (Truong et al. 2021, §3–§5).
// The f64 reference is core/merge_split.ts; grouping (§5.2) is grouping.wgsl. Host: merge_split.ts.
//
// Per-particle `level` and `levelParent` data (N vec4f each, two buffers so that each stays under
// the per-binding limit at Table I's counts): for the k-th member i_k (k ≥ 1) of a group,
//   level[i_k]       = (n_k.xyz, ΔE_k)        n_k of Eq. 5, "the vector connecting the centers of
//                                            the two colliding particles": x_k − x_p, p the
//                                            partner i_k joined its group through (memberList
//                                            from word N on, grouping.wgsl JOINED), or where the
//                                            grouping gives none (merge order index-com) from
//                                            the meta's centre, x_k − X_{k−1}; ΔE_k (Eq. 4);
//                                            where n_k = 0, V_{k−1} − v_k instead: the direction
//                                            the split takes then, so that it reads no velocities
//   levelParent[i_k] = (V_{k−1}.xyz, M_{k−1}) the meta merged with member k (its v1 and m1)
// and for the group's root d = i_0 (its lowest index), the slots no member uses carry what one
// invocation per group hands on:
//   merge_groups → merge_dofs     levelParent[d] = (V.xyz, M): the merged DOF's velocity and mass
//                                 (Eqs. 3, 1); merge_groups writes its X (Eq. 2) to dofX itself
//   merge_groups → split_groups   level[d] = (begin, end, 0, ROOT): the group's range of the member
//                                 list (f32, exact below 2^24 particles), w = ROOT marking a root's
//                                 slot (a member's w, ΔE_k, is ≥ 0)
// so that no kernel binds more than 8 storage buffers (WebGPU's guaranteed
// maxStorageBuffersPerShaderStage): merging into the engine's DOF buffers and offsets in one
// kernel would bind 11, and the split binds neither the member starts nor the velocities. The
// copies are exact, so the results are those of one kernel each. merge_dofs runs per particle:
// each member's offset (Eqs. 6–7) needs only its own DOF's X, so the offsets share its dispatch.

struct MergeSplitParams {
  count: u32,
  maxPerParticle: u32,
  stage: u32,
  alpha: f32,
  beta: f32,
}

override WG: u32 = 64u;
// Where the member list's partners start (grouping.wgsl JOINED): the grouping's N, the capacity.
override PARTNERS_AT: u32;
// Words of the statistics (merge_split_stats.ts MERGE_SPLIT_STATS, passed in).
override STAT_MOMENTUM_ERROR: u32;
override STAT_ENERGY_ERROR: u32;
override STAT_STAGE2_RUNS: u32;
override STAT_CLOSEST_SPLITS: u32;

const APPROACH_BIT: u32 = 0x80000000u;
const NONE: u32 = 0xffffffffu;
// level[d].w of a group's root d (see above)
const ROOT: f32 = -1.0;

@group(0) @binding(0) var<uniform> P: MergeSplitParams;

// The largest magnitude of a's components: a has a direction where it is > 0.
fn max_abs(a: vec3f) -> f32 {
  return max(abs(a.x), max(abs(a.y), abs(a.z)));
}

// ---------------------------------------------------------------------------------------------
// Merging (Eqs. 1–5), one invocation per DOF slot: a left fold over the members in the member
// list's order (the order they joined, or ascending: core/merge_orders.ts), keeping what the split
// needs per level; the DOF's X into dofX, its V and M and the
// group's range in the root's slots.
@group(0) @binding(1) var<storage, read> m_pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> m_vel: array<vec4f>;
@group(0) @binding(3) var<storage, read> m_mass: array<f32>;
@group(0) @binding(4) var<storage, read> m_memberStart: array<u32>;
@group(0) @binding(5) var<storage, read> m_memberList: array<u32>;
@group(0) @binding(6) var<storage, read_write> m_level: array<vec4f>;
@group(0) @binding(7) var<storage, read_write> m_levelParent: array<vec4f>;
@group(0) @binding(8) var<storage, read_write> m_dofX: array<vec4f>;

@compute @workgroup_size(WG)
fn merge_groups(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let d = gid.x + gid.y * nwg.x * WG;
  let n = P.count;
  if (d >= n) { return; }
  let begin = m_memberStart[d];
  let end = m_memberStart[d + 1u];
  if (end <= begin) { return; }
  let i0 = m_memberList[begin];
  var M = m_mass[i0];
  var X = m_pos[i0].xyz;
  var V = m_vel[i0].xyz;
  for (var k = begin + 1u; k < end; k++) {
    let i = m_memberList[k];
    let m2 = m_mass[i];
    let x2 = m_pos[i].xyz;
    let v2 = m_vel[i].xyz;
    let m12 = M + m2; // Eq. 1
    let dv = V - v2;
    let via = m_memberList[PARTNERS_AT + k];
    var nk = x2 - X; // Eq. 5 from the meta's centre (index-com)
    if (via != NONE) { nk = x2 - m_pos[via].xyz; } // Eq. 5: the two colliding particles
    m_level[i] = vec4f(select(dv, nk, max_abs(nk) > 0.0), (M * m2 / (2.0 * m12)) * dot(dv, dv)); // Eq. 4
    m_levelParent[i] = vec4f(V, M);
    X = (M * X + m2 * x2) / m12; // Eq. 2
    V = (M * V + m2 * v2) / m12; // Eq. 3
    M = m12;
  }
  m_dofX[d] = vec4f(X, 0.0);
  m_levelParent[d] = vec4f(V, M);
  m_level[d] = vec4f(f32(begin), f32(end), 0.0, ROOT);
}

// After merge_groups, one invocation per particle i of DOF d: its offset from the DOF's X
// (Eqs. 6–7: x_i = X_dof + offset_i throughout the step) and, at the root (i = d), the DOF's V
// (Eq. 3) and M (Eq. 1) from the root's levelParent slot into the engine's buffers. Stage 1 also
// clears the stage-2 flag, which mark_approaching counts into after stage 1.
@group(0) @binding(1) var<storage, read> d_dof: array<u32>;
@group(0) @binding(2) var<storage, read> d_pos: array<vec4f>;
@group(0) @binding(3) var<storage, read> d_dofX: array<vec4f>;
@group(0) @binding(4) var<storage, read> d_levelParent: array<vec4f>;
@group(0) @binding(5) var<storage, read_write> d_dofV: array<vec4f>;
@group(0) @binding(6) var<storage, read_write> d_dofM: array<f32>;
@group(0) @binding(7) var<storage, read_write> d_offset: array<vec4f>;
@group(0) @binding(8) var<storage, read_write> d_flag: array<atomic<u32>>;

@compute @workgroup_size(WG)
fn merge_dofs(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= P.count) { return; }
  if (i == 0u && P.stage == 1u) { atomicStore(&d_flag[0], 0u); }
  let d = d_dof[i];
  d_offset[i] = vec4f(d_pos[i].xyz - d_dofX[d].xyz, 0.0);
  if (d == i) {
    let vm = d_levelParent[d];
    d_dofV[d] = vec4f(vm.xyz, 0.0);
    d_dofM[d] = vm.w;
  }
}

// ---------------------------------------------------------------------------------------------
// Two-stage integration (§5.1): flag marked pairs that approach at the end of stage 1.
@group(0) @binding(1) var<storage, read> a_pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> a_velAfter: array<vec4f>;
@group(0) @binding(3) var<storage, read> a_markedCount: array<u32>;
@group(0) @binding(4) var<storage, read_write> a_marked: array<u32>;
// [0]: marked pairs that approach this step (the stage-2 flag of the engine's dispatch gate),
// cleared by stage 1's merge_dofs
@group(0) @binding(5) var<storage, read_write> a_flag: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> a_stats: array<atomic<u32>>;

// One invocation per particle. The invocation whose pairs first make the flag nonzero counts the
// step in statistic stage2Runs (its stage 2 runs): of the additions to a flag that starts at 0,
// exactly one finds it 0, whatever their order.
@compute @workgroup_size(WG)
fn mark_approaching(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= P.count) { return; }
  let K = P.maxPerParticle;
  let c = a_markedCount[i];
  var approaching = 0u;
  for (var k = 0u; k < c; k++) {
    let j = a_marked[i * K + k] & ~APPROACH_BIT;
    let nvec = a_pos[j].xyz - a_pos[i].xyz; // n at the start of the step (Eq. 5)
    var flag = 0u;
    if (dot(nvec, a_velAfter[j].xyz - a_velAfter[i].xyz) < 0.0) { // Eq. 22
      flag = APPROACH_BIT;
      approaching++;
    }
    a_marked[i * K + k] = j | flag;
  }
  if (approaching == 0u) { return; }
  if (atomicAdd(&a_flag[0], approaching) == 0u) { atomicAdd(&a_stats[STAT_STAGE2_RUNS], 1u); }
}

// ---------------------------------------------------------------------------------------------
// Splitting (Eqs. 8–16, 20), one invocation per DOF slot: reverse order of merging, from the DOF's
// velocity after the step (dofV) and its ΔĒk of the synchronisation (Eq. 19, which comes per DOF
// from the coupling). The velocities are computed as v1′ = v12′ + u, v2′ = v12′ − (m1/m2) u with
// u = v1′ − v12′ on the sphere of Eq. 10 (see core/merge_split.ts splitDetailed). Records the
// worst relative momentum and energy errors of the step's splits (f32 bit patterns of
// non-negative floats order as u32).
@group(0) @binding(1) var<storage, read> s_mass: array<f32>;
@group(0) @binding(2) var<storage, read> s_level: array<vec4f>;
@group(0) @binding(3) var<storage, read> s_levelParent: array<vec4f>;
@group(0) @binding(4) var<storage, read> s_memberList: array<u32>;
@group(0) @binding(5) var<storage, read> s_dofV: array<vec4f>;
@group(0) @binding(6) var<storage, read> s_syncEnergy: array<f32>;
@group(0) @binding(7) var<storage, read_write> s_velOut: array<vec4f>;
@group(0) @binding(8) var<storage, read_write> s_stats: array<atomic<u32>>;

fn unit_or(a: vec3f, fallback: vec3f) -> vec3f {
  let big = max_abs(a);
  if (big > 0.0) {
    let b = a / big;
    return b / length(b);
  }
  return fallback;
}

@compute @workgroup_size(WG)
fn split_groups(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let d = gid.x + gid.y * nwg.x * WG;
  if (d >= P.count) { return; }
  let root = s_level[d];
  if (root.w != ROOT) { return; } // a member's slot
  let begin = u32(root.x);
  let end = u32(root.y);
  let vAfter = s_dofV[d].xyz;
  if (end - begin == 1u) {
    s_velOut[d] = vec4f(vAfter, 0.0);
    return;
  }
  let dEk = s_syncEnergy[d];
  var v = vAfter;
  var bondEnergy = 0.0;
  var M = 0.0;
  var closest = 0u; // pairwise splits on the closest-point branch (ε ≠ 0)
  for (var k = end - 1u; k > begin; k--) {
    let i = s_memberList[k];
    let A = s_level[i];
    let B = s_levelParent[i];
    let m1 = B.w; // the meta of the first k members
    let m2 = s_mass[i];
    let m12 = m1 + m2;
    if (k == end - 1u) { M = m12; }
    let v1 = B.xyz;
    // n̂ of n_k, or where n_k = 0 of v1 − v2 (merge_groups stored it then), else e_x
    let nHat = unit_or(A.xyz, vec3f(1.0, 0.0, 0.0));
    var stored = P.alpha * A.w;
    if (k == end - 1u) { stored += P.beta * dEk; } // ΔĒk lives in the outermost bond
    bondEnergy += stored;
    let s2 = max(0.0, 2.0 * stored / (m12 * (m1 / m2))); // Eqs. 11, 20
    let dvec = v - v1; // v12′ − v1
    let b = dot(nHat, dvec);
    let w = dvec - b * nHat;
    let disc = s2 - dot(w, w);
    var u: vec3f;
    if (disc >= 0.0) {
      u = -w - sqrt(disc) * nHat; // smaller root of Eq. 13, ε = 0
    } else {
      u = -(sqrt(s2) / length(w)) * w; // closest point, Eqs. 15–16
      closest += 1u;
    }
    // |u| = s is Eq. 10 (energy). In f32, w keeps a component along n̂ of about ε|v12′ − v1|,
    // so the root's |u|² = s² + 2√disc (w·n̂): relative energy errors of 1e-4 when a group stops
    // within its step (|v12′ − v1| ≫ s). Rescaling u to s restores Eq. 10 to round-off; Eq. 8
    // keeps momentum for any u.
    let uLen = length(u);
    if (uLen > 0.0) {
      u = u * (sqrt(s2) / uLen);
    }
    s_velOut[i] = vec4f(v - (m1 / m2) * u, 0.0); // v2′ (Eq. 8)
    v = v + u; // v1′: the velocity of the meta of the first k members
  }
  s_velOut[s_memberList[begin]] = vec4f(v, 0.0);
  // conservation check over the group
  var p = vec3f(0.0);
  var pScale = 0.0;
  var ke = 0.0;
  for (var k = begin; k < end; k++) {
    let i = s_memberList[k];
    let vi = s_velOut[i].xyz;
    p += s_mass[i] * vi;
    pScale += s_mass[i] * length(vi);
    ke += 0.5 * s_mass[i] * dot(vi, vi);
  }
  let eWant = 0.5 * M * dot(vAfter, vAfter) + bondEnergy;
  let pErr = length(p - M * vAfter) / max(pScale + M * length(vAfter), 1e-30);
  let eErr = abs(ke - eWant) / max(max(ke, eWant), 1e-30);
  atomicMax(&s_stats[STAT_MOMENTUM_ERROR], bitcast<u32>(pErr));
  atomicMax(&s_stats[STAT_ENERGY_ERROR], bitcast<u32>(eErr));
  if (closest > 0u) { atomicAdd(&s_stats[STAT_CLOSEST_SPLITS], closest); }
}
