// One preconditioned conjugate-gradient loop on the GPU (Hestenes & Stiefel; Shewchuk, "An
// Introduction to the Conjugate Gradient Method Without the Agonizing Pain", B2), shared by the
// implicit systems (a spring network's backward-Euler step, a grid's pressure projection). A
// prelude after workgroup_sum.wgsl and local_solve.wgsl; the owner declares `state: array<f32>`
// (read_write), `argsFull` (read) and `args` (read_write), sets SUM_WORKGROUP_SIZE to its
// workgroup size, and defines the hooks:
//
//   cg_slots() -> u32           slots of the solve (4 vector entries each)
//   cg_tolerance2() -> f32      squared relative tolerance
//   cg_iterations() -> u32      CG iterations encoded (the loop solve_local walks)
//   cg_arg_count() -> u32       u32 indirect arguments the gate writes
//   apply_slot(s) -> f32        the operator: A p of slot s; returns its pᵀAp term
//   update_slot(s, rz, pap) -> vec2f
//                               x += α p, r −= α A p, z = M⁻¹ r with α = rz / pap (nothing
//                               unless pap > 0); returns its (rᵀz, rᵀr) terms
//   update_p_slot(s, beta)      p = z + β p
//   cg_local_fits(lid) -> u32   iterations one solve_local dispatch takes (uniform control flow;
//                               its setup counts one total more where solve_local takes the gate)
//
// The owner's init kernel calls cg_begin() once and leaves the partial sums of (rᵀz, rᵀr) of the
// start with store_partials (or, where the loop is solve_local's, an owner's one-workgroup entry
// point does so with chunk_trees, then runs solve_local_run). Each per-slot kernel leaves one
// partial sum per workgroup in `state` (from PARTIALS on: rᵀz, then rᵀr where CG_RESIDUAL_NORM,
// then pᵀAp), added up in a fixed order (partials_total): the dot products cost no dispatch of
// their own and runs repeat bit for bit.
// Two ways to run an iteration after the first gate (gpu/runtime/cg.ts encodeCgIterations):
// - five kernels: apply_a, the one-workgroup pap_finish, update_x, the one-workgroup gate (which
//   tests convergence and writes the indirect dispatch arguments of the next iteration, 0
//   workgroups once converged), update_p;
// - three (FUSED): apply_a, update_x_fused, update_p_fused, direct dispatches: every workgroup of
//   the last two adds up the partial sums itself (pap_finish's and the gate's totals, the same
//   tree, so the same numbers) and workgroup 0 records them; a workgroup reads no scalar another
//   workgroup of the same dispatch writes, except S_DONE and S_REF, which workgroup 0 changes
//   only in ways that leave every workgroup's decision the same (gate_in_workgroups). Each
//   workgroup reads every partial sum, so this is for solves of few workgroups (FUSED_MAX_CHUNKS
//   in cg.ts).
// Every kernel early-outs on state[S_DONE].
//
// Where the loop needs no indirect arguments (FUSED, solve_local), the gate after the init kernel
// (or an owner's warm start) costs no dispatch of its own: the next kernel takes it, the apply_a
// pipeline with APPLY_A_GATE in every workgroup, solve_local in its first dispatch (it finds
// S_LOOP < 0). Likewise the last iteration's gate_final can be left to the owner's closing
// kernel (gate_final_in_workgroup). Both are the same arithmetic on the same partial sums, so the
// iterates and the statistics are those of the gate and gate_final dispatches.
//
// Convergence: CG_RESIDUAL_NORM = false, rᵀz ≤ tol² r₀ᵀz₀ (the preconditioned residual); true,
// rᵀr ≤ tol² bᵀb (2-norm). Either way also on breakdown (pᵀAp ≤ 0) or NaN.

