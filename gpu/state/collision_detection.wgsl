// Collision detection of paper §5.1 (Rules 1 and 2, Eqs. 21-22), f32, one invocation per particle.
// Owner: gpu/state/collision_detection.ts. Reference: core/grouping/collision_rules.ts (findCollisions, f64).
//
// Entry points, dispatched in this order over the particles 0 .. params.count (`sorted` must be
// a permutation of them: the grid built over exactly those particles):
//   collide_keys      the collision key of every particle into work.key (below): its body with
//                     the body's self-collision flag, so that the contact walk binds one buffer
//                     where it read two (body, selfCollision)
//   collide_cells     (with pruning, instead of collide_keys) the keys, and the body bit of every
//                     particle OR-ed into its cell's word of cellBodies (cleared before): which
//                     bodies a cell holds
//   collide_contacts_pruned  collide_contacts, except that a particle whose cells hold no other
//                     body than its own, when its body does not collide with itself, has no
//                     contact and walks no cell (the interior of a fluid); the same output
//   collide_contacts  for every j != i in the cells that the sphere of radius r_i + maxRadius
//                     around x_i overlaps (at most the 27 around its cell; 8 when that reach is
//                     at most half a cell), cells in z, y, x order, with
//                     |x_j - x_i| < r_i + r_j (Rule 1, Eq. 21) that is not excluded (same body
//                     without self-collision, or a bonded pair), insert j into the slot
//                     contacts[i*K .. i*K + K) kept sorted ascending; when the slot is full the
//                     largest index is dropped, so the slot ends up holding the K smallest
//                     partner indices, whatever the scan order. Every dropped partner adds 1 to
//                     work.dropped.
//   collide_overflow  (one invocation) adds work.dropped to `overflow` and clears it: the walk
//                     counts its drops in the scratch it binds for the keys, which keeps it to 8
//                     storage buffers, WebGPU's guaranteed limit per stage
//   collide_classify  split the kept contacts j > i by Rule 2, n . (v_j - v_i) < 0 with
//                     n = x_j - x_i (Eq. 22): approaching -> pairs (merged in stage 1),
//                     otherwise -> marked (candidates of stage 2). Both stay ascending.
// Positions are pos[i].xyz (member positions), radii pos[i].w, velocities vel[i].xyz.

struct CollisionParams {
  gridMin: vec3f,
  cellSize: f32,
  dims: vec4u, // xyz: cells per axis, w: cell count
  count: u32,
  maxRadius: f32, // the largest radius: partners of i lie within r_i + maxRadius
}

override WORKGROUP_SIZE: u32 = 64;
// K: capacity of each particle's slot in contacts, pairs and marked.
override MAX_PER_PARTICLE: u32 = 16;
// The broken-bond flag of bondList entries (gpu/state/particle_state.ts BOND_BROKEN_BIT).
override BROKEN_BIT: u32;

@group(0) @binding(0) var<uniform> params: CollisionParams;
@group(0) @binding(1) var<storage, read> pos: array<vec4f>;
@group(0) @binding(2) var<storage, read> body: array<u32>;
@group(0) @binding(3) var<storage, read> selfCollision: array<u32>;
@group(0) @binding(4) var<storage, read> bondStart: array<u32>;
@group(0) @binding(5) var<storage, read> bondList: array<u32>;
@group(0) @binding(6) var<storage, read> cellStart: array<u32>;
@group(0) @binding(7) var<storage, read> sorted: array<u32>;
@group(0) @binding(8) var<storage, read_write> contacts: array<u32>;
@group(0) @binding(9) var<storage, read_write> contactCount: array<u32>;
@group(0) @binding(10) var<storage, read_write> overflow: atomic<u32>;
@group(0) @binding(11) var<storage, read> vel: array<vec4f>;
@group(0) @binding(12) var<storage, read_write> pairs: array<u32>;
@group(0) @binding(13) var<storage, read_write> pairCount: array<u32>;
@group(0) @binding(14) var<storage, read_write> marked: array<u32>;
@group(0) @binding(15) var<storage, read_write> markedCount: array<u32>;
// The detector's scratch, shared by every bind of one detector (each contact pass rewrites it):
// the partners the walk dropped (collide_overflow moves them to `overflow`), and the collision key
// of every particle, key[i] = body[i] | SELF_COLLIDES when its body collides with itself (body ids
// index selfCollision, so they are below 2^31): two particles are of one body without
// self-collision exactly when their keys are equal and lack SELF_COLLIDES.
struct Work {
  dropped: atomic<u32>,
  key: array<u32>,
}
@group(0) @binding(16) var<storage, read_write> work: Work;
const SELF_COLLIDES: u32 = 0x80000000u;
// One word per cell: bit min(body, 31) of each body with a particle in the cell (collide_cells
// writes it through cellBodiesOr, collide_contacts_pruned reads it); the same buffer.
@group(0) @binding(17) var<storage, read_write> cellBodiesOr: array<atomic<u32>>;
@group(0) @binding(18) var<storage, read> cellBodies: array<u32>;

