// Coupling of different integrators over K systems (paper §4, Eqs. 17–19), position update and
// the domain boundary. Host code: gpu/coupling/coupling.ts.
//
// A meta-particle (DOF d) may have members in any of the K systems of a scene. Its part in system
// s is the set of its members that system s integrates; m_s is their mass. Per-system slices of
// the part buffers are laid out at s * stride + d (stride a multiple of 64, so each slice can be
// bound at a 256-byte aligned offset):
//   partMass  m_s (Eq. 17's weights)         systemMass  the mass system s integrates DOF d with
//   partForce handler forces on the part      partVel     v_s, the velocity system s produced
// (partMass and systemMass share one buffer: systemMass of s at (K + s) * stride + d.)
// Before the systems integrate, the gather fills the masses, then the part forces; every system
// writes its partVel slice on the DOFs with systemMass > 0; after them the sync merges the K
// velocities into one, then moves the DOFs.
//
// Each of the four per-DOF steps is a function (gather_part_masses, gather_part_forces,
// merge_velocities, move_dof), called by one of two sets of entry points:
// - gather and sync, one dispatch each, run the two steps of the gather (of the sync) in one
//   invocation, the second reading what the first wrote; they bind range A of the part buffers
//   only, 8 storage buffers each;
// - gather_masses + gather_forces and sync_velocities + sync_positions, two dispatches each, for
//   part buffers past one binding (bound as ranges A and B): B would be a ninth storage buffer in
//   one kernel, one more than the 8 WebGPU guarantees per stage (6 + 7 and 8 + 3 buffers).
// Either way every DOF gets the same operations in the same order: the results are equal bit for
// bit.
//
// WGSL functions take no storage pointers, so the steps reach the part buffers through accessors
// that the host appends to this source (coupling.ts, PART_ACCESS_WGSL) in the variant its entry
// points bind: part_force(e), set_part_force(e, f) and part_vel(e) address element e of partForce
// and partVel in range A, or below PART_CHUNK in A and past it in B; gathered_part_mass(e) reads
// the part mass gather_part_forces needs through g_masses (binding 7, read_write) in the dispatch
// that wrote it, else through the read-only g_partMass (binding 10): one buffer may not be bound
// both writable and read-only in one dispatch.
//
// The coupling reading (P.reading): 0 = "own part": system s integrates its part alone (mass m_s,
// its forces on its members, the handler's forces on them, gravity); 1 = "whole": system s
// integrates the whole meta-particle as a regular particle of its own (mass M, its forces on its
// members, the handler's forces on every member, gravity), the paper's literal "we include these
// meta-particles in both simulation systems". Either way Eq. 17 weighs v_s by m_s.

struct CouplingParams {
  count: u32,
  systems: u32,
  stride: u32,
  reading: u32,
  dt: f32,
  radius: f32,
  pad0: u32,
  pad1: u32,
  gravity: vec3f,
  pad2: u32,
  domainMin: vec3f,
  pad3: u32,
  domainMax: vec3f,
  pad4: u32,
}

override WG: u32 = 64u;
override READING_WHOLE: u32 = 1u;
// Elements in range A of the part buffers bound as two (partForce, partVel).
override PART_CHUNK: u32;

@group(0) @binding(0) var<uniform> P: CouplingParams;

// The gather's bindings: gather 1–8; gather_masses 1–4, 6, 7; gather_forces 1–3, 5, 8, 9 and 10.
@group(0) @binding(1) var<storage, read> g_memberStart: array<u32>;
@group(0) @binding(2) var<storage, read> g_memberList: array<u32>;
@group(0) @binding(3) var<storage, read> g_system: array<u32>;
@group(0) @binding(4) var<storage, read> g_mass: array<f32>;
@group(0) @binding(5) var<storage, read> g_handlerForce: array<vec4f>;
@group(0) @binding(6) var<storage, read> g_dofM: array<f32>;
// partMass at s * stride + d, systemMass at (systems + s) * stride + d
@group(0) @binding(7) var<storage, read_write> g_masses: array<f32>;
// the same buffer, read by gather_forces
@group(0) @binding(10) var<storage, read> g_partMass: array<f32>;
// partForce as ranges A and B of one buffer (gpu/runtime/split_binding.ts): elements below
// PART_CHUNK in A, the rest in B. Table I's 6.5M-particle bowl has 2 × 6.5M part forces, 199 MiB,
// past a 128 MiB binding limit.
@group(0) @binding(8) var<storage, read_write> g_partForceA: array<vec4f>;
@group(0) @binding(9) var<storage, read_write> g_partForceB: array<vec4f>;

