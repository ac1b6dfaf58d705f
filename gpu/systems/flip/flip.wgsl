// FLIP fluid step on a MAC grid (Zhu & Bridson 2005; Bridson, "Fluid Simulation for Computer
// Graphics"), semi-implicit as in the paper (§4, Fig. 9): explicit advection (the engine moves the
// particles), transfers to and from the grid, gravity, and an implicit pressure projection solved by
// Jacobi-preconditioned CG on the GPU. Conventions (grid, faces, weights, cell and face classes, the
// scaled pressure q = p·dt/(ρ·dx), the PIC/FLIP blend) are those of the f64 reference
// core/reference/flip_reference.ts, which the tests compare against. Host code: gpu/systems/flip/flip_solver.ts.
//
// Every transfer is a gather (no float atomics): a face or a cell walks the 27 cells of the shared
// neighbour grid around it (cell edge ≥ dx) in their fixed order, so runs are bit-reproducible.
//
// Cells occupied by particles of other systems (cloth, solids, another fluid) and by no FLIP
// particle: the paper marks "the grid cells occupied by all particles in both systems" so that the
// projection does not take them for empty space. Two readings (core/reference/flip_reference.ts, step 1):
// occupiedAsSolid = 0 (the paper's, default): they are FLUID cells, pressure unknowns like the
// fluid's own, and their faces carry only the FLIP particles' velocity (the other system deposits
// none), so the fluid neither collapses into them nor is pushed by the grid: the systems exchange
// momentum through the collision handler alone. occupiedAsSolid = 1: they are SOLID cells, a moving
// boundary with the other particles' mass-weighted velocity, not changed by the pressure (the grid
// then couples the systems by itself).
//
// Kernels, in encode order: gather_particles, classify_cells, p2g, faces, cell_sides, init_cg,
// the CG loop of gpu/runtime/cg.wgsl with apply_slot below as its operator (the gate after
// init_cg is the loop's: a gate dispatch, the first apply_a with APPLY_A_GATE, or the first
// solve_local; where the loop is solve_local's, init_cg and its first dispatch are one,
// solve_local_init), pressure_update (which takes the loop's last gate_final), g2p (with the optional
// particle separation), part_velocity. The CG works on 4 cells per slot (vec4).
//
// Each entry point binds only what it uses (flip_solver.ts KERNEL_BINDINGS), at most 8 storage
// buffers, WebGPU's guaranteed maxStorageBuffersPerShaderStage. Each face quantity is one array
// over the faces of all three axes (u, v, w concatenated) where that fits the device's largest
// storage binding: the kernels that read faces (p2g, faces, cell_sides, pressure_update, g2p) then
// run once over all of them (FACE_AXIS = ALL_AXES). Where it does not (a large grid: llvmpipe
// binds at most 128 MiB), every face array is one buffer per axis, no binding larger than about
// 4 bytes per cell, and those kernels run once per axis (FACE_AXIS) with that axis's buffers
// bound in the same slots. Either way a face or cell does the same operations in the same order,
// so both give the same bits. cell_sides folds each cell's faces into the right-hand side and the
// mask of its open sides (so init_cg and the CG operator read no face); gather_particles puts each
// particle's DOF velocity and FLIP flag side by side for p2g and g2p (instead of dof, dofV and
// owned), and g2p's particle velocities carry the FLIP flag for part_velocity (instead of owned).
// `faces` marks the faces with fluid mass in their class word (FACE_MASSIVE), so that g2p reads
// no face mass: with the separation's neighbour walk it binds 8, where separate passes took one
// dispatch more (launches per step).

