// Impulse-based collision response (paper §6.1 baseline; refs [39]-[43], Hahn 1988, Mirtich &
// Canny 1995), f32, one invocation per particle, one Jacobi sweep. Owner: gpu/handlers/impulse/impulse.ts.
// Reference: core/baselines.ts (impulseVelocities, f64).
//
// For each partner j in the contact slot of i (contacts[i*K .. i*K + contactCount[i]), from
// gpu/state/collision_detection.ts) that still intersects (Rule 1 re-tested) and approaches,
// n . (v_j - v_i) < 0 with n = x_j - x_i (Rule 2, Eq. 22), with n^ = n / |n|:
//   dv_ij = (1 + e) m_j / (m_i + m_j) ((v_j - v_i) . n^) n^
// and velOut[i] = v_i + (sum_j dv_ij) / a_i, a_i = number of approaching contacts (Jacobi
// averaging); velOut[i] = vel[i] when a_i = 0. vel[i].w is copied. No position correction.

struct ImpulseParams {
  count: u32,
  restitution: f32,
}

override WORKGROUP_SIZE: u32 = 64;
// K: slot size of the contact lists (CollisionDetection's maxPerParticle).
override MAX_PER_PARTICLE: u32 = 16;

@group(0) @binding(0) var<uniform> params: ImpulseParams;
@group(0) @binding(1) var<storage, read> pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> vel: array<vec4f>;
@group(0) @binding(3) var<storage, read> mass: array<f32>;
@group(0) @binding(4) var<storage, read> contacts: array<u32>;
@group(0) @binding(5) var<storage, read> contactCount: array<u32>;
@group(0) @binding(6) var<storage, read_write> velOut: array<vec4f>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn impulse(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WORKGROUP_SIZE; // 2D past 65,535 workgroups
  if (i >= params.count) {
    return;
  }
  let base = i * MAX_PER_PARTICLE;
  let xi = pos[i].xyz;
  let ri = pos[i].w;
  let v = vel[i];
  let mi = mass[i];
  let n = contactCount[i];
  var dv = vec3f(0.0);
  var a = 0u;
  for (var k = 0u; k < n; k++) {
    let j = contacts[base + k];
    let pj = pos[j];
    let x = pj.xyz - xi;
    let rel = vel[j].xyz - v.xyz;
    let reach = ri + pj.w;
    // Rule 1 again (Eq. 21, so an older contact list is safe) and Rule 2 (Eq. 22).
    if (!(dot(x, x) < reach * reach) || !(dot(x, rel) < 0.0)) {
      continue;
    }
    let d = length(x);
    if (d == 0.0) {
      continue;
    }
    let nrm = x / d;
    let mj = mass[j];
    dv += ((1.0 + params.restitution) * mj / (mi + mj) * dot(rel, nrm)) * nrm;
    a++;
  }
  var out = v;
  if (a > 0u) {
    out = vec4f(v.xyz + dv / f32(a), v.w);
  }
  velOut[i] = out;
}