// The sync's bindings: sync 1–8; sync_velocities 1–5 and 7–9; sync_positions 1, 6 and 7.
@group(0) @binding(1) var<storage, read> s_memberStart: array<u32>;
@group(0) @binding(2) var<storage, read> s_memberList: array<u32>;
@group(0) @binding(3) var<storage, read> s_pinned: array<u32>;
@group(0) @binding(4) var<storage, read> s_partMass: array<f32>; // partMass (first K slices)
@group(0) @binding(5) var<storage, read> s_partVelA: array<vec4f>; // partVel, ranges A and B
@group(0) @binding(9) var<storage, read> s_partVelB: array<vec4f>;
@group(0) @binding(6) var<storage, read_write> s_dofX: array<vec4f>;
@group(0) @binding(7) var<storage, read_write> s_dofV: array<vec4f>;
@group(0) @binding(8) var<storage, read_write> s_syncEnergy: array<f32>;

// The DOF slot of an invocation (a 2D grid of workgroups, gpu/runtime/kernel.ts dispatchShape).
fn dof_slot(gid: vec3u, nwg: vec3u) -> u32 {
  return gid.x + gid.y * nwg.x * WG;
}

// DOF slot d: part masses and system masses per system, the masses summed in ascending member
// order (fixed summation order, bit-reproducible); slots that are not live get zeros.
fn gather_part_masses(d: u32) {
  let S = P.stride;
  let K = P.systems;
  for (var s = 0u; s < K; s++) {
    g_masses[s * S + d] = 0.0;
  }
  let begin = g_memberStart[d];
  let end = g_memberStart[d + 1u];
  for (var k = begin; k < end; k++) {
    let i = g_memberList[k];
    g_masses[g_system[i] * S + d] += g_mass[i];
  }
  for (var s = 0u; s < K; s++) {
    let m = g_masses[s * S + d];
    if (P.reading == READING_WHOLE && m > 0.0) {
      g_masses[(K + s) * S + d] = g_dofM[d];
    } else {
      g_masses[(K + s) * S + d] = m;
    }
  }
}

// DOF slot d, after gather_part_masses: the handler forces on each system's part, summed in
// ascending member order; under the "whole" reading a system with a part (m_s > 0) takes the
// forces on every member.
fn gather_part_forces(d: u32) {
  let S = P.stride;
  let K = P.systems;
  for (var s = 0u; s < K; s++) {
    set_part_force(s * S + d, vec4f(0.0));
  }
  let begin = g_memberStart[d];
  let end = g_memberStart[d + 1u];
  var fAll = vec3f(0.0);
  for (var k = begin; k < end; k++) {
    let i = g_memberList[k];
    let s = g_system[i];
    set_part_force(s * S + d, part_force(s * S + d) + vec4f(g_handlerForce[i].xyz, 0.0));
    fAll += g_handlerForce[i].xyz;
  }
  for (var s = 0u; s < K; s++) {
    if (P.reading == READING_WHOLE && gathered_part_mass(s * S + d) > 0.0) {
      set_part_force(s * S + d, vec4f(fAll, 0.0));
    }
  }
}