struct FlipParams {
  gridMin: vec3f,
  dx: f32,
  dims: vec4u,      // nx, ny, nz, cells
  faceCount: vec4u, // u, v, w faces; total faces
  nbMin: vec3f,
  nbCell: f32,
  nbDims: vec4u,    // neighbour grid dims; w: particles N
  gravity: vec3f,
  dt: f32,
  flipRatio: f32,
  tolerance2: f32,
  slots: u32,
  argCount: u32,
  occupiedAsSolid: u32, // 0: the paper's reading (occupied cells are FLUID), 1: moving solids
  restMass: f32,        // ρ0 dx³: the volume correction's rest mass of a cell
  volumeCorrection: f32, // γ (0: classic FLIP)
  iterations: u32,  // CG iterations encoded (the loop solve_local walks)
  separationDistance: f32, // particle separation: pairs closer than this ...
  separationStrength: f32, // ... get this fraction of half their overlap per step (0: off)
  pad1: u32,
  pad2: u32,
}

// Cell and face classes (core/model/flip_grid.ts, passed in).
override CELL_AIR: u32;
override CELL_FLUID: u32;
override CELL_SOLID: u32;
override FACE_INACTIVE: u32;
override FACE_FLUID: u32;
override FACE_SOLID: u32;
override FACE_WALL: u32;
// A bit of the face class word (above every class): the face has fluid mass (M_f > 0).
override FACE_MASSIVE: u32;
// The faces the face kernels (p2g, faces, cell_sides, pressure_update, g2p) run over: ALL_AXES, all
// three axes' (the face arrays bound are u, v and w concatenated); or 0, 1, 2, that axis's (the
// face arrays bound are that axis's alone).
const ALL_AXES: u32 = 3u;
override FACE_AXIS: u32 = ALL_AXES;
// Scalars of `state`, the partial sums and the CG loop: gpu/runtime/cg.wgsl.
override WG: u32 = 64u;

@group(1) @binding(0) var<uniform> P: FlipParams;

@group(0) @binding(1) var<storage, read> pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> mass: array<f32>;
@group(0) @binding(3) var<storage, read> dof: array<u32>;
@group(0) @binding(4) var<storage, read> dofV: array<vec4f>;
@group(0) @binding(5) var<storage, read> owned: array<u32>;
@group(0) @binding(6) var<storage, read> cellStart: array<u32>;
@group(0) @binding(7) var<storage, read> sorted: array<u32>;
@group(0) @binding(8) var<storage, read_write> cellType: array<u32>;
// per face (of all axes, or of axis FACE_AXIS: see the header), one array each: fluid mass M_f,
// u_old, u (after gravity, then after pressure), the other particles' velocity, and the face class
@group(0) @binding(9) var<storage, read_write> faceMass: array<f32>;
@group(0) @binding(26) var<storage, read_write> faceOld: array<f32>;
@group(0) @binding(27) var<storage, read_write> faceU: array<f32>;
@group(0) @binding(28) var<storage, read_write> faceOther: array<f32>;
@group(0) @binding(10) var<storage, read_write> faceClass: array<u32>;
// per cell, from cell_sides: the CG's right-hand side b (accumulated axis by axis) and the mask of
// the sides (bit k: side k of `side`) that are neither WALL nor SOLID (0 off FLUID cells). b lies
// in A p's buffer (cgAP, cell c at slot c / 4, lane c % 4): the CG's start reads it there, before
// apply_a first writes A p, so that solve_local_init binds no buffer more than solve_local.
@group(0) @binding(13) var<storage, read_write> cellRhs: array<f32>;
@group(0) @binding(14) var<storage, read_write> cellSides: array<u32>;
// CG vectors, 4 cells per slot: x (= q), r, z, p, A p, D⁻¹
@group(0) @binding(11) var<storage, read_write> cgX: array<vec4f>;
@group(0) @binding(12) var<storage, read_write> cgR: array<vec4f>;
@group(0) @binding(31) var<storage, read_write> cgZ: array<vec4f>;
@group(0) @binding(32) var<storage, read_write> cgP: array<vec4f>;
@group(0) @binding(15) var<storage, read_write> cgAP: array<vec4f>;
@group(0) @binding(16) var<storage, read_write> cgInvD: array<vec4f>;
@group(0) @binding(17) var<storage, read_write> state: array<f32>;
@group(0) @binding(18) var<storage, read> argsFull: array<u32>;
@group(0) @binding(19) var<storage, read_write> args: array<u32>;
@group(0) @binding(20) var<storage, read> memberStart: array<u32>;
@group(0) @binding(21) var<storage, read> memberList: array<u32>;
@group(0) @binding(22) var<storage, read> partMass: array<f32>;
@group(0) @binding(23) var<storage, read> partForce: array<vec4f>;
@group(0) @binding(24) var<storage, read_write> partVel: array<vec4f>;
// per particle: the FLIP particles' new velocities (G2P), w = 1 (0: another system's particle)
@group(0) @binding(25) var<storage, read_write> particleVel: array<vec4f>;
// per particle, from gather_particles: its DOF's velocity (xyz), w = 1 for FLIP particles (0: not)
@group(0) @binding(30) var<storage, read_write> particleDofV: array<vec4f>;
// per cell: the FLIP particles' mass around the centre (trilinear), for the volume correction
@group(0) @binding(29) var<storage, read_write> cellMass: array<f32>;

