// Fluid-validity metrics (docs/design.md "Metrics"; definitions in gpu/metrics/fluid_metrics.ts):
// per fluid particle a poly6 density estimate over the fluid particles of its own body on a
// neighbour grid of cell h built at sample time (27 cells, so no invocation loops over a body),
// then one workgroup reduces in a fixed order: the compression error (max and mean), the volume
// Σ m/max(ρ, ρ0) against its value at the start, and the dam-break front and column height as the
// TOP_K-th largest extent (top-4 lists merged in a tree, no sort, no atomics).

struct FluidParams {
  gridMin: vec3f,
  cellSize: f32,
  dims: vec4u,
  count: u32,
  radius: f32,
  h: f32,
  probes: u32, // 1: measure frontX and columnHeight (the scene has a damBreak probe)
  backWallX: f32,
  floorY: f32,
  band: f32, // width of the floor band and of the back-wall band (m)
  mode: u32, // 0: record the initial volume; 1: take a sample
  sample: u32,
  fields: u32,
  pad0: u32,
  pad1: u32,
}

const WG: u32 = 256u;
const PI: f32 = 3.14159265358979;
// Below every extent: an empty slot of a top-4 list.
const NEG: f32 = -3.4e38;

// `fluidOf` of a particle of no fluid body (gpu/metrics/fluid_metrics.ts NOT_FLUID, passed in).
override NONE: u32;
// The front and the column height are the TOP_K-th largest extents (1 to 4).
override TOP_K: u32;
// Columns of a sample row (gpu/metrics/metrics.ts SAMPLE_FIELDS, passed in).
override F_FRONT_X: u32;
override F_COLUMN_HEIGHT: u32;
override F_DENSITY_ERROR_MAX: u32;
override F_DENSITY_ERROR_MEAN: u32;
override F_VOLUME_CHANGE: u32;

@group(0) @binding(0) var<uniform> P: FluidParams;

// Density pass, one invocation per particle: ρ_i = Σ_j m_j W_poly6(|x_i − x_j|, h) over the
// particles j of the same fluid body (self included), in the grid's order (z, y, x cells, then
// ascending index). Writes (max(ρ_i/ρ0 − 1, 0), m_i / max(ρ_i, ρ0)); (0, 0) for other particles.
@group(0) @binding(1) var<storage, read> pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> mass: array<f32>;
@group(0) @binding(3) var<storage, read> fluidOf: array<u32>;
@group(0) @binding(4) var<storage, read> rho0: array<f32>; // per fluid body
@group(0) @binding(5) var<storage, read> cellStart: array<u32>;
@group(0) @binding(6) var<storage, read> sorted: array<u32>;
@group(0) @binding(7) var<storage, read_write> perFluid: array<vec2f>;

fn finite3(v: vec3f) -> bool {
  // By the exponent bits (all ones: Inf or NaN): a comparison would not do, since a shader
  // compiler may assume no NaN (WGSL allows it; llvmpipe's does) and fold `abs(v) <= max` to true.
  let e = bitcast<vec3u>(v) & vec3u(0x7f800000u);
  return all(e != vec3u(0x7f800000u));
}

@compute @workgroup_size(64)
fn fluid_density(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * 64u;
  if (i >= P.count) { return; }
  let b = fluidOf[i];
  let x = pos[i].xyz;
  var out = vec2f(0.0);
  if (b != NONE && finite3(x)) {
    let h2 = P.h * P.h;
    let c = gridCell(x, P.gridMin, P.cellSize, P.dims.xyz);
    var rho = 0.0;
    for (var row = 0u; row < 9u; row++) {
      let span = gridNeighborRow(c, row, P.dims.xyz);
      for (var k = span.x; k < span.y; k++) {
        let j = sorted[k];
        if (fluidOf[j] != b) { continue; }
        let d = x - pos[j].xyz;
        let r2 = dot(d, d);
        if (r2 < h2) {
          let s = 1.0 - r2 / h2;
          rho += mass[j] * s * s * s;
        }
      }
    }
    rho *= 315.0 / (64.0 * PI * P.h * P.h * P.h);
    let r0 = rho0[b];
    out = vec2f(max(rho / r0 - 1.0, 0.0), mass[i] / max(rho, r0));
  }
  perFluid[i] = out;
}

// Reduction pass: one workgroup, each invocation over a stride of the particles, then a
// fixed-order tree (bit-reproducible).
@group(0) @binding(1) var<storage, read> r_pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> r_fluidOf: array<u32>;
@group(0) @binding(3) var<storage, read> r_perFluid: array<vec2f>;
@group(0) @binding(4) var<storage, read_write> r_state: array<f32>; // [0]: volume at the start
@group(0) @binding(5) var<storage, read_write> r_samples: array<f32>;

