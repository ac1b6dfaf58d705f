// Particle state kernels that every handler and system shares (gpu/README.md; host code:
// gpu/state/particle_state.ts).
//
// identity_dof_values: every particle is its own DOF (no meta-particles), the DOF map of the
//   baselines and of any handler that merges nothing: dofX/dofV/dofM, the particle's own (Eqs.
//   1–3 with one member). The map itself (dof, member list, offset 0, Eqs. 6–7) is the identity
//   the buffers are created with; only a handler that merges rewrites it, and such a handler
//   never runs this kernel.
// dof_velocities: velOut[i] = dofV[dof[i]] (the end of a stage without a split).
// write_back: x_i = X_dof + offset_i (Eqs. 6–7), v_i = velOut[i], at the end of a step.
// write_back_dofs: dof_velocities and write_back in one pass, where nothing works on velOut
//   between them (a last stage without a split, no end-of-step hook).

struct StateParams {
  count: u32,
}

override WG: u32 = 64u;

@group(0) @binding(0) var<uniform> P: StateParams;

@group(0) @binding(1) var<storage, read> i_pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> i_vel: array<vec4f>;
@group(0) @binding(3) var<storage, read> i_mass: array<f32>;
@group(0) @binding(8) var<storage, read_write> i_dofX: array<vec4f>;
@group(0) @binding(9) var<storage, read_write> i_dofV: array<vec4f>;
@group(0) @binding(10) var<storage, read_write> i_dofM: array<f32>;

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

// x_i = X_dof + offset_i and v_i (Eqs. 6–7), the particle's w kept.
fn write_back_particle(i: u32, v: vec3f) {
  let x = w_dofX[w_dof[i]].xyz + w_offset[i].xyz;
  w_pos[i] = vec4f(x, w_pos[i].w);
  w_vel[i] = vec4f(v, 0.0);
}

@compute @workgroup_size(WG)
fn write_back(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= P.count) { return; }
  write_back_particle(i, w_velOut[i].xyz);
}

@group(0) @binding(7) var<storage, read> f_dofV: array<vec4f>;
@group(0) @binding(8) var<storage, read_write> f_velOut: array<vec4f>;

@compute @workgroup_size(WG)
fn write_back_dofs(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= P.count) { return; }
  let v = vec4f(f_dofV[w_dof[i]].xyz, 0.0);
  f_velOut[i] = v;
  write_back_particle(i, v.xyz);
}