fn invocation(gid: vec3u, nwg: vec3u) -> u32 {
  return gid.x + gid.y * nwg.x * WG;
}

// The FLIP cell of a point, clamped into the grid.
fn flip_cell(x: vec3f) -> vec3u {
  let c = clamp(floor((x - P.gridMin) / P.dx), vec3f(0.0), vec3f(P.dims.xyz) - vec3f(1.0));
  return vec3u(c);
}

fn cell_id(c: vec3u) -> u32 {
  return c.x + P.dims.x * (c.y + P.dims.y * c.z);
}

// Faces of axis a: dims with one more along a.
fn face_dims(a: u32) -> vec3u {
  var d = P.dims.xyz;
  d[a] = d[a] + 1u;
  return d;
}

// The axes a face kernel's invocation covers: [x, y) (all three, or FACE_AXIS alone).
fn face_axes() -> vec2u {
  if (FACE_AXIS == ALL_AXES) { return vec2u(0u, 3u); }
  return vec2u(FACE_AXIS, FACE_AXIS + 1u);
}

// Where axis a's faces start in the face arrays bound (0 where they hold that axis alone).
fn face_base(a: u32) -> u32 {
  if (FACE_AXIS != ALL_AXES) { return 0u; }
  return select(0u, P.faceCount.x, a > 0u) + select(0u, P.faceCount.y, a > 1u);
}

// Index of face c of axis a in the face arrays bound.
fn face_id(a: u32, c: vec3u) -> u32 {
  let d = face_dims(a);
  return face_base(a) + c.x + d.x * (c.y + d.y * c.z);
}

// Lattice coordinates and axis of face fi of the face arrays bound.
fn face_of(fi: u32) -> vec4u {
  var a = FACE_AXIS;
  if (a == ALL_AXES) {
    a = select(select(2u, 1u, fi < P.faceCount.x + P.faceCount.y), 0u, fi < P.faceCount.x);
  }
  let d = face_dims(a);
  let l = fi - face_base(a);
  return vec4u(l % d.x, (l / d.x) % d.y, l / (d.x * d.y), a);
}

// Position of a face: the centre of its cell side.
fn face_position(f: vec4u) -> vec3f {
  var o = vec3f(0.5);
  o[f.w] = 0.0;
  return P.gridMin + (vec3f(f.xyz) + o) * P.dx;
}

// The class of face fi (FACE_MASSIVE cleared), and whether it has fluid mass.
fn face_class(fi: u32) -> u32 { return faceClass[fi] & ~FACE_MASSIVE; }
fn face_massive(fi: u32) -> bool { return (faceClass[fi] & FACE_MASSIVE) != 0u; }

