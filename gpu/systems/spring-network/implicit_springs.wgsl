// Implicit mass-spring cloth on DOFs: one linearised backward-Euler step solved by matrix-free,
// Jacobi-preconditioned, filtered CG (Baraff & Witkin 1998, Eq. 16 and §5.3). Formulas, clamping
// and the f64 reference: core/reference/cloth_reference.ts. Particle/DOF conventions: gpu/README.md.
//
//   (M − dt ∂f/∂v − dt² ∂f/∂x) Δv = dt (f + dt ∂f/∂x v̂ + f_ext + M g),   v' = v̂ + Δv
//
// per spring (i, j), d = x_j − x_i, l = |d|, u = d / l, c = max(0, 1 − L/l):
//   f_i = (ks (l − L) + kd (v_j − v_i)·u) u,   K = ks [(1 − c) u uᵀ + c I] (= ∂f_i/∂x_j),
//   block B = dt kd u uᵀ + dt² K = α u uᵀ + β I,  α = dt kd + dt² ks (1 − c),  β = dt² ks c,
//   (A p)_d = M_d p_d − Σ_{members i of d} Σ_{springs (i, j), dof(j) ≠ d} B (p_dof(j) − p_d).
// Springs are packed CSR words (partner | class, gpu/state/spring_csr.ts) over two bindings
// (gpu/state/spring_words.wgsl); the blocks B are recomputed from the particle positions of the
// step wherever they are needed (A p), not stored: 4 bytes per CSR entry in all.
// Slots are the system's particles, not the scene's: the system owns the particles
// params.first ... params.first + params.count − 1 that are flagged `cloth` (a hole is one that
// is not), and every per-particle and per-DOF vector of the solve has params.count entries, so the
// cost of a step follows the system's size, not the scene's (Table I's 122K-particle bowl in
// 6.5M particles of water). Slot k stands for particle first + k; classify names each system
// particle's DOF `owner`, the slot of its first system member in member order, and the owner slot
// carries the DOF's unknowns. An owner slot is ACTIVE (integrated by this system), and FIXED too
// when any member of its DOF is pinned: v̂ = 0 and Δv = 0 there. Sums run in ascending member
// order and spring CSR order: bit-reproducible.
//
// Kernels, in encode order: classify, classify_values (with the particle positions), spring_forces,
// init_cg (in stage 2 init_cg_warm, then the warm start's apply_a and warm_residual), then
// the CG loop of gpu/runtime/cg.wgsl (per iteration apply_a, pap_finish, update_x, gate, update_p;
// or three fused kernels; or solve_local), whose operator is apply_slot below; finally one of the
// finish_* kernels. Every dispatch costs the host tens of µs, so the gates after init_cg and the
// warm start are taken inside the next kernel where the loop allows it (all but the five-kernel
// loop, whose gate writes the indirect arguments), and the finish kernel takes the loop's last
// gate, saves the warm start and records the stage's iterations itself. The convergence test is
// on the preconditioned residual rᵀz (CG_RESIDUAL_NORM off).

// DOF flags and regions of `cg`: pipeline constants passed by implicit_springs.ts
// (CLOTH_DOF_ACTIVE, CLOTH_DOF_FIXED, CG_REGIONS), defined once.
override ACTIVE: u32;
override FIXED: u32;

// Regions of cgA, cgB, cgC (each `params.stride` vec4 long; the index within its buffer): per DOF slot ...
override R_X: u32;    // Δv (the CG iterate)
override R_R: u32;    // residual r
override R_Z: u32;    // preconditioned residual z = D⁻¹ r
override R_P: u32;    // search direction p
override R_AP: u32;   // A p
override R_INVD: u32; // Jacobi preconditioner D⁻¹ (diagonal of A, inverted)
override R_VHAT: u32; // v̂: DOF velocity, 0 for fixed or inactive slots
// ... and per particle
override R_G: u32;    // g_i = Σ_springs f_i + dt K (v̂_j − v̂_i)
override R_DG: u32;   // Σ_springs diag(B)
override R_F: u32;    // Σ_springs f_i: the spring force on particle i at the start of the step
override R_DM: u32;   // x: drag mass dt·c·M of a DOF with a cloth member (linear drag −c M v); y: M
override R_XP: u32;   // particle positions x_i = X_dof(i) + offset_i of the step

