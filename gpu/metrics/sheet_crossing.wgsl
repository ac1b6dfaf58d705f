// Sheet metrics of a sample (definitions in the header of gpu/metrics/metrics.ts; host code and
// design in gpu/metrics/sheet_crossing.ts): for each particle and each sheet (a cloth body, a
// rows × cols lattice) it does not belong to, over the 27 cells of a neighbour grid of the sheets'
// particles alone, of cell edge `reach` ≥ 2r:
// - its overlaps with the sheet's particles: the deep ones (closer than r) counted, the deepest
//   (2r − d)/r over those closer than 2r;
// - its nearest sheet particle closer than `reach`, if any: when that one is interior (not on the
//   lattice's border) and the particle lies within the sheet's lateral threshold of it, the
//   particle's side of the sheet by the local normal there is observed and becomes its tracked
//   side; otherwise the tracked side is kept;
// - mode 0 (the start): the initial side, observed as above or, without an observation, the side
//   of the plane through the sheet's centre particle with the local normal there; the tracked
//   side starts equal to it;
// - mode 1 (a sample): passed = the tracked side differs from the initial side (for any sheet);
// - round the edge: a particle seen outside the sheet's outline (the quadrilateral of its four
//   corner particles, along its normal) while not observed is marked; its next observation
//   re-seeds both sides with the side it is seen on, since it came there round the sheet's edge,
//   not through it (marked at the start too: its first observation then gives its sides).
// The mark is the magnitude 2 of the tracked side (its sign is the side).
// Written into xyz of the particle's perParticle vec4 (passed, deep overlaps, depth;
// metrics.wgsl reduces them; w is solid_penetration.wgsl's). No invocation loops over a whole body.

struct SheetParams {
  gridMin: vec3f,
  cellSize: f32, // = the reach
  dims: vec4u,
  count: u32,
  radius: f32,
  sheetCount: u32,
  mode: u32, // 0: record the initial sides; 1: take a sample
}

@group(0) @binding(0) var<uniform> P: SheetParams;
@group(0) @binding(1) var<storage, read> pos: array<vec4f>;
// Per sheet: first particle, rows, cols, bits of the lateral threshold (m). The grid holds the
// sheets' particles in this order, contiguously: sheet s from Σ_{t<s} rows_t·cols_t.
@group(0) @binding(2) var<storage, read> sheets: array<vec4u>;
@group(0) @binding(3) var<storage, read> cellStart: array<u32>;
@group(0) @binding(4) var<storage, read> sorted: array<u32>;
// Per (sheet, particle), at sheet * count + particle: (initial side ±1, tracked side ±1, or ±2
// when marked round the edge).
@group(0) @binding(5) var<storage, read_write> sides: array<vec2i>;
@group(0) @binding(6) var<storage, read_write> perParticle: array<vec4f>;

fn sheet_pos(sh: vec4u, r: u32, c: u32) -> vec3f {
  return pos[sh.x + r * sh.z + c].xyz;
}

// Sheet normal at sheet particle (r, c) from its lattice neighbours (central differences,
// one-sided on the border); (0, 1, 0) when degenerate.
fn sheet_normal(sh: vec4u, r: u32, c: u32) -> vec3f {
  let c0 = select(c - 1u, c, c == 0u);
  let c1 = min(c + 1u, sh.z - 1u);
  let r0 = select(r - 1u, r, r == 0u);
  let r1 = min(r + 1u, sh.y - 1u);
  let n = cross(
    sheet_pos(sh, r, c1) - sheet_pos(sh, r, c0),
    sheet_pos(sh, r1, c) - sheet_pos(sh, r0, c),
  );
  let len = length(n);
  if (len > 0.0) { return n / len; }
  return vec3f(0.0, 1.0, 0.0);
}

fn side_of(h: f32) -> i32 {
  return select(1, -1, h < 0.0);
}