// Cell of a point, clamped into the grid (gpu/state/grid_cell.wgsl, prepended by the owner).
fn cellOf(x: vec3f) -> vec3i {
  return gridCell(x, params.gridMin, params.cellSize, params.dims.xyz);
}

// Whether b is in a's ascending bond list (binary search on the partner bits), with the bond
// intact: an entry flagged BROKEN_BIT (by the system that breaks bonds) no longer excludes the
// pair, so fragments of a fractured body collide.
fn hasBond(a: u32, b: u32) -> bool {
  var lo = bondStart[a];
  var hi = bondStart[a + 1u];
  while (lo < hi) {
    let mid = lo + (hi - lo) / 2u;
    let v = bondList[mid] & ~BROKEN_BIT;
    if (v == b) {
      return (bondList[mid] & BROKEN_BIT) == 0u;
    }
    if (v < b) {
      lo = mid + 1u;
    } else {
      hi = mid;
    }
  }
  return false;
}

// Pairs that are never collisions: same body without self-collision (equal keys without
// SELF_COLLIDES); bonded (paper §5.1). A bond may be listed under either particle or both.
fn excluded(i: u32, j: u32) -> bool {
  let ki = work.key[i];
  if (ki == work.key[j] && (ki & SELF_COLLIDES) == 0u) {
    return true;
  }
  return hasBond(i, j) || hasBond(j, i);
}

