// FLIP density correction: one Jacobi iteration of the unilateral position-based density
// constraint C_i = ρ_i / ρ0_i − 1 ≤ 0 over the FLIP particles (Macklin & Müller 2013, "Position
// based fluids", Eqs. 1–12, with masses as in Müller et al. 2007 PBD Eq. 9; the f64 reference and
// every formula: core/flip_density_correction.ts). Host: flip_density_correction.ts. Prelude: the
// neighbour-grid walk (gpu/state/grid_neighbors.wgsl) over a grid of cell h built on `pos` just
// before, so the 27 cells around a particle hold every particle within h of it.
//
// density_weight: per particle, the inverse mass w_i: 1/m_i for a FLIP particle with no other
//   system's particle (rest[j] = 0) closer than h, else 0 (held in place: contacts are the
//   collision handler's).
// density_multiplier: per particle, ρ_i = Σ_j m_j W_poly6(|x_ij|, h) (i included; images too) and
//   μ_i = −C_i ρ0_i / (w_i |Σ_j m_j ∇W_ij|² + Σ_j w_j m_j² |∇W_ij|²) where C_i > 0, else 0
//   (∇W the spiky gradient; j over FLIP particles, rest[j] > 0).
// density_move: per particle, x_i' = clamp(x_i + w_i Σ_{j≠i} (μ_i m_j + μ_j m_i) ∇W_ij, walls) into
//   posOut (particles with w_i = 0 copied unchanged); the host copies posOut back into pos.
//
// The domain's walls: every neighbour j (i itself too) within h of x_i also enters the sums of
// density_multiplier and density_move through its mirror images across the walls within h of x_i
// (gpu/state/wall_mirrors.wgsl; the ghost particles of the SPH walls), with j's mass, inverse mass
// and multiplier: a particle at a wall reads the density of one inside, and where it is too dense
// the images push it off the wall. An image within h of x_i implies j within h of x_i (both lie
// inside the box), so the same neighbour walk finds every image; the host keeps the box at least 2h
// wide (one plane per axis). Image set sub = 0 is the particles themselves.
//
// Sums run over the grid's fixed order (image sets, then 27 cells in z, y, x order, then `sorted`
// order), so a run is repeatable bit for bit. No atomics. Invocation k handles particle i =
// sorted[k] (the grid holds every particle, so `sorted` is a permutation of 0 .. N − 1), writing to
// index i: neighbouring invocations then walk the same cells, as the SPH kernels do (sph.wgsl);
// each particle's sums are the same whichever invocation computes them.

struct DensityParams {
  gridMin: vec3f,
  cellSize: f32,   // the grid's cell, = h
  dims: vec4u,     // grid dims; w: particles N
  domainMin: vec3f,
  h: f32,
  domainMax: vec3f,
  poly6: f32,      // 315 / (64 π h⁹)
  spiky: f32,      // 45 / (π h⁶): |∇W_spiky(r)| = spiky (h − r)²
  pad0: u32,
  pad1: u32,
  pad2: u32,
}

override WG: u32 = 64u;

@group(0) @binding(0) var<uniform> P: DensityParams;
@group(0) @binding(1) var<storage, read> pos: array<vec4f>;   // w: radius
@group(0) @binding(2) var<storage, read> mass: array<f32>;
@group(0) @binding(3) var<storage, read> rest: array<f32>;    // ρ0_i; 0: not FLIP
@group(0) @binding(4) var<storage, read> cellStart: array<u32>;
@group(0) @binding(5) var<storage, read> sorted: array<u32>;
@group(0) @binding(6) var<storage, read_write> mu: array<f32>;
@group(0) @binding(7) var<storage, read_write> posOut: array<vec4f>;
@group(0) @binding(8) var<storage, read_write> invMass: array<f32>;

fn invocation(gid: vec3u, nwg: vec3u) -> u32 {
  return gid.x + gid.y * nwg.x * WG;
}

// ∇W_ij / (x_i − x_j) of the spiky kernel: −spiky (h − r)² / r (0 at r = 0 or r ≥ h).
fn spiky_factor(r: f32) -> f32 {
  if (r <= 0.0 || r >= P.h) { return 0.0; }
  let s = P.h - r;
  return -P.spiky * s * s / r;
}

