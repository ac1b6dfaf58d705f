// Grouping of colliding pairs into meta-particles (paper §5.2) in parallel, bit for bit the f64
// reference core/grouping.ts (whose header says how it reads §5.2). Host: grouping.ts.
//
// Pairs: particle i's colliding partners pairs[i*K ..] (j > i, ascending) and, in stage 2, its
// marked partners flagged APPROACH_BIT by mark_approaching (merge_split.wgsl).
//
// With a limit (P.nMax > 0), rounds of pairwise merging, each one gated by an indirect dispatch
// so that rounds after the one that merged nothing cost an empty dispatch:
//   gate       (1 invocation) next round's dispatch args: the full shape while the last round
//              merged something, else zero workgroups; advances the round counter
//   propose    per particle, over its pairs: each group's lowest priority of a fitting neighbour
//   pick       per particle, over its pairs: the lowest index among the neighbours of that priority
//   handshake  per group root: two groups that picked each other merge into the lower index
//   relabel    per particle: its group's new root
// Without a limit, the connected components: cc_hook (a lock-free union–find, the larger root
// hooked under the smaller, so the labels end as each component's lowest index whatever the
// order of the hooks) and cc_flatten.
// Then the member lists (CSR, members ascending): count per root, exclusive scan
// (gpu/runtime/prefix_scan.wgsl), an unordered fill, and a rank per member (how many members of
// its group have a lower index) that puts it at its place: deterministic, no sort.
//
// The group label of each particle is `dof` (its group's lowest index, its own when alone).

struct GroupingParams {
  count: u32,
  maxPerParticle: u32,
  stage: u32,
  seed: u32,
  step: u32,
  nMin: u32,
  nMax: u32, // 0: no limit
  fullX: u32, // dispatch shape of one invocation per particle (x, y workgroups)
  fullY: u32,
}

override WG: u32 = 64u;
override ROUND_SALT: u32;
override STAT_STAGE2_PAIRS: u32;
override STAT_GROUPS: u32;
override STAT_LARGEST_GROUP: u32;
override STAT_GROUPING_ROUNDS: u32;

const APPROACH_BIT: u32 = 0x80000000u;
const NONE: u32 = 0xffffffffu;

// ctrl words
const C_ROUND: u32 = 0u;
const C_MERGES: u32 = 1u;
const C_ACTIVE: u32 = 2u;

@group(0) @binding(0) var<uniform> P: GroupingParams;
@group(0) @binding(1) var<storage, read> pairCount: array<u32>;
@group(0) @binding(2) var<storage, read> pairs: array<u32>;
@group(0) @binding(3) var<storage, read> markedCount: array<u32>;
@group(0) @binding(4) var<storage, read> marked: array<u32>;
@group(0) @binding(5) var<storage, read_write> dof: array<atomic<u32>>;
// size [0, N), limit [N, 2N), bestPrio [2N, 3N), best [3N, 4N), into [4N, 5N), cursor [5N, 6N),
// unordered members [6N, 7N)
@group(0) @binding(6) var<storage, read_write> work: array<atomic<u32>>;
@group(0) @binding(7) var<storage, read_write> ctrl: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read_write> memberStart: array<atomic<u32>>;
@group(0) @binding(9) var<storage, read_write> memberList: array<u32>;
@group(0) @binding(10) var<storage, read_write> stats: array<atomic<u32>>;
// gate only: the indirect args of the next round
@group(0) @binding(11) var<storage, read_write> nextArgs: array<u32>;

fn pcg_hash(input: u32) -> u32 {
  let state = input * 747796405u + 2891336453u;
  let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}
fn hash3(a: u32, b: u32, c: u32) -> u32 {
  return pcg_hash(a + pcg_hash(b + pcg_hash(c)));
}
// core/grouping.ts drawGroupLimit
fn draw_limit(root: u32) -> u32 {
  let span = P.nMax - P.nMin + 1u;
  return P.nMin + hash3(P.seed, P.step, root) % span;
}
// core/grouping.ts roundPriority
fn priority(root: u32, round: u32) -> u32 {
  return pcg_hash(root + hash3(P.seed, P.step, ROUND_SALT + round));
}

fn particle(gid: vec3u, nwg: vec3u) -> u32 {
  return gid.x + gid.y * nwg.x * WG;
}