// Scalars of `state`, the partial sums and the CG loop: gpu/runtime/cg.wgsl.

struct ClothParams {
  count: u32, // slots: the particles first ... first + count − 1
  stride: u32,
  dt: f32,
  tolerance2: f32,
  gravity: vec3f,
  argCount: u32,
  drag: f32,
  iterations: u32,
  first: u32,
}

// The linearised spring seen from one end: direction u, length l (0: degenerate, no force), and
// the block B = α u uᵀ + β I.
struct Block {
  u: vec3f,
  l: f32,
  alpha: f32,
  beta: f32,
  c: f32,
}

override WORKGROUP_SIZE: u32 = 64u;

@group(1) @binding(0) var<uniform> params: ClothParams;

@group(0) @binding(1) var<storage, read> dof: array<u32>;
@group(0) @binding(2) var<storage, read> offset: array<vec4f>;
@group(0) @binding(3) var<storage, read> dofX: array<vec4f>;
@group(0) @binding(4) var<storage, read> dofV: array<vec4f>;
@group(0) @binding(5) var<storage, read> dofM: array<f32>;
@group(0) @binding(6) var<storage, read> extForce: array<vec4f>;
@group(0) @binding(7) var<storage, read> memberStart: array<u32>;
@group(0) @binding(8) var<storage, read> memberList: array<u32>;
@group(0) @binding(9) var<storage, read> cloth: array<u32>;
@group(0) @binding(10) var<storage, read> pinned: array<u32>;
// Per slot k (written by classify): x the owner slot of particle first + k's DOF (NONE for a
// particle the system does not own), y the DOF flags (ACTIVE, FIXED; 0 unless k is the owner),
// z the DOF, w the slot of the DOF's next member of this system in member order (NONE after the
// last): from the owner, a chain of the DOF's system members, so the solve never walks members of
// other systems (a cloth DOF holding a thousand fluid particles costs what its cloth members do).
@group(0) @binding(11) var<storage, read_write> slotInfo: array<vec4u>;
const NONE: u32 = 0xffffffffu;

fn owner(k: u32) -> u32 {
  return slotInfo[k].x;
}

fn next_member(k: u32) -> u32 {
  return slotInfo[k].w;
}

@group(0) @binding(12) var<storage, read> springStart: array<u32>;
@group(0) @binding(13) var<storage, read> springWordsA: array<u32>;
@group(0) @binding(20) var<storage, read> springWordsB: array<u32>;
@group(0) @binding(14) var<storage, read> springClasses: array<SpringClass>;
// The CG scratch in three buffers of 4 regions each (so each stays under the per-binding limit at
// Table I's particle counts), grouped by the kernels that use them: cgA (p, A p, drag mass and M,
// particle positions: apply_a), cgB (Δv, r, z, D⁻¹), cgC (v̂, g, diag(B), spring forces).
@group(0) @binding(15) var<storage, read_write> cgA: array<vec4f>;
@group(0) @binding(21) var<storage, read_write> cgB: array<vec4f>;
@group(0) @binding(22) var<storage, read_write> cgC: array<vec4f>;
@group(0) @binding(16) var<storage, read_write> state: array<f32>;
@group(0) @binding(17) var<storage, read> argsFull: array<u32>;
@group(0) @binding(18) var<storage, read_write> args: array<u32>;
@group(0) @binding(19) var<storage, read_write> dofVOut: array<vec4f>;
// Warm start (two-stage integration, §5.1): per particle, the Δv of its DOF in the last solve
// saved with warm_save; per stage, the CG iterations summed and the solves counted.
@group(0) @binding(23) var<storage, read_write> warm: array<vec4f>;
@group(0) @binding(24) var<storage, read_write> history: array<u32>;
// rᵀz of a slot as it is now (0 off the ACTIVE slots).
fn active_rz(d: u32) -> f32 {
  if (!is_active(d)) {
    return 0.0;
  }
  return dot(cgB[at(R_R, d)].xyz, cgB[at(R_Z, d)].xyz);
}