// Per particle: its DOF's velocity and whether it is a FLIP particle, side by side, for p2g's and
// g2p's particle reads.
@compute @workgroup_size(WG)
fn gather_particles(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = invocation(gid, nwg);
  if (i >= P.nbDims.w) { return; }
  particleDofV[i] = vec4f(dofV[dof[i]].xyz, select(0.0, 1.0, owned[i] != 0u));
}

// Per cell: FLUID when a FLIP particle lies in it; FLUID or SOLID (occupiedAsSolid) when only other
// particles do; else AIR. And the FLIP particles' mass around the cell centre (trilinear hat).
@compute @workgroup_size(WG)
fn classify_cells(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let c = invocation(gid, nwg);
  if (c >= P.dims.w) { return; }
  let cc = vec3u(c % P.dims.x, (c / P.dims.x) % P.dims.y, c / (P.dims.x * P.dims.y));
  let centre = P.gridMin + (vec3f(cc) + vec3f(0.5)) * P.dx;
  let nc = gridCell(centre, P.nbMin, P.nbCell, P.nbDims.xyz);
  var fluid = false;
  var other = false;
  var m = 0.0;
  for (var row = 0u; row < 9u; row++) {
    let span = gridNeighborRow(nc, row, P.nbDims.xyz);
    for (var k = span.x; k < span.y; k++) {
      let j = sorted[k];
      let x = pos[j].xyz;
      if (cell_id(flip_cell(x)) == c) {
        if (owned[j] != 0u) { fluid = true; } else { other = true; }
      }
      let t = abs(x - centre) / P.dx;
      if (owned[j] != 0u && all(t < vec3f(1.0))) {
        m += (1.0 - t.x) * (1.0 - t.y) * (1.0 - t.z) * mass[j];
      }
    }
  }
  cellMass[c] = m;
  let occupied = select(CELL_FLUID, CELL_SOLID, P.occupiedAsSolid != 0u);
  cellType[c] = select(select(CELL_AIR, occupied, other), CELL_FLUID, fluid);
}

// Per face (faceCount[FACE_AXIS]; its w counts all axes'): trilinear particle-to-grid transfer of
// mass and momentum, the FLIP particles' and the other particles' separately (velocity = momentum
// / mass, 0 without mass).
@compute @workgroup_size(WG)
fn p2g(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let fi = invocation(gid, nwg);
  if (fi >= P.faceCount[FACE_AXIS]) { return; }
  let f = face_of(fi);
  let fp = face_position(f);
  let nc = gridCell(fp, P.nbMin, P.nbCell, P.nbDims.xyz);
  var fm = 0.0;
  var fmv = 0.0;
  var om = 0.0;
  var omv = 0.0;
  for (var row = 0u; row < 9u; row++) {
    let span = gridNeighborRow(nc, row, P.nbDims.xyz);
    for (var k = span.x; k < span.y; k++) {
      let j = sorted[k];
      let t = abs(pos[j].xyz - fp) / P.dx;
      if (all(t < vec3f(1.0))) {
        let w = (1.0 - t.x) * (1.0 - t.y) * (1.0 - t.z);
        let wm = w * mass[j];
        let pv = particleDofV[j];
        let v = pv[f.w];
        if (pv.w != 0.0) {
          fm += wm;
          fmv += wm * v;
        } else {
          om += wm;
          omv += wm * v;
        }
      }
    }
  }
  faceMass[fi] = fm;
  faceOld[fi] = select(0.0, fmv / fm, fm > 0.0);
  faceOther[fi] = select(0.0, omv / om, om > 0.0);
}