fn size_of(g: u32) -> u32 { return atomicLoad(&work[g]); }
fn limit_of(g: u32) -> u32 { return atomicLoad(&work[P.count + g]); }

// The limit of the union of groups a and b (core/grouping.ts joinedLimit), 0 when it does not fit.
fn joined_limit(a: u32, b: u32) -> u32 {
  let sa = size_of(a);
  let sb = size_of(b);
  var cap: u32;
  if (sa == 1u && sb == 1u) {
    cap = draw_limit(min(a, b));
  } else if (sa == 1u) {
    cap = limit_of(b);
  } else if (sb == 1u) {
    cap = limit_of(a);
  } else {
    cap = min(limit_of(a), limit_of(b));
  }
  if (sa + sb <= cap) { return cap; }
  return 0u;
}

// Partners of i: pair slots [0, pc), then (stage 2) the approaching marked slots [pc, pc + mc).
fn partner_total(i: u32) -> u32 {
  var t = pairCount[i];
  if (P.stage == 2u) { t += markedCount[i]; }
  return t;
}
fn partner(i: u32, k: u32) -> u32 {
  let K = P.maxPerParticle;
  let pc = pairCount[i];
  if (k < pc) { return pairs[i * K + k]; }
  let m = marked[i * K + k - pc];
  if ((m & APPROACH_BIT) == 0u) { return NONE; }
  return m & ~APPROACH_BIT;
}

// Per particle: alone, its member count cleared; the round counter set so the first gate opens.
@compute @workgroup_size(WG)
fn group_init(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  let n = P.count;
  if (i == 0u) {
    atomicStore(&ctrl[C_ROUND], NONE);
    atomicStore(&ctrl[C_MERGES], 1u);
    atomicStore(&ctrl[C_ACTIVE], 1u);
    atomicStore(&memberStart[n], 0u);
  }
  if (i >= n) { return; }
  atomicStore(&dof[i], i);
  atomicStore(&work[i], 1u);
  atomicStore(&work[n + i], 0u);
  atomicStore(&work[2u * n + i], NONE);
  atomicStore(&work[3u * n + i], NONE);
  atomicStore(&work[4u * n + i], NONE);
  atomicStore(&work[5u * n + i], 0u);
  atomicStore(&memberStart[i], 0u);
  if (P.stage == 2u) {
    let K = P.maxPerParticle;
    var added = 0u;
    for (var k = 0u; k < markedCount[i]; k++) {
      if ((marked[i * K + k] & APPROACH_BIT) != 0u) { added++; }
    }
    if (added > 0u) { atomicAdd(&stats[STAT_STAGE2_PAIRS], added); }
  }
}

// One invocation: opens the next round while the last one merged something.
@compute @workgroup_size(1)
fn round_gate() {
  let merged = atomicLoad(&ctrl[C_MERGES]) > 0u;
  let open = atomicLoad(&ctrl[C_ACTIVE]) == 1u && merged;
  let round = atomicLoad(&ctrl[C_ROUND]) + 1u; // NONE + 1 = 0 before the first round
  if (open && round > 0u) { atomicMax(&stats[STAT_GROUPING_ROUNDS], round); }
  atomicStore(&ctrl[C_ROUND], round);
  atomicStore(&ctrl[C_MERGES], 0u);
  atomicStore(&ctrl[C_ACTIVE], select(0u, 1u, open));
  nextArgs[0] = select(0u, P.fullX, open);
  nextArgs[1] = select(0u, P.fullY, open);
  nextArgs[2] = 1u;
}

// The groups of i and of its k-th partner when they differ and fit together, else NONE.
fn fitting_groups(i: u32, k: u32) -> vec2u {
  let j = partner(i, k);
  if (j == NONE) { return vec2u(NONE); }
  let a = atomicLoad(&dof[i]);
  let b = atomicLoad(&dof[j]);
  if (a == b || joined_limit(a, b) == 0u) { return vec2u(NONE); }
  return vec2u(a, b);
}

@compute @workgroup_size(WG)
fn round_propose(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  let n = P.count;
  if (i >= n) { return; }
  atomicStore(&work[4u * n + i], NONE); // into, read by the last round's relabel
  let round = atomicLoad(&ctrl[C_ROUND]);
  for (var k = 0u; k < partner_total(i); k++) {
    let g = fitting_groups(i, k);
    if (g.x == NONE) { continue; }
    atomicMin(&work[2u * n + g.x], priority(g.y, round));
    atomicMin(&work[2u * n + g.y], priority(g.x, round));
  }
}