fn is_active(d: u32) -> bool {
  return d < params.count && (slotInfo[d].y & ACTIVE) != 0u;
}

fn at(region: u32, k: u32) -> u32 {
  return region * params.stride + k;
}

fn is_free(d: u32) -> bool {
  return (slotInfo[d].y & (ACTIVE | FIXED)) == ACTIVE;
}

// The spring from particle position xi to particle j (class sc), linearised: the one formula of
// spring_forces and apply_a, so both see the same block.
fn spring_block(xi: vec3f, j: u32, sc: SpringClass) -> Block {
  let d = cgA[at(R_XP, j)].xyz - xi;
  let l = length(d);
  if (!(l > 0.0)) {
    return Block(vec3f(0.0), 0.0, 0.0, 0.0, 0.0);
  }
  let u = d / l;
  let c = max(0.0, 1.0 - sc.restLength / l);
  let dt = params.dt;
  return Block(u, l, dt * sc.kd + dt * dt * sc.ks * (1.0 - c), dt * dt * sc.ks * c, c);
}

// Per slot k: its owner, its next member, and on owner slots the flags (then classify_values: drag
// mass and mass, and v̂; two entry points of 6 and 5 storage buffers, not 10 in one, within the 8
// WebGPU guarantees per stage).
@compute @workgroup_size(WORKGROUP_SIZE)
fn classify(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let k = cg_slot(gid, nwg);
  if (k >= params.count) {
    return;
  }
  let g = params.first + k;
  var own = NONE;
  var next = NONE;
  var hasPin = false;
  var d = 0u;
  if (cloth[g] != 0u) {
    d = dof[g];
    let end = memberStart[d + 1u];
    for (var j = memberStart[d]; j < end; j++) {
      let m = memberList[j];
      if (cloth[m] != 0u) {
        if (own == NONE) {
          own = m - params.first;
        }
        if (next == NONE && m > g) {
          next = m - params.first;
        }
      }
      hasPin = hasPin || pinned[m] != 0u;
    }
  }
  var fl = 0u;
  if (own == k) {
    fl = select(ACTIVE, ACTIVE | FIXED, hasPin);
  }
  slotInfo[k] = vec4u(own, fl, d, next);
}

// Per slot k, after classify: on owner slots the drag mass and mass, and v̂ on free ones (0
// elsewhere); and particle first + k's position of this step (X_dof + offset), which needs no
// classification but fits the same dispatch (8 storage buffers).
@compute @workgroup_size(WORKGROUP_SIZE)
fn classify_values(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let k = cg_slot(gid, nwg);
  if (k >= params.count) {
    return;
  }
  let g = params.first + k;
  cgA[at(R_XP, k)] = vec4f(dofX[dof[g]].xyz + offset[g].xyz, 0.0);
  let info = slotInfo[k];
  let d = info.z;
  let fl = info.y;
  var dm = vec4f(0.0);
  if (info.x == k) {
    // Drag acts on DOFs with a cloth member, as a whole (a meta-particle moves as one).
    dm = vec4f(params.dt * params.drag * dofM[d], dofM[d], 0.0, 0.0);
  }
  cgA[at(R_DM, k)] = dm;
  cgC[at(R_VHAT, k)] = select(vec4f(0.0), vec4f(dofV[d].xyz, 0.0), fl == ACTIVE);
}

