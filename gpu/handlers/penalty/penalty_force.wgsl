// Penalty collision force (paper §6.1 baseline; refs [6] Terzopoulos et al. 1989, [8] Tonnesen
// 1991), f32, one invocation per particle. Owner: gpu/handlers/penalty/penalty_force.ts. Reference:
// core/baselines.ts (penaltyForces, f64).
//
// For each partner j in the contact slot of i (contacts[i*K .. i*K + contactCount[i]), written by
// gpu/state/collision_detection.ts: Rule 1 holds and the pair is not excluded), with d = |x_i - x_j|,
// n = (x_i - x_j) / d, penetration delta = r_i + r_j - d and v_n = (v_i - v_j) . n:
//   f_i += max(k delta - c v_n, 0) n       (zero for d = 0 or d >= r_i + r_j)
// The scalar is symmetric in i and j, so f_ji = -f_ij bit for bit. The result is ADDED to
// force[i].xyz (force[i].w is kept): clear the buffer first for the penalty force alone.

struct PenaltyParams {
  count: u32,
  stiffness: f32,
  damping: f32,
}

override WORKGROUP_SIZE: u32 = 64;
// K: slot size of the contact lists (CollisionDetection's maxPerParticle).
override MAX_PER_PARTICLE: u32 = 16;

@group(0) @binding(0) var<uniform> params: PenaltyParams;
@group(0) @binding(1) var<storage, read> pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> vel: array<vec4f>;
@group(0) @binding(3) var<storage, read> contacts: array<u32>;
@group(0) @binding(4) var<storage, read> contactCount: array<u32>;
@group(0) @binding(5) var<storage, read_write> force: array<vec4f>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn penalty_force(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WORKGROUP_SIZE; // 2D past 65,535 workgroups
  if (i >= params.count) {
    return;
  }
  let base = i * MAX_PER_PARTICLE;
  let pi = pos[i];
  let vi = vel[i].xyz;
  let n = contactCount[i];
  var f = vec3f(0.0);
  for (var k = 0u; k < n; k++) {
    let j = contacts[base + k];
    let pj = pos[j];
    let x = pi.xyz - pj.xyz;
    let d2 = dot(x, x);
    let reach = pi.w + pj.w;
    // Rule 1 again (Eq. 21), so a contact list older than pos exerts no force past contact.
    if (d2 == 0.0 || !(d2 < reach * reach)) {
      continue;
    }
    let d = sqrt(d2);
    let nrm = x / d;
    let vn = dot(vi - vel[j].xyz, nrm);
    let s = params.stiffness * (reach - d) - params.damping * vn;
    if (s > 0.0) {
      f += s * nrm;
    }
  }
  force[i] = vec4f(force[i].xyz + f, force[i].w);
}
