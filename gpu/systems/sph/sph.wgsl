// Weakly compressible SPH forces (Müller, Charypar & Gross 2003), f32, one invocation per particle.
// Owner: gpu/systems/sph/sph_forces.ts. Reference: core/reference/sph_reference.ts (same formulas, f64).
//
// Cell order: invocation k (0 .. params.count) handles particle i = sorted[k], and the scratch
// buffers xm, vel, aux are indexed by k, the particle's slot in the neighbor grid's `sorted` list.
// The particles of a cell, and of a row of three cells, then sit side by side in memory, so the
// neighbor loops read contiguous memory and neighboring invocations share it (Green 2008, "Particle
// Simulation using CUDA": the reorder into cell order). `sorted` must be a permutation of
// 0 .. params.count (the grid built over exactly those particles). Outputs go to index i.
//
// Entry points, dispatched in this order:
//   sph_gather   x_i = dofX[dof[i]].xyz + offset[i].xyz (paper Eqs. 6-7), v_i = dofV[dof[i]].xyz,
//                into scratch xm[k] (xyz, w = m_i for fluid, 0 for non-fluid) and vel[k]: the two
//                halves of one buffer, written through one binding (xmVelOut, vel from VEL_OFFSET
//                on) and read through two (xm, vel: ranges of it), so the gather binds 8 storage
//                buffers, WebGPU's guaranteed maxStorageBuffersPerShaderStage.
//   sph_density  rho_i = sum_j m_j W_poly6(|x_i - x_j|) over fluid j (self included), plus
//                the walls' part (the images' terms, see Domain walls below, in a sum of their
//                own, added to the fluid neighbours' before poly6 scales both) and
//                boundaryDensity[i] (the boundary term of Akinci et al. 2012, Eq. 6; zero unless
//                a boundary-coupling handler writes it); also aux[k] = (p_i / rho_i^2, 1 / rho_i)
//                with p_i = k max((rho_i/rho0)^gamma - 1, 0), and pressureOut[i] =
//                (p_i / rho_i^2, rho_i) by particle index for such a handler's forces (written
//                for this system's fluid particles only: the buffer is shared by all systems).
//   sph_forces   f_i = m_i sum_{j != i} m_j [ -(p_i/rho_i^2 + p_j/rho_j^2) gradW_spiky(x_i - x_j)
//                      + mu (v_j - v_i) lapW_visc(r_ij) / (rho_i rho_j) ], plus the images' pair
//                terms: their own sums and their own f, added to the fluid neighbours' f.
// Domain walls (params.walls = 1): each fluid neighbour j (i itself too) also enters both sums
// through its mirror images across the walls within h of x_i (one plane per axis, the nearer; two
// or three at an edge or corner: every non-empty subset of those axes), with j's mass, density and
// pressure and j's velocity with the reflected components negated (free slip): the ghost
// particles of Randles & Libersky 1996 (core/model/sph_walls.ts, forEachMirrorImage). An image
// within h of x_i implies j within h of x_i (both lie inside the box), so the same neighbour loop
// finds every image. The host keeps the box at least 2h wide, so one plane per axis suffices.
// A particle far from every wall (or every particle, params.walls = 0) skips the image sums.
// Neighbors: the 27 cells around the cell of x_i in z, y, x order, then `sorted` order
// (gpu/README.md), walked as 9 rows of contiguous slots (gridNeighborRow), so the summation order
// is fixed and runs repeat bit for bit.
// Every variable has its own binding number; each entry point's pipeline layout holds exactly the
// bindings that entry point uses (so each stays within 8 storage buffers).

