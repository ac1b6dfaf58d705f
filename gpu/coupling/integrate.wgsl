// Integration of DOFs and coupling of the explicit (SPH) and implicit (cloth) integrators
// (paper §4, Eqs. 17–19), position update and the domain boundary, and the end-of-step
// write-back of particle state (Eqs. 6–7). Host code: gpu/engine.ts.
//
// Coupling reading (the paper leaves it open; argued in gpu/engine.ts): a meta-particle shared by
// two systems is two parts, its cloth members (mass m_cloth) and its fluid members (m_fluid). Each
// system integrates its part as a particle of its own system, under that system's forces on those
// members (springs implicitly in the cloth solve, SPH pressure and viscosity explicitly) plus the
// handler's forces on them and gravity; Eq. 17 then merges the two parts like two particles
// (it is Eq. 3 with the parts' velocities) and Eq. 19 keeps the energy that merge loses (Eq. 4).

struct IntegrateParams {
  count: u32,
  dt: f32,
  radius: f32,
  pad0: u32,
  gravity: vec3f,
  pad1: u32,
  domainMin: vec3f,
  pad2: u32,
  domainMax: vec3f,
  pad3: u32,
}

override WG: u32 = 64u;

@group(0) @binding(0) var<uniform> P: IntegrateParams;

// Per DOF: the cloth part's mass and the external force on it (the handler's forces on the cloth
// members; SPH acts on fluid members only), for the implicit cloth solve.
@group(0) @binding(1) var<storage, read> f_memberStart: array<u32>;
@group(0) @binding(2) var<storage, read> f_memberList: array<u32>;
@group(0) @binding(3) var<storage, read> f_sph: array<vec4f>;
@group(0) @binding(4) var<storage, read> f_handler: array<vec4f>;
@group(0) @binding(5) var<storage, read> f_flags: array<u32>;
@group(0) @binding(6) var<storage, read> f_level: array<vec4f>;
@group(0) @binding(7) var<storage, read_write> f_ext: array<vec4f>;
@group(0) @binding(8) var<storage, read_write> f_clothMass: array<f32>;

const FLAG_CLOTH: u32 = 1u;
const FLAG_FLUID: u32 = 2u;

@compute @workgroup_size(WG)
fn gather_forces(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let d = gid.x + gid.y * nwg.x * WG;
  if (d >= P.count) { return; }
  let begin = f_memberStart[d];
  let end = f_memberStart[d + 1u];
  var ext = vec3f(0.0);
  for (var k = begin; k < end; k++) {
    let i = f_memberList[k];
    if ((f_flags[i] & FLAG_CLOTH) != 0u) { ext += f_sph[i].xyz + f_handler[i].xyz; }
  }
  f_ext[d] = vec4f(ext, 0.0);
  f_clothMass[d] = select(0.0, f_level[d].x, end > begin);
}

// The fluid part's explicit update (symplectic Euler) under the SPH and handler forces on the
// fluid members, synchronisation with the cloth part's implicit result (Eqs. 17, 19), position
// update and domain boundary, for every live DOF. level[d] = (m_cloth, m_fluid, pinned, count)
// from the merge; level[N + d].x receives ΔĒk for the split (Eq. 20).
@group(0) @binding(1) var<storage, read> s_memberStart: array<u32>;
@group(0) @binding(2) var<storage, read> s_memberList: array<u32>;
@group(0) @binding(3) var<storage, read> s_vCloth: array<vec4f>;
@group(0) @binding(4) var<storage, read> s_sph: array<vec4f>;
@group(0) @binding(5) var<storage, read> s_handler: array<vec4f>;
@group(0) @binding(6) var<storage, read> s_flags: array<u32>;
@group(0) @binding(7) var<storage, read_write> s_level: array<vec4f>;
@group(0) @binding(8) var<storage, read_write> s_dofX: array<vec4f>;
@group(0) @binding(9) var<storage, read_write> s_dofV: array<vec4f>;

@compute @workgroup_size(WG)
fn integrate_sync(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let d = gid.x + gid.y * nwg.x * WG;
  let n = P.count;
  if (d >= n) { return; }
  let begin = s_memberStart[d];
  let end = s_memberStart[d + 1u];
  if (end <= begin) { return; }
  let info = s_level[d];
  let mCloth = info.x;
  let mFluid = info.y;
  let V = s_dofV[d].xyz;
  var vNew = vec3f(0.0);
  var dEk = 0.0;
  if (info.z == 0.0) {
    var vFluid = V;
    if (mFluid > 0.0) {
      var f = vec3f(0.0);
      for (var k = begin; k < end; k++) {
        let i = s_memberList[k];
        if ((s_flags[i] & FLAG_FLUID) != 0u) { f += s_sph[i].xyz + s_handler[i].xyz; }
      }
      vFluid = V + P.dt * (f / mFluid + P.gravity); // explicit SPH integrator, fluid part
    }
    let vCloth = s_vCloth[d].xyz; // implicit cloth integrator, cloth part (valid when mCloth > 0)
    if (mCloth > 0.0 && mFluid > 0.0) {
      let M = mCloth + mFluid;
      vNew = (mCloth * vCloth + mFluid * vFluid) / M; // Eq. 17
      let dv = vCloth - vFluid;
      dEk = (mCloth * mFluid / (2.0 * M)) * dot(dv, dv); // Eq. 19
    } else if (mCloth > 0.0) {
      vNew = vCloth;
    } else {
      vNew = vFluid;
    }
  }
  var x = s_dofX[d].xyz + P.dt * vNew;
  // Domain boundary: a wall stops the normal velocity (inelastic), no friction.
  let lo = P.domainMin + vec3f(P.radius);
  let hi = P.domainMax - vec3f(P.radius);
  for (var a = 0u; a < 3u; a++) {
    if (x[a] < lo[a]) { x[a] = lo[a]; vNew[a] = max(vNew[a], 0.0); }
    if (x[a] > hi[a]) { x[a] = hi[a]; vNew[a] = min(vNew[a], 0.0); }
  }
  s_dofX[d] = vec4f(x, 0.0);
  s_dofV[d] = vec4f(vNew, 0.0);
  s_level[n + d] = vec4f(dEk, 0.0, 0.0, 0.0);
}

// End of step: particles take their DOF's position plus their offset (Eqs. 6–7) and the
// velocity the handler produced (split, impulse, or the DOF's own).
@group(0) @binding(1) var<storage, read> w_dof: array<u32>;
@group(0) @binding(2) var<storage, read> w_offset: array<vec4f>;
@group(0) @binding(3) var<storage, read> w_dofX: array<vec4f>;
@group(0) @binding(4) var<storage, read> w_velOut: array<vec4f>;
@group(0) @binding(5) var<storage, read_write> w_pos: array<vec4f>;
@group(0) @binding(6) var<storage, read_write> w_vel: array<vec4f>;

@compute @workgroup_size(WG)
fn write_back(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= P.count) { return; }
  let x = w_dofX[w_dof[i]].xyz + w_offset[i].xyz;
  w_pos[i] = vec4f(x, w_pos[i].w);
  w_vel[i] = vec4f(w_velOut[i].xyz, 0.0);
}