@compute @workgroup_size(WG)
fn density_weight(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let k = invocation(gid, nwg);
  if (k >= P.dims.w) { return; }
  let i = sorted[k];
  if (rest[i] <= 0.0) {
    invMass[i] = 0.0;
    return;
  }
  let xi = pos[i].xyz;
  let h2 = P.h * P.h;
  let c = gridCell(xi, P.gridMin, P.cellSize, P.dims.xyz);
  var contact = false;
  for (var row = 0u; row < 9u; row++) {
    let span = gridNeighborRow(c, row, P.dims.xyz);
    for (var e = span.x; e < span.y; e++) {
      let j = sorted[e];
      if (rest[j] > 0.0) { continue; }
      let d = xi - pos[j].xyz;
      if (dot(d, d) < h2) { contact = true; }
    }
  }
  invMass[i] = select(1.0 / mass[i], 0.0, contact);
}

@compute @workgroup_size(WG)
fn density_multiplier(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let k = invocation(gid, nwg);
  if (k >= P.dims.w) { return; }
  let i = sorted[k];
  let rho0 = rest[i];
  if (rho0 <= 0.0) {
    mu[i] = 0.0;
    return;
  }
  let xi = pos[i].xyz;
  let h2 = P.h * P.h;
  let c = gridCell(xi, P.gridMin, P.cellSize, P.dims.xyz);
  var rho = 0.0;
  var g = vec3f(0.0);
  var g2 = 0.0;
  let mir = wallMirrors(xi, P.domainMin, P.domainMax, P.h);
  for (var sub = 0u; sub <= mir.mask; sub++) {
    if ((sub & ~mir.mask) != 0u) { continue; }
    let flip = mirrorFlips(sub);
    let twice = 2.0 * mir.plane;
    for (var row = 0u; row < 9u; row++) {
      let span = gridNeighborRow(c, row, P.dims.xyz);
      for (var e = span.x; e < span.y; e++) {
        let j = sorted[e];
        if (rest[j] <= 0.0) { continue; }
        let xj = pos[j].xyz;
        let d = xi - select(xj, twice - xj, flip);
        let r2 = dot(d, d);
        if (r2 >= h2) { continue; }
        let s = h2 - r2;
        rho += mass[j] * P.poly6 * s * s * s;
        if (sub == 0u && j == i) { continue; }
        let f = spiky_factor(sqrt(r2));
        g += mass[j] * f * d;
        g2 += invMass[j] * mass[j] * mass[j] * f * f * r2;
      }
    }
  }
  let cst = rho / rho0 - 1.0;
  let denom = invMass[i] * dot(g, g) + g2;
  var m = 0.0;
  if (cst > 0.0 && denom > 0.0) { m = -cst * rho0 / denom; }
  mu[i] = m;
}

@compute @workgroup_size(WG)
fn density_move(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let k = invocation(gid, nwg);
  if (k >= P.dims.w) { return; }
  let i = sorted[k];
  let pi = pos[i];
  let wi = invMass[i];
  if (wi <= 0.0) {
    posOut[i] = pi;
    return;
  }
  let xi = pi.xyz;
  let mi = mass[i];
  let mui = mu[i];
  let c = gridCell(xi, P.gridMin, P.cellSize, P.dims.xyz);
  var dx = vec3f(0.0);
  let mir = wallMirrors(xi, P.domainMin, P.domainMax, P.h);
  for (var sub = 0u; sub <= mir.mask; sub++) {
    if ((sub & ~mir.mask) != 0u) { continue; }
    let flip = mirrorFlips(sub);
    let twice = 2.0 * mir.plane;
    for (var row = 0u; row < 9u; row++) {
      let span = gridNeighborRow(c, row, P.dims.xyz);
      for (var e = span.x; e < span.y; e++) {
        let j = sorted[e];
        if ((sub == 0u && j == i) || rest[j] <= 0.0) { continue; }
        let xj = pos[j].xyz;
        let d = xi - select(xj, twice - xj, flip);
        let f = spiky_factor(length(d));
        dx += (mui * mass[j] + mu[j] * mi) * f * d;
      }
    }
  }
  let lo = P.domainMin + vec3f(pi.w);
  let hi = P.domainMax - vec3f(pi.w);
  posOut[i] = vec4f(clamp(xi + wi * dx, lo, hi), pi.w);
}