// Whether x lies outside the sheet's outline: the quadrilateral of its four corner particles,
// projected along the quadrilateral's normal (the cross product of its diagonals). A degenerate
// outline (a zero normal) has no outside.
fn outside_outline(sh: vec4u, x: vec3f) -> bool {
  let a = sheet_pos(sh, 0u, 0u);
  let b = sheet_pos(sh, 0u, sh.z - 1u);
  let c = sheet_pos(sh, sh.y - 1u, sh.z - 1u);
  let d = sheet_pos(sh, sh.y - 1u, 0u);
  let n = cross(c - a, d - b);
  let e = vec4f(
    dot(cross(b - a, x - a), n),
    dot(cross(c - b, x - b), n),
    dot(cross(d - c, x - c), n),
    dot(cross(a - d, x - d), n),
  );
  return !(all(e >= vec4f(0.0)) || all(e <= vec4f(0.0)));
}

@compute @workgroup_size(64)
fn sheet_crossing(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * 64u;
  if (i >= P.count) { return; }
  let x = pos[i].xyz;
  // Finite by the exponent bits (all ones: Inf or NaN; a shader compiler may assume no NaN).
  let finite = all((bitcast<vec3u>(x) & vec3u(0x7f800000u)) != vec3u(0x7f800000u));
  let cell = gridCell(x, P.gridMin, P.cellSize, P.dims.xyz);
  let contact = 2.0 * P.radius;
  var out = vec3f(0.0); // passed any sheet, deep overlaps, penetration depth (radii)
  var first = 0u; // grid index of the sheet's first particle
  for (var s = 0u; s < P.sheetCount; s++) {
    let sh = sheets[s];
    let n = sh.y * sh.z;
    let base = first;
    first += n;
    let slot = s * P.count + i;
    if (i >= sh.x && i < sh.x + n) { continue; }
    if (!finite) {
      if (P.mode == 0u) { sides[slot] = vec2i(1); }
      continue;
    }
    var best = P.cellSize;
    var bestK = n; // none closer than the reach
    for (var row = 0u; row < 9u; row++) {
      let span = gridNeighborRow(cell, row, P.dims.xyz);
      for (var k = span.x; k < span.y; k++) {
        let j = sorted[k];
        if (j < base || j >= base + n) { continue; }
        let d = length(x - pos[sh.x + j - base].xyz);
        if (d < best) {
          best = d;
          bestK = j - base;
        }
        if (d < contact) {
          out.z = max(out.z, (contact - d) / P.radius);
          if (d < P.radius) { out.y += 1.0; }
        }
      }
    }
    var seen = false;
    var side = 1;
    if (bestK < n) {
      let r = bestK / sh.z;
      let c = bestK % sh.z;
      let nrm = sheet_normal(sh, r, c);
      let rel = x - sheet_pos(sh, r, c);
      let h = dot(rel, nrm);
      side = side_of(h);
      let interior = r > 0u && c > 0u && r + 1u < sh.y && c + 1u < sh.z;
      seen = interior && length(rel - h * nrm) < bitcast<f32>(sh.w);
    }
    let roundEdge = !seen && outside_outline(sh, x);
    if (P.mode == 0u) {
      if (!seen) {
        let r = sh.y / 2u;
        let c = sh.z / 2u;
        side = side_of(dot(x - sheet_pos(sh, r, c), sheet_normal(sh, r, c)));
      }
      sides[slot] = vec2i(side, select(side, 2 * side, roundEdge));
    } else {
      let st = sides[slot];
      var next = st;
      if (seen) {
        // back from round the edge: both sides re-seeded; else the observed side is tracked
        next = select(vec2i(st.x, side), vec2i(side), abs(st.y) == 2);
      } else if (roundEdge) {
        next.y = select(-2, 2, st.y > 0);
      }
      if (any(next != st)) { sides[slot] = next; }
      if (select(-1, 1, next.y > 0) != next.x) { out.x = 1.0; }
    }
  }
  perParticle[i] = vec4f(out, perParticle[i].w);
}
