// Particle state kernels that every handler and system shares (gpu/README.md; host code:
// gpu/state/particle_state.ts).
//
// identity_dof_map, identity_dof_values: every particle is its own DOF (no meta-particles): the
//   DOF map of the baselines, and of any handler that merges nothing. The map (dof, member list,
//   member offset 0, Eqs. 6–7), then dofX/dofV/dofM, the particle's own (Eqs. 1–3 with one
//   member): two entry points of at most 6 storage buffers each where one would bind 10, more than
//   the 8 WebGPU guarantees per stage.
// dof_velocities: velOut[i] = dofV[dof[i]] (the end of a step without a split).
// write_back: x_i = X_dof + offset_i (Eqs. 6–7), v_i = velOut[i], at the end of a step.

struct StateParams {
  count: u32,
}

override WG: u32 = 64u;

@group(0) @binding(0) var<uniform> P: StateParams;

// identity_dof_map binds 4–7, identity_dof_values 1–3 and 8–10.
@group(0) @binding(1) var<storage, read> i_pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> i_vel: array<vec4f>;
@group(0) @binding(3) var<storage, read> i_mass: array<f32>;
@group(0) @binding(4) var<storage, read_write> i_dof: array<u32>;
@group(0) @binding(5) var<storage, read_write> i_memberStart: array<u32>;
@group(0) @binding(6) var<storage, read_write> i_memberList: array<u32>;
@group(0) @binding(7) var<storage, read_write> i_offset: array<vec4f>;
@group(0) @binding(8) var<storage, read_write> i_dofX: array<vec4f>;
@group(0) @binding(9) var<storage, read_write> i_dofV: array<vec4f>;
@group(0) @binding(10) var<storage, read_write> i_dofM: array<f32>;

@compute @workgroup_size(WG)
fn identity_dof_map(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= P.count) { return; }
  i_dof[i] = i;
  i_memberStart[i] = i;
  i_memberList[i] = i;
  if (i == 0u) { i_memberStart[P.count] = P.count; }
  i_offset[i] = vec4f(0.0);
}

@compute @workgroup_size(WG)
fn identity_dof_values(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= P.count) { return; }
  i_dofX[i] = vec4f(i_pos[i].xyz, 0.0);
  i_dofV[i] = vec4f(i_vel[i].xyz, 0.0);
  i_dofM[i] = i_mass[i];
}

@group(0) @binding(1) var<storage, read> v_dof: array<u32>;
@group(0) @binding(2) var<storage, read> v_dofV: array<vec4f>;
@group(0) @binding(3) var<storage, read_write> v_velOut: array<vec4f>;

@compute @workgroup_size(WG)
fn dof_velocities(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= P.count) { return; }
  v_velOut[i] = vec4f(v_dofV[v_dof[i]].xyz, 0.0);
}

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
