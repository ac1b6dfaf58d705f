import assert from "node:assert/strict";
import {
  CG_GATE_KERNELS,
  CG_PARTIALS,
  CG_SCALARS,
  CG_WGSL,
  cgConstants,
  type CgDispatch,
  cgDispatchSize,
  type CgGateKernel,
  type CgKernel,
  cgKernelUsed,
  cgLoop,
  cgSlotDispatch,
  cgStateFloats,
  cgStats,
  encodeCgIterations,
  FUSED_MAX_CHUNKS,
} from "./cg.ts";

Deno.test("cg: the host side of the shared CG loop", async (t) => {
  await t.step(
    "every scalar and constant is an override of cg.wgsl, each scalar its own place",
    () => {
      const constants = cgConstants({
        chunks: 3,
        workgroupSize: 64,
        residualNorm: true,
        local: true,
      });
      for (const name of Object.keys(constants)) {
        assert.match(CG_WGSL, new RegExp(`override ${name}:`), `${name} is not an override`);
      }
      const places = Object.values(CG_SCALARS);
      assert.equal(new Set(places).size, places.length);
      assert.ok(places.every((p) => p < CG_PARTIALS));
    },
  );

  await t.step(
    "the state layout: partial ranges rᵀz (rᵀr too) then pᵀAp, local terms after",
    () => {
      const base = { chunks: 5, workgroupSize: 64, local: false };
      assert.equal(cgStateFloats({ ...base, residualNorm: false }), CG_PARTIALS + 10);
      assert.equal(cgStateFloats({ ...base, residualNorm: true }), CG_PARTIALS + 15);
      assert.equal(
        cgStateFloats({ ...base, residualNorm: true, local: true }),
        CG_PARTIALS + 15 + 2 * 5 * 64,
      );
      const c = cgConstants({ ...base, residualNorm: false, local: true });
      assert.equal(c.SLOTS, CG_PARTIALS + 10);
      assert.equal(c.PAP_RANGE, 1);
      assert.equal(c.CG_RESIDUAL_NORM, 0);
      const r = cgConstants({ ...base, residualNorm: true });
      assert.equal(r.SLOTS, CG_PARTIALS + 15);
      assert.equal(r.PAP_RANGE, 2);
    },
  );

  await t.step(
    "the encoded loop: five kernels per iteration or three fused, gate_final last, or local",
    () => {
      const seen: string[] = [];
      const run = (k: CgKernel, how: CgDispatch) => seen.push(`${k}:${how}`);
      encodeCgIterations(run, { iterations: 2, localIterations: 0, loop: "dispatched" });
      assert.deepEqual(seen, [
        "apply_a:indirect",
        "pap_finish:indirect1",
        "update_x:indirect",
        "gate:one",
        "update_p:indirect",
        "apply_a:indirect",
        "pap_finish:indirect1",
        "update_x:indirect",
        "gate_final:one",
      ]);
      seen.length = 0;
      encodeCgIterations(run, { iterations: 2, localIterations: 0, loop: "fused" });
      assert.deepEqual(seen, [
        "apply_a:slots",
        "update_x_fused:slots",
        "update_p_fused:slots",
        "apply_a:slots",
        "update_x_fused:slots",
        "gate_final:one",
      ]);
      seen.length = 0;
      encodeCgIterations(run, { iterations: 7, localIterations: 3, loop: "local" });
      assert.deepEqual(seen, ["solve_local:one", "solve_local:one", "solve_local:one"]);
      seen.length = 0;
      encodeCgIterations(run, { iterations: 0, localIterations: 0, loop: "fused" });
      assert.deepEqual(seen, []);
    },
  );

  await t.step(
    "the loop that takes the gate before it and leaves gate_final to the owner's next kernel",
    () => {
      const seen: string[] = [];
      const run = (k: CgKernel | CgGateKernel, how: CgDispatch) => seen.push(`${k}:${how}`);
      const encode = (loop: "dispatched" | "fused" | "local", iterations: number) => {
        seen.length = 0;
        encodeCgIterations(run, {
          iterations,
          localIterations: 3,
          loop,
          gate: true,
          gateFinal: false,
        });
        return [...seen];
      };
      // the five-kernel loop: the gate's indirect arguments start it
      assert.deepEqual(encode("dispatched", 2), [
        "gate:one",
        "apply_a:indirect",
        "pap_finish:indirect1",
        "update_x:indirect",
        "gate:one",
        "update_p:indirect",
        "apply_a:indirect",
        "pap_finish:indirect1",
        "update_x:indirect",
      ]);
      assert.deepEqual(encode("fused", 2), [
        "apply_a_gate:slots",
        "update_x_fused:slots",
        "update_p_fused:slots",
        "apply_a:slots",
        "update_x_fused:slots",
      ]);
      assert.deepEqual(encode("fused", 1), ["apply_a_gate:slots", "update_x_fused:slots"]);
      // solve_local takes it (S_LOOP < 0)
      assert.deepEqual(encode("local", 4), ["solve_local:one", "solve_local:one"]);
      // no iteration: the gate alone
      for (const loop of ["dispatched", "fused", "local"] as const) {
        assert.deepEqual(encode(loop, 0), ["gate:one"], loop);
      }
      assert.equal(cgKernelUsed("apply_a_gate", "fused"), true);
      assert.equal(cgKernelUsed("apply_a_gate", "local"), false);
      assert.equal(cgKernelUsed("apply_a_gate", "dispatched"), false);
      assert.deepEqual(CG_GATE_KERNELS.apply_a_gate, {
        entryPoint: "apply_a",
        constants: { APPLY_A_GATE: 1 },
      });
      assert.match(CG_WGSL, /override APPLY_A_GATE: bool/);
    },
  );

  await t.step("the loop of a solve: local where it fits, fused up to FUSED_MAX_CHUNKS", () => {
    assert.equal(cgLoop({ chunks: 5, localIterations: 2 }), "local");
    assert.equal(cgLoop({ chunks: FUSED_MAX_CHUNKS, localIterations: 0 }), "fused");
    assert.equal(cgLoop({ chunks: FUSED_MAX_CHUNKS + 1, localIterations: 0 }), "dispatched");
    assert.equal(cgKernelUsed("update_p_fused", "dispatched"), false);
    assert.equal(cgKernelUsed("update_p_fused", "fused"), true);
    assert.equal(cgKernelUsed("solve_local", "fused"), false);
    assert.equal(cgKernelUsed("gate", "local"), true);
    assert.equal(cgSlotDispatch("fused"), "slots");
    assert.equal(cgSlotDispatch("dispatched"), "indirect");
  });

  await t.step("dispatch sizes: one workgroup, or the gate's triples 0 and 1", () => {
    const args = {} as GPUBuffer;
    assert.deepEqual(cgDispatchSize("one", args), { workgroups: 1 });
    assert.deepEqual(cgDispatchSize("indirect", args), {
      indirect: args,
      indirectOffset: 0,
      rewritten: true,
    });
    assert.deepEqual(cgDispatchSize("indirect1", args), {
      indirect: args,
      indirectOffset: 12,
      rewritten: true,
    });
  });

  await t.step("statistics from the scalars", () => {
    const s = new Float32Array(CG_PARTIALS);
    s[CG_SCALARS.REF] = 4;
    s[CG_SCALARS.RES] = 0.0625; // exact in f32
    s[CG_SCALARS.ITER] = 12;
    assert.deepEqual(cgStats(s), { iterations: 12, relativeResidual: 0.125, converged: false });
    s[CG_SCALARS.DONE] = 1;
    assert.equal(cgStats(s).converged, true);
    // nothing to solve: b = 0
    assert.deepEqual(cgStats(new Float32Array(CG_PARTIALS)), {
      iterations: 0,
      relativeResidual: 0,
      converged: true,
    });
  });
});
