// Penetration, stability and conservation metrics (docs/design.md "Metrics"), sampled every k steps
// into one row of `samples`; never read back per step. One workgroup, fixed-order reductions,
// so a sample is bit-reproducible. Host code: gpu/metrics/metrics.ts.

struct MetricsParams {
  count: u32,
  pad6: u32,
  solidCount: u32,
  pad4: u32,
  pad3: u32,
  sample: u32,
  mode: u32, // 0: record the initial side of every particle to every sheet; 1: take a sample
  fields: u32,
  radius: f32,
  reboundSpeed: f32, // a fluid particle faster upward than this counts in fastRebound
  time: f32,
  // |g| × the time since the previous sample (0 at the start): the most speed gravity alone gives
  // a particle between two samples
  gravityGain: f32,
  gravity: vec3f,
  pad1: u32,
  origin: vec3f, // reference point of the potential energy (the domain's lower corner)
  pad2: u32,
}

const WG: u32 = 256u;
// Body-kind bits of the `kind` buffer (gpu/state/particle_state.ts KIND_BITS, passed in).
override FLAG_CLOTH: u32;
override FLAG_FLUID: u32;
// The word of each handler column in the handler's statistics (the handler names them,
// gpu/state/handler_statistics.ts; passed in); STAT_NONE: the handler keeps none, the column is 0.
override STAT_NONE: u32;
override STAT_MOMENTUM_ERROR: u32;
override STAT_ENERGY_ERROR: u32;
override STAT_STAGE2_PAIRS: u32;
override STAT_GROUPS: u32;
override STAT_LARGEST_GROUP: u32;
override STAT_LARGEST_SHEET_GROUP: u32;

// Columns of a sample row (gpu/metrics/metrics.ts SAMPLE_FIELDS, passed in).
override F_TIME: u32;
override F_PASS_THROUGH: u32;
override F_DEEP_OVERLAPS: u32;
override F_MAX_PENETRATION_DEPTH: u32;
override F_MAX_SPEED: u32;
override F_KINETIC: u32;
override F_POTENTIAL: u32;
override F_ELASTIC: u32;
override F_NAN_COUNT: u32;
override F_SHEET_DEFLECTION: u32;
override F_MAX_REBOUND: u32;
override F_FLUID_UP_VELOCITY: u32;
override F_FLUID_HEIGHT: u32;
override F_FAST_REBOUND: u32;
override F_FLUNG_SPEED: u32;
override F_MOMENTUM_ERROR: u32;
override F_ENERGY_ERROR: u32;
override F_STAGE2_PAIRS: u32;
override F_GROUPS: u32;
override F_LARGEST_GROUP: u32;
override F_LARGEST_SHEET_GROUP: u32;
override F_BROKEN_BONDS: u32;
override F_SOLID_INSIDE: u32;
override F_FRAGMENTS: u32;
override F_LARGEST_FRAGMENT: u32;
override F_SIGNIFICANT_FRAGMENTS: u32;
// Positions in the fragments result (gpu/metrics/fragments.ts FRAGMENT_RESULT, passed in).
override FRAGMENT_COUNT: u32;
override FRAGMENT_LARGEST: u32;
override FRAGMENT_SIGNIFICANT: u32;
override F_MAX_SOLID_PENETRATION: u32;
// The broken-bond flag of bondList entries (gpu/state/bond_flags.ts BOND_BROKEN_BIT, passed in).
override BROKEN_BIT: u32;

@group(0) @binding(0) var<uniform> P: MetricsParams;

// Per-particle pass (one invocation per particle), into the particle's `particleTerms` vec4:
// - xy: the elastic energy of its intact bonds, Σ ½ ks (|x_j − x_i| − L)², and its broken bonds,
//   over its bond list (each bond listed once, under its lower index, so each is counted once; a
//   broken bond carries BROKEN_BIT, gpu/systems/peridynamics/spring_breaking.wgsl);
// - z: its speed when it was flung since the previous sample (else 0): at least FLUNG_GAIN_SHARE
//   of its speed s came from a force other than gravity within one sample interval (a contact, or
//   its body's answer to one), s − (s_prev + gravityGain) ≥ FLUNG_GAIN_SHARE · s. Free fall gains exactly gravityGain and never counts,
//   nor does a particle that passed through a sheet and falls on (the bar of claims m, m2 and of
//   every handler's instability, reports/claims/case_status.ts);
// - w: its speed at this sample, s_prev of the next.
// `perParticle` is written by the passes on neighbour grids that follow: (passed any sheet, deep
// overlaps, penetration depth) by sheet_crossing.wgsl, w (the deepest overlap with a particle of
// another solid body) by solid_penetration.wgsl; each stays 0 without sheets / solid bodies.
// (Two buffers of N entries, not one of 2N: each stays under the per-binding limit at Table I's
// counts.)
@group(0) @binding(1) var<storage, read> q_pos: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> q_terms: array<vec4f>;
@group(0) @binding(3) var<storage, read> q_bondStart: array<u32>;
@group(0) @binding(4) var<storage, read> q_bondList: array<u32>;
@group(0) @binding(5) var<storage, read> q_bondClass: array<u32>;
@group(0) @binding(6) var<storage, read> q_springClasses: array<SpringClass>;
@group(0) @binding(7) var<storage, read> q_vel: array<vec4f>;