struct SphParams {
  gridMin: vec3f,
  cellSize: f32,
  dims: vec4u, // xyz: cells per axis, w: cell count
  count: u32,
  h: f32,
  h2: f32,
  invH: f32,
  rho0: f32,
  stiffness: f32,
  gamma: f32,
  viscosity: f32,
  poly6: f32, // 315 / (64 pi h^3)
  spikyGrad: f32, // 45 / (pi h^4)
  viscLap: f32, // 45 / (pi h^5)
  wallMin: vec3f, // the domain's walls: the box [wallMin, wallMax]
  walls: u32, // 1: mirror images at the walls; 0: none
  wallMax: vec3f,
  zeroBits: u32, // 0: ORed into the bits of the walls' force (sph_forces)
}

override WORKGROUP_SIZE: u32 = 64;
// Where vel starts in xmVelOut (vec4 elements): the offset of the `vel` range, a multiple of the
// device's minStorageBufferOffsetAlignment (sph_forces.ts).
override VEL_OFFSET: u32;
// What sph_gather writes: 0 both halves (xmVelOut is the whole buffer); where the whole buffer
// is more than one storage binding may be (llvmpipe's 128 MiB at Table I's 6.5M particles), two
// pipelines: 1 the positions (xmVelOut is the first half), 2 the velocities (the second half).
override GATHER_PART: u32 = 0u;

@group(0) @binding(0) var<uniform> params: SphParams;
@group(0) @binding(1) var<storage, read> cellStart: array<u32>;
@group(0) @binding(2) var<storage, read> sorted: array<u32>;
@group(0) @binding(3) var<storage, read> mass: array<f32>;
@group(0) @binding(4) var<storage, read> dof: array<u32>;
@group(0) @binding(5) var<storage, read> offset: array<vec4f>;
@group(0) @binding(6) var<storage, read> dofX: array<vec4f>;
@group(0) @binding(7) var<storage, read> dofV: array<vec4f>;
@group(0) @binding(8) var<storage, read> fluid: array<u32>;
@group(0) @binding(9) var<storage, read_write> density: array<f32>;
@group(0) @binding(10) var<storage, read_write> force: array<vec4f>;
// Scratch owned by SphForces: written by one pass, read by the next. xmVelOut is the whole
// member buffer (xm, then vel from VEL_OFFSET); xm and vel are its two ranges.
@group(0) @binding(11) var<storage, read_write> xmVelOut: array<vec4f>;
@group(0) @binding(13) var<storage, read_write> auxOut: array<vec2f>;
@group(0) @binding(14) var<storage, read> xm: array<vec4f>;
@group(0) @binding(15) var<storage, read> vel: array<vec4f>;
@group(0) @binding(16) var<storage, read> aux: array<vec2f>;
// The boundary-coupling channel (gpu/state/particle_state.ts: boundaryDensity, fluidPressure).
@group(0) @binding(17) var<storage, read> boundaryDensity: array<f32>;
@group(0) @binding(18) var<storage, read_write> pressureOut: array<vec2f>;

// Cell of a point, clamped into the grid (gpu/state/grid_cell.wgsl, prepended by the owner).
fn cellOf(x: vec3f) -> vec3i {
  return gridCell(x, params.gridMin, params.cellSize, params.dims.xyz);
}

// The walls within h of x (gpu/state/wall_mirrors.wgsl); none where the fluid has no walls.
fn mirrorsOf(x: vec3f) -> WallMirrors {
  var m = wallMirrors(x, params.wallMin, params.wallMax, params.h);
  if (params.walls == 0u) {
    m.mask = 0u;
  }
  return m;
}

// Clipped state equation p = k max((rho/rho0)^gamma - 1, 0) (notes Eq. 47; gamma = 7: Tait).
fn pressureOf(rho: f32) -> f32 {
  let ratio = rho / params.rho0;
  var s = ratio;
  if (params.gamma != 1.0) {
    s = pow(ratio, params.gamma);
  }
  return max(params.stiffness * (s - 1.0), 0.0);
}