// Per face: its class (WALL, SOLID, FLUID, INACTIVE, in that order of tests; FACE_MASSIVE added
// where it has fluid mass) and u* (gravity on faces with fluid mass; 0 on walls; the other
// particles' velocity on SOLID faces).
@compute @workgroup_size(WG)
fn faces(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let fi = invocation(gid, nwg);
  if (fi >= P.faceCount[FACE_AXIS]) { return; }
  let f = face_of(fi);
  let a = f.w;
  var cls = FACE_INACTIVE;
  var u = 0.0;
  if (f[a] == 0u || f[a] == P.dims[a]) {
    cls = FACE_WALL;
  } else {
    var lo = f.xyz;
    lo[a] = lo[a] - 1u;
    let ta = cellType[cell_id(lo)];
    let tb = cellType[cell_id(f.xyz)];
    if (ta == CELL_SOLID || tb == CELL_SOLID) {
      cls = FACE_SOLID;
      u = faceOther[fi];
    } else {
      if (ta == CELL_FLUID || tb == CELL_FLUID) { cls = FACE_FLUID; }
      if (faceMass[fi] > 0.0) { u = faceOld[fi] + P.dt * P.gravity[a]; }
    }
  }
  faceU[fi] = u;
  faceClass[fi] = cls | select(0u, FACE_MASSIVE, faceMass[fi] > 0.0);
}

// The six faces of cell c: (face id, +1 for the high side / −1 for the low side, neighbour cell id
// or 0xffffffff outside the grid) for side s in 0..5 (−x, +x, −y, +y, −z, +z).
struct Side {
  fi: u32,
  sign: f32,
  nbr: u32,
}

fn side(c: vec3u, s: u32) -> Side {
  let a = s / 2u;
  let high = (s & 1u) == 1u;
  var fc = c;
  if (high) { fc[a] = fc[a] + 1u; }
  var n = c;
  var nbr = 0xffffffffu;
  if (high && c[a] + 1u < P.dims[a]) {
    n[a] = n[a] + 1u;
    nbr = cell_id(n);
  } else if (!high && c[a] > 0u) {
    n[a] = n[a] - 1u;
    nbr = cell_id(n);
  }
  return Side(face_id(a, fc), select(-1.0, 1.0, high), nbr);
}

fn cell_coords(c: u32) -> vec3u {
  return vec3u(c % P.dims.x, (c / P.dims.x) % P.dims.y, c / (P.dims.x * P.dims.y));
}

// q of a cell (0 for cells outside the grid and non-FLUID cells, whose entries stay 0).
fn q_at(c: u32) -> f32 {
  if (c >= P.dims.w) { return 0.0; }
  return cgX[c / 4u][c % 4u];
}

fn p_at(c: u32) -> f32 {
  if (c >= P.dims.w) { return 0.0; }
  return cgP[c / 4u][c % 4u];
}

// Side k's bit in cellSides: the side is neither WALL nor SOLID.
fn side_open(sides: u32, k: u32) -> bool {
  return ((sides >> k) & 1u) == 1u;
}

// Per cell, for the axes of face_axes (all three, or one run for x, y, z in turn): its two sides
// of each axis (low, then high) added to the divergence D = Σ_sides sign·u in the order of `side`
// (−x, +x, −y, +y, −z, +z: one order whichever way the axes run, so the f32 result is the same)
// and to the mask of open sides; after z the divergence becomes the right-hand side
// b = −(D − D_target) (D_target the volume correction's γ·max(0, M_c/(ρ0 dx³) − 1)·dx/dt, 0
// without it). Cells that are not FLUID, and FLUID cells with no open side, get b = 0 and mask 0.
@compute @workgroup_size(WG)
fn cell_sides(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let c = invocation(gid, nwg);
  if (c >= P.dims.w) { return; }
  let axes = face_axes();
  if (cellType[c] != CELL_FLUID) {
    cellRhs[c] = 0.0;
    cellSides[c] = 0u;
    return;
  }
  var div = 0.0;
  var sides = 0u;
  if (axes.x > 0u) {
    div = cellRhs[c];
    sides = cellSides[c];
  }
  let cc = cell_coords(c);
  for (var k = 2u * axes.x; k < 2u * axes.y; k++) {
    let sd = side(cc, k);
    div += sd.sign * faceU[sd.fi];
    let cls = face_class(sd.fi);
    if (cls != FACE_WALL && cls != FACE_SOLID) { sides |= 1u << k; }
  }
  if (axes.y == 3u) {
    if (sides == 0u) {
      div = 0.0;
    } else {
      let goal = P.volumeCorrection * max(0.0, cellMass[c] / P.restMass - 1.0) * P.dx / P.dt;
      div = -(div - goal);
    }
  }
  cellRhs[c] = div;
  cellSides[c] = sides;
}