// Scalars of `state` (gpu/runtime/cg.ts CG_SCALARS, passed in).
override S_REF: u32;   // r₀ᵀz₀ or bᵀb: the reference of the test (−1 until the first gate)
override S_RES: u32;   // rᵀz or rᵀr of the last gate: the measure of the test
override S_RZ: u32;    // rᵀz in use (α = rᵀz / pᵀAp)
override S_RZNEW: u32; // rᵀz after the update (β = r_newᵀz_new / rᵀz)
override S_PAP: u32;   // pᵀAp
override S_DONE: u32;  // 1 once converged
override S_ITER: u32;  // iterations run
override S_LOOP: u32;  // solve_local's position: −1 until it or a gate dispatch takes the gate
                       // before the first iteration, then iterations of the loop taken so far
// Where the per-workgroup partial sums start in `state`, and where solve_local's per-slot terms do.
override PARTIALS: u32;
override SLOTS: u32;
// The range of the pᵀAp partial sums (after rᵀz, and rᵀr where CG_RESIDUAL_NORM).
override PAP_RANGE: u32;
override CG_RESIDUAL_NORM: bool = false;
// apply_a takes the gate pending before it: the pipeline of the fused loop's first iteration where
// the owner leaves it that gate (encodeCgIterations `gate`), or of an owner's A x after its init
// kernel (a warm start).
override APPLY_A_GATE: bool = false;

// The slot of an invocation of a per-slot kernel: dispatches past 65,535 workgroups are 2D
// (gpu/runtime/kernel.ts dispatchShape), workgroup w = wid.x + wid.y·nwg.x covers slots
// w·SUM_WORKGROUP_SIZE ... (w + 1)·SUM_WORKGROUP_SIZE − 1.
fn cg_slot(gid: vec3u, nwg: vec3u) -> u32 {
  return gid.x + gid.y * nwg.x * SUM_WORKGROUP_SIZE;
}

// The workgroup index w of cg_slot.
fn cg_group(wid: vec3u, nwg: vec3u) -> u32 {
  return wid.x + wid.y * nwg.x;
}

// Workgroups of a per-slot kernel: the partial sums of one dot product.
fn cg_chunks() -> u32 {
  return (cg_slots() + SUM_WORKGROUP_SIZE - 1u) / SUM_WORKGROUP_SIZE;
}

// The scalars of a new solve (one invocation of the owner's init kernel).
fn cg_begin() {
  state[S_REF] = -1.0;
  state[S_RZ] = 0.0;
  state[S_PAP] = 1.0;
  state[S_DONE] = 0.0;
  state[S_ITER] = 0.0;
  state[S_LOOP] = -1.0;
}

// The partial sums of range `which` (0: rᵀz or pᵀAp, 1: rᵀr) added up by one workgroup
// (invocations strided, fixed order). Uniform control flow.
fn partials_total(lid: u32, which: u32) -> f32 {
  let count = cg_chunks();
  let base = PARTIALS + which * count;
  var acc = 0.0;
  for (var k = lid; k < count; k += SUM_WORKGROUP_SIZE) {
    acc += state[base + k];
  }
  return workgroup_sum(lid, acc);
}

// A workgroup's partial sum of range 0 into its place (uniform control flow); the workgroups a
// 2D dispatch has past the last slot store nothing.
fn store_partial(lid: u32, wid: u32, a: f32) {
  let sa = workgroup_sum(lid, a);
  if (lid == 0u && wid < cg_chunks()) {
    state[PARTIALS + wid] = sa;
  }
}

// A workgroup's partial sum of pᵀAp into its place in PAP_RANGE (uniform control flow).
fn store_pap_partial(lid: u32, wid: u32, pap: f32) {
  let sa = workgroup_sum(lid, pap);
  if (lid == 0u && wid < cg_chunks()) {
    state[PARTIALS + PAP_RANGE * cg_chunks() + wid] = sa;
  }
}

// A workgroup's partial sums of ranges 0 and 1 (range 1 only where CG_RESIDUAL_NORM).
fn store_partials(lid: u32, wid: u32, terms: vec2f) {
  store_partial(lid, wid, terms.x);
  if (CG_RESIDUAL_NORM) {
    let sb = workgroup_sum(lid, terms.y);
    if (lid == 0u && wid < cg_chunks()) {
      state[PARTIALS + cg_chunks() + wid] = sb;
    }
  }
}

