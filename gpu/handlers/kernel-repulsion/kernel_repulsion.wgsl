// Kernel repulsion between bodies: a constant contact pressure through the SPH spiky-kernel
// gradient (a smooth penalty; the SPH-based coupling of the literature is gpu/handlers/akinci), f32, one invocation per particle. Owner: gpu/handlers/kernel-repulsion/kernel_repulsion.ts. Reference:
// core/baselines.ts (kernelRepulsionForces, f64).
//
// For every j of another body (body[j] != body[i]) with 0 < r = |x_i - x_j| < h, found in the 27
// cells around x_i (gpu/README.md order):
//   f_i += -k m_i m_j / rho0^2 gradW_spiky(x_i - x_j, h)
//        =  k m_i m_j / rho0^2 * 45 / (pi h^4) * (1 - r/h)^2 * (x_i - x_j) / r
// params.coef = k / rho0^2 * 45 / (pi h^4), precomputed in f64. The pair scalar is computed
// from symmetric terms (m_i m_j, r), so f_ji = -f_ij bit for bit. The result is ADDED to
// force[i].xyz (force[i].w is kept).

struct KernelRepulsionParams {
  gridMin: vec3f,
  cellSize: f32,
  dims: vec4u, // xyz: cells per axis, w: cell count
  count: u32,
  h2: f32,
  invH: f32,
  coef: f32, // k / rho0^2 * 45 / (pi h^4)
}

override WORKGROUP_SIZE: u32 = 64;

@group(0) @binding(0) var<uniform> params: KernelRepulsionParams;
@group(0) @binding(1) var<storage, read> pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> mass: array<f32>;
@group(0) @binding(3) var<storage, read> body: array<u32>;
@group(0) @binding(4) var<storage, read> cellStart: array<u32>;
@group(0) @binding(5) var<storage, read> sorted: array<u32>;
@group(0) @binding(6) var<storage, read_write> force: array<vec4f>;

// Cell of a point, clamped into the grid (gpu/state/grid_cell.wgsl, prepended by the owner).
fn cellOf(x: vec3f) -> vec3i {
  return gridCell(x, params.gridMin, params.cellSize, params.dims.xyz);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn kernel_repulsion(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WORKGROUP_SIZE; // 2D past 65,535 workgroups
  if (i >= params.count) {
    return;
  }
  let xi = pos[i].xyz;
  let mi = mass[i];
  let bi = body[i];
  let c = cellOf(xi);
  var f = vec3f(0.0);
  for (var row = 0u; row < 9u; row++) { // the 27 cells around c, z, y, x order
    let span = gridNeighborRow(c, row, params.dims.xyz);
    for (var k = span.x; k < span.y; k++) {
      let j = sorted[k];
      if (body[j] == bi) {
        continue;
      }
      let d = xi - pos[j].xyz;
      let r2 = dot(d, d);
      if (r2 >= params.h2 || r2 == 0.0) {
        continue;
      }
      let r = sqrt(r2);
      let s = 1.0 - r * params.invH;
      f += (params.coef * (mi * mass[j]) * s * s / r) * d;
    }
  }
  force[i] = vec4f(force[i].xyz + f, force[i].w);
}
