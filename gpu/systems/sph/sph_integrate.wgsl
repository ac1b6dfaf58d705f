// Explicit (symplectic Euler) update of the SPH system's part of every DOF (paper §4: SPH is the
// explicit integrator). Host code: gpu/systems/sph/sph_system.ts.
//
// v_s = V + dt · (f / m + g), f = the handler's forces on the part (from the coupling) plus the
// SPH pressure and viscosity forces on the system's members, m = the mass the coupling gives the
// system for this DOF (its part, or the whole meta-particle; see gpu/coupling/coupling.wgsl).

struct SphIntegrateParams {
  count: u32,
  dt: f32,
  pad0: u32,
  pad1: u32,
  gravity: vec3f,
  pad2: u32,
}

override WG: u32 = 64u;

@group(0) @binding(0) var<uniform> P: SphIntegrateParams;
@group(0) @binding(1) var<storage, read> memberStart: array<u32>;
@group(0) @binding(2) var<storage, read> memberList: array<u32>;
@group(0) @binding(3) var<storage, read> owned: array<u32>;
@group(0) @binding(4) var<storage, read> sphForce: array<vec4f>;
@group(0) @binding(5) var<storage, read> dofV: array<vec4f>;
@group(0) @binding(6) var<storage, read> partMass: array<f32>;
@group(0) @binding(7) var<storage, read> partForce: array<vec4f>;
@group(0) @binding(8) var<storage, read_write> partVel: array<vec4f>;

@compute @workgroup_size(WG)
fn sph_integrate(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let d = gid.x + gid.y * nwg.x * WG;
  if (d >= P.count) { return; }
  let m = partMass[d];
  if (m <= 0.0) { return; }
  var f = partForce[d].xyz;
  for (var k = memberStart[d]; k < memberStart[d + 1u]; k++) {
    let i = memberList[k];
    if (owned[i] != 0u) { f += sphForce[i].xyz; }
  }
  partVel[d] = vec4f(dofV[d].xyz + P.dt * (f / m + P.gravity), 0.0);
}
