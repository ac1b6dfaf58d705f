// The whole-step momentum and energy budget (host code and definitions: gpu/metrics/step_budget.ts).
// On a budget step, probes reduce the state at the phase boundaries of the step into slots of
// `probes` (4 vec4 per slot); `finish` turns the slots into the budget's columns of the step's
// metrics sample row. One workgroup per probe, fixed-order tree reductions: bit-reproducible.

struct BudgetParams {
  count: u32,     // particles (= DOF slots)
  slot: u32,      // the probe slot this dispatch writes
  systems: u32,   // K: the part slices
  stride: u32,    // elements per part slice
  withBonds: u32, // particle probes: 1 sums the bonds' elastic energy into b.w
  row: u32,       // finish: the sample row
  fields: u32,    // finish: columns per sample row
  dt: f32,
  gravity: vec3f,
  pad0: u32,
}

const WG: u32 = 256u;
// The broken-bond flag of bondList entries (gpu/state/bond_flags.ts BOND_BROKEN_BIT, passed in).
override BROKEN_BIT: u32;
// Probe slots (step_budget.ts BUDGET_PROBES, passed in).
override S_START: u32;
override S_MERGED: u32;
override S_INTEGRATED: u32;
override S_SYNCED: u32;
override S_SPLIT: u32;
override S_END: u32;
// Columns of the sample row (gpu/metrics/metrics.ts SAMPLE_FIELDS, passed in).
override C_MOMENTUM_SCALE: u32;
override C_MERGE_MOMENTUM: u32;
override C_PIN_MOMENTUM: u32;
override C_INTEGRATION_MOMENTUM: u32;
override C_HANDLER_IMPULSE: u32;
override C_HANDLER_IMBALANCE: u32;
override C_WALL_MOMENTUM: u32;
override C_SPLIT_MOMENTUM: u32;
override C_END_MOMENTUM: u32;
override C_EXTERNAL_MOMENTUM: u32;
override C_MERGE_ENERGY: u32;
override C_PIN_ENERGY: u32;
override C_INTEGRATION_ENERGY: u32;
override C_COUPLING_ENERGY: u32;
override C_WALL_ENERGY: u32;
override C_SPLIT_ENERGY: u32;
override C_END_ENERGY: u32;
override C_STEP_ENERGY: u32;

@group(0) @binding(0) var<uniform> P: BudgetParams;
@group(0) @binding(9) var<storage, read_write> probes: array<vec4f>;

// RED slots, not WG: see reduce4.
const RED: u32 = 16u;
var<workgroup> red: array<vec4f, RED>;

// Fixed-order sum over the workgroup; every invocation gets the total. Uniform control flow. The
// WG values are folded into RED slots band by band (invocations k·RED … k·RED + RED − 1 add into
// slots 0 … RED − 1, one band after the other), then summed in a tree over the slots: a workgroup
// array of RED entries, not WG, since the workgroup memory's zero initialisation (WGSL's)
// costs SwiftShader compile time in proportion to its size (0.5–0.8 s a kernel at WG vec4).
fn reduce4(lid: u32, v: vec4f) -> vec4f {
  for (var band = 0u; band < WG / RED; band++) {
    if (lid / RED == band) {
      let k = lid % RED;
      red[k] = select(v, red[k] + v, band > 0u);
    }
    workgroupBarrier();
  }
  for (var s = RED / 2u; s > 0u; s = s / 2u) {
    if (lid < s) { red[lid] = red[lid] + red[lid + s]; }
    workgroupBarrier();
  }
  let total = red[0];
  workgroupBarrier();
  return total;
}

fn write_slot(lid: u32, a: vec4f, b: vec4f, c: vec4f, d: vec4f) {
  let ra = reduce4(lid, a);
  let rb = reduce4(lid, b);
  let rc = reduce4(lid, c);
  let rd = reduce4(lid, d);
  if (lid == 0u) {
    probes[4u * P.slot] = ra;
    probes[4u * P.slot + 1u] = rb;
    probes[4u * P.slot + 2u] = rc;
    probes[4u * P.slot + 3u] = rd;
  }
}