// The one SPH pair interaction, summed over the 27 cells around c: each fluid neighbour j at xm[s],
// taken as itself (flip all false: select gives xj, bit for bit) or as its image across the walls
// of the axes in flip (x ↦ mirror − x, free slip). The density term m_j (1 − r²/h²)³ (poly6 without
// its constant; sph_density) and the force terms (sph_forces), each added to the sums so far
// (`start`), one term after the other, in the order of the loop.
fn neighbourDensity(start: f32, xi: vec3f, c: vec3i, flip: vec3<bool>, mirror: vec3f) -> f32 {
  var rho = start;
  for (var row = 0u; row < 9u; row++) { // the 27 cells around c, z, y, x order
    let span = gridNeighborRow(c, row, params.dims.xyz);
    for (var s = span.x; s < span.y; s++) {
      let xj = xm[s];
      if (xj.w == 0.0) {
        continue;
      }
      let d = xi - select(xj.xyz, mirror - xj.xyz, flip);
      let r2 = dot(d, d);
      if (r2 < params.h2) {
        let q = 1.0 - r2 * params.invH * params.invH;
        rho += xj.w * (q * q * q);
      }
    }
  }
  return rho;
}

// The pressure and viscosity sums of f_i (spikyGrad and viscLap applied by the caller): fp =
// Σ_j m_j (P_i/ρ_i² + P_j/ρ_j²) q² d / r, fv = Σ_j m_j q (v_j − v_i) / ρ_j, with j's velocity's
// flipped components negated; `own` (k, or none) is skipped (i's own image is a neighbour).
struct PairSums {
  fp: vec3f,
  fv: vec3f,
}

fn neighbourForces(
  start: PairSums,
  xi: vec3f,
  vi: vec3f,
  ai: vec2f,
  c: vec3i,
  own: u32,
  flip: vec3<bool>,
  mirror: vec3f,
) -> PairSums {
  var fp = start.fp; // sum_j m_j (P_i + P_j) g(r) d / r, times -gradW sign folded in
  var fv = start.fv; // sum_j m_j (v_j - v_i) / rho_j lapW(r) / viscLap
  for (var row = 0u; row < 9u; row++) { // the 27 cells around c, z, y, x order
    let span = gridNeighborRow(c, row, params.dims.xyz);
    for (var s = span.x; s < span.y; s++) {
      let xj = xm[s];
      if (s == own || xj.w == 0.0) {
        continue;
      }
      let d = xi - select(xj.xyz, mirror - xj.xyz, flip);
      let r2 = dot(d, d);
      if (r2 >= params.h2) {
        continue;
      }
      let r = sqrt(r2);
      let q = 1.0 - r * params.invH;
      let aj = aux[s];
      if (r > 0.0) {
        // -(P_i + P_j) gradW, gradW = -spikyGrad q^2 d / r
        fp += (xj.w * (ai.x + aj.x) * q * q / r) * d;
      }
      let vj = vel[s].xyz;
      fv += (xj.w * aj.y * q) * (select(vj, -vj, flip) - vi);
    }
  }
  return PairSums(fp, fv);
}

// No skipped neighbour (`own`), no wall (`flip`) and nothing summed yet, for the sums above.
const NONE: u32 = 0xffffffffu;
const NO_FLIP = vec3<bool>(false, false, false);
const NO_SUMS = PairSums(vec3f(0.0), vec3f(0.0));

