// Irreversible breaking of springs past their critical stretch (bond-based peridynamics: Silling
// & Askari 2005, s0 = sqrt(5 G0 / (9 K δ)); spring-mass fracture, Levine et al. 2014). Host code:
// gpu/systems/peridynamics/spring_breaking.ts. Packed spring words and classes: gpu/state/spring_csr.wgsl.
// f64 reference: updateBroken and pointCriticalStretch of core/reference/peridynamics_reference.ts.
//
// Two passes. critical_stretch: each particle's critical stretch under Silling & Askari's
// compression rule, s0(x) = max over its intact breakable springs of (s00 − ALPHA·s), i.e. s00 −
// ALPHA·s_min(x) (a particle in compression takes more stretch to break; ALPHA = 0 gives s00), +∞
// (3.4e38) with none. break_springs then compares each spring's stretch with min(s0(x), s0(x')),
// both read from the first pass, so both ends of a spring decide alike.
//
// One invocation per particle i of the network over its CSR springs (every spring is listed under both ends, and
// both ends compute the same stretch from the same positions, so both entries break in the same
// step): a spring whose class has a critical stretch s00 > 0 and whose stretch (l − L)/L exceeds
// min(s0(x), s0(x')) is rewritten to class 0 (the zero spring: it no longer acts in the implicit solve), and the end
// with the lower index flags the pair BROKEN_BIT in its ascending bond list (each bond is listed
// once, under its lower index), so that collision detection treats the two particles as unbonded
// from then on (fragments collide). `broken` counts broken CSR entries (two per spring),
// cumulatively.

// The network's CSR is by slot k of particle first + k (gpu/systems/spring-network/implicit_springs.ts), partners
// too; positions and bond lists are by particle.
struct BreakParams {
  count: u32,
  first: u32,
}

override WG: u32 = 64u;
override BROKEN_BIT: u32;

@group(0) @binding(0) var<uniform> P: BreakParams;
@group(0) @binding(1) var<storage, read> pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> springStart: array<u32>;
@group(0) @binding(3) var<storage, read_write> springWordsA: array<u32>;
@group(0) @binding(4) var<storage, read> springClasses: array<SpringClass>;
@group(0) @binding(5) var<storage, read> bondStart: array<u32>;
@group(0) @binding(6) var<storage, read_write> bondList: array<u32>;
@group(0) @binding(7) var<storage, read_write> fracture: Fracture;
@group(0) @binding(8) var<storage, read_write> springWordsB: array<u32>;
// critical_stretch writes the same buffer through this view (binding 9 of its own layout).
@group(0) @binding(9) var<storage, read_write> fractureOut: FractureOut;

// The fracture state: broken CSR entries so far (two per spring), then s0(x) per slot.
struct Fracture {
  broken: atomic<u32>,
  s0: array<f32>,
}

struct FractureOut {
  broken: u32,
  s0: array<f32>,
}

override ALPHA: f32 = 0.0;
const NO_BREAK: f32 = 3.4e38;

fn set_spring_word(e: u32, word: u32) {
  if (e < WORDS_CHUNK) {
    springWordsA[e] = word;
  } else {
    springWordsB[e - WORDS_CHUNK] = word;
  }
}

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
fn critical_stretch(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let k = gid.x + gid.y * nwg.x * WG;
  if (k >= P.count) { return; }
  let xi = pos[P.first + k].xyz;
  var s0 = -NO_BREAK;
  for (var e = springStart[k]; e < springStart[k + 1u]; e++) {
    let word = spring_word(e);
    let sc = springClasses[spring_class(word)];
    if (sc.breakStretch <= 0.0) { continue; }
    let l = length(pos[P.first + spring_partner(word)].xyz - xi);
    s0 = max(s0, sc.breakStretch - ALPHA * (l - sc.restLength) / sc.restLength);
  }
  fractureOut.s0[k] = select(NO_BREAK, s0, s0 > -NO_BREAK);
}

@compute @workgroup_size(WG)
fn break_springs(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let k = gid.x + gid.y * nwg.x * WG;
  if (k >= P.count) { return; }
  let i = P.first + k;
  let xi = pos[i].xyz;
  let s0i = fracture.s0[k];
  var n = 0u;
  for (var e = springStart[k]; e < springStart[k + 1u]; e++) {
    let word = spring_word(e);
    let sc = springClasses[spring_class(word)];
    if (sc.breakStretch <= 0.0) { continue; }
    let partner = spring_partner(word);
    let j = P.first + partner;
    let l = length(pos[j].xyz - xi);
    if ((l - sc.restLength) / sc.restLength > min(s0i, fracture.s0[partner])) {
      set_spring_word(e, partner);
      if (i < j) { mark_broken(i, j); }
      n++;
    }
  }
  if (n > 0u) { atomicAdd(&fracture.broken, n); }
}
