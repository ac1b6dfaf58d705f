// Solid–solid penetration (docs/design.md): for each particle of a solid body, its deepest
// overlap with a particle of another solid body, (2r − d)/r in radii (0 when none within 2r;
// > 1: more than half inside, "inside another solid body"), over the 27 cells of a neighbour grid
// of cell edge ≥ 2r built on the positions of the sample (gpu/metrics/solid_penetration.ts).
// Written into the w of the particle's perParticle vec4 (metrics.wgsl reduces it).

struct SolidParams {
  gridMin: vec3f,
  cellSize: f32,
  dims: vec4u,
  count: u32,
  radius: f32,
}

override NONE: u32;

@group(0) @binding(0) var<uniform> P: SolidParams;
@group(0) @binding(1) var<storage, read> pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> solidOf: array<u32>;
@group(0) @binding(3) var<storage, read> cellStart: array<u32>;
@group(0) @binding(4) var<storage, read> sorted: array<u32>;
@group(0) @binding(5) var<storage, read_write> perParticle: array<vec4f>;

@compute @workgroup_size(64)
fn solid_penetration(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * 64u;
  if (i >= P.count) { return; }
  let s = solidOf[i];
  let x = pos[i].xyz;
  var pen = 0.0;
  // Finite by the exponent bits (all ones: Inf or NaN; a shader compiler may assume no NaN).
  if (s != NONE && all((bitcast<vec3u>(x) & vec3u(0x7f800000u)) != vec3u(0x7f800000u))) {
    let c = gridCell(x, P.gridMin, P.cellSize, P.dims.xyz);
    let reach = 2.0 * P.radius;
    for (var row = 0u; row < 9u; row++) {
      let span = gridNeighborRow(c, row, P.dims.xyz);
      for (var k = span.x; k < span.y; k++) {
        let j = sorted[k];
        let sj = solidOf[j];
        if (sj == NONE || sj == s) { continue; }
        let d = length(x - pos[j].xyz);
        if (d < reach) { pen = max(pen, (reach - d) / P.radius); }
      }
    }
  }
  perParticle[i].w = pen;
}
