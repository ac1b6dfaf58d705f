// Two-way fluid–solid coupling with boundary particles (Akinci, Ihmsen, Akinci, Solenthaler &
// Teschner 2012, "Versatile rigid-fluid coupling for incompressible SPH"), f32, one invocation per
// particle. Owner: gpu/handlers/akinci/akinci_coupling.ts. Reference: core/reference/akinci_reference.ts
// (same formulas, f64). Kernels are the fluid's (gpu/systems/sph/sph.wgsl): poly6 W for densities,
// the spiky gradient for forces.
//
// Boundary particles are every particle that is not fluid (kind & KIND_FLUID == 0): cloth and
// solids. Neighbours come from the 27 cells around a particle (gpu/README.md order), so sums are
// in a fixed order and runs repeat bit for bit.
//
// Three entry points, dispatched in this order:
//   akinci_psi      Eqs. 4-5: psi_b = rho0 / sum_k W(x_b - x_k), k over boundary particles (times
//                     volumeScale, 1 as published)
//                   (b itself included); a fluid particle's entry holds its mass m_i instead, the
//                   m_i of Eq. 10 for the forces pass (Eq. 10 takes psi of the boundary side and m
//                   of the fluid side, so one buffer serves both and the forces pass binds 8
//                   storage buffers, WebGPU's guaranteed maxStorageBuffersPerShaderStage; the mass
//                   does not change between the two passes of a stage).
//   akinci_density  Eq. 6, its boundary term: boundaryDensity[i] = sum_b psi_b W(x_i - x_b) for a
//                   fluid particle i (0 for others); the SPH system adds it to its density sum.
//   akinci_forces   after the SPH density pass has written pressure[i] = (p_i / rho_i^2, rho_i):
//                   Eqs. 10-13, the pair force on fluid i from boundary b
//                     F_ib = -m_i psi_b (p_i / rho_i^2 + Pi_ib) gradW(x_i - x_b),
//                     Pi_ib = -nu min(v_ib . x_ib, 0) / (|x_ib|^2 + eps h^2), nu = sigma h c_s / (2 rho_i);
//                   a fluid particle adds sum_b F_ib, a boundary particle adds -sum_i F_ib
//                   (Eqs. 9, 14). Both sides evaluate the same function of (i, b), so the reaction
//                   is the action negated bit for bit and momentum is conserved up to summation
//                   rounding. Added to force[i].xyz (w kept).

struct AkinciParams {
  gridMin: vec3f,
  cellSize: f32,
  dims: vec4u, // xyz: cells per axis, w: cell count
  count: u32,
  h2: f32,
  invH: f32,
  rho0: f32,
  poly6: f32, // 315 / (64 pi h^3)
  spikyGrad: f32, // 45 / (pi h^4)
  nuCoef: f32, // sigma h c_s / 2 (nu = nuCoef / rho_i)
  epsH2: f32, // 0.01 h^2
  volumeScale: f32, // scale of psi (1: as published; a sweep's stiffness knob)
}

override WORKGROUP_SIZE: u32 = 64;
// Body-kind bit of a fluid particle (gpu/state/particle_state.ts KIND_BITS.fluid, passed in).
override KIND_FLUID: u32;

@group(0) @binding(0) var<uniform> params: AkinciParams;
@group(0) @binding(1) var<storage, read> pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> vel: array<vec4f>;
@group(0) @binding(3) var<storage, read> mass: array<f32>;
@group(0) @binding(4) var<storage, read> kind: array<u32>;
@group(0) @binding(5) var<storage, read> cellStart: array<u32>;
@group(0) @binding(6) var<storage, read> sorted: array<u32>;
// psi_b of boundary particles, m_i of fluid particles (akinci_psi writes it, the others read it)
@group(0) @binding(7) var<storage, read_write> psiMassOut: array<f32>;
@group(0) @binding(8) var<storage, read> psiMass: array<f32>;
@group(0) @binding(9) var<storage, read_write> boundaryDensity: array<f32>;
@group(0) @binding(10) var<storage, read> pressure: array<vec2f>;
@group(0) @binding(11) var<storage, read_write> force: array<vec4f>;