// Per slot (4 cells): right-hand side b (cell_sides, in cgAP), D⁻¹ = 1 / (number of faces that are
// neither WALL nor SOLID), and the CG start x = 0, r = b, z = D⁻¹ r, p = z (0 off FLUID cells). A p
// is written by apply_a before it is read.
@compute @workgroup_size(WG)
fn init_cg(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
  @builtin(workgroup_id) wid: vec3u,
) {
  let s = invocation(gid, nwg);
  var rz = 0.0;
  var rr = 0.0;
  if (s < P.slots) {
    let r = init_slot(s);
    rz = r.x;
    rr = r.y;
  }
  store_partials(lid, cg_group(wid, nwg), vec2f(rz, rr));
}

// init_cg of one slot; returns its (rᵀz, rᵀr).
fn init_slot(s: u32) -> vec2f {
  if (s == 0u) {
    cg_begin();
  }
  var b = vec4f(0.0);
  var inv = vec4f(0.0);
  for (var l = 0u; l < 4u; l++) {
    let c = 4u * s + l;
    if (c >= P.dims.w) { continue; }
    let sides = cellSides[c];
    if (sides != 0u) {
      b[l] = cgAP[s][l];
      inv[l] = 1.0 / f32(countOneBits(sides));
    }
  }
  let z = inv * b;
  cgX[s] = vec4f(0.0);
  cgR[s] = b;
  cgZ[s] = z;
  cgP[s] = z;
  cgInvD[s] = inv;
  return vec2f(dot(b, z), dot(b, b));
}

// init_cg and the whole CG loop in one workgroup, where the loop is solve_local's (flip_solver.ts
// encodeStep): every slot's start, the partial sums of its (rᵀz, rᵀr) as init_cg's workgroups
// leave them (chunk_trees sums in workgroup_sum's order), then solve_local's loop. The same
// iterates as init_cg and solve_local, one dispatch fewer a projection.
@compute @workgroup_size(SUM_WORKGROUP_SIZE)
fn solve_local_init(@builtin(local_invocation_index) lid: u32) {
  let chunks = cg_chunks();
  let padded = chunks * SUM_WORKGROUP_SIZE;
  for (var s = lid; s < padded; s += SUM_WORKGROUP_SIZE) {
    var t = vec2f(0.0);
    if (s < P.slots) { t = init_slot(s); }
    state[SLOTS + s] = t.x;
    state[SLOTS + padded + s] = t.y;
  }
  chunk_trees(lid, SLOTS, PARTIALS, chunks);
  chunk_trees(lid, SLOTS + padded, PARTIALS + chunks, chunks);
  solve_local_run(lid);
}

// The operator of the CG loop, per slot: A p = diag p_c − Σ p of the FLUID neighbours across faces
// that are neither WALL nor SOLID (AIR neighbours have q = 0); returns its pᵀAp.
fn apply_slot(s: u32) -> f32 {
  var ap = vec4f(0.0);
  let inv = cgInvD[s];
  let ps = cgP[s];
  for (var l = 0u; l < 4u; l++) {
    let c = 4u * s + l;
    if (inv[l] == 0.0) { continue; }
    let cc = cell_coords(c);
    let sides = cellSides[c];
    var diag = 0.0;
    var off = 0.0;
    for (var k = 0u; k < 6u; k++) {
      if (side_open(sides, k)) {
        diag += 1.0;
        let nbr = side(cc, k).nbr;
        if (nbr != 0xffffffffu) { off += p_at(nbr); }
      }
    }
    ap[l] = diag * ps[l] - off;
  }
  cgAP[s] = ap;
  return dot(ps, ap);
}