// The collision key of particle i (see Work).
fn collision_key(i: u32) -> u32 {
  let b = body[i];
  return select(b, b | SELF_COLLIDES, selfCollision[b] != 0u);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn collide_keys(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WORKGROUP_SIZE; // 2D past 65,535 workgroups
  if (i >= params.count) {
    return;
  }
  work.key[i] = collision_key(i);
}

@compute @workgroup_size(1)
fn collide_overflow() {
  let dropped = atomicExchange(&work.dropped, 0u);
  if (dropped > 0u) {
    atomicAdd(&overflow, dropped);
  }
}

// The bit of body b in a cellBodies word: bodies from 31 on share bit 31.
fn body_bit(b: u32) -> u32 {
  return 1u << min(b, 31u);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn collide_cells(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WORKGROUP_SIZE; // 2D past 65,535 workgroups
  if (i >= params.count) {
    return;
  }
  work.key[i] = collision_key(i);
  let c = gridCellId(cellOf(pos[i].xyz), params.dims.xyz);
  atomicOr(&cellBodiesOr[c], body_bit(body[i]));
}

// The cells the reach sphere of a particle at p (radius p.w) overlaps, per axis (clamped into the
// grid like every cell), at most the 27 around its own cell.
struct CellBox {
  lo: vec3i,
  hi: vec3i,
}

fn reach_box(p: vec4f) -> CellBox {
  let c = cellOf(p.xyz);
  let reach = (p.w + params.maxRadius) * 1.00001; // a hair more: f32 rounding of x ± reach
  let lo = gridCell(p.xyz - vec3f(reach), params.gridMin, params.cellSize, params.dims.xyz);
  let hi = gridCell(p.xyz + vec3f(reach), params.gridMin, params.cellSize, params.dims.xyz);
  return CellBox(max(lo, c - vec3i(1)), min(hi, c + vec3i(1)));
}

// The rows (z, y) of particle i's box that can hold a contact, as bits of row
// (z − lo.z) · 3 + (y − lo.y): all of them, unless i's body does not collide with itself, in which
// case only the rows whose cells hold a particle of another body (bodies from 31 on share a bit,
// so their rows always count). 0: the particle can have no contact at all.
fn contact_rows(i: u32, box: CellBox) -> u32 {
  let key = work.key[i];
  let b = key & ~SELF_COLLIDES;
  if ((key & SELF_COLLIDES) != 0u || b >= 31u) {
    return ALL_ROWS;
  }
  var rows = 0u;
  for (var z = box.lo.z; z <= box.hi.z; z++) {
    for (var y = box.lo.y; y <= box.hi.y; y++) {
      var bodies = 0u;
      for (var x = box.lo.x; x <= box.hi.x; x++) {
        bodies |= cellBodies[gridCellId(vec3i(x, y, z), params.dims.xyz)];
      }
      if ((bodies & ~body_bit(b)) != 0u) {
        rows |= 1u << u32((z - box.lo.z) * 3 + (y - box.lo.y));
      }
    }
  }
  return rows;
}

const ALL_ROWS: u32 = 0x1ffu;

@compute @workgroup_size(WORKGROUP_SIZE)
fn collide_contacts(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let flat = gid.x + gid.y * nwg.x * WORKGROUP_SIZE; // 2D past 65,535 workgroups
  // Invocations run in the grid's cell order (i = sorted[k]): neighbouring invocations read the
  // same cells, so their reads of pos hit the cache. Each slot's content does not depend on it.
  if (flat >= params.count) {
    return;
  }
  let i = sorted[flat];
  collect_contacts(i, reach_box(pos[i]), ALL_ROWS);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn collide_contacts_pruned(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let flat = gid.x + gid.y * nwg.x * WORKGROUP_SIZE; // 2D past 65,535 workgroups
  if (flat >= params.count) {
    return;
  }
  let i = sorted[flat];
  let box = reach_box(pos[i]);
  let rows = contact_rows(i, box);
  if (rows == 0u) {
    contactCount[i] = 0u;
    return;
  }
  collect_contacts(i, box, rows);
}

// The contacts of particle i among the particles of the cells of `box` into its slot, walking the
// rows of the box flagged in `rows` (contact_rows: the others hold only particles i cannot touch).
fn collect_contacts(i: u32, box: CellBox, rows: u32) {
  let K = MAX_PER_PARTICLE;
  let base = i * K;
  let pi = pos[i];
  let qlo = box.lo;
  let qhi = box.hi;
  var n = 0u;
  var dropped = 0u;
  // rows of cells along x (consecutive ids, so one contiguous range of `sorted`), z, y order
  for (var z = qlo.z; z <= qhi.z; z++) {
    for (var y = qlo.y; y <= qhi.y; y++) {
      if ((rows & (1u << u32((z - qlo.z) * 3 + (y - qlo.y)))) == 0u) {
        continue;
      }
      let first = gridCellId(vec3i(qlo.x, y, z), params.dims.xyz);
      let last = gridCellId(vec3i(qhi.x, y, z), params.dims.xyz);
      for (var k = cellStart[first]; k < cellStart[last + 1u]; k++) {
        let j = sorted[k];
        if (j == i) {
          continue;
        }
        let pj = pos[j];
        let d = pj.xyz - pi.xyz;
        let reach = pi.w + pj.w;
        if (!(dot(d, d) < reach * reach)) { // Rule 1 (Eq. 21)
          continue;
        }
        if (excluded(i, j)) {
          continue;
        }
        // Insert j into the ascending slot, keeping the K smallest indices.
        var p = n;
        if (n == K) {
          dropped++;
          if (j > contacts[base + K - 1u]) {
            continue;
          }
          p = K - 1u;
        } else {
          n++;
        }
        while (p > 0u && contacts[base + p - 1u] > j) {
          contacts[base + p] = contacts[base + p - 1u];
          p--;
        }
        contacts[base + p] = j;
      }
    }
  }
  contactCount[i] = n;
  if (dropped > 0u) {
    atomicAdd(&work.dropped, dropped);
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn collide_classify(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * WORKGROUP_SIZE; // 2D past 65,535 workgroups
  if (i >= params.count) {
    return;
  }
  let base = i * MAX_PER_PARTICLE;
  let xi = pos[i].xyz;
  let vi = vel[i].xyz;
  let n = contactCount[i];
  var np = 0u;
  var nm = 0u;
  for (var k = 0u; k < n; k++) {
    let j = contacts[base + k];
    if (j < i) {
      continue;
    }
    if (dot(pos[j].xyz - xi, vel[j].xyz - vi) < 0.0) { // Rule 2 (Eq. 22)
      pairs[base + np] = j;
      np++;
    } else {
      marked[base + nm] = j;
      nm++;
    }
  }
  pairCount[i] = np;
  markedCount[i] = nm;
}