// Cell of a point, clamped into the grid (gpu/state/grid_cell.wgsl, prepended by the owner).
fn cellOf(x: vec3f) -> vec3i {
  return gridCell(x, params.gridMin, params.cellSize, params.dims.xyz);
}

fn isFluid(i: u32) -> bool {
  return (kind[i] & KIND_FLUID) != 0u;
}

// (1 - r^2/h^2)^3: W_poly6 without its coefficient; 0 outside the support.
fn poly6Shape(r2: f32) -> f32 {
  if (r2 >= params.h2) {
    return 0.0;
  }
  let q = 1.0 - r2 * params.invH * params.invH;
  return q * q * q;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn akinci_psi(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let b = gid.x + gid.y * nwg.x * WORKGROUP_SIZE; // 2D past 65,535 workgroups
  if (b >= params.count) {
    return;
  }
  if (isFluid(b)) {
    psiMassOut[b] = mass[b]; // m_i of Eq. 10
    return;
  }
  let xb = pos[b].xyz;
  let c = cellOf(xb);
  var sum = 0.0;
  for (var row = 0u; row < 9u; row++) { // the 27 cells around c, z, y, x order
    let span = gridNeighborRow(c, row, params.dims.xyz);
    for (var s = span.x; s < span.y; s++) {
      let k = sorted[s];
      if (isFluid(k)) {
        continue;
      }
      let d = xb - pos[k].xyz;
      sum += poly6Shape(dot(d, d));
    }
  }
  // sum >= 1 (b itself), so psi is finite
  psiMassOut[b] = params.volumeScale * params.rho0 / (params.poly6 * sum);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn akinci_density(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WORKGROUP_SIZE; // 2D past 65,535 workgroups
  if (i >= params.count) {
    return;
  }
  if (!isFluid(i)) {
    boundaryDensity[i] = 0.0;
    return;
  }
  let xi = pos[i].xyz;
  let c = cellOf(xi);
  var sum = 0.0;
  for (var row = 0u; row < 9u; row++) {
    let span = gridNeighborRow(c, row, params.dims.xyz);
    for (var s = span.x; s < span.y; s++) {
      let b = sorted[s];
      if (isFluid(b)) {
        continue;
      }
      let d = xi - pos[b].xyz;
      sum += psiMass[b] * poly6Shape(dot(d, d));
    }
  }
  boundaryDensity[i] = params.poly6 * sum;
}

// F_ib, the force on fluid particle i from boundary particle b (Eqs. 10-13); 0 when they are
// farther apart than h, coincide, or i has no density. m_i and psi_b both come from psiMass.
fn pairForce(i: u32, b: u32) -> vec3f {
  let d = pos[i].xyz - pos[b].xyz;
  let r2 = dot(d, d);
  let pi = pressure[i];
  if (r2 >= params.h2 || r2 == 0.0 || pi.y <= 0.0) {
    return vec3f(0.0);
  }
  let r = sqrt(r2);
  let s = 1.0 - r * params.invH;
  let vd = dot(vel[i].xyz - vel[b].xyz, d);
  let visc = (params.nuCoef / pi.y) * min(vd, 0.0) / (r2 + params.epsH2); // -Pi_ib
  // -m_i psi_b (p/rho^2 + Pi) gradW, gradW = -spikyGrad s^2 d / r
  return (psiMass[i] * psiMass[b] * (pi.x - visc) * params.spikyGrad * s * s / r) * d;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn akinci_forces(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WORKGROUP_SIZE; // 2D past 65,535 workgroups
  if (i >= params.count) {
    return;
  }
  let fluidI = isFluid(i);
  let c = cellOf(pos[i].xyz);
  var f = vec3f(0.0);
  for (var row = 0u; row < 9u; row++) {
    let span = gridNeighborRow(c, row, params.dims.xyz);
    for (var s = span.x; s < span.y; s++) {
      let j = sorted[s];
      if (isFluid(j) == fluidI) {
        continue;
      }
      if (fluidI) {
        f += pairForce(i, j);
      } else {
        f -= pairForce(j, i);
      }
    }
  }
  force[i] = vec4f(force[i].xyz + f, force[i].w);
}