// The totals (rᵀz, measure of the test) of the partial sums. Uniform control flow.
fn cg_totals(lid: u32) -> vec2f {
  let rz = partials_total(lid, 0u);
  var res = rz;
  if (CG_RESIDUAL_NORM) {
    res = partials_total(lid, 1u);
  }
  return vec2f(rz, res);
}

// The gate's test on the totals: whether the solve has ended (converged, broken down, or ended
// before). The first gate (S_REF < 0) tests against the reference it takes, t.y itself.
fn gate_done(t: vec2f) -> bool {
  var reference = state[S_REF];
  if (reference < 0.0) {
    reference = t.y;
  }
  return state[S_DONE] != 0.0 || !(t.y > cg_tolerance2() * reference) || !(state[S_PAP] > 0.0);
}

// The gate's decision on the totals (one thread): whether the solve has ended. The first gate
// also takes the reference of the test. The new rᵀz replaces the one in use (S_RZ) only in
// pap_finish, after update_p has used both for β.
fn gate_decide(t: vec2f) -> bool {
  let done = gate_done(t);
  state[S_RZNEW] = t.x;
  state[S_RES] = t.y;
  if (state[S_REF] < 0.0) {
    state[S_REF] = t.y;
    state[S_RZ] = t.x;
  }
  if (done) {
    state[S_DONE] = 1.0;
  } else {
    state[S_ITER] = state[S_ITER] + 1.0;
  }
  return done;
}

// gate_final's decision (one thread): the last iteration's totals (statistics) and whether it
// converged.
fn gate_final_decide(t: vec2f) {
  if (state[S_DONE] != 0.0) {
    return;
  }
  state[S_RZNEW] = t.x;
  state[S_RES] = t.y;
  if (!(t.y > cg_tolerance2() * state[S_REF])) {
    state[S_DONE] = 1.0;
  }
}

// The gate in every workgroup of a per-slot kernel (uniform control flow; workgroup index w):
// each adds up the partial sums and takes gate_decide's decision, workgroup 0 records it. Another
// workgroup may read S_REF and S_DONE before or after workgroup 0 writes them: S_REF changes only
// from < 0 to t.y, and S_DONE only to 1 where the solve has ended, so gate_done decides the same
// either way; inside workgroup 0 the barrier puts every read first.
fn gate_in_workgroups(lid: u32, w: u32) -> bool {
  let t = cg_totals(lid);
  let done = gate_done(t);
  storageBarrier();
  if (w == 0u && lid == 0u) {
    gate_decide(t);
  }
  return done;
}

// gate_final in workgroup w of the owner's closing kernel (uniform control flow): where the loop
// leaves it to that kernel, workgroup 0 takes it. After a gate or gate_final of the same partial
// sums (no iteration encoded, or solve_local's last) it changes nothing: an ended solve returns
// at once, and an open one stays open with the same totals.
fn gate_final_in_workgroup(lid: u32, w: u32) {
  if (w == 0u) {
    let t = cg_totals(lid);
    if (lid == 0u) {
      gate_final_decide(t);
    }
  }
}

// One workgroup after the init kernel or update_x: the gate, and the indirect dispatch arguments
// of the next iteration's kernels (x = 0 workgroups once converged).
@compute @workgroup_size(SUM_WORKGROUP_SIZE)
fn gate(@builtin(local_invocation_index) lid: u32) {
  let t = cg_totals(lid);
  if (lid != 0u) {
    return;
  }
  state[S_LOOP] = 0.0;
  let done = gate_decide(t);
  for (var k = 0u; k < cg_arg_count(); k++) {
    args[k] = select(argsFull[k], 0u, done && k % 3u == 0u);
  }
}

// One workgroup after the last iteration.
@compute @workgroup_size(SUM_WORKGROUP_SIZE)
fn gate_final(@builtin(local_invocation_index) lid: u32) {
  let t = cg_totals(lid);
  if (lid == 0u) {
    gate_final_decide(t);
  }
}