// Live DOF d: one velocity from the K systems' results, into dofV (move_dof then applies the
// domain boundary to it). Eq. 17 is the merge of Eq. 3 applied to the parts, so K parts merge as a
// left fold in system order, and the energy each fold step loses is Eq. 19 (Eq. 4 for two parts);
// the sum is ΔĒk = Σ_s ½ m_s |v_s − V′|². A pinned member fixes the DOF.
fn merge_velocities(d: u32) {
  let begin = s_memberStart[d];
  let end = s_memberStart[d + 1u];
  if (end <= begin) { return; }
  var pinned = 0u;
  for (var k = begin; k < end; k++) { pinned = max(pinned, s_pinned[s_memberList[k]]); }
  let S = P.stride;
  var vNew = vec3f(0.0);
  var dEk = 0.0;
  if (pinned == 0u) {
    var M = 0.0;
    for (var s = 0u; s < P.systems; s++) {
      let m = s_partMass[s * S + d];
      if (m <= 0.0) { continue; }
      let v = part_vel(s * S + d).xyz;
      if (M == 0.0) {
        vNew = v;
        M = m;
      } else {
        let M12 = M + m;
        let dv = vNew - v;
        dEk += (M * m / (2.0 * M12)) * dot(dv, dv); // Eq. 19
        vNew = (M * vNew + m * v) / M12; // Eq. 17
        M = M12;
      }
    }
  }
  s_dofV[d] = vec4f(vNew, 0.0);
  s_syncEnergy[d] = dEk;
}

// Live DOF d, after merge_velocities: the position update with the merged velocity, the domain's
// walls a velocity condition (no position correction, §7; f64 reference core/domain_wall.ts): per
// axis, a DOF that would cross a wall's plane (one radius inside the domain) moving out steps at
// the velocity that brings it onto the plane, and no farther out than it is, and keeps no outward
// velocity (inelastic, no friction).
fn move_dof(d: u32) {
  if (s_memberStart[d + 1u] <= s_memberStart[d]) { return; }
  var vNew = s_dofV[d].xyz;
  let x0 = s_dofX[d].xyz;
  var step = vNew;
  let lo = P.domainMin + vec3f(P.radius);
  let hi = P.domainMax - vec3f(P.radius);
  for (var a = 0u; a < 3u; a++) {
    let x = x0[a] + P.dt * vNew[a];
    if (x < lo[a] && vNew[a] < 0.0) {
      step[a] = max(vNew[a], min(0.0, (lo[a] - x0[a]) / P.dt));
      vNew[a] = 0.0;
    } else if (x > hi[a] && vNew[a] > 0.0) {
      step[a] = min(vNew[a], max(0.0, (hi[a] - x0[a]) / P.dt));
      vNew[a] = 0.0;
    }
  }
  s_dofX[d] = vec4f(x0 + P.dt * step, 0.0);
  s_dofV[d] = vec4f(vNew, 0.0);
}

// The gather in one dispatch (part buffers in range A only).
@compute @workgroup_size(WG)
fn gather(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let d = dof_slot(gid, nwg);
  if (d >= P.count) { return; }
  gather_part_masses(d);
  gather_part_forces(d);
}

// The sync in one dispatch (part buffers in range A only).
@compute @workgroup_size(WG)
fn sync(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let d = dof_slot(gid, nwg);
  if (d >= P.count) { return; }
  merge_velocities(d);
  move_dof(d);
}

// The gather in two dispatches, gather_masses then gather_forces (part buffers in ranges A and B).
@compute @workgroup_size(WG)
fn gather_masses(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let d = dof_slot(gid, nwg);
  if (d >= P.count) { return; }
  gather_part_masses(d);
}

@compute @workgroup_size(WG)
fn gather_forces(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let d = dof_slot(gid, nwg);
  if (d >= P.count) { return; }
  gather_part_forces(d);
}

// The sync in two dispatches, sync_velocities then sync_positions (part buffers in ranges A and B).
@compute @workgroup_size(WG)
fn sync_velocities(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let d = dof_slot(gid, nwg);
  if (d >= P.count) { return; }
  merge_velocities(d);
}

@compute @workgroup_size(WG)
fn sync_positions(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let d = dof_slot(gid, nwg);
  if (d >= P.count) { return; }
  move_dof(d);
}