// Particles (the start and end of a step: x, v; after splitting: v = velOut):
//   a = (Σ m v, Σ ½ m |v|²), b = (Σ m x, Σ bond energy if withBonds), c = (Σ m |v|, Σ m, 0, 0),
//   d = (Σ handler force, Σ its magnitude) over every particle, pinned ones included.
// probe_particles writes the slot with b.w = 0 (5 storage buffers: 1–4, 9); probe_bonds, after it
// where withBonds, sums the bond energies into b.w (6: 2, 5–9), the same sum in the same order
// (each component of the tree sum is its own): one kernel would bind 9, more than the 8 WebGPU
// guarantees per stage.
@group(0) @binding(1) var<storage, read> p_mass: array<f32>;
@group(0) @binding(2) var<storage, read> q_pos: array<vec4f>;
@group(0) @binding(3) var<storage, read> p_vel: array<vec4f>;
@group(0) @binding(4) var<storage, read> p_force: array<vec4f>;
@group(0) @binding(5) var<storage, read> q_bondStart: array<u32>;
@group(0) @binding(6) var<storage, read> q_bondList: array<u32>;
@group(0) @binding(7) var<storage, read> q_bondClass: array<u32>;
@group(0) @binding(8) var<storage, read> q_springClasses: array<SpringClass>;

@compute @workgroup_size(WG)
fn probe_particles(@builtin(local_invocation_index) lid: u32) {
  var a = vec4f(0.0);
  var b = vec4f(0.0);
  var c = vec4f(0.0);
  var d = vec4f(0.0);
  for (var i = lid; i < P.count; i += WG) {
    let m = p_mass[i];
    let v = p_vel[i].xyz;
    a += vec4f(m * v, 0.5 * m * dot(v, v));
    b += vec4f(m * q_pos[i].xyz, 0.0);
    c += vec4f(m * length(v), m, 0.0, 0.0);
    let f = p_force[i].xyz;
    d += vec4f(f, length(f));
  }
  write_slot(lid, a, b, c, d);
}

// After probe_particles (withBonds): b.w = Σ of the bonds' elastic energy (bond_energy.wgsl).
@compute @workgroup_size(WG)
fn probe_bonds(@builtin(local_invocation_index) lid: u32) {
  var e = 0.0;
  for (var i = lid; i < P.count; i += WG) {
    e += bond_energy(i).x;
  }
  let total = reduce4(lid, vec4f(0.0, 0.0, 0.0, e));
  if (lid == 0u) {
    probes[4u * P.slot + 1u].w = total.w;
  }
}

// DOFs (after merging, after the coupling's sync), live slots only (a non-empty member list):
//   a = (Σ M v, Σ ½ M |v|²) over DOFs without a pinned member, b = the same over pinned ones,
//   c = (Σ M over unpinned DOFs, Σ ΔĒk of the sync (Eq. 19), 0, 0), d = 0.
@group(0) @binding(1) var<storage, read> d_memberStart: array<u32>;
@group(0) @binding(2) var<storage, read> d_memberList: array<u32>;
@group(0) @binding(3) var<storage, read> d_pinned: array<u32>;
@group(0) @binding(4) var<storage, read> d_dofM: array<f32>;
@group(0) @binding(5) var<storage, read> d_dofV: array<vec4f>;
@group(0) @binding(6) var<storage, read> d_syncEnergy: array<f32>;

fn has_pin(begin: u32, end: u32) -> bool {
  var pin = false;
  for (var k = begin; k < end; k++) { pin = pin || d_pinned[d_memberList[k]] != 0u; }
  return pin;
}

@compute @workgroup_size(WG)
fn probe_dofs(@builtin(local_invocation_index) lid: u32) {
  var a = vec4f(0.0);
  var b = vec4f(0.0);
  var c = vec4f(0.0);
  for (var d = lid; d < P.count; d += WG) {
    let begin = d_memberStart[d];
    let end = d_memberStart[d + 1u];
    if (end <= begin) { continue; }
    let M = d_dofM[d];
    let v = d_dofV[d].xyz;
    let t = vec4f(M * v, 0.5 * M * dot(v, v));
    if (has_pin(begin, end)) {
      b += t;
    } else {
      a += t;
      c += vec4f(M, d_syncEnergy[d], 0.0, 0.0);
    }
  }
  write_slot(lid, a, b, c, vec4f(0.0));
}

// Parts (after the systems' integration, before the sync), over live DOFs without a pinned member
// (a pinned DOF's parts are discarded by the sync): a = (Σ_s m_s v_s, Σ_s ½ m_s |v_s|²),
// b = (Σ handler force on the members, Σ its magnitude), c = d = 0.
@group(0) @binding(4) var<storage, read> t_partMass: array<f32>;
// partVel as two ranges of one buffer (gpu/runtime/split_binding.ts; elements below PART_CHUNK
// in A, as the coupling binds it).
@group(0) @binding(5) var<storage, read> t_partVelA: array<vec4f>;
@group(0) @binding(7) var<storage, read> t_partVelB: array<vec4f>;
override PART_CHUNK: u32;