// Per particle: spring forces, the right-hand-side term g_i and the diagonal of the blocks.
@compute @workgroup_size(WORKGROUP_SIZE)
fn spring_forces(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = cg_slot(gid, nwg);
  if (i >= params.count) {
    return;
  }
  let dt = params.dt;
  let di = owner(i);
  var g = vec3f(0.0);
  var dg = vec3f(0.0);
  var fsum = vec3f(0.0);
  if (di == NONE) {
    cgC[at(R_G, i)] = vec4f(0.0);
    cgC[at(R_DG, i)] = vec4f(0.0);
    cgC[at(R_F, i)] = vec4f(0.0);
    return;
  }
  let xi = cgA[at(R_XP, i)].xyz;
  let vi = cgC[at(R_VHAT, di)].xyz;
  let end = springStart[i + 1u];
  for (var s = springStart[i]; s < end; s++) {
    let word = spring_word(s);
    let j = spring_partner(word);
    let dj = owner(j);
    if (dj != di) {
      let sc = springClasses[spring_class(word)];
      let b = spring_block(xi, j, sc);
      if (b.l > 0.0) {
        let u = b.u;
        let w = cgC[at(R_VHAT, dj)].xyz - vi;
        let uw = dot(u, w);
        let f = (sc.ks * (b.l - sc.restLength) + sc.kd * uw) * u;
        let kw = sc.ks * ((1.0 - b.c) * uw * u + b.c * w);
        g += f + dt * kw;
        fsum += f;
        dg += b.alpha * u * u + vec3f(b.beta);
      }
    }
  }
  cgC[at(R_G, i)] = vec4f(g, 0.0);
  cgC[at(R_DG, i)] = vec4f(dg, 0.0);
  cgC[at(R_F, i)] = vec4f(fsum, 0.0);
}

// Per DOF slot: b, D⁻¹, and the CG start x = 0, r = b, z = D⁻¹ r, p = z (zero off the free slots).
@compute @workgroup_size(WORKGROUP_SIZE)
fn init_cg(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(local_invocation_index) lid: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let d = cg_slot(gid, nwg);
  var contrib = 0.0;
  if (d < params.count) {
    contrib = init_slot(d);
  }
  store_partial(lid, cg_group(wid, nwg), contrib);
}

// init_cg of a stage 2 that starts from stage 1's solution (the two-stage integration, §5.1): the
// cold start all the same (its r₀ᵀz₀ is the reference of the convergence test), but p = the saved
// Δv of the slot's particle on the free slots, for the warm start's A x (warm_residual then takes
// x = p once the first gate has let the solve go on).
@compute @workgroup_size(WORKGROUP_SIZE)
fn init_cg_warm(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(local_invocation_index) lid: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let d = cg_slot(gid, nwg);
  var contrib = 0.0;
  if (d < params.count) {
    contrib = init_slot(d);
    if (is_free(d)) {
      cgA[at(R_P, d)] = warm[d];
    }
  }
  store_partial(lid, cg_group(wid, nwg), contrib);
}

// init_cg of one slot; returns its rᵀz (0 off the ACTIVE slots).
fn init_slot(d: u32) -> f32 {
  if (d == 0u) {
    cg_begin();
  }
  var b = vec3f(0.0);
  var inv = vec3f(0.0);
  if (is_free(d)) {
    var sumG = vec3f(0.0);
    var sumDG = vec3f(0.0);
    let D = slotInfo[d].z;
    for (var m = d; m != NONE; m = next_member(m)) {
      sumG += cgC[at(R_G, m)].xyz;
      sumDG += cgC[at(R_DG, m)].xyz;
    }
    let mass = cgA[at(R_DM, d)].y;
    let dragMass = cgA[at(R_DM, d)].x; // dt·c·M: linear drag −c M v, implicit
    b = params.dt * (sumG + extForce[D].xyz + mass * params.gravity) - dragMass * cgC[at(R_VHAT, d)].xyz;
    inv = 1.0 / (vec3f(mass + dragMass) + sumDG);
  }
  let z = vec4f(inv * b, 0.0);
  cgB[at(R_X, d)] = vec4f(0.0);
  cgB[at(R_R, d)] = vec4f(b, 0.0);
  cgB[at(R_Z, d)] = z;
  cgA[at(R_P, d)] = z;
  cgA[at(R_AP, d)] = vec4f(0.0);
  cgB[at(R_INVD, d)] = vec4f(inv, 0.0);
  if (!is_active(d)) {
    return 0.0;
  }
  return dot(b, z.xyz);
}

