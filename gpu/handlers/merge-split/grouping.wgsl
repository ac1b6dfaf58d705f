// Grouping of colliding pairs into meta-particles (paper §5.2) in parallel, bit for bit the f64
// reference core/grouping/grouping.ts (whose header says how it reads §5.2). Host: grouping.ts.
//
// Pairs: particle i's colliding partners pairs[i*K ..] (j > i, ascending) and, in stage 2, its
// marked partners flagged APPROACH_BIT by mark_approaching (merge_split.wgsl).
//
// Every stage: group_init (each particle alone), then the active set, the particles with a
// partner: active_list flags them and lists them (`M` of them, in no particular order: no round's
// outcome depends on it). Only they can merge.
// With a limit (P.nMax > 0), rounds of pairwise merging over the active set:
//   propose    per active particle, over its pairs: each group's lowest priority of a fitting
//              neighbour group
//   pick       the lowest index among the neighbours of that priority
//   handshake  per active group root: two groups that picked each other merge into the lower
//              index
//   relabel    per active particle: its group's new root
// until a round merges nothing (or MAX_ROUNDS). Up to LOCAL_LIMIT particles the rounds run inside
// one workgroup (rounds_local: the phases separated by barriers, the loop left as soon as a round
// merges nothing: one dispatch in all); past it each connected component's rounds run in a
// workgroup of their own (comp_rounds, after the components as index order finds them): groups
// never span two components, and a component's rounds depend on nothing outside it.
// Without a limit, the connected components: cc_hook (a lock-free union–find, the larger root
// hooked under the smaller, so the labels end as each component's lowest index whatever the
// order of the hooks), then io_flatten_count (each particle's root, counted for the member lists).
// Then the member lists (CSR, members ascending): count per root, exclusive scan, an unordered
// fill, and a rank per member (how many members of its group have a lower index) that puts it at
// its place: deterministic, no sort.
// Index order, the paper's own pass, exact: see "index order" below (components in parallel), and
// for few particles the whole pass in one workgroup (io_small, io_members_small).
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
}

override WG: u32 = 64u;
override ROUND_SALT: u32;
override MAX_ROUNDS: u32;
// Words of merge-split's statistics (merge_split_stats.ts MERGE_SPLIT_STATS, passed in).
override STAT_STAGE2_PAIRS: u32;
override STAT_GROUPS: u32;
override STAT_LARGEST_GROUP: u32;
override STAT_GROUPING_ROUNDS: u32;
override STAT_LARGEST_SHEET_GROUP: u32;
// Body-kind bit of a cloth particle (gpu/state/particle_state.ts KIND_BITS.sheet, passed in).
override FLAG_CLOTH: u32;
// Merge order colliding-pairs with the index-order pass (core/merge_orders.ts): each group's
// members listed in the order they joined, and from word N of the member list on, at the same
// place, the partner each joined through (NONE for the first), which merge_groups takes Eq. 5's n
// from. Otherwise members ascending, no partners (NONE): n from the meta's centre (index-com).
override JOINED: bool = false;
// The index-order pass: in a stage-1 step in which no pair collides, the kernels that only find
// components (cc_hook to io_comp_rank) return at once (no_pairs), so such a step costs the
// grouping the passes that write the map of single particles (group_init, io_recount, the scan,
// io_place), and io_flood runs no invocation.
override SKIP_WITHOUT_PAIRS: bool = false;

/// Workgroup size of rounds_local, and the most active particles it takes.
const WG_LOCAL: u32 = 256u;
override LOCAL_LIMIT: u32 = 4096u;

const APPROACH_BIT: u32 = 0x80000000u;
const NONE: u32 = 0xffffffffu;

// Regions of the work buffers (N = P.count each): workA size, limit, bestPrio, best, then the
// control words; workB the active flags (N + 1, first: the active numbering scans them in place
// from word 0), into, cursor, unordered members, active list.
// workA
fn r_size() -> u32 { return 0u; }
fn r_limit() -> u32 { return P.count; }
fn r_best_prio() -> u32 { return 2u * P.count; }
fn r_best() -> u32 { return 3u * P.count; }
fn r_ctrl() -> u32 { return 4u * P.count; }
// workB
fn r_flag() -> u32 { return 0u; }
fn r_into() -> u32 { return P.count + 1u; }
fn r_cursor() -> u32 { return 2u * P.count + 1u; }
fn r_unordered() -> u32 { return 3u * P.count + 1u; }
fn r_active() -> u32 { return 4u * P.count + 1u; }
// control words
const C_ROUND: u32 = 0u; // the last round rounds_local ran when it handed over (NONE before)
const C_MERGES: u32 = 1u; // 1 while the last round merged something
const C_OPEN: u32 = 2u; // 1 while rounds_local has rounds left to run
const C_M: u32 = 3u; // active particles (the component lists' cursor in io_alloc)
const C_LOCAL: u32 = 4u; // 1 when rounds_local handed the rounds over (index order: components cut)
const C_COMPS: u32 = 5u; // components of 2..COMP_SERIAL_MAX particles (io_alloc's list of roots)
const C_LARGE: u32 = 6u; // components of more (listed from the top of the same region down)
const C_PAIRS: u32 = 7u; // step + 1 when a pair collides in stage 1 of that step (group_init)
/// Words of `workA` after the regions.
const CTRL_WORDS: u32 = 8u;

// Each entry point's layout holds only the bindings it uses (grouping.ts BINDINGS): at most 8
// storage buffers, WebGPU's guaranteed maxStorageBuffersPerShaderStage.
@group(0) @binding(0) var<uniform> P: GroupingParams;
@group(0) @binding(1) var<storage, read> pairCount: array<u32>;
@group(0) @binding(2) var<storage, read> pairs: array<u32>;
@group(0) @binding(3) var<storage, read> markedCount: array<u32>;
@group(0) @binding(4) var<storage, read> marked: array<u32>;
@group(0) @binding(5) var<storage, read_write> dof: array<atomic<u32>>;
// The grouping's own scratch in two buffers (4N + 5 and 5N + 1 words: each under the 128 MiB
// binding limit up to 6.7M particles; Table I's largest scene, fig8-bowl, has 6.51M): workA size,
// limit, best_prio, best and the control words, workB the active flags, into, cursor, unordered,
// active.
@group(0) @binding(6) var<storage, read_write> workA: array<atomic<u32>>;
@group(0) @binding(7) var<storage, read_write> workB: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read_write> memberStart: array<atomic<u32>>;
@group(0) @binding(9) var<storage, read_write> memberList: array<u32>;
@group(0) @binding(10) var<storage, read_write> stats: array<atomic<u32>>;
// The ranks of the member lists only: body-kind bits per particle (the sheet members of a group)
@group(0) @binding(13) var<storage, read> kind: array<u32>;