fn part_vel(e: u32) -> vec4f {
  if (e < PART_CHUNK) { return t_partVelA[e]; }
  return t_partVelB[e - PART_CHUNK];
}
@group(0) @binding(6) var<storage, read> t_force: array<vec4f>;

@compute @workgroup_size(WG)
fn probe_parts(@builtin(local_invocation_index) lid: u32) {
  var a = vec4f(0.0);
  var b = vec4f(0.0);
  for (var d = lid; d < P.count; d += WG) {
    let begin = d_memberStart[d];
    let end = d_memberStart[d + 1u];
    if (end <= begin || has_pin(begin, end)) { continue; }
    for (var s = 0u; s < P.systems; s++) {
      let m = t_partMass[s * P.stride + d];
      if (m <= 0.0) { continue; }
      let v = part_vel(s * P.stride + d).xyz;
      a += vec4f(m * v, 0.5 * m * dot(v, v));
    }
    for (var k = begin; k < end; k++) {
      let f = t_force[d_memberList[k]].xyz;
      b += vec4f(f, length(f));
    }
  }
  write_slot(lid, a, b, vec4f(0.0), vec4f(0.0));
}

// The budget's columns of sample row P.row from the slots (one invocation; step_budget.ts has the
// definitions). Momenta are magnitudes (N s), energies signed changes (J).
@group(0) @binding(1) var<storage, read> f_probes: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> f_samples: array<f32>;

fn slot(s: u32, k: u32) -> vec4f { return f_probes[4u * s + k]; }

@compute @workgroup_size(1)
fn finish() {
  let g = P.gravity;
  let dt = P.dt;
  let start = slot(S_START, 0u);
  let merged = slot(S_MERGED, 0u);
  let mergedPin = slot(S_MERGED, 1u);
  let mFree = slot(S_MERGED, 2u).x;
  let integrated = slot(S_INTEGRATED, 0u);
  let handlerForce = slot(S_INTEGRATED, 1u).xyz;
  let synced = slot(S_SYNCED, 0u);
  let syncedPin = slot(S_SYNCED, 1u);
  let syncLoss = slot(S_SYNCED, 2u).y;
  let split = slot(S_SPLIT, 0u);
  let end = slot(S_END, 0u);
  let gravityImpulse = dt * mFree * g;
  // potential energy −Σ m g·x and the bonds' elastic energy change only with the positions
  let dPotential = -dot(g, slot(S_END, 1u).xyz - slot(S_START, 1u).xyz);
  let dElastic = slot(S_END, 1u).w - slot(S_START, 1u).w;
  let row = P.row * P.fields;
  f_samples[row + C_MOMENTUM_SCALE] = slot(S_START, 2u).x + length(dt * slot(S_START, 2u).y * g);
  f_samples[row + C_MERGE_MOMENTUM] = length(merged.xyz + mergedPin.xyz - start.xyz);
  f_samples[row + C_PIN_MOMENTUM] = length(syncedPin.xyz - mergedPin.xyz);
  f_samples[row + C_INTEGRATION_MOMENTUM] = length(
    integrated.xyz - merged.xyz - gravityImpulse - dt * handlerForce,
  );
  // Newton's third law over every particle (the split probe's; pinned ones take reactions too)
  let allForce = slot(S_SPLIT, 3u);
  f_samples[row + C_HANDLER_IMPULSE] = length(dt * allForce.xyz);
  f_samples[row + C_HANDLER_IMBALANCE] = select(0.0, length(allForce.xyz) / allForce.w, allForce.w > 0.0);
  f_samples[row + C_WALL_MOMENTUM] = length(synced.xyz - integrated.xyz);
  f_samples[row + C_SPLIT_MOMENTUM] = length(split.xyz - synced.xyz - syncedPin.xyz);
  f_samples[row + C_END_MOMENTUM] = length(end.xyz - split.xyz);
  f_samples[row + C_EXTERNAL_MOMENTUM] = length(end.xyz - start.xyz - gravityImpulse);
  f_samples[row + C_MERGE_ENERGY] = merged.w + mergedPin.w - start.w;
  f_samples[row + C_PIN_ENERGY] = syncedPin.w - mergedPin.w;
  f_samples[row + C_INTEGRATION_ENERGY] = integrated.w - merged.w + dPotential + dElastic;
  f_samples[row + C_COUPLING_ENERGY] = -syncLoss;
  f_samples[row + C_WALL_ENERGY] = synced.w - (integrated.w - syncLoss);
  f_samples[row + C_SPLIT_ENERGY] = split.w - synced.w - syncedPin.w;
  f_samples[row + C_END_ENERGY] = end.w - split.w;
  f_samples[row + C_STEP_ENERGY] = end.w - start.w + dPotential + dElastic;
}