// The share of its speed a flung particle gained from forces other than gravity (core/result.ts
// FLUNG_GAIN_SHARE, passed in).
override FLUNG_GAIN_SHARE: f32;

// The speed s if the particle was flung, s − (prev + gain) ≥ FLUNG_GAIN_SHARE · s, else 0.
fn flung_speed(s: f32, prev: f32, gain: f32) -> f32 {
  return select(0.0, s, s - (prev + gain) >= FLUNG_GAIN_SHARE * s);
}

@compute @workgroup_size(64)
fn metrics_particle(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * 64u;
  if (i >= P.count) { return; }
  let s = length(q_vel[i].xyz);
  var flung = 0.0;
  if (P.mode == 1u) { flung = flung_speed(s, q_terms[i].w, P.gravityGain); }
  q_terms[i] = vec4f(bond_energy(i), flung, s); // bond_energy.wgsl
}

// Reduction pass: one workgroup, fixed-order tree reductions (bit-reproducible). 8 storage
// buffers, WebGPU's guaranteed limit per stage: the handler statistics are copied by the
// counter pass (counter_metrics) instead.
@group(0) @binding(1) var<storage, read> pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> vel: array<vec4f>;
@group(0) @binding(3) var<storage, read> mass: array<f32>;
@group(0) @binding(4) var<storage, read> flags: array<u32>;
@group(0) @binding(5) var<storage, read> rest: array<vec4f>;
@group(0) @binding(8) var<storage, read> perParticle: array<vec4f>;
@group(0) @binding(9) var<storage, read_write> samples: array<f32>;
@group(0) @binding(10) var<storage, read> particleTerms: array<vec4f>;

// The reduction's slots: RED, not WG (sample_metrics folds the WG partial results into them).
const RED: u32 = 16u;
var<workgroup> redSum: array<vec4f, RED>;  // kinetic, potential, elastic, broken bonds
var<workgroup> redMax: array<vec4f, RED>;  // speed, penetration depth, deflection, rebound
var<workgroup> redCnt: array<vec4u, RED>;  // pass-through, deep overlaps, NaN, inside a solid
var<workgroup> redPen: array<vec2f, RED>;   // solid–solid penetration depth, flung speed
var<workgroup> redFluid: array<vec3f, RED>; // fluid: sum of m v.y, sum of m, sum of m y
var<workgroup> redFast: array<u32, RED>;    // fluid particles rebounding faster than reboundSpeed

// Slot k of the reduction combined with one more partial result (sums add, maxima take the max).
fn combine(k: u32, sum: vec4f, mx: vec4f, cnt: vec4u, pen: vec2f, fluid: vec3f, fast: u32) {
  redSum[k] = redSum[k] + sum;
  redMax[k] = max(redMax[k], mx);
  redCnt[k] = redCnt[k] + cnt;
  redPen[k] = max(redPen[k], pen);
  redFluid[k] = redFluid[k] + fluid;
  redFast[k] = redFast[k] + fast;
}

fn finite3(v: vec3f) -> bool {
  // By the exponent bits (all ones: Inf or NaN): a comparison would not do, since a shader
  // compiler may assume no NaN (WGSL allows it; llvmpipe's does) and fold `abs(v) <= max` to true.
  let e = bitcast<vec3u>(v) & vec3u(0x7f800000u);
  return all(e != vec3u(0x7f800000u));
}