// update_x of one slot with α = rz / pAp (pAp > 0: else nothing); returns its new (rᵀz, rᵀr).
fn update_slot(s: u32, rz: f32, pAp: f32) -> vec2f {
  if (!(pAp > 0.0)) { return vec2f(0.0); }
  let alpha = rz / pAp;
  let r = cgR[s] - alpha * cgAP[s];
  let z = cgInvD[s] * r;
  cgX[s] = cgX[s] + alpha * cgP[s];
  cgR[s] = r;
  cgZ[s] = z;
  return vec2f(dot(r, z), dot(r, r));
}

// update_p of one slot: p = z + β p.
fn update_p_slot(s: u32, beta: f32) {
  cgP[s] = cgZ[s] + beta * cgP[s];
}

// Hooks of the CG loop (gpu/runtime/cg.wgsl): 4 cells per slot, convergence on rᵀr
// (CG_RESIDUAL_NORM), the operator apply_slot above. An iteration of solve_local costs each
// invocation the same loop iterations whatever the data: the host passes how many fit one
// dispatch (LOCAL_ITERATIONS).
override LOCAL_ITERATIONS: u32 = 1u;

fn cg_slots() -> u32 { return P.slots; }
fn cg_tolerance2() -> f32 { return P.tolerance2; }
fn cg_iterations() -> u32 { return P.iterations; }
fn cg_arg_count() -> u32 { return P.argCount; }
fn cg_local_fits(lid: u32) -> u32 { return LOCAL_ITERATIONS; }

// Per face (faceCount[FACE_AXIS]): u −= q_high − q_low on FLUID faces (q = 0 in AIR cells). The
// first dispatch (all axes, or x) takes the CG loop's last gate_final in its workgroup 0
// (gate_final_in_workgroup: the statistics; nothing reads them in this step).
@compute @workgroup_size(WG)
fn pressure_update(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(local_invocation_index) lid: u32,
  @builtin(workgroup_id) wid: vec3u,
) {
  if (FACE_AXIS == ALL_AXES || FACE_AXIS == 0u) {
    gate_final_in_workgroup(lid, cg_group(wid, nwg));
  }
  let fi = invocation(gid, nwg);
  if (fi >= P.faceCount[FACE_AXIS] || face_class(fi) != FACE_FLUID) { return; }
  let f = face_of(fi);
  var lo = f.xyz;
  lo[f.w] = lo[f.w] - 1u;
  faceU[fi] = faceU[fi] - (q_at(cell_id(f.xyz)) - q_at(cell_id(lo)));
}

// Grid-to-particle at x for axis a: (u_new, Δu) over the valid faces (mass, SOLID or WALL) of the
// 2×2×2 faces around x, normalised by the valid weights.
fn interpolate(x: vec3f, a: u32) -> vec2f {
  var o = vec3f(0.5);
  o[a] = 0.0;
  let t = (x - P.gridMin) / P.dx - o;
  let d = face_dims(a);
  let base = floor(t);
  let fr = t - base;
  var acc = vec2f(0.0);
  var wsum = 0.0;
  for (var k = 0u; k < 8u; k++) {
    let corner = vec3i(base) + vec3i(i32(k & 1u), i32((k >> 1u) & 1u), i32((k >> 2u) & 1u));
    if (any(corner < vec3i(0)) || any(corner >= vec3i(d))) { continue; }
    let fi = face_id(a, vec3u(corner));
    let massive = face_massive(fi);
    let cls = face_class(fi);
    if (!massive && cls != FACE_SOLID && cls != FACE_WALL) { continue; }
    let wx = select(1.0 - fr.x, fr.x, (k & 1u) == 1u);
    let wy = select(1.0 - fr.y, fr.y, ((k >> 1u) & 1u) == 1u);
    let wz = select(1.0 - fr.z, fr.z, ((k >> 2u) & 1u) == 1u);
    let w = wx * wy * wz;
    let old = select(0.0, faceOld[fi], massive);
    let u = faceU[fi];
    acc += w * vec2f(u, u - old);
    wsum += w;
  }
  if (wsum > 0.0) { return acc / wsum; }
  return vec2f(0.0);
}