// A p of one slot into R_AP; returns its pᵀAp (0 off the ACTIVE slots).
fn apply_slot(d: u32) -> f32 {
  var ap = vec3f(0.0);
  if (is_free(d)) {
    let pd = cgA[at(R_P, d)].xyz;
    let dm = cgA[at(R_DM, d)];
    ap = (dm.y + dm.x) * pd;
    for (var m = d; m != NONE; m = next_member(m)) {
      let xm = cgA[at(R_XP, m)].xyz;
      let sEnd = springStart[m + 1u];
      for (var s = springStart[m]; s < sEnd; s++) {
        let word = spring_word(s);
        let j = spring_partner(word);
        let dj = owner(j);
        if (dj != d) {
          let b = spring_block(xm, j, springClasses[spring_class(word)]);
          let w = cgA[at(R_P, dj)].xyz - pd;
          ap -= b.alpha * dot(b.u, w) * b.u + b.beta * w;
        }
      }
    }
  }
  cgA[at(R_AP, d)] = vec4f(ap, 0.0);
  if (!is_active(d)) {
    return 0.0;
  }
  return dot(cgA[at(R_P, d)].xyz, ap);
}

// update_x of one slot with α = rz / pAp (pAp > 0: else nothing); returns its new rᵀz (0 off the
// ACTIVE slots).
fn update_slot(d: u32, rz: f32, pAp: f32) -> vec2f {
  if (!(pAp > 0.0)) {
    return vec2f(0.0);
  }
  if (is_free(d)) {
    let alpha = rz / pAp;
    let r = cgB[at(R_R, d)] - alpha * cgA[at(R_AP, d)];
    cgB[at(R_X, d)] = cgB[at(R_X, d)] + alpha * cgA[at(R_P, d)];
    cgB[at(R_R, d)] = r;
    cgB[at(R_Z, d)] = cgB[at(R_INVD, d)] * r;
  }
  return vec2f(active_rz(d), 0.0);
}

// update_p of one slot: p = z + β p.
fn update_p_slot(d: u32, beta: f32) {
  if (!is_free(d)) {
    return;
  }
  cgA[at(R_P, d)] = cgB[at(R_Z, d)] + beta * cgA[at(R_P, d)];
}

// Per DOF slot, after the first gate and A x of the warm start x = p (init_cg_warm), unless the
// solve has ended: x = p, r = b − A x, z = D⁻¹ r, p = z, with rᵀz partial sums for the gate after
// it. Slot 0 takes back the first gate's count: it is not a CG iteration.
@compute @workgroup_size(WORKGROUP_SIZE)
fn warm_residual(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(local_invocation_index) lid: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let d = cg_slot(gid, nwg);
  var contrib = 0.0;
  if (d < params.count && state[S_DONE] == 0.0) {
    if (d == 0u) {
      state[S_ITER] -= 1.0;
    }
    if (is_free(d)) {
      let r = cgB[at(R_R, d)] - cgA[at(R_AP, d)];
      let z = cgB[at(R_INVD, d)] * r;
      cgB[at(R_X, d)] = cgA[at(R_P, d)];
      cgB[at(R_R, d)] = r;
      cgB[at(R_Z, d)] = z;
      cgA[at(R_P, d)] = z;
    }
    contrib = active_rz(d);
  }
  store_partial(lid, cg_group(wid, nwg), contrib);
}

// Per DOF slot d: v' = v̂ + Δv for the system's DOFs; other slots of dofVOut are left as they are.
fn finish_slot(d: u32) {
  if (d >= params.count || (slotInfo[d].y & ACTIVE) == 0u) {
    return;
  }
  dofVOut[slotInfo[d].z] = vec4f(cgC[at(R_VHAT, d)].xyz + cgB[at(R_X, d)].xyz, 0.0);
}