// One workgroup after apply_a: pᵀAp from its partial sums; the last gate's rᵀz comes into use.
@compute @workgroup_size(SUM_WORKGROUP_SIZE)
fn pap_finish(@builtin(local_invocation_index) lid: u32) {
  let pap = partials_total(lid, PAP_RANGE);
  if (lid == 0u && state[S_DONE] == 0.0) {
    state[S_PAP] = pap;
    state[S_RZ] = state[S_RZNEW];
  }
}

// Per slot: A p (the owner's operator), with pᵀAp partial sums; with APPLY_A_GATE the gate
// pending before it first, in every workgroup (gate_in_workgroups).
@compute @workgroup_size(SUM_WORKGROUP_SIZE)
fn apply_a(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(local_invocation_index) lid: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let s = cg_slot(gid, nwg);
  let w = cg_group(wid, nwg);
  var done = false;
  if (APPLY_A_GATE) {
    done = gate_in_workgroups(lid, w);
  } else {
    done = state[S_DONE] != 0.0;
  }
  var pap = 0.0;
  if (s < cg_slots() && !done) {
    pap = apply_slot(s);
  }
  store_pap_partial(lid, w, pap);
}

// update_x of slot s, if there is one and the solve goes on: its (rᵀz, rᵀr) terms.
fn update_x_at(s: u32, rz: f32, pap: f32) -> vec2f {
  if (s < cg_slots() && state[S_DONE] == 0.0) {
    return update_slot(s, rz, pap);
  }
  return vec2f(0.0);
}

// Per slot: x += α p, r −= α A p, z = M⁻¹ r with α = rᵀz / pᵀAp, with (rᵀz, rᵀr) partial sums.
@compute @workgroup_size(SUM_WORKGROUP_SIZE)
fn update_x(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(local_invocation_index) lid: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let terms = update_x_at(cg_slot(gid, nwg), state[S_RZ], state[S_PAP]);
  store_partials(lid, cg_group(wid, nwg), terms);
}

// update_x with pap_finish in it (FUSED): every workgroup adds up pᵀAp itself; workgroup 0 keeps
// it and the rᵀz in use (S_PAP, S_RZ) for update_p_fused and the statistics.
@compute @workgroup_size(SUM_WORKGROUP_SIZE)
fn update_x_fused(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(local_invocation_index) lid: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let pap = partials_total(lid, PAP_RANGE);
  let rz = state[S_RZNEW];
  let w = cg_group(wid, nwg);
  if (w == 0u && lid == 0u && state[S_DONE] == 0.0) {
    state[S_PAP] = pap;
    state[S_RZ] = rz;
  }
  store_partials(lid, w, update_x_at(cg_slot(gid, nwg), rz, pap));
}

// update_p of slot s with β = r_newᵀz_new / rᵀz, if there is one.
fn update_p_at(s: u32, rzNew: f32) {
  if (s < cg_slots()) {
    update_p_slot(s, rzNew / state[S_RZ]);
  }
}

// Per slot: p = z + β p with β = r_newᵀz_new / rᵀz, while the solve goes on.
@compute @workgroup_size(SUM_WORKGROUP_SIZE)
fn update_p(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  if (state[S_DONE] == 0.0 && state[S_PAP] > 0.0) {
    update_p_at(cg_slot(gid, nwg), state[S_RZNEW]);
  }
}

// update_p with the gate in it (FUSED): every workgroup adds up (rᵀz, measure) and takes the
// gate's decision (gate_decide's test); workgroup 0 records it with gate_decide.
@compute @workgroup_size(SUM_WORKGROUP_SIZE)
fn update_p_fused(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(local_invocation_index) lid: u32,
  @builtin(workgroup_id) wid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  let t = cg_totals(lid);
  let done = gate_done(t);
  // once converged the partial sums are update_x_fused's zeros: the gate's record stays as it was
  if (cg_group(wid, nwg) == 0u && lid == 0u && state[S_DONE] == 0.0) {
    gate_decide(t);
  }
  if (!done) {
    update_p_at(cg_slot(gid, nwg), t.x);
  }
}