// Per FLIP particle, the components of face_axes (all three, or one run for x, y, z in turn): the
// PIC/FLIP blend v' = φ (v + Δu) + (1 − φ) u_new, with v its DOF's velocity; then, with the last
// axis and a separation strength > 0, the separation velocity added (separation_dv). w = 1 marks
// it for part_velocity (other particles get 0). Invocation k handles particle sorted[k] (cell
// order), so neighbouring invocations walk the same cells.
@compute @workgroup_size(WG)
fn g2p(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let k = invocation(gid, nwg);
  if (k >= P.nbDims.w) { return; }
  let i = sorted[k];
  let pv = particleDofV[i];
  if (pv.w == 0.0) {
    particleVel[i] = vec4f(0.0);
    return;
  }
  let axes = face_axes();
  var vNew = pv.xyz;
  if (axes.x > 0u) { vNew = particleVel[i].xyz; }
  let x = pos[i].xyz;
  for (var a = axes.x; a < axes.y; a++) {
    let g = interpolate(x, a);
    vNew[a] = P.flipRatio * (pv[a] + g.y) + (1.0 - P.flipRatio) * g.x;
  }
  if (axes.y == 3u && P.separationStrength > 0.0) {
    vNew += separation_dv(i, x);
  }
  particleVel[i] = vec4f(vNew, 1.0);
}

// The separation velocity of FLIP particle i at x (core/reference/flip_reference.ts
// separationVelocity), over the FLIP particles in the 27 neighbour cells (cell ≥ dx ≥ the
// distance), in their fixed order.
fn separation_dv(i: u32, x: vec3f) -> vec3f {
  let d0 = P.separationDistance;
  let nc = gridCell(x, P.nbMin, P.nbCell, P.nbDims.xyz);
  var dv = vec3f(0.0);
  for (var row = 0u; row < 9u; row++) {
    let span = gridNeighborRow(nc, row, P.nbDims.xyz);
    for (var e = span.x; e < span.y; e++) {
      let j = sorted[e];
      if (j == i || particleDofV[j].w == 0.0) { continue; }
      let d = x - pos[j].xyz;
      let l = length(d);
      if (l > 0.0 && l < d0) {
        dv += (P.separationStrength * (d0 - l) / 2.0 / l / P.dt) * d;
      }
    }
  }
  return dv;
}

// Per DOF with FLIP members: its part's velocity = the DOF velocity plus the members' mass-weighted
// velocity change (the momentum the grid gave them), plus the handler's forces on the part,
// dt f / m (gravity is in the grid).
@compute @workgroup_size(WG)
fn part_velocity(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let d = invocation(gid, nwg);
  if (d >= P.nbDims.w) { return; }
  let pm = partMass[d];
  if (pm <= 0.0) { return; }
  let V = dofV[d].xyz;
  var dm = vec3f(0.0);
  var m = 0.0;
  for (var k = memberStart[d]; k < memberStart[d + 1u]; k++) {
    let i = memberList[k];
    let vi = particleVel[i];
    if (vi.w == 0.0) { continue; } // not a FLIP particle
    dm += mass[i] * (vi.xyz - V);
    m += mass[i];
  }
  var v = V + P.dt * partForce[d].xyz / pm;
  if (m > 0.0) { v += dm / m; }
  partVel[d] = vec4f(v, 0.0);
}