@compute @workgroup_size(WG)
fn round_pick(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  let n = P.count;
  if (i >= n) { return; }
  let round = atomicLoad(&ctrl[C_ROUND]);
  for (var k = 0u; k < partner_total(i); k++) {
    let g = fitting_groups(i, k);
    if (g.x == NONE) { continue; }
    if (priority(g.y, round) == atomicLoad(&work[2u * n + g.x])) { atomicMin(&work[3u * n + g.x], g.y); }
    if (priority(g.x, round) == atomicLoad(&work[2u * n + g.y])) { atomicMin(&work[3u * n + g.y], g.x); }
  }
}

// Per group root g: merges with the group b it picked when b picked g and g < b. The merges of a
// round are disjoint pairs, so no two invocations touch the same group.
@compute @workgroup_size(WG)
fn round_handshake(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let g = particle(gid, nwg);
  let n = P.count;
  if (g >= n || atomicLoad(&dof[g]) != g) { return; }
  let b = atomicLoad(&work[3u * n + g]);
  if (b == NONE || b <= g || atomicLoad(&work[3u * n + b]) != g) { return; }
  let cap = joined_limit(g, b);
  atomicStore(&work[g], size_of(g) + size_of(b));
  atomicStore(&work[n + g], cap);
  atomicStore(&work[4u * n + b], g);
  atomicAdd(&ctrl[C_MERGES], 1u);
}

// Per particle: the new root of its group; the proposals cleared for the next round.
@compute @workgroup_size(WG)
fn round_relabel(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  let n = P.count;
  if (i >= n) { return; }
  let to = atomicLoad(&work[4u * n + atomicLoad(&dof[i])]);
  if (to != NONE) { atomicStore(&dof[i], to); }
  atomicStore(&work[2u * n + i], NONE);
  atomicStore(&work[3u * n + i], NONE);
}

// ---- no limit: connected components ----
fn cc_find(i0: u32) -> u32 {
  var r = i0;
  loop {
    let p = atomicLoad(&dof[r]);
    if (p == r) { break; }
    r = p;
  }
  return r;
}

@compute @workgroup_size(WG)
fn cc_hook(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  if (i >= P.count) { return; }
  let total = partner_total(i);
  for (var k = 0u; k < total; k++) {
    let j = partner(i, k);
    if (j == NONE) { continue; }
    loop {
      let ri = cc_find(i);
      let rj = cc_find(j);
      if (ri == rj) { break; }
      let lo = min(ri, rj);
      let hi = max(ri, rj);
      if (atomicCompareExchangeWeak(&dof[hi], hi, lo).exchanged) { break; }
    }
  }
}

@compute @workgroup_size(WG)
fn cc_flatten(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  if (i >= P.count) { return; }
  atomicStore(&dof[i], cc_find(i));
}

// ---- member lists ----
@compute @workgroup_size(WG)
fn members_count(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  if (i >= P.count) { return; }
  atomicAdd(&memberStart[atomicLoad(&dof[i])], 1u);
}

// After the scan: memberStart is the exclusive prefix sum of the counts.
@compute @workgroup_size(WG)
fn members_fill(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  let n = P.count;
  if (i >= n) { return; }
  let g = atomicLoad(&dof[i]);
  let at = atomicAdd(&work[5u * n + g], 1u);
  atomicStore(&work[6u * n + atomicLoad(&memberStart[g]) + at], i);
}

// Each member's place: the members of its group with a lower index come before it.
@compute @workgroup_size(WG)
fn members_rank(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  let n = P.count;
  if (i >= n) { return; }
  let g = atomicLoad(&dof[i]);
  let begin = atomicLoad(&memberStart[g]);
  let end = atomicLoad(&memberStart[g + 1u]);
  var rank = 0u;
  for (var k = begin; k < end; k++) {
    if (atomicLoad(&work[6u * n + k]) < i) { rank++; }
  }
  memberList[begin + rank] = i;
  if (i == g && end - begin > 1u) {
    atomicAdd(&stats[STAT_GROUPS], 1u);
    atomicMax(&stats[STAT_LARGEST_GROUP], end - begin);
  }
}
