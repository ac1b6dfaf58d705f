// Velocity projection (Gao et al. 2018, "FLIP and shape matching", §5.2, Eqs. 19-20), f32, one
// invocation per particle, one Jacobi sweep, gathered per particle (no atomics).
// Owner: gpu/handlers/velocity-projection/velocity_projection.ts.
// Reference: core/reference/velocity_projection_reference.ts (velocityProjection, f64).
//
// A pair (p, c) is processed when p is fluid and not pinned, c is not fluid, c is in the contact
// slot of p (contacts[p*K .. p*K + contactCount[p]), gpu/state/collision_detection.ts), they still
// intersect (Rule 1, Eq. 21, re-tested) and approach (Rule 2, Eq. 22): with
// n^ = (x_p - x_c) / |x_p - x_c| (from the solid particle to the fluid one) and
// w = (v_p - v_c) . n^ < 0, and a_p the number of processed pairs of p:
//   fluid:  velOut[p] = v_p - (sum_c w_pc n^_pc) / a_p                  (mean of Eq. 19)
//   solid:  velOut[c] = v_c + sum_p m_p / (a_p m_c) w_pc n^_pc          (Eq. 20 times dt / m_c)
// A solid particle finds a_p by walking the slot of each fluid partner p, and takes the pair only
// if it is in that slot, so it receives exactly the momentum p lost through it, even when a full
// slot dropped the pair on one side. Pinned solid particles keep their velocity (infinitely
// heavy); fluid-fluid and solid-solid pairs are not touched. vel[i].w is copied. No position
// correction.

struct VelocityProjectionParams {
  count: u32,
}

override WORKGROUP_SIZE: u32 = 64;
// K: slot size of the contact lists (CollisionDetection's maxPerParticle).
override MAX_PER_PARTICLE: u32 = 16;
// Bits of the kind buffer (KIND_BITS of gpu/state/particle_state.ts).
override KIND_FLUID: u32 = 2;
override KIND_PINNED: u32 = 4;

@group(0) @binding(0) var<uniform> params: VelocityProjectionParams;
@group(0) @binding(1) var<storage, read> pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> vel: array<vec4f>;
@group(0) @binding(3) var<storage, read> mass: array<f32>;
@group(0) @binding(4) var<storage, read> kind: array<u32>;
@group(0) @binding(5) var<storage, read> contacts: array<u32>;
@group(0) @binding(6) var<storage, read> contactCount: array<u32>;
@group(0) @binding(7) var<storage, read_write> velOut: array<vec4f>;

// One fluid-solid pair: the unit normal n^ from the solid particle to the fluid one and the normal
// relative velocity w; active when Rules 1 and 2 hold. Both sides of a pair call it with the same
// arguments (fluid first), so they agree on it bit for bit.
struct Projection {
  nrm: vec3f,
  w: f32,
  hit: bool,
}

fn project(f: u32, s: u32) -> Projection {
  let pf = pos[f];
  let ps = pos[s];
  let x = pf.xyz - ps.xyz;
  let rel = vel[f].xyz - vel[s].xyz;
  let reach = pf.w + ps.w;
  let d = length(x);
  // Rule 1 again (Eq. 21, so an older contact list is safe) and Rule 2 (Eq. 22).
  if (!(dot(x, x) < reach * reach) || !(dot(x, rel) < 0.0) || d == 0.0) {
    return Projection(vec3f(0.0), 0.0, false);
  }
  let nrm = x / d;
  return Projection(nrm, dot(rel, nrm), true);
}

fn is_fluid(i: u32) -> bool {
  return (kind[i] & KIND_FLUID) != 0u;
}

fn is_pinned(i: u32) -> bool {
  return (kind[i] & KIND_PINNED) != 0u;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn velocity_projection(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WORKGROUP_SIZE; // 2D past 65,535 workgroups
  if (i >= params.count) {
    return;
  }
  let v = vel[i];
  let n = contactCount[i];
  var dv = vec3f(0.0);
  if (is_fluid(i)) {
    if (!is_pinned(i)) {
      var sum = vec3f(0.0);
      var a = 0u;
      for (var k = 0u; k < n; k++) {
        let c = contacts[i * MAX_PER_PARTICLE + k];
        if (is_fluid(c)) {
          continue;
        }
        let pr = project(i, c);
        if (pr.hit) {
          sum -= pr.w * pr.nrm; // Eq. 19
          a++;
        }
      }
      if (a > 0u) {
        dv = sum / f32(a);
      }
    }
  } else if (!is_pinned(i)) {
    let mi = mass[i];
    for (var k = 0u; k < n; k++) {
      let p = contacts[i * MAX_PER_PARTICLE + k];
      if (!is_fluid(p) || is_pinned(p)) {
        continue;
      }
      // a_p over the slot of p, and this pair as p sees it
      let np = contactCount[p];
      var a = 0u;
      var mine = Projection(vec3f(0.0), 0.0, false);
      for (var q = 0u; q < np; q++) {
        let c = contacts[p * MAX_PER_PARTICLE + q];
        if (is_fluid(c)) {
          continue;
        }
        let pr = project(p, c);
        if (pr.hit) {
          a++;
          if (c == i) {
            mine = pr;
          }
        }
      }
      if (mine.hit) {
        dv += (mass[p] / mi * mine.w / f32(a)) * mine.nrm; // Eq. 20 (f dt / m_c)
      }
    }
  }
  velOut[i] = vec4f(v.xyz + dv, v.w);
}