fn ctrl_load(w: u32) -> u32 { return atomicLoad(&workA[r_ctrl() + w]); }
fn ctrl_store(w: u32, v: u32) { atomicStore(&workA[r_ctrl() + w], v); }
fn flag_load(i: u32) -> u32 { return atomicLoad(&workB[r_flag() + i]); }
fn flag_store(i: u32, v: u32) { atomicStore(&workB[r_flag() + i], v); }

fn pcg_hash(input: u32) -> u32 {
  let state = input * 747796405u + 2891336453u;
  let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}
fn hash3(a: u32, b: u32, c: u32) -> u32 {
  return pcg_hash(a + pcg_hash(b + pcg_hash(c)));
}
// core/grouping/grouping.ts drawGroupLimit
fn draw_limit(root: u32) -> u32 {
  let span = P.nMax - P.nMin + 1u;
  return P.nMin + hash3(P.seed, P.step, root) % span;
}
// core/grouping/grouping.ts roundPriority: pcg(root + key) with key = round_key(round), the same for every
// group of a round (computed once per round and invocation).
fn round_key(round: u32) -> u32 {
  return hash3(P.seed, P.step, ROUND_SALT + round);
}
fn priority(root: u32, key: u32) -> u32 {
  return pcg_hash(root + key);
}

fn particle(gid: vec3u, nwg: vec3u) -> u32 {
  return gid.x + gid.y * nwg.x * WG;
}

fn size_of(g: u32) -> u32 { return atomicLoad(&workA[r_size() + g]); }
fn limit_of(g: u32) -> u32 { return atomicLoad(&workA[r_limit() + g]); }

// The limit of the union of groups a and b (core/grouping/grouping.ts joinedLimit), 0 when it does not fit.
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

// The groups of i and of its k-th partner when they differ and fit together, else NONE.
fn fitting_groups(i: u32, k: u32) -> vec2u {
  let j = partner(i, k);
  if (j == NONE) { return vec2u(NONE); }
  let a = atomicLoad(&dof[i]);
  let b = atomicLoad(&dof[j]);
  if (a == b || joined_limit(a, b) == 0u) { return vec2u(NONE); }
  return vec2u(a, b);
}

// Per particle: alone, its active flag cleared; the control words reset.
fn init_particle(i: u32) {
  atomicStore(&dof[i], i);
  init_work(i);
}

// init_particle but for `dof` (io_small, which does not bind it, labels the groups in workA).
fn init_work(i: u32) {
  let n = P.count;
  if (i == 0u) {
    ctrl_store(C_ROUND, NONE);
    ctrl_store(C_MERGES, 1u);
    ctrl_store(C_OPEN, 1u);
    ctrl_store(C_M, 0u);
    ctrl_store(C_LOCAL, 0u);
    ctrl_store(C_COMPS, 0u);
    ctrl_store(C_LARGE, 0u);
    flag_store(n, 0u);
    // this stage's groups replace the last ones (rank_member takes the max)
    atomicStore(&stats[STAT_LARGEST_SHEET_GROUP], 0u);
  }
  atomicStore(&workA[r_size() + i], 1u);
  atomicStore(&workA[r_limit() + i], 0u);
  atomicStore(&workA[r_best_prio() + i], NONE);
  atomicStore(&workA[r_best() + i], NONE);
  atomicStore(&workB[r_into() + i], NONE);
  atomicStore(&workB[r_cursor() + i], 0u);
  flag_store(i, 0u);
  if (P.stage == 2u) {
    let K = P.maxPerParticle;
    var added = 0u;
    for (var k = 0u; k < markedCount[i]; k++) {
      if ((marked[i * K + k] & APPROACH_BIT) != 0u) { added++; }
    }
    if (added > 0u) { atomicAdd(&stats[STAT_STAGE2_PAIRS], added); }
  }
}

// Per particle: its member count cleared (and the end of the starts), before members_count.
fn clear_members(i: u32) {
  atomicStore(&memberStart[i], 0u);
  if (i == 0u) { atomicStore(&memberStart[P.count], 0u); }
}

@compute @workgroup_size(WG)
fn group_init(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  if (i < P.count) {
    init_particle(i);
    clear_members(i);
    // every particle with a pair stores the same word: no clear, no order (no_pairs)
    if (P.stage == 1u && pairCount[i] > 0u) { ctrl_store(C_PAIRS, P.step + 1u); }
  }
}

// Whether this is stage 1 of a step in which no pair collides (group_init's word; a word left
// from another step with the same index only makes the grouping run, never skip) and the pass
// may skip the kernels that find components (SKIP_WITHOUT_PAIRS): there are none to find.
fn no_pairs() -> bool {
  return SKIP_WITHOUT_PAIRS && P.stage == 1u && ctrl_load(C_PAIRS) != P.step + 1u;
}

// A particle with partners: it and its partners are active.
fn mark_particle(i: u32) {
  var has = false;
  for (var k = 0u; k < partner_total(i); k++) {
    let j = partner(i, k);
    if (j == NONE) { continue; }
    flag_store(j, 1u);
    has = true;
  }
  if (has) { flag_store(i, 1u); }
}

// A particle flagged active for the first time joins the active list (in no particular order: the
// rounds' outcome does not depend on it), counted in M.
fn activate(i: u32) {
  if (atomicExchange(&workB[r_flag() + i], 1u) == 0u) {
    atomicStore(&workB[r_active() + atomicAdd(&workA[r_ctrl() + C_M], 1u)], i);
  }
}

// A particle with partners: it and its partners join the active list (one dispatch: no scan).
@compute @workgroup_size(WG)
fn active_list(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  if (i >= P.count) { return; }
  var has = false;
  for (var k = 0u; k < partner_total(i); k++) {
    let j = partner(i, k);
    if (j == NONE) { continue; }
    activate(j);
    has = true;
  }
  if (has) { activate(i); }
}

fn active_at(t: u32) -> u32 { return atomicLoad(&workB[r_active() + t]); }

// ---- the phases of a round, for active particle t ----
fn propose(t: u32, key: u32) {
  let i = active_at(t);
  atomicStore(&workB[r_into() + i], NONE); // read by the last round's relabel
  for (var k = 0u; k < partner_total(i); k++) {
    let g = fitting_groups(i, k);
    if (g.x == NONE) { continue; }
    atomicMin(&workA[r_best_prio() + g.x], priority(g.y, key));
    atomicMin(&workA[r_best_prio() + g.y], priority(g.x, key));
  }
}

fn pick(t: u32, key: u32) {
  let i = active_at(t);
  for (var k = 0u; k < partner_total(i); k++) {
    let g = fitting_groups(i, k);
    if (g.x == NONE) { continue; }
    if (priority(g.y, key) == atomicLoad(&workA[r_best_prio() + g.x])) {
      atomicMin(&workA[r_best() + g.x], g.y);
    }
    if (priority(g.x, key) == atomicLoad(&workA[r_best_prio() + g.y])) {
      atomicMin(&workA[r_best() + g.y], g.x);
    }
  }
}