// f = m_i (spikyGrad fp + mu viscLap / rho_i fv) of pair sums (ai = (p_i / rho_i^2, 1 / rho_i)).
fn forceOf(mi: f32, ai: vec2f, sums: PairSums) -> vec3f {
  return mi * (params.spikyGrad * sums.fp + (params.viscosity * params.viscLap * ai.y) * sums.fv);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn sph_gather(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let k = gid.x + gid.y * nwg.x * WORKGROUP_SIZE; // 2D past 65,535 workgroups
  if (k >= params.count) {
    return;
  }
  let i = sorted[k];
  let d = dof[i];
  var m = 0.0;
  if (fluid[i] != 0u) {
    m = mass[i];
  }
  if (GATHER_PART != 2u) {
    xmVelOut[k] = vec4f(dofX[d].xyz + offset[i].xyz, m);
  }
  if (GATHER_PART == 0u) {
    xmVelOut[VEL_OFFSET + k] = vec4f(dofV[d].xyz, 0.0);
  } else if (GATHER_PART == 2u) {
    xmVelOut[k] = vec4f(dofV[d].xyz, 0.0);
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn sph_density(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let k = gid.x + gid.y * nwg.x * WORKGROUP_SIZE; // 2D past 65,535 workgroups
  if (k >= params.count) {
    return;
  }
  let i = sorted[k];
  let xi = xm[k];
  if (xi.w == 0.0) {
    density[i] = 0.0;
    auxOut[k] = vec2f(0.0);
    return; // pressureOut[i] untouched: another system's particle (zero-initialised otherwise)
  }
  let c = cellOf(xi.xyz);
  var rho = neighbourDensity(0.0, xi.xyz, c, NO_FLIP, vec3f(0.0));
  // the walls' part: the images of every fluid neighbour (i's own too) across the near walls of
  // the axes in sub, every non-empty subset of the walls within h
  let mir = mirrorsOf(xi.xyz);
  var wallRho = 0.0;
  for (var sub = 1u; sub <= mir.mask; sub++) {
    if ((sub & ~mir.mask) != 0u) {
      continue;
    }
    wallRho = neighbourDensity(wallRho, xi.xyz, c, mirrorFlips(sub), 2.0 * mir.plane);
  }
  rho = (rho + wallRho) * params.poly6 + boundaryDensity[i];
  density[i] = rho;
  var a = vec2f(0.0);
  if (rho > 0.0) {
    let inv = 1.0 / rho;
    a = vec2f(pressureOf(rho) * inv * inv, inv);
  }
  auxOut[k] = a;
  pressureOut[i] = vec2f(a.x, rho);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn sph_forces(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let k = gid.x + gid.y * nwg.x * WORKGROUP_SIZE; // 2D past 65,535 workgroups
  if (k >= params.count) {
    return;
  }
  let i = sorted[k];
  let xi = xm[k];
  if (xi.w == 0.0) {
    force[i] = vec4f(0.0);
    return;
  }
  let vi = vel[k].xyz;
  let ai = aux[k];
  let c = cellOf(xi.xyz);
  let sums = neighbourForces(NO_SUMS, xi.xyz, vi, ai, c, k, NO_FLIP, vec3f(0.0));
  let fluidF = forceOf(xi.w, ai, sums);
  let mir = mirrorsOf(xi.xyz);
  if (mir.mask == 0u) {
    force[i] = vec4f(fluidF, 0.0);
    return;
  }
  // the walls' part: the pair terms of the images as in sph_density, with j's pressure and
  // density and j's velocity with the reflected components negated (free slip); sums and f of
  // their own, added to the fluid neighbours' f
  var wallSums = NO_SUMS;
  for (var sub = 1u; sub <= mir.mask; sub++) {
    if ((sub & ~mir.mask) != 0u) {
      continue;
    }
    let flip = mirrorFlips(sub);
    wallSums = neighbourForces(wallSums, xi.xyz, vi, ai, c, NONE, flip, 2.0 * mir.plane);
  }
  let wallF = forceOf(xi.w, ai, wallSums);
  // f = f_fluid + f_wall, each rounded on its own: wallF's bits pass through an OR with
  // params.zeroBits (0), an integer step no compiler sees through, so the sum is never contracted
  // into an FMA (f_fluid + m_i (...) in one rounding) and the result does not depend on the
  // compiler's choice
  let wallBits = bitcast<vec3f>(bitcast<vec3u>(wallF) | vec3u(params.zeroBits));
  force[i] = vec4f(fluidF + wallBits, 0.0);
}