// Whether the gate before the loop's first iteration is pending (S_LOOP < 0: neither a gate
// dispatch nor solve_local took it), in every invocation. Uniform control flow.
fn gate_pending(lid: u32) -> bool {
  storageBarrier();
  if (lid == 0u) {
    w_value = select(0u, 1u, state[S_LOOP] < 0.0);
  }
  return workgroupUniformLoad(&w_value) != 0u;
}

// The slot terms in state[base ..] (cg_chunks() whole workgroups) summed as the dispatched
// kernels sum them, into range `which` of the partial sums, and their total.
fn local_total(lid: u32, base: u32, which: u32) -> f32 {
  let chunks = cg_chunks();
  chunk_trees(lid, base, PARTIALS + which * chunks, chunks);
  return partials_total(lid, which);
}

// One workgroup runs the CG iterations (gpu/runtime/local_solve.wgsl says why and how): the
// per-slot functions of apply_a, update_x and update_p; the slot terms of pᵀAp and rᵀz in
// state[SLOTS ..], those of rᵀr after them, summed by chunk_trees and partials_total as the
// dispatched kernels sum them: bit for bit their iterates.
@compute @workgroup_size(SUM_WORKGROUP_SIZE)
fn solve_local(@builtin(local_invocation_index) lid: u32) {
  solve_local_run(lid);
}

// solve_local's body, for an owner's entry point that sets up the solve first in the same
// workgroup (its init kernel's slots and the partial sums of their terms, then this).
fn solve_local_run(lid: u32) {
  let fits = cg_local_fits(lid);
  let padded = cg_chunks() * SUM_WORKGROUP_SIZE;
  // the gate before the first iteration, where no gate dispatch took it (its totals are one more
  // total in the owner's setup of cg_local_fits)
  if (gate_pending(lid)) {
    let t = cg_totals(lid);
    if (lid == 0u) {
      state[S_LOOP] = 0.0;
      gate_decide(t);
    }
  }
  for (var t = 0u; t < fits; t++) {
    // the next iteration of the encoded loop, unless the solve has ended
    let k = state_u32(lid, S_LOOP);
    let done = state_u32(lid, S_DONE);
    if (done != 0u || k >= cg_iterations()) {
      break;
    }
    // apply_a
    for (var s = lid; s < padded; s += SUM_WORKGROUP_SIZE) {
      var pap = 0.0;
      if (s < cg_slots()) {
        pap = apply_slot(s);
      }
      state[SLOTS + s] = pap;
    }
    // pap_finish
    let pap = local_total(lid, SLOTS, PAP_RANGE);
    if (lid == 0u) {
      state[S_PAP] = pap;
      state[S_RZ] = state[S_RZNEW];
    }
    storageBarrier();
    // update_x
    for (var s = lid; s < padded; s += SUM_WORKGROUP_SIZE) {
      var terms = vec2f(0.0);
      if (s < cg_slots()) {
        terms = update_slot(s, state[S_RZ], state[S_PAP]);
      }
      state[SLOTS + s] = terms.x;
      if (CG_RESIDUAL_NORM) {
        state[SLOTS + padded + s] = terms.y;
      }
    }
    let rz = local_total(lid, SLOTS, 0u);
    var res = rz;
    if (CG_RESIDUAL_NORM) {
      res = local_total(lid, SLOTS + padded, 1u);
    }
    let last = k + 1u >= cg_iterations();
    if (lid == 0u) {
      state[S_LOOP] = f32(k + 1u);
      if (last) {
        gate_final_decide(vec2f(rz, res));
      } else {
        gate_decide(vec2f(rz, res)); // its indirect arguments are not used on this path
      }
    }
    storageBarrier();
    // update_p
    if (!last && state[S_DONE] == 0.0 && state[S_PAP] > 0.0) {
      let rzNew = state[S_RZNEW];
      for (var s = lid; s < cg_slots(); s += SUM_WORKGROUP_SIZE) {
        update_p_at(s, rzNew);
      }
    }
  }
}