// Group root g merges with the group b it picked when b picked g and g < b (the merges of a round
// are disjoint pairs, so no two invocations touch the same group). True when it merged.
fn handshake(t: u32) -> bool {
  let g = active_at(t);
  if (atomicLoad(&dof[g]) != g) { return false; }
  let b = atomicLoad(&workA[r_best() + g]);
  if (b == NONE || b <= g || atomicLoad(&workA[r_best() + b]) != g) { return false; }
  let cap = joined_limit(g, b);
  atomicStore(&workA[r_size() + g], size_of(g) + size_of(b));
  atomicStore(&workA[r_limit() + g], cap);
  atomicStore(&workB[r_into() + b], g);
  return true;
}

fn relabel(t: u32) {
  let i = active_at(t);
  let to = atomicLoad(&workB[r_into() + atomicLoad(&dof[i])]);
  if (to != NONE) { atomicStore(&dof[i], to); }
  atomicStore(&workA[r_best_prio() + i], NONE);
  atomicStore(&workA[r_best() + i], NONE);
}

// ---- the rounds in one workgroup (N <= LOCAL_LIMIT) ----
// llvmpipe stops any invocation's loops after 65,535 iterations in all: each invocation counts
// its own (a particle, plus its partners, per phase), and before a round the workgroup checks
// that the costliest invocation can afford another round like the last one; when it cannot, the
// next rounds_local dispatch goes on from that round (same rounds, same result).
override LOCAL_BUDGET: u32 = 60000u;
var<workgroup> wMerges: atomic<u32>;
var<workgroup> wCost: atomic<u32>;
var<workgroup> wCount: u32;
var<workgroup> wStart: u32;

fn local_sync() {
  storageBarrier();
  workgroupBarrier();
}

@compute @workgroup_size(WG_LOCAL)
fn rounds_local(@builtin(local_invocation_index) lid: u32) {
  run_rounds(lid);
}

// One round's four phases by the workgroup over active-list entries [lo, hi), barriers between
// them, its merges counted in wMerges: this invocation's loop iterations.
fn round_phases(lid: u32, lo: u32, hi: u32, key: u32) -> u32 {
  var spent = 0u;
  for (var t = lo + lid; t < hi; t += WG_LOCAL) {
    propose(t, key);
    spent += 1u + partner_total(active_at(t));
  }
  local_sync();
  for (var t = lo + lid; t < hi; t += WG_LOCAL) {
    pick(t, key);
    spent += 1u + partner_total(active_at(t));
  }
  local_sync();
  for (var t = lo + lid; t < hi; t += WG_LOCAL) {
    if (handshake(t)) { atomicAdd(&wMerges, 1u); }
    spent += 1u;
  }
  local_sync();
  for (var t = lo + lid; t < hi; t += WG_LOCAL) {
    relabel(t);
    spent += 1u;
  }
  return spent;
}

// After round_phases: the round's merges, the same for every invocation (wMerges reset).
fn round_merges(lid: u32) -> u32 {
  local_sync();
  if (lid == 0u) {
    wCount = atomicLoad(&wMerges);
    atomicStore(&wMerges, 0u);
  }
  return workgroupUniformLoad(&wCount);
}