// Per particle i: the Δv of its DOF (0 off the system's free DOFs), the warm start of the next
// solve of the step (stage 2 starts from stage 1's solution).
fn warm_save_slot(i: u32) {
  if (i >= params.count) {
    return;
  }
  let d = owner(i);
  var x = vec4f(0.0);
  if (d != NONE && is_free(d)) {
    x = cgB[at(R_X, d)];
  }
  warm[i] = x;
}

// The end of a solve, one invocation per slot k: the loop's last gate (workgroup 0), v' of DOF
// slot k, and (slot 0) the solve's iterations into the running sums of `stage` (0, 1); stage 1
// saves the warm start after it (warm_save_slot). Each part reads only what no part writes (x,
// v̂, the partial sums, S_ITER), so one dispatch runs them all. Uniform control flow.
fn finish_all(gid: vec3u, lid: u32, wid: vec3u, nwg: vec3u, stage: u32) {
  gate_final_in_workgroup(lid, cg_group(wid, nwg));
  let k = cg_slot(gid, nwg);
  finish_slot(k);
  if (k == 0u) {
    history[2u * stage] += u32(state[S_ITER]);
    history[2u * stage + 1u] += 1u;
  }
}

// finish_all of a lone solve or a stage 1 solved cold (nothing to save).
@compute @workgroup_size(WORKGROUP_SIZE)
fn finish_stage1(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(local_invocation_index) lid: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  finish_all(gid, lid, wid, nwg, 0u);
}

// finish_all of stage 1 with the warm start of stage 2 saved.
@compute @workgroup_size(WORKGROUP_SIZE)
fn finish_stage1_save(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(local_invocation_index) lid: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  finish_all(gid, lid, wid, nwg, 0u);
  warm_save_slot(cg_slot(gid, nwg));
}

// finish_all of stage 2.
@compute @workgroup_size(WORKGROUP_SIZE)
fn finish_stage2(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(local_invocation_index) lid: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  finish_all(gid, lid, wid, nwg, 1u);
}

// ---------------------------------------------------------------------------------------------
// Hooks of the CG loop (gpu/runtime/cg.wgsl): the slots are the system's particle span, the
// operator is apply_slot above.

fn cg_slots() -> u32 {
  return params.count;
}

fn cg_tolerance2() -> f32 {
  return params.tolerance2;
}

fn cg_iterations() -> u32 {
  return params.iterations;
}

fn cg_arg_count() -> u32 {
  return params.argCount;
}

// Loop iterations of one CG iteration in this invocation (an upper bound, counted the way the
// loops below run), and those of the setup (counting it, the gate before the first iteration).
fn local_cost(lid: u32) -> vec2u {
  var work = 0u;
  var counting = 0u;
  for (var d = lid; d < params.count; d += WORKGROUP_SIZE) {
    counting += 1u;
    if (is_free(d)) {
      for (var m = d; m != NONE; m = next_member(m)) {
        counting += 1u;
        work += 1u + springStart[m + 1u] - springStart[m];
      }
    }
  }
  // three slot loops (apply, update_x, update_p), two totals, a margin; the setup: counting, the
  // gate solve_local may take before its first iteration (one total), a margin
  let chunks = cg_chunks();
  work += 3u * chunks + 2u * total_cost(chunks) + 16u;
  return vec2u(work, counting + total_cost(chunks) + 8u);
}

// Iterations one solve_local dispatch takes: as many as fit LOCAL_BUDGET loop iterations of the
// busiest invocation (gpu/runtime/local_solve.wgsl). Uniform control flow.
fn cg_local_fits(lid: u32) -> u32 {
  let cost = local_cost(lid);
  let perIteration = workgroup_max(lid, cost.x);
  let spent = workgroup_max(lid, cost.y);
  var fits = 0u;
  if (LOCAL_BUDGET > spent) {
    fits = (LOCAL_BUDGET - spent) / max(perIteration, 1u);
  }
  return fits;
}