// The reduction's slots: RED, not WG (fluid_reduce folds the WG partial results into them).
const RED: u32 = 16u;
var<workgroup> wSum: array<vec4f, RED>; // error sum, volume, fluid particles, -
var<workgroup> wMax: array<f32, RED>; // largest error
var<workgroup> wFront: array<vec4f, RED>; // the 4 largest front extents, descending
var<workgroup> wHeight: array<vec4f, RED>; // the 4 largest height extents, descending

// Inserts v into the descending list t, dropping the smallest (a sorting network of one pass).
fn top_insert(t: vec4f, v: f32) -> vec4f {
  let a = max(t.x, v);
  let b0 = min(t.x, v);
  let b = max(t.y, b0);
  let c0 = min(t.y, b0);
  let c = max(t.z, c0);
  let d0 = min(t.z, c0);
  return vec4f(a, b, c, max(t.w, d0));
}

// The 4 largest of two descending lists.
fn top_merge(a: vec4f, b: vec4f) -> vec4f {
  return top_insert(top_insert(top_insert(top_insert(a, b.x), b.y), b.z), b.w);
}

// Slot k of the reduction combined with one more partial result; `first`: the slot takes it as
// it is (its zeroed memory is no empty top-4 list).
fn combine(k: u32, first: bool, part: FluidPart) {
  if (first) {
    wSum[k] = part.sum;
    wMax[k] = part.mx;
    wFront[k] = part.front;
    wHeight[k] = part.height;
  } else {
    wSum[k] = wSum[k] + part.sum;
    wMax[k] = max(wMax[k], part.mx);
    wFront[k] = top_merge(wFront[k], part.front);
    wHeight[k] = top_merge(wHeight[k], part.height);
  }
}

// One partial result of fluid_reduce.
struct FluidPart {
  sum: vec4f,
  mx: f32,
  front: vec4f,
  height: vec4f,
}

// The TOP_K-th largest of a list, 0 when it holds fewer than TOP_K values.
fn top_kth(t: vec4f) -> f32 {
  let v = t[TOP_K - 1u];
  return select(v, 0.0, v <= NEG);
}

@compute @workgroup_size(WG)
fn fluid_reduce(@builtin(local_invocation_id) lid: vec3u) {
  let t = lid.x;
  var sum = vec4f(0.0);
  var mx = 0.0;
  var front = vec4f(NEG);
  var height = vec4f(NEG);
  for (var i = t; i < P.count; i += WG) {
    let x = r_pos[i].xyz;
    if (r_fluidOf[i] == NONE || !finite3(x)) { continue; }
    let q = r_perFluid[i];
    sum += vec4f(q.x, q.y, 1.0, 0.0);
    mx = max(mx, q.x);
    if (P.probes != 0u) {
      // the leading edge of a particle is its centre plus r, along the floor and up the wall
      if (x.y - P.floorY <= P.band) { front = top_insert(front, x.x + P.radius - P.backWallX); }
      if (x.x - P.backWallX <= P.band) { height = top_insert(height, x.y + P.radius - P.floorY); }
    }
  }
  // Fixed order: the WG partial results folded into RED slots band by band (invocations
  // b·RED … b·RED + RED − 1 into slots 0 … RED − 1, one band after the other), then a tree over
  // the slots. Workgroup arrays of RED entries, not WG: WGSL zero-initialises workgroup memory,
  // which SwiftShader compiles in time proportional to its size (2.4 s for this kernel at WG).
  for (var band = 0u; band < WG / RED; band++) {
    if (t / RED == band) {
      combine(t % RED, band == 0u, FluidPart(sum, mx, front, height));
    }
    workgroupBarrier();
  }
  for (var stride = RED / 2u; stride > 0u; stride = stride / 2u) {
    if (t < stride) {
      let o = t + stride;
      combine(t, false, FluidPart(wSum[o], wMax[o], wFront[o], wHeight[o]));
    }
    workgroupBarrier();
  }
  if (t != 0u) { return; }
  let s = wSum[0];
  if (P.mode == 0u) {
    r_state[0] = s.y;
    return;
  }
  let o = P.sample * P.fields;
  r_samples[o + F_FRONT_X] = top_kth(wFront[0]);
  r_samples[o + F_COLUMN_HEIGHT] = top_kth(wHeight[0]);
  r_samples[o + F_DENSITY_ERROR_MAX] = wMax[0];
  r_samples[o + F_DENSITY_ERROR_MEAN] = s.x / max(s.z, 1.0);
  let v0 = r_state[0];
  r_samples[o + F_VOLUME_CHANGE] = select(0.0, s.y / v0 - 1.0, v0 > 0.0);
}
