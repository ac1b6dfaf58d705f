// Integration of DOFs and coupling of the explicit (SPH) and implicit (cloth) integrators
// (paper §4, Eqs. 17–19), position update and the domain boundary, and the end-of-step
// write-back of particle state (Eqs. 6–7). Host code: gpu/engine.ts.
//
// Coupling reading (the paper leaves it open, see gpu/engine.ts): every integrator integrates a
// shared meta-particle as a regular particle of mass M with the whole force on it — its own
// system's forces its own way (springs implicitly in the cloth solve, SPH forces explicitly) and
// every other force as an explicit external force evaluated at the start of the step. The two
// results differ only by the integrators' treatment, and Eq. 17 synchronises them.

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

// Per DOF: the external force seen by the cloth solve, the SPH and handler forces on its
// members (gravity is added by each integrator).
@group(0) @binding(1) var<storage, read> f_memberStart: array<u32>;
@group(0) @binding(2) var<storage, read> f_memberList: array<u32>;
@group(0) @binding(3) var<storage, read> f_sph: array<vec4f>;
@group(0) @binding(4) var<storage, read> f_handler: array<vec4f>;
@group(0) @binding(5) var<storage, read_write> f_ext: array<vec4f>;

@compute @workgroup_size(WG)
fn gather_forces(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let d = gid.x + gid.y * nwg.x * WG;
  if (d >= P.count) { return; }
  let end = f_memberStart[d + 1u];
  var ext = vec3f(0.0);
  for (var k = f_memberStart[d]; k < end; k++) {
    let i = f_memberList[k];
    ext += f_sph[i].xyz + f_handler[i].xyz;
  }
  f_ext[d] = vec4f(ext, 0.0);
}

// Explicit SPH update (symplectic Euler) with the whole force (external + springs, explicit),
// synchronisation with the implicit cloth result (Eqs. 17, 19), position update and domain
// boundary, for every live DOF. level[d] = (m_cloth, m_fluid, pinned, count) from the merge;
// level[N + d].x receives ΔĒk for the split (Eq. 20).
@group(0) @binding(1) var<storage, read> s_memberStart: array<u32>;
@group(0) @binding(2) var<storage, read> s_memberList: array<u32>;
@group(0) @binding(3) var<storage, read> s_dofM: array<f32>;
@group(0) @binding(4) var<storage, read> s_vCloth: array<vec4f>;
@group(0) @binding(5) var<storage, read> s_fExt: array<vec4f>;
@group(0) @binding(6) var<storage, read> s_fSpring: array<vec4f>;
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
  let M = s_dofM[d];
  let V = s_dofV[d].xyz;
  var vNew = vec3f(0.0);
  var dEk = 0.0;
  if (info.z == 0.0) {
    var vFluid = V;
    if (mFluid > 0.0) {
      var f = s_fExt[d].xyz;
      if (mCloth > 0.0) {
        for (var k = begin; k < end; k++) { f += s_fSpring[s_memberList[k]].xyz; }
      }
      vFluid = V + P.dt * (f / M + P.gravity); // explicit SPH integrator
    }
    let vCloth = s_vCloth[d].xyz; // implicit cloth integrator (valid when mCloth > 0)
    if (mCloth > 0.0 && mFluid > 0.0) {
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