@compute @workgroup_size(WG)
fn sample_metrics(@builtin(local_invocation_id) lid: vec3u) {
  let t = lid.x;
  var sum = vec4f(0.0);
  var mx = vec4f(0.0);
  var cnt = vec4u(0u);
  var pen = vec2f(0.0);
  var fluid = vec3f(0.0);
  var fast = 0u;
  for (var i = t; i < P.count; i += WG) {
    let x = pos[i].xyz;
    let v = vel[i].xyz;
    let f = flags[i];
    if (!finite3(x) || !finite3(v)) {
      cnt.z += 1u;
      continue;
    }
    let m = mass[i];
    sum.x += 0.5 * m * dot(v, v);
    sum.y -= m * dot(P.gravity, x - P.origin);
    mx.x = max(mx.x, length(v));
    if ((f & FLAG_CLOTH) != 0u) {
      mx.z = max(mx.z, length(x - rest[i].xyz) / P.radius);
    }
    if ((f & FLAG_FLUID) != 0u) {
      mx.w = max(mx.w, v.y);
      fluid += vec3f(m * v.y, m, m * x.y);
      if (v.y > P.reboundSpeed) { fast += 1u; }
    }
    let q = perParticle[i];
    let e = particleTerms[i];
    sum.z += e.x;
    sum.w += e.y;
    cnt.x += u32(q.x);
    cnt.y += u32(q.y);
    mx.y = max(mx.y, q.z);
    pen = max(pen, vec2f(q.w, e.z));
    if (q.w > 1.0) { cnt.w += 1u; }
  }
  // Fixed order: the WG partial results folded into RED slots band by band (invocations
  // b·RED … b·RED + RED − 1 into slots 0 … RED − 1, one band after the other; the slots start
  // zeroed and every maximum here is ≥ 0), then a tree over the slots. Workgroup arrays of RED
  // entries, not WG: WGSL zero-initialises workgroup memory, which SwiftShader compiles in time
  // proportional to its size (2.7 s for this kernel at WG entries, step_budget.wgsl).
  for (var band = 0u; band < WG / RED; band++) {
    if (t / RED == band) {
      combine(t % RED, sum, mx, cnt, pen, fluid, fast);
    }
    workgroupBarrier();
  }
  for (var stride = RED / 2u; stride > 0u; stride = stride / 2u) {
    if (t < stride) {
      let o = t + stride;
      combine(t, redSum[o], redMax[o], redCnt[o], redPen[o], redFluid[o], redFast[o]);
    }
    workgroupBarrier();
  }
  if (t == 0u && P.mode == 1u) {
    let o = P.sample * P.fields;
    samples[o + F_TIME] = P.time;
    samples[o + F_PASS_THROUGH] = f32(redCnt[0].x);
    samples[o + F_DEEP_OVERLAPS] = f32(redCnt[0].y);
    samples[o + F_MAX_PENETRATION_DEPTH] = redMax[0].y;
    samples[o + F_MAX_SPEED] = redMax[0].x;
    samples[o + F_KINETIC] = redSum[0].x;
    samples[o + F_POTENTIAL] = redSum[0].y;
    samples[o + F_ELASTIC] = redSum[0].z;
    samples[o + F_BROKEN_BONDS] = redSum[0].w;
    samples[o + F_NAN_COUNT] = f32(redCnt[0].z);
    samples[o + F_SOLID_INSIDE] = f32(redCnt[0].w);
    samples[o + F_MAX_SOLID_PENETRATION] = redPen[0].x;
    samples[o + F_FLUNG_SPEED] = redPen[0].y;
    samples[o + F_SHEET_DEFLECTION] = redMax[0].z;
    samples[o + F_MAX_REBOUND] = redMax[0].w;
    var up = 0.0;
    var height = 0.0;
    if (redFluid[0].y > 0.0) {
      up = redFluid[0].x / redFluid[0].y;
      height = redFluid[0].z / redFluid[0].y;
    }
    samples[o + F_FLUID_UP_VELOCITY] = up;
    samples[o + F_FLUID_HEIGHT] = height;
    samples[o + F_FAST_REBOUND] = f32(redFast[0]);
  }
}

// Counter pass (after the reduction pass, one invocation): the counters other passes keep, into
// the row: the fragments of the breakable solid bodies (count and largest, from the connected
// components computed before this pass) and the handler statistics.
@group(0) @binding(1) var<storage, read_write> e_samples: array<f32>;
// gpu/metrics/fragments.ts result: fragment count, largest fragment (components of intact bonds)
@group(0) @binding(2) var<storage, read> e_fragments: array<u32>;
// the handler's statistics (gpu/state/handler_statistics.ts; a placeholder, never read, when it
// keeps none)
@group(0) @binding(3) var<storage, read> e_stats: array<u32>;

// The word `word` of the handler's statistics; 0 for STAT_NONE.
fn handler_stat(word: u32) -> u32 {
  if (word == STAT_NONE) { return 0u; }
  return e_stats[word];
}

@compute @workgroup_size(1)
fn counter_metrics() {
  if (P.mode == 1u) {
    let o = P.sample * P.fields;
    e_samples[o + F_FRAGMENTS] = f32(e_fragments[FRAGMENT_COUNT]);
    e_samples[o + F_LARGEST_FRAGMENT] = f32(e_fragments[FRAGMENT_LARGEST]);
    e_samples[o + F_SIGNIFICANT_FRAGMENTS] = f32(e_fragments[FRAGMENT_SIGNIFICANT]);
    // f32 bits or counts as core/result.ts HANDLER_SAMPLE_KINDS says
    e_samples[o + F_MOMENTUM_ERROR] = bitcast<f32>(handler_stat(STAT_MOMENTUM_ERROR));
    e_samples[o + F_ENERGY_ERROR] = bitcast<f32>(handler_stat(STAT_ENERGY_ERROR));
    e_samples[o + F_STAGE2_PAIRS] = f32(handler_stat(STAT_STAGE2_PAIRS));
    e_samples[o + F_GROUPS] = f32(handler_stat(STAT_GROUPS));
    e_samples[o + F_LARGEST_GROUP] = f32(handler_stat(STAT_LARGEST_GROUP));
    e_samples[o + F_LARGEST_SHEET_GROUP] = f32(handler_stat(STAT_LARGEST_SHEET_GROUP));
  }
}