// The rounds over the active list by the workgroup (its M read from the control words).
fn run_rounds(lid: u32) {
  if (lid == 0u) {
    wCount = ctrl_load(C_M);
    // where to start: round 0, or after the rounds an earlier dispatch handed over; nowhere when
    // an earlier dispatch finished them
    wStart = 0u;
    if (ctrl_load(C_LOCAL) == 1u) { wStart = ctrl_load(C_ROUND) + 1u; }
    if (ctrl_load(C_OPEN) == 0u) { wStart = MAX_ROUNDS; }
    atomicStore(&wMerges, 0u);
    atomicStore(&wCost, 0u);
  }
  let m = workgroupUniformLoad(&wCount);
  if (m > LOCAL_LIMIT) { return; }
  let start = workgroupUniformLoad(&wStart);
  if (start >= MAX_ROUNDS) { return; }
  var merged = 0u; // rounds of this dispatch that merged
  var spent = 0u; // this invocation's loop iterations so far
  var lastRound = 0u; // the costliest invocation's iterations in the last round
  var round = start;
  var handOver = false;
  loop {
    if (round >= MAX_ROUNDS) { break; }
    let cost = round_phases(lid, 0u, m, round_key(round));
    spent += cost;
    atomicMax(&wCost, cost + 8u);
    let mergedNow = round_merges(lid);
    round++;
    if (mergedNow == 0u) { break; }
    merged++;
    // can the costliest invocation afford another such round in this dispatch (it has spent at
    // most (rounds so far) × that)?
    if (lid == 0u) { wCount = atomicLoad(&wCost); }
    lastRound = workgroupUniformLoad(&wCount);
    if ((round - start + 1u) * lastRound > LOCAL_BUDGET) {
      handOver = true;
      break;
    }
  }
  if (lid == 0u) {
    // every round before `start` merged (a hand-over follows a merging round)
    atomicMax(&stats[STAT_GROUPING_ROUNDS], start + merged);
    if (handOver && round < MAX_ROUNDS) {
      // the next rounds_local dispatch goes on from `round`
      ctrl_store(C_ROUND, round - 1u);
      ctrl_store(C_MERGES, 1u);
      ctrl_store(C_OPEN, 1u);
      ctrl_store(C_LOCAL, 1u);
    } else {
      ctrl_store(C_OPEN, 0u); // nothing left to do
    }
  }
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
  if (i >= P.count || no_pairs()) { return; }
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

// ---- member lists ----
fn count_member(i: u32) {
  atomicAdd(&memberStart[atomicLoad(&dof[i])], 1u);
}

// After the scan of the counts (memberStart exclusive): the members in their groups, unordered.
fn fill_member(i: u32) {
  let g = atomicLoad(&dof[i]);
  let at = atomicAdd(&workB[r_cursor() + g], 1u);
  atomicStore(&workB[r_unordered() + atomicLoad(&memberStart[g]) + at], i);
}

// Each member's place: the members of its group with a lower index come before it. The root
// also counts its group's sheet members (FLAG_CLOTH), for statistic largestSheetGroup: a
// measurement (an integer max, order-free) taken here, where the members are at hand, rather than
// in merging, whose kernels bind as many storage buffers as allowed.
// `joined`: the member's place in the order of joining and its partner (joined_place), or
// ASCENDING for its rank by index and no partner.
fn rank_member(i: u32, joined: vec2u) {
  let g = atomicLoad(&dof[i]);
  let begin = atomicLoad(&memberStart[g]);
  let size = atomicLoad(&memberStart[g + 1u]) - begin;
  place_member(i, g, begin, size, r_unordered() + begin, joined);
}

const ASCENDING: vec2u = vec2u(NONE, NONE);

// Member i of group g in the order of joining (JOINED): its place and the partner it joined
// through, as the index-order pass left them (io_take); the root first, through none.
fn joined_place(i: u32, g: u32) -> vec2u {
  if (!JOINED) { return ASCENDING; }
  if (i == g) { return vec2u(0u, NONE); }
  return vec2u(atomicLoad(&workA[r_best_prio() + i]), atomicLoad(&workB[r_into() + i]));
}

// Member i of the group rooted at g, whose `size` members lie unordered in workB from `unordered`:
// its place in the member list from `begin` (`joined.x`, or with ASCENDING its rank by index) and
// the partner it joined through (`joined.y`) at word N on (see JOINED), and at the root the
// group's statistics.
fn place_member(i: u32, g: u32, begin: u32, size: u32, unordered: u32, joined: vec2u) {
  var rank = 0u;
  var sheet = 0u;
  for (var k = 0u; k < size; k++) {
    let j = atomicLoad(&workB[unordered + k]);
    if (j < i) { rank++; }
    if (i == g && (kind[j] & FLAG_CLOTH) != 0u) { sheet++; }
  }
  if (joined.x != NONE) { rank = joined.x; }
  memberList[begin + rank] = i;
  memberList[P.count + begin + rank] = joined.y;
  if (i == g && size > 1u) {
    atomicAdd(&stats[STAT_GROUPS], 1u);
    atomicMax(&stats[STAT_LARGEST_GROUP], size);
  }
  if (sheet > 0u) { atomicMax(&stats[STAT_LARGEST_SHEET_GROUP], sheet); }
}

@compute @workgroup_size(WG)
fn members_count(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  if (i < P.count) { count_member(i); }
}

// The members in their groups, unordered, and the census of the stage's groups.
@compute @workgroup_size(WG)
fn members_fill(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let i = particle(gid, nwg);
  census_pairs_begin(lid);
  if (i < P.count) {
    fill_member(i);
    census_group(i);
    census_pairs(i);
  }
  census_pairs_end(lid);
}

@compute @workgroup_size(WG)
fn members_rank(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  if (i < P.count) { rank_member(i, ASCENDING); }
}

// ---- compact: the whole grouping in one workgroup (P.count <= SMALL_LIMIT, with a limit) ----
// The same steps as the dispatches above, separated by barriers instead of dispatches: a dispatch
// costs llvmpipe a fixed ~0.1-0.3 ms, which dominated the grouping of the small scenes. Two
// dispatches, group_small (the groups: 8 storage buffers) then members_small (the member lists):
// as one they would bind 9, more than WebGPU guarantees. Scans are over contiguous chunks (one per
// invocation) and a workgroup scan of the chunk totals, so the active list and the member starts
// come out in ascending order, as from the dispatched scans.
var<workgroup> wScan: array<u32, WG_LOCAL>;

// Exclusive scan of one value per invocation over the workgroup; returns (prefix, total).
fn wg_scan(lid: u32, value: u32) -> vec2u {
  wScan[lid] = value;
  workgroupBarrier();
  for (var off = 1u; off < WG_LOCAL; off = off * 2u) {
    var v = wScan[lid];
    if (lid >= off) { v += wScan[lid - off]; }
    workgroupBarrier();
    wScan[lid] = v;
    workgroupBarrier();
  }
  let inclusive = wScan[lid];
  let total = wScan[WG_LOCAL - 1u];
  workgroupBarrier();
  return vec2u(inclusive - value, total);
}

// The contiguous chunk of particles [lo, hi) of invocation lid.
fn small_chunk(lid: u32) -> vec2u {
  let n = P.count;
  let chunk = (n + WG_LOCAL - 1u) / WG_LOCAL;
  let lo = min(n, lid * chunk);
  return vec2u(lo, min(n, lo + chunk));
}

// group_init, active_mark, the active numbering and active_compact, then rounds_local; then the
// census's pairs.
@compute @workgroup_size(WG_LOCAL)
fn group_small(@builtin(local_invocation_index) lid: u32) {
  let n = P.count;
  let range = small_chunk(lid);
  let lo = range.x;
  let hi = range.y;
  for (var i = lid; i < n; i += WG_LOCAL) { init_particle(i); }
  local_sync();
  for (var i = lid; i < n; i += WG_LOCAL) { mark_particle(i); }
  local_sync();
  // the active list, ascending
  var count = 0u;
  for (var i = lo; i < hi; i++) { count += flag_load(i); }
  let at = wg_scan(lid, count);
  var next = at.x;
  for (var i = lo; i < hi; i++) {
    if (flag_load(i) != 0u) {
      atomicStore(&workB[r_active() + next], i);
      next++;
    }
  }
  if (lid == 0u) { ctrl_store(C_M, at.y); }
  local_sync();
  run_rounds(lid);
  local_sync();
  census_pairs_begin(lid);
  for (var i = lid; i < n; i += WG_LOCAL) { census_pairs(i); }
  census_pairs_end(lid);
}

// After group_small: members_count, the member starts' scan, members_fill and members_rank; the
// census's groups.
@compute @workgroup_size(WG_LOCAL)
fn members_small(@builtin(local_invocation_index) lid: u32) {
  members_local(lid);
  for (var i = lid; i < P.count; i += WG_LOCAL) {
    rank_member(i, ASCENDING);
    census_group(i);
  }
}

// The member lists up to their members unordered, from `dof`, by the workgroup (members_small,
// io_members_small: then each places its members and takes the census's groups).
fn members_local(lid: u32) {
  let n = P.count;
  let range = small_chunk(lid);
  let lo = range.x;
  let hi = range.y;
  for (var i = lid; i < n; i += WG_LOCAL) { clear_members(i); }
  local_sync();
  for (var i = lid; i < n; i += WG_LOCAL) { count_member(i); }
  local_sync();
  // member starts: exclusive scan of the counts in place
  var sum = 0u;
  for (var i = lo; i < hi; i++) { sum += atomicLoad(&memberStart[i]); }
  let base = wg_scan(lid, sum);
  var acc = base.x;
  for (var i = lo; i < hi; i++) {
    let c = atomicLoad(&memberStart[i]);
    atomicStore(&memberStart[i], acc);
    acc += c;
  }
  if (lid == 0u) { atomicStore(&memberStart[n], base.y); }
  local_sync();
  for (var i = lid; i < n; i += WG_LOCAL) { fill_member(i); }
  local_sync();
}

// ---- index order: the paper's own pass (core/grouping/index_order_grouping.ts), exact ----
// §5.2: "Our implementation performs merging in the order of particle indices [...] before
// starting to merge each group, we can randomly pick a limit between [...] n_min and n_max."
// The pass is sequential, but only within a connected component of the collision graph: groups
// never span two components. So: the components (cc_hook, then io_flatten_count, which also counts
// their members), their member lists ascending, each in a region allocated from a cursor (io_alloc,
// io_fill, io_comp_rank: no scan), then one invocation per component runs the reference's pass
// over its component (io_flood), which leaves each group's members in a queue region of its own;
// io_recount turns its groups into `dof` and the counts of the final member lists (with the census's
// pairs), and after their scan io_place puts each member at its rank among its group's queue (with
// the census's groups). 9 dispatches and one scan.
// Regions reused (after group_init: size 1, limit 0, best_prio and best NONE):
//   workA size      component size at each root (io_alloc), then each group's size at its root
//   workA limit     group root + 1 of a grouped particle, 0 while in no group
//   workA best_prio start of each root's region of the component lists (io_alloc), then of each
//                   group's queue at its root (io_flood: the component root's is the same)
//   workA best      head of a particle's list of lower partners (a pair slot, NONE at the end)
//   workB cursor    fill cursors of the regions
//   workB unordered the component lists unordered (io_fill), then the flood's queue: each group's
//                   members in the order they joined
//   workB active    the component lists, ascending (io_comp_rank)
//   links           pair slot m*K + k -> the next slot of the same partner's list of lower partners
// The flood's loops stop after IO_BUDGET iterations in all (llvmpipe and lavapipe stop an
// invocation's loops after 65,535): a component that needs more is left partly ungrouped and
// counted (control word C_LOCAL, statistic groupingIncomplete); on a GPU the budget is unlimited.
override IO_BUDGET: u32 = 60000u;
override STAT_GROUPING_INCOMPLETE: u32;

@group(0) @binding(12) var<storage, read_write> links: array<u32>;
// io_flood's workgroups (x, y, z), written by io_comp_rank once io_alloc has listed the
// components: one invocation per component of two or more particles, none for the others (a sweep
// over every particle that only finds each one alone costs as much as the pass itself)
@group(0) @binding(14) var<storage, read_write> floodArgs: array<u32>;
const WG_PER_ROW: u32 = 65535u;

fn io_group_of(i: u32) -> u32 { return atomicLoad(&workA[r_limit() + i]); }
fn io_lower_head(i: u32) -> u32 { return atomicLoad(&workA[r_best() + i]); }
fn io_queue(q: u32) -> u32 { return atomicLoad(&workB[r_unordered() + q]); }

@compute @workgroup_size(WG)
fn io_flatten_count(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  if (i >= P.count || no_pairs()) { return; }
  let r = cc_find(i);
  atomicStore(&dof[i], r);
  atomicAdd(&memberStart[r], 1u);
}

// Each component of two or more particles gets a region of the work lists: [start, start + size)
// from a cursor (control word C_M, unused by this pass); where a region lies changes nothing. Its
// root joins a list of components in workB's active flags (unused by these passes; comp_rounds
// reads them): up to COMP_SERIAL_MAX members from word 0 up, larger ones from word N down (at most
// N/2 components in all, so the two never meet).
@compute @workgroup_size(WG)
fn io_alloc(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  if (i >= P.count || no_pairs() || atomicLoad(&dof[i]) != i) { return; }
  let c = atomicLoad(&memberStart[i]);
  if (c < 2u) { return; }
  atomicStore(&workA[r_size() + i], c);
  atomicStore(&workA[r_best_prio() + i], atomicAdd(&workA[r_ctrl() + C_M], c));
  if (c <= COMP_SERIAL_MAX) {
    atomicStore(&workB[r_flag() + atomicAdd(&workA[r_ctrl() + C_COMPS], 1u)], i);
  } else {
    atomicStore(&workB[r_flag() + P.count - atomicAdd(&workA[r_ctrl() + C_LARGE], 1u)], i);
  }
}

// The members of each component in its region, unordered.
@compute @workgroup_size(WG)
fn io_fill(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  if (i >= P.count || no_pairs()) { return; }
  let r = atomicLoad(&dof[i]);
  if (atomicLoad(&workA[r_size() + r]) < 2u) { return; }
  let at = atomicAdd(&workB[r_cursor() + r], 1u);
  atomicStore(&workB[r_unordered() + atomicLoad(&workA[r_best_prio() + r]) + at], i);
}

// Each member at its place in its component's ascending list (the members with a lower index
// come before it); the fill cursors cleared for the member lists of the groups.
@compute @workgroup_size(WG)
fn io_comp_rank(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  if (i == 0u) { io_flood_args(); }
  if (i >= P.count || no_pairs()) { return; }
  let r = atomicLoad(&dof[i]);
  let c = atomicLoad(&workA[r_size() + r]);
  if (c < 2u) { return; }
  let begin = atomicLoad(&workA[r_best_prio() + r]);
  var rank = 0u;
  for (var k = begin; k < begin + c; k++) {
    if (atomicLoad(&workB[r_unordered() + k]) < i) { rank++; }
  }
  atomicStore(&workB[r_active() + begin + rank], i);
}

// Joins particle j to the group of root s when it is in no group: whether it joined. A member
// other than the root keeps its place in the order of joining (`rank`, in workA best_prio, which
// the pass uses only at group roots) and the partner it joined through (`via`, in workB into,
// which only the compact rounds use).
fn io_take(j: u32, s: u32, tail: u32, via: u32, rank: u32) -> bool {
  if (io_group_of(j) != 0u) { return false; }
  atomicStore(&workA[r_limit() + j], s + 1u);
  atomicStore(&workB[r_unordered() + tail], j);
  if (j != s) {
    atomicStore(&workA[r_best_prio() + j], rank);
    atomicStore(&workB[r_into() + j], via);
  }
  return true;
}

// io_flood's dispatch: a workgroup per WG components in io_alloc's lists, rows of WG_PER_ROW
// workgroups past WebGPU's limit per dimension (at most N/2 components).
fn io_flood_args() {
  let wgs = (ctrl_load(C_COMPS) + ctrl_load(C_LARGE) + WG - 1u) / WG;
  let rows = max(1u, (wgs + WG_PER_ROW - 1u) / WG_PER_ROW);
  floodArgs[0] = min(wgs, WG_PER_ROW);
  floodArgs[1] = rows;
  floodArgs[2] = 1u;
}

// The root of the k-th component of io_alloc's lists (the small ones from word 0 up, then the
// large ones from word N down), NONE past them.
fn io_component(k: u32) -> u32 {
  let small = ctrl_load(C_COMPS);
  if (k < small) { return flag_load(k); }
  if (k - small >= ctrl_load(C_LARGE)) { return NONE; }
  return flag_load(P.count - (k - small));
}

// One invocation per component of two or more particles (io_flood_args): the paper's pass over the
// component (the reference's loop).
@compute @workgroup_size(WG)
fn io_flood(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = io_component(particle(gid, nwg));
  if (r == NONE) { return; }
  let c = atomicLoad(&workA[r_size() + r]);
  atomicStore(&workA[r_size() + r], 1u);
  let begin = atomicLoad(&workA[r_best_prio() + r]);
  if (!io_pass(begin, c, false)) { atomicAdd(&workA[r_ctrl() + C_LOCAL], 1u); }
}

// The p-th particle the pass visits: of a component's ascending list at `begin` (io_flood), or
// p itself when the pass runs over all the particles (io_small).
fn io_member(begin: u32, p: u32, all: bool) -> u32 {
  if (all) { return p; }
  return atomicLoad(&workB[r_active() + begin + p]);
}

// The pass's loops over partner slots take IO_UNROLL slots an iteration (io_link, io_lower,
// io_upper: each one step of the reference's loop, nothing once that loop is done): llvmpipe's
// cap counts loop iterations, so io_small's bound (grouping.ts indexOrderLoops) counts IO_UNROLL
// times fewer for them, as IO_BUDGET does.
const IO_UNROLL: u32 = 4u;

// A group being grown: its root s, its queue [start, tail) in workB unordered, its limit.
struct IoGroup {
  s: u32,
  start: u32,
  tail: u32,
  limit: u32,
}

fn io_open(g: ptr<function, IoGroup>) -> bool { return (*g).tail - (*g).start < (*g).limit; }

// Joins particle j to the group through member `via` (NONE: j starts it) when it is in no group.
fn io_join(g: ptr<function, IoGroup>, j: u32, via: u32) {
  if (io_take(j, (*g).s, (*g).tail, via, (*g).tail - (*g).start)) { (*g).tail++; }
}

// Slot k of m's partners (k < total) prepended to its partner's list of lower partners.
fn io_link(m: u32, k: u32, total: u32) {
  if (k >= total) { return; }
  let j = partner(m, k);
  if (j == NONE) { return; }
  let slot = m * P.maxPerParticle + k;
  links[slot] = io_lower_head(j);
  atomicStore(&workA[r_best() + j], slot);
}

// One step along member m's list of lower partners (at `slot`, NONE at its end).
fn io_lower(g: ptr<function, IoGroup>, m: u32, slot: ptr<function, u32>) {
  if (*slot == NONE || !io_open(g)) { return; }
  io_join(g, *slot / P.maxPerParticle, m);
  *slot = links[*slot];
}

// One step of the merge of member m's two ascending lists of higher partners: pairs [0, pc) at
// ab.x, approaching marked pairs [0, mc) at ab.y (the others skipped, a step each).
fn io_upper(g: ptr<function, IoGroup>, m: u32, pc: u32, mc: u32, ab: ptr<function, vec2u>) {
  if (((*ab).x >= pc && (*ab).y >= mc) || !io_open(g)) { return; }
  var jb = NONE;
  if ((*ab).y < mc) {
    jb = partner(m, pc + (*ab).y);
    if (jb == NONE) {
      (*ab).y++;
      return;
    }
  }
  var j = jb;
  var fromPairs = false;
  if ((*ab).x < pc) {
    let ja = pairs[m * P.maxPerParticle + (*ab).x];
    fromPairs = jb == NONE || ja < jb;
    if (fromPairs) { j = ja; }
  }
  if (fromPairs) { (*ab).x++; } else { (*ab).y++; }
  io_join(g, j, m);
}

// The reference's pass over c particles ascending (io_member): each particle in no group starts
// one, its limit drawn, grown breadth first along its partners ascending up to the limit. A
// particle whose partners are all taken starts a group of one: its own label, as the reference
// leaves it (a draw is a hash, so drawing one more changes no other). Each group's size at its
// root (workA size, 1 beforehand). False when its loops ran past IO_BUDGET iterations (the group
// being grown stays as far as it got: connected, within its limit).
fn io_pass(begin: u32, c: u32, all: bool) -> bool {
  var used = 0u;
  var ok = true;
  // Lists of lower partners, ascending: members in descending order, each prepended to the lists
  // of its (higher) partners.
  for (var p = c; p > 0u && ok; p--) {
    let m = io_member(begin, p - 1u, all);
    let total = partner_total(m);
    used += 2u + total / IO_UNROLL;
    if (used > IO_BUDGET) { ok = false; break; }
    for (var k = 0u; k < total; k += IO_UNROLL) {
      io_link(m, k, total);
      io_link(m, k + 1u, total);
      io_link(m, k + 2u, total);
      io_link(m, k + 3u, total);
    }
  }
  var g = IoGroup(NONE, begin, begin, NONE);
  for (var p = 0u; p < c && ok; p++) {
    used++;
    if (used > IO_BUDGET) { ok = false; break; }
    let s = io_member(begin, p, all);
    if (io_group_of(s) != 0u) { continue; }
    // a new group starts at s: its limit is drawn now
    var limit = NONE;
    if (P.nMax > 0u) { limit = draw_limit(s); }
    g = IoGroup(s, g.tail, g.tail, limit);
    // where its queue starts, for io_place (the component root's is its region's start already)
    if (!all) { atomicStore(&workA[r_best_prio() + s], g.start); }
    io_join(&g, s, NONE);
    var head = g.start;
    while (ok && head < g.tail && io_open(&g)) {
      let m = io_queue(head);
      head++;
      // partners below m (ascending), then above m: the pairs and the approaching marked pairs,
      // two ascending lists merged
      var slot = io_lower_head(m);
      while (slot != NONE && io_open(&g)) {
        used++;
        if (used > IO_BUDGET) { ok = false; break; }
        io_lower(&g, m, &slot);
        io_lower(&g, m, &slot);
        io_lower(&g, m, &slot);
        io_lower(&g, m, &slot);
      }
      let pc = pairCount[m];
      var mc = 0u;
      if (P.stage == 2u) { mc = markedCount[m]; }
      var ab = vec2u(0u);
      while (ok && (ab.x < pc || ab.y < mc) && io_open(&g)) {
        used++;
        if (used > IO_BUDGET) { ok = false; break; }
        io_upper(&g, m, pc, mc, &ab);
        io_upper(&g, m, pc, mc, &ab);
        io_upper(&g, m, pc, mc, &ab);
        io_upper(&g, m, pc, mc, &ab);
      }
    }
    atomicStore(&workA[r_size() + s], g.tail - g.start);
    g.s = NONE;
  }
  if (!ok && g.s != NONE) { atomicStore(&workA[r_size() + g.s], g.tail - g.start); }
  return ok;
}

// Particle i's group label from the pass's group roots (workA limit: root + 1, 0 when alone).
fn io_label(i: u32) -> u32 {
  let g1 = io_group_of(i);
  if (g1 == 0u) { return i; }
  return g1 - 1u;
}

// ---- index order in one workgroup (grouping.ts indexOrderSmall: few particles) ----
// The dispatched pass's components only let it run them in parallel; one invocation running the
// pass over all the particles ascending is the reference's loop itself, the same groups. Two
// dispatches instead of nine and a scan: io_small (the work cleared, the pass by invocation 0, the
// census's pairs: 8 storage buffers, so the labels stay in workA), then io_members_small (the
// labels into `dof`, then members_small's steps). On llvmpipe and lavapipe the pass's loops must
// stay within one invocation's budget whatever the pairs: the host takes this path only within
// the bound (grouping.ts indexOrderLoops); IO_BUDGET still stops and counts a pass that would run
// past it. The pass is serial: past the bound the components run in parallel.
@compute @workgroup_size(WG_LOCAL)
fn io_small(@builtin(local_invocation_index) lid: u32) {
  let n = P.count;
  for (var i = lid; i < n; i += WG_LOCAL) { init_work(i); }
  local_sync();
  if (lid == 0u && !io_pass(0u, n, true)) { atomicAdd(&stats[STAT_GROUPING_INCOMPLETE], 1u); }
  local_sync();
  census_pairs_begin(lid);
  for (var i = lid; i < n; i += WG_LOCAL) { io_census_pairs(i); }
  census_pairs_end(lid);
}

// After io_small: each particle's group label into `dof`, the fill cursors cleared, then the
// member lists and the census's groups as members_small.
@compute @workgroup_size(WG_LOCAL)
fn io_members_small(@builtin(local_invocation_index) lid: u32) {
  for (var i = lid; i < P.count; i += WG_LOCAL) {
    atomicStore(&dof[i], io_label(i));
    atomicStore(&workB[r_cursor() + i], 0u);
  }
  local_sync();
  members_local(lid);
  for (var i = lid; i < P.count; i += WG_LOCAL) {
    rank_member(i, joined_place(i, atomicLoad(&dof[i])));
    census_group(i);
  }
}

// After io_flood: each particle's group root in `dof`, the counts of the member lists (each
// group's size at its root, written whole: no clear needed), and the census's pairs (the labels
// are final in workA).
@compute @workgroup_size(WG)
fn io_recount(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
) {
  let i = particle(gid, nwg);
  census_pairs_begin(lid);
  if (i < P.count) {
    let d = io_label(i);
    atomicStore(&dof[i], d);
    var n = 0u;
    if (d == i) { n = atomicLoad(&workA[r_size() + i]); }
    atomicStore(&memberStart[i], n);
    io_census_pairs(i);
    if (i == 0u) {
      atomicStore(&memberStart[P.count], 0u);
      let incomplete = ctrl_load(C_LOCAL);
      if (incomplete > 0u) { atomicAdd(&stats[STAT_GROUPING_INCOMPLETE], incomplete); }
    }
  }
  census_pairs_end(lid);
}

// After the scan of io_recount's counts: each particle at its place in its group's member list,
// ascending (the members of its group with a lower index come before it: its rank among the
// group's queue from io_flood), and at each root the census's group and the group statistics (as
// rank_member). A particle in no group is a group of one.
@compute @workgroup_size(WG)
fn io_place(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  if (i >= P.count) { return; }
  let g = io_label(i);
  let begin = atomicLoad(&memberStart[g]);
  let size = atomicLoad(&memberStart[g + 1u]) - begin;
  if (g == i) { census_group_at(i, size); }
  if (size == 1u) {
    // alone, maybe never queued: its own place, a sheet member a sheet group of one (as rank_member)
    memberList[begin] = i;
    memberList[P.count + begin] = NONE;
    if ((kind[i] & FLAG_CLOTH) != 0u) { atomicMax(&stats[STAT_LARGEST_SHEET_GROUP], 1u); }
    return;
  }
  place_member(i, g, begin, size, r_unordered() + atomicLoad(&workA[r_best_prio() + g]), joined_place(i, g));
}

// ---- the census of a stage's groups (both groupings; a measurement, not part of the method) ----
// After the member starts' scan: per stage, how many groupings ran, the groups formed (and their
// members), the colliding pairs and those left between two groups, the largest group, and a
// histogram of group sizes (sizes 2..64 one bin each, then one bin per power of two up to 2^20 and
// beyond). Counters are 64-bit (lo, hi words), cumulative over the run;
// core/grouping/grouping_census.ts reads them. It needs no pass of its own: members_fill takes it
// (per particle, after the scan); the others split it, the pairs once the groups are final
// (group_small, io_small, io_recount) and the groups once the starts are (members_small,
// io_members_small, io_place).
override STAT_CENSUS: u32;
const CENSUS_STAGE_WORDS: u32 = 164u;
const CENSUS_RUNS: u32 = 0u;
const CENSUS_GROUPS: u32 = 1u;
const CENSUS_MEMBERS: u32 = 3u;
const CENSUS_PAIRS: u32 = 5u;
const CENSUS_BETWEEN: u32 = 7u;
const CENSUS_MAX: u32 = 9u;
const CENSUS_HIST: u32 = 10u;
const CENSUS_BINS: u32 = 77u;

// The workgroup's partners and partners in another group, added up once per workgroup.
var<workgroup> wCensus: array<atomic<u32>, 2>;

fn census_base() -> u32 { return STAT_CENSUS + (P.stage - 1u) * CENSUS_STAGE_WORDS; }

fn add64(w: u32, v: u32) {
  if (v == 0u) { return; }
  let old = atomicAdd(&stats[w], v);
  if (old + v < old) { atomicAdd(&stats[w + 1u], 1u); }
}

// Sizes 2..64: bins 0..62; 65..128: 63; 129..256: 64; ... 2^19+1..: 76.
fn census_bin(size: u32) -> u32 {
  if (size <= 64u) { return size - 2u; }
  return min(CENSUS_BINS - 1u, 57u + firstLeadingBit(size - 1u));
}

// Particle i's group when i is its root and it has two or more members (after the scan).
fn census_group(i: u32) {
  if (atomicLoad(&dof[i]) != i) { return; }
  census_group_at(i, atomicLoad(&memberStart[i + 1u]) - atomicLoad(&memberStart[i]));
}

// The group of `size` members whose root is i, when it has two or more.
fn census_group_at(i: u32, size: u32) {
  if (size < 2u) { return; }
  let base = census_base();
  add64(base + CENSUS_GROUPS, 1u);
  add64(base + CENSUS_MEMBERS, size);
  add64(base + CENSUS_HIST + 2u * census_bin(size), 1u);
  atomicMax(&stats[base + CENSUS_MAX], size);
}

// Particle i's partners and those in another group into the workgroup's sums (the groups final);
// particle 0 counts the stage's grouping.
fn census_pairs(i: u32) {
  let d = atomicLoad(&dof[i]);
  var total = 0u;
  var between = 0u;
  for (var k = 0u; k < partner_total(i); k++) {
    let j = partner(i, k);
    if (j == NONE) { continue; }
    total++;
    if (atomicLoad(&dof[j]) != d) { between++; }
  }
  census_pairs_add(i, total, between);
}

// census_pairs with the group labels of io_small (workA, before `dof` is written).
fn io_census_pairs(i: u32) {
  let d = io_label(i);
  var total = 0u;
  var between = 0u;
  for (var k = 0u; k < partner_total(i); k++) {
    let j = partner(i, k);
    if (j == NONE) { continue; }
    total++;
    if (io_label(j) != d) { between++; }
  }
  census_pairs_add(i, total, between);
}

// Particle i's partners and partners in another group into the workgroup's sums.
fn census_pairs_add(i: u32, total: u32, between: u32) {
  if (total > 0u) { atomicAdd(&wCensus[0], total); }
  if (between > 0u) { atomicAdd(&wCensus[1], between); }
  if (i == 0u) { atomicAdd(&stats[census_base() + CENSUS_RUNS], 1u); }
}

// Before census_pairs, by the whole workgroup: its sums cleared.
fn census_pairs_begin(lid: u32) {
  if (lid == 0u) {
    atomicStore(&wCensus[0], 0u);
    atomicStore(&wCensus[1], 0u);
  }
  workgroupBarrier();
}

// After census_pairs, by the whole workgroup: its sums into the statistics.
fn census_pairs_end(lid: u32) {
  workgroupBarrier();
  if (lid == 0u) {
    let base = census_base();
    add64(base + CENSUS_PAIRS, atomicLoad(&wCensus[0]));
    add64(base + CENSUS_BETWEEN, atomicLoad(&wCensus[1]));
  }
}

// ---- compact past LOCAL_LIMIT: each component's rounds on their own ----
// The components as index order finds them (cc_hook, io_flatten_count, io_alloc, which lists their
// roots), each one's members in its region of the active list (comp_fill, which also leaves every
// particle alone again), then comp_rounds: a component of up to COMP_SERIAL_MAX members runs its
// rounds in one invocation (most are pairs and triples: a workgroup's barriers would cost more than
// its rounds), a larger one in a workgroup as rounds_local runs them. Exact: a round's proposals,
// picks and merges within one component read nothing outside it, and a component whose round
// merged nothing is final (some round merges while a fitting pair is left), so its rounds are
// those of the whole graph. On a fallback adapter each invocation's loops are bounded
// (LOCAL_BUDGET, counted as the worst case of each round): a component whose rounds would run past
// it stops after its last whole round, its groups valid (connected, within their limits), and is
// counted (statistic groupingIncomplete).
override COMP_SERIAL_MAX: u32 = 32u;

// The members of each component of two or more in its region of the active list, unordered;
// every particle alone again (`dof`) and its member count cleared for the member lists.
@compute @workgroup_size(WG)
fn comp_fill(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = particle(gid, nwg);
  if (i >= P.count) { return; }
  let r = atomicLoad(&dof[i]);
  atomicStore(&dof[i], i);
  atomicStore(&memberStart[i], 0u);
  if (atomicLoad(&workA[r_size() + r]) < 2u) { return; }
  let at = atomicAdd(&workB[r_cursor() + r], 1u);
  atomicStore(&workB[r_active() + atomicLoad(&workA[r_best_prio() + r]) + at], i);
}

// The component rooted at r: (start of its region, size); its root alone again and its fill
// cursor cleared for the member lists.
fn comp_take(r: u32) -> vec2u {
  let c = vec2u(atomicLoad(&workA[r_best_prio() + r]), atomicLoad(&workA[r_size() + r]));
  atomicStore(&workA[r_size() + r], 1u);
  atomicStore(&workA[r_best_prio() + r], NONE);
  atomicStore(&workB[r_cursor() + r], 0u);
  return c;
}

// Loop iterations one round over c members may cost an invocation taking every `stride`-th (the
// four phases over ⌈c / stride⌉ entries, two of them over each one's K partners, and the round's).
fn round_cost(c: u32, stride: u32) -> u32 {
  return ((c + stride - 1u) / stride) * (2u * (1u + P.maxPerParticle) + 2u) + 8u;
}

// The rounds of a component [lo, hi) of the active list by one invocation: the phases of
// round_phases in turn. Returns (rounds that merged, 1 when the budget cut them); `used` counts
// the budget.
fn serial_rounds(lo: u32, hi: u32, used: ptr<function, u32>) -> vec2u {
  let cost = round_cost(hi - lo, 1u);
  var merged = 0u;
  for (var round = 0u; round < MAX_ROUNDS; round++) {
    if (LOCAL_BUDGET != NONE) {
      if (*used + cost > LOCAL_BUDGET) { return vec2u(merged, 1u); }
      *used += cost;
    }
    let key = round_key(round);
    for (var t = lo; t < hi; t++) { propose(t, key); }
    for (var t = lo; t < hi; t++) { pick(t, key); }
    var merges = 0u;
    for (var t = lo; t < hi; t++) { merges += select(0u, 1u, handshake(t)); }
    for (var t = lo; t < hi; t++) { relabel(t); }
    if (merges == 0u) { break; }
    merged++;
  }
  return vec2u(merged, 0u);
}

// The component at hand of the workgroup: its root, the start of its region, its size.
var<workgroup> wComp: vec3u;
// The most loop iterations an invocation of the workgroup spent on small components.
var<workgroup> wSpent: u32;

@compute @workgroup_size(WG_LOCAL)
fn comp_rounds(
  @builtin(local_invocation_index) lid: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let w = wid.x + wid.y * nwg.x;
  let workgroups = nwg.x * nwg.y;
  if (lid == 0u) {
    atomicStore(&wCost, 0u);
    atomicStore(&wMerges, 0u);
  }
  workgroupBarrier();
  // the small components, one an invocation
  let small = ctrl_load(C_COMPS);
  var used = 0u;
  var most = 0u;
  var cuts = 0u;
  for (var k = w * WG_LOCAL + lid; k < small; k += workgroups * WG_LOCAL) {
    let c = comp_take(atomicLoad(&workB[r_flag() + k]));
    let out = serial_rounds(c.x, c.x + c.y, &used);
    most = max(most, out.x);
    cuts += out.y;
  }
  if (most > 0u) { atomicMax(&stats[STAT_GROUPING_ROUNDS], most); }
  if (cuts > 0u) { atomicAdd(&stats[STAT_GROUPING_INCOMPLETE], cuts); }
  // the large ones, a workgroup each, each invocation's budget less the most one spent above
  atomicMax(&wCost, used);
  workgroupBarrier();
  if (lid == 0u) {
    wCount = ctrl_load(C_LARGE);
    wSpent = atomicLoad(&wCost);
  }
  let large = workgroupUniformLoad(&wCount);
  var spent = workgroupUniformLoad(&wSpent);
  for (var k = w; k < large; k += workgroups) {
    if (lid == 0u) {
      let r = atomicLoad(&workB[r_flag() + P.count - k]);
      let c = comp_take(r);
      wComp = vec3u(r, c);
    }
    local_sync();
    let comp = workgroupUniformLoad(&wComp);
    let cost = round_cost(comp.z, WG_LOCAL);
    var merged = 0u;
    var cut = false;
    for (var round = 0u; round < MAX_ROUNDS; round++) {
      if (LOCAL_BUDGET != NONE) {
        if (spent + cost > LOCAL_BUDGET) {
          cut = true;
          break;
        }
        spent += cost;
      }
      round_phases(lid, comp.y, comp.y + comp.z, round_key(round));
      if (round_merges(lid) == 0u) { break; }
      merged++;
    }
    if (lid == 0u) {
      atomicMax(&stats[STAT_GROUPING_ROUNDS], merged);
      if (cut) { atomicAdd(&stats[STAT_GROUPING_INCOMPLETE], 1u); }
    }
  }
}
