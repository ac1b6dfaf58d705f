// Irreversible breaking of springs past their critical stretch (bond-based peridynamics: Silling
// & Askari 2005, s0 = sqrt(5 G0 / (9 K δ)); spring-mass fracture, Levine et al. 2014). Host code:
// gpu/runtime/spring_breaking.ts.
//
// One invocation per particle i over its CSR springs (every spring is listed under both ends, and
// both ends compute the same stretch from the same positions, so both entries break in the same
// step): a spring with stretch (l − L)/L > s0 gets ks = kd = 0 (it no longer acts in the implicit
// solve) and its pair is flagged BROKEN_BIT in i's ascending bond list, so that collision detection
// treats the two particles as unbonded from then on (fragments collide). `broken` counts broken
// CSR entries (two per spring), cumulatively.

struct BreakParams {
  count: u32,
}

struct ClothSpring {
  partner: u32,
  restLength: f32,
  ks: f32,
  kd: f32,
}

override WG: u32 = 64u;
override BROKEN_BIT: u32;

@group(0) @binding(0) var<uniform> P: BreakParams;
@group(0) @binding(1) var<storage, read> pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> springStart: array<u32>;
@group(0) @binding(3) var<storage, read_write> springs: array<ClothSpring>;
@group(0) @binding(4) var<storage, read> breakStretch: array<f32>;
@group(0) @binding(5) var<storage, read> bondStart: array<u32>;
@group(0) @binding(6) var<storage, read_write> bondList: array<u32>;
@group(0) @binding(7) var<storage, read_write> broken: atomic<u32>;

// Flags b in a's ascending bond list as broken (binary search on the partner bits).
fn mark_broken(a: u32, b: u32) {
  var lo = bondStart[a];
  var hi = bondStart[a + 1u];
  while (lo < hi) {
    let mid = lo + (hi - lo) / 2u;
    let v = bondList[mid] & ~BROKEN_BIT;
    if (v == b) {
      bondList[mid] = v | BROKEN_BIT;
      return;
    }
    if (v < b) { lo = mid + 1u; } else { hi = mid; }
  }
}

@compute @workgroup_size(WG)
fn break_springs(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WG;
  if (i >= P.count) { return; }
  let xi = pos[i].xyz;
  var n = 0u;
  for (var e = springStart[i]; e < springStart[i + 1u]; e++) {
    let s0 = breakStretch[e];
    let sp = springs[e];
    if (s0 <= 0.0 || sp.ks == 0.0) { continue; }
    let l = length(pos[sp.partner].xyz - xi);
    if ((l - sp.restLength) / sp.restLength > s0) {
      springs[e].ks = 0.0;
      springs[e].kd = 0.0;
      mark_broken(i, sp.partner);
      n++;
    }
  }
  if (n > 0u) { atomicAdd(&broken, n); }
}
