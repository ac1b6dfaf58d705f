import assert from "node:assert/strict";
import { Rng } from "../../core/rng.ts";
import { assertClose } from "../../core/test_util.ts";
import { getScene } from "../../scenes/catalog.ts";
import { partStride } from "../coupling/coupling.ts";
import { Engine } from "../engine.ts";
import { acquireGpu } from "../runtime/device.ts";
import { kernelStorageBuffers, readBuffer, storageBuffer } from "../runtime/kernel.ts";
import { splitBinding } from "../runtime/split_binding.ts";
import { checkWgslStruct } from "../runtime/struct_layout.ts";
import { BOND_BROKEN_BIT } from "../state/bond_flags.ts";
import type { MetricsSample } from "./metrics.ts";
import {
  BUDGET_ENERGY_PHASES,
  BUDGET_FIELDS,
  BUDGET_PARAMS,
  BUDGET_PROBES,
  type BudgetField,
  type BudgetProbe,
  STEP_BUDGET_WGSL,
  StepBudget,
} from "./step_budget.ts";

type V3 = [number, number, number];
const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const mul = (s: number, a: V3): V3 => [s * a[0], s * a[1], s * a[2]];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm = (a: V3) => Math.sqrt(dot(a, a));

/** A random particle set with a DOF map (groups, pinned members, empty slots), bonds and K parts. */
function fixture(rng: Rng) {
  const n = 300;
  const K = 2;
  const S = partStride(n);
  const r = (lo: number, hi: number) => lo + (hi - lo) * rng.nextFloat();
  const v3 = (s: number): V3 => [r(-s, s), r(-s, s), r(-s, s)];
  const mass = Array.from({ length: n }, () => r(0.5, 2));
  const pos = Array.from({ length: n }, () => v3(1));
  const vel = Array.from({ length: n }, () => v3(2));
  const velOut = Array.from({ length: n }, () => v3(2));
  const force = Array.from({ length: n }, () => v3(5));
  const pinned = Array.from({ length: n }, () => (rng.nextFloat() < 0.05 ? 1 : 0));
  // DOFs: consecutive runs of 1–4 particles, the run's first slot live, the others empty
  const memberStart: number[] = [];
  const memberList = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < n;) {
    const size = Math.min(n - i, rng.int(1, 4));
    memberStart.push(i); // live slot i: members [i, i + size)
    for (let k = 1; k < size; k++) memberStart.push(i + size); // empty slots
    i += size;
  }
  memberStart.push(n);
  const dofM = Array.from({ length: n }, () => r(0.5, 6));
  const dofV = Array.from({ length: n }, () => v3(2));
  const syncEnergy = Array.from({ length: n }, () => r(0, 0.1));
  const partMass = Array.from(
    { length: K * S },
    (_, k) => ((k % S) < n && rng.nextFloat() < 0.7 ? r(0.5, 3) : 0),
  );
  const partVel = Array.from({ length: K * S }, () => v3(2));
  // bonds: 0–3 per particle to higher indices, some broken; two classes
  const classes = [[0.05, 100, 0, 0], [0.1, 400, 0, 0]];
  const bondStart = [0];
  const bondList: number[] = [];
  const bondClass: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let b = rng.int(0, 3); b > 0 && i + b < n; b--) {
      bondList.push(((i + b) | (rng.nextFloat() < 0.2 ? BOND_BROKEN_BIT : 0)) >>> 0);
      bondClass.push(rng.int(0, 1));
    }
    bondStart.push(bondList.length);
  }
  return {
    n,
    K,
    S,
    mass,
    pos,
    vel,
    velOut,
    force,
    pinned,
    memberStart,
    memberList,
    dofM,
    dofV,
    syncEnergy,
    partMass,
    partVel,
    classes,
    bondStart,
    bondList,
    bondClass,
  };
}

type Fixture = ReturnType<typeof fixture>;

/** The probe sums in f64 (the slots' 16 floats, as step_budget.wgsl defines them). */
function referenceProbe(f: Fixture, point: BudgetProbe): number[] {
  const out = new Array(16).fill(0);
  const acc = (at: number, v: number[]) => v.forEach((x, k) => (out[at + k] += x));
  const live = (d: number) => f.memberStart[d + 1] > f.memberStart[d];
  const members = (d: number) => f.memberList.slice(f.memberStart[d], f.memberStart[d + 1]);
  const pinned = (d: number) => members(d).some((i) => f.pinned[i] !== 0);
  const bondEnergy = (i: number) => {
    let e = 0;
    for (let k = f.bondStart[i]; k < f.bondStart[i + 1]; k++) {
      const w = f.bondList[k];
      if (w & BOND_BROKEN_BIT) continue;
      const [L, ks] = f.classes[f.bondClass[k]];
      const d = norm(sub(f.pos[w], f.pos[i])) - L;
      e += 0.5 * ks * d * d;
    }
    return e;
  };
  if (point === "start" || point === "end" || point === "split") {
    const vel = point === "split" ? f.velOut : f.vel;
    for (let i = 0; i < f.n; i++) {
      const m = f.mass[i];
      const v = vel[i];
      acc(0, [...mul(m, v), 0.5 * m * dot(v, v)]);
      acc(4, [...mul(m, f.pos[i]), point === "split" ? 0 : bondEnergy(i)]);
      acc(8, [m * norm(v), m]);
      acc(12, [...f.force[i], norm(f.force[i])]);
    }
  } else if (point === "merged" || point === "synced") {
    for (let d = 0; d < f.n; d++) {
      if (!live(d)) continue;
      const M = f.dofM[d];
      const v = f.dofV[d];
      const t = [...mul(M, v), 0.5 * M * dot(v, v)];
      if (pinned(d)) acc(4, t);
      else {
        acc(0, t);
        acc(8, [M, f.syncEnergy[d]]);
      }
    }
  } else {
    for (let d = 0; d < f.n; d++) {
      if (!live(d) || pinned(d)) continue;
      for (let s = 0; s < f.K; s++) {
        const m = f.partMass[s * f.S + d];
        if (m <= 0) continue;
        const v = f.partVel[s * f.S + d];
        acc(0, [...mul(m, v), 0.5 * m * dot(v, v)]);
      }
      for (const i of members(d)) acc(4, [...f.force[i], norm(f.force[i])]);
    }
  }
  return out;
}

/** The budget's columns in f64 from the probe slots (the definitions of step_budget.ts). */
function referenceColumns(
  probes: Record<BudgetProbe, number[]>,
  o: { dt: number; gravity: V3 },
): Record<BudgetField, number> {
  const P = (
    p: BudgetProbe,
    k = 0,
  ): V3 => [probes[p][4 * k], probes[p][4 * k + 1], probes[p][4 * k + 2]];
  const E = (p: BudgetProbe, k = 0) => probes[p][4 * k + 3];
  const mFree = probes.merged[8];
  const gravityImpulse = mul(o.dt * mFree, o.gravity);
  const handler = mul(o.dt, P("integrated", 1));
  const syncLoss = probes.synced[9];
  const dU = -dot(o.gravity, sub(P("end", 1), P("start", 1))) + E("end", 1) - E("start", 1);
  return {
    budgetMomentumScale: probes.start[8] + o.dt * probes.start[9] * norm(o.gravity),
    budgetMergeMomentum: norm(sub(add(P("merged"), P("merged", 1)), P("start"))),
    budgetPinMomentum: norm(sub(P("synced", 1), P("merged", 1))),
    budgetIntegrationMomentum: norm(
      sub(sub(sub(P("integrated"), P("merged")), gravityImpulse), handler),
    ),
    budgetHandlerImpulse: norm(handler),
    budgetHandlerImbalance: probes.integrated[7] > 0
      ? norm(P("integrated", 1)) / probes.integrated[7]
      : 0,
    budgetWallMomentum: norm(sub(P("synced"), P("integrated"))),
    budgetSplitMomentum: norm(sub(sub(P("split"), P("synced")), P("synced", 1))),
    budgetEndMomentum: norm(sub(P("end"), P("split"))),
    budgetExternalMomentum: norm(sub(sub(P("end"), P("start")), gravityImpulse)),
    budgetMergeEnergy: E("merged") + E("merged", 1) - E("start"),
    budgetPinEnergy: E("synced", 1) - E("merged", 1),
    budgetIntegrationEnergy: E("integrated") - E("merged") + dU,
    budgetCouplingEnergy: -syncLoss,
    budgetWallEnergy: E("synced") - (E("integrated") - syncLoss),
    budgetSplitEnergy: E("split") - E("synced") - E("synced", 1),
    budgetEndEnergy: E("end") - E("split"),
    budgetStepEnergy: E("end") - E("start") + dU,
  };
}

Deno.test("step budget", async (t) => {
  await t.step("BudgetParams matches step_budget.wgsl", () => {
    checkWgslStruct(STEP_BUDGET_WGSL, BUDGET_PARAMS);
  });

  await t.step("the phase energies telescope to the step's (definitions)", () => {
    const rng = new Rng(7);
    const probes = Object.fromEntries(
      Object.keys(BUDGET_PROBES).map((p) => [p, Array.from({ length: 16 }, () => rng.nextFloat())]),
    ) as Record<BudgetProbe, number[]>;
    const c = referenceColumns(probes, { dt: 1e-3, gravity: [0, -9.81, 0] });
    const sum = BUDGET_ENERGY_PHASES.reduce((s, f) => s + c[f], 0);
    assertClose(sum, c.budgetStepEnergy, { tol: 1e-12 });
  });

  await t.step(
    "probes and columns equal the f64 reference (random state, K = 2), also on a device of 8 storage buffers per stage",
    async () => {
      const runs: { got: Float32Array; cols: Float32Array }[] = [];
      for (const storageBuffers of [undefined, 8]) {
        const gpu = await acquireGpu({ adapter: "software", storageBuffers });
        const device = gpu.device;
        try {
          const f = fixture(new Rng(2024));
          const vec4 = (a: V3[]) => Float32Array.from(a.flatMap((v) => [...v, 0]));
          const buf = (label: string, data: ArrayBufferView) =>
            storageBuffer(device, { label: `fixture ${label}`, size: data.byteLength, data });
          const offset = 3; // the budget's columns start at 3 in rows of `fields` columns
          const fields = BUDGET_FIELDS.length + offset + 2;
          const row = 1;
          const samples = storageBuffer(device, { label: "fixture samples", size: 4 * fields * 3 });
          const dt = 2e-3;
          const gravity: V3 = [0.3, -9.81, 0.1];
          const budget = new StepBudget(device, {
            count: f.n,
            systems: f.K,
            stride: f.S,
            dt,
            gravity,
            buffers: {
              mass: buf("mass", Float32Array.from(f.mass)),
              pos: buf("pos", vec4(f.pos)),
              vel: buf("vel", vec4(f.vel)),
              velOut: buf("velOut", vec4(f.velOut)),
              handlerForce: buf("force", vec4(f.force)),
              bondStart: buf("bondStart", Uint32Array.from(f.bondStart)),
              bondList: buf("bondList", Uint32Array.from(f.bondList)),
              bondClass: buf("bondClass", Uint32Array.from(f.bondClass)),
              springClasses: buf("springClasses", Float32Array.from(f.classes.flat())),
              memberStart: buf("memberStart", Uint32Array.from(f.memberStart)),
              memberList: buf("memberList", Uint32Array.from(f.memberList)),
              pinned: buf("pinned", Uint32Array.from(f.pinned)),
              dofM: buf("dofM", Float32Array.from(f.dofM)),
              dofV: buf("dofV", vec4(f.dofV)),
              syncEnergy: buf("syncEnergy", Float32Array.from(f.syncEnergy)),
              partMass: buf("partMass", Float32Array.from(f.partMass)),
              // two ranges, system 1's slice in the second (as past a 128 MiB binding limit)
              partVel: splitBinding(buf("partVel", vec4(f.partVel)), {
                device,
                elementBytes: 16,
                dummy: buf("partVel (unused range)", new Float32Array(4)),
                limit: 16 * f.S,
                name: "fixture partVel",
              }),
            },
            samples,
            fields,
            columns: Object.fromEntries(BUDGET_FIELDS.map((c, k) => [c, offset + k])) as Record<
              BudgetField,
              number
            >,
          });
          const enc = device.createCommandEncoder({ label: "budget test" });
          for (const p of Object.keys(BUDGET_PROBES) as BudgetProbe[]) budget.encodeProbe(enc, p);
          budget.encodeFinish(enc, row);
          device.queue.submit([enc.finish()]);
          const got = await budget.readProbes();
          const probes = {} as Record<BudgetProbe, number[]>;
          for (const [p, slot] of Object.entries(BUDGET_PROBES) as [BudgetProbe, number][]) {
            const ref = probes[p] = referenceProbe(f, p);
            const scale = Math.max(...ref.map(Math.abs));
            ref.forEach((x, k) =>
              assertClose(got[16 * slot + k], x, { tol: 2e-6, scale, msg: `probe ${p}[${k}]` })
            );
          }
          const cols = new Float32Array(await readBuffer(device, samples));
          const ref = referenceColumns(probes, { dt, gravity });
          BUDGET_FIELDS.forEach((c, k) => {
            assertClose(cols[row * fields + offset + k], ref[c], {
              tol: 1e-5,
              scale: ref.budgetMomentumScale + Math.abs(probes.start[3]) +
                Math.abs(probes.start[7]),
              msg: c,
            });
          });
          // only the budget's columns of the row were written
          for (let k = 0; k < 3 * fields; k++) {
            if (Math.floor(k / fields) === row && k % fields >= offset && k % fields < fields - 2) {
              continue;
            }
            assert.equal(
              cols[k],
              0,
              `column ${k % fields} of row ${Math.floor(k / fields)} untouched`,
            );
          }
          runs.push({ got, cols });
          if (storageBuffers === 8) {
            const used = Object.entries(kernelStorageBuffers(device))
              .filter(([label]) => label.startsWith("step budget "));
            assert.ok(used.some(([label]) => label === "step budget probe_bonds"));
            for (const [label, count] of used) assert.ok(count <= 8, `${label} binds ${count}`);
          }
          budget.destroy();
        } finally {
          device.destroy();
        }
      }
      // the same probes and columns on either device, bit for bit
      assert.deepEqual(runs[1].got, runs[0].got);
      assert.deepEqual(runs[1].cols, runs[0].cols);
    },
  );

  await t.step("engine: fig3 tiny under merge-split and penalty", async () => {
    const gpu = await acquireGpu({ adapter: "software" });
    try {
      const scene = getScene("fig3-ball-cloth-high", { scale: "tiny" });
      const steps = Math.round(0.42 / scene.dt); // past the impact at ≈ 0.32 s
      const run = async (handler: string): Promise<MetricsSample[]> => {
        const engine = await Engine.create(scene, { handler, gpu });
        try {
          await engine.run(steps);
          return await engine.readMetrics();
        } finally {
          engine.destroy();
        }
      };
      const ms = await run("merge-split");
      assert.equal(ms.length, Math.floor(steps / scene.metricsEvery));
      for (const r of ms) {
        const at = `t = ${r.time.toFixed(3)} s`;
        const scale = r.budgetMomentumScale;
        assert.ok(scale > 0, `${at}: momentum scale`);
        // Eqs. 2 and 8 conserve momentum; merge-split has no end-of-step hook
        assert.ok(r.budgetMergeMomentum <= 1e-5 * scale, `${at}: merge ${r.budgetMergeMomentum}`);
        assert.ok(r.budgetSplitMomentum <= 1e-5 * scale, `${at}: split ${r.budgetSplitMomentum}`);
        assert.equal(r.budgetEndMomentum, 0, `${at}: end of step`);
        assert.equal(r.budgetHandlerImpulse, 0, `${at}: merge-split has no forces`);
        // dissipative phases never add energy (to f32 rounding of the kinetic energy)
        const eps = 1e-5 * (Math.abs(r.kinetic) + 1e-3);
        for (const f of ["budgetPinEnergy", "budgetCouplingEnergy", "budgetWallEnergy"] as const) {
          assert.ok(r[f] <= eps, `${at}: ${f} = ${r[f]}`);
        }
        assert.ok(r.budgetMergeEnergy <= eps, `${at}: merging (Eq. 4) ${r.budgetMergeEnergy}`);
        const sum = BUDGET_ENERGY_PHASES.reduce((s, f) => s + r[f], 0);
        const size = BUDGET_ENERGY_PHASES.reduce((s, f) => s + Math.abs(r[f]), 0);
        assertClose(sum, r.budgetStepEnergy, { tol: 1e-4, scale: size, msg: `${at}: closure` });
      }
      const merged = ms.filter((r) => r.budgetMergeEnergy < 0);
      assert.ok(merged.length > 0, "the ball's impact merges particles (Eq. 4 loses energy)");
      // the cloth is held by pinned corners: the supports take momentum through the springs
      assert.ok(ms.some((r) => r.budgetIntegrationMomentum > 1e-3 * r.budgetMomentumScale));

      const pen = await run("penalty-medium");
      for (const r of pen) {
        const at = `penalty t = ${r.time.toFixed(3)} s`;
        // pairwise forces: what does not cancel is rounding of the per-particle sums
        assert.ok(
          r.budgetHandlerImbalance <= 1e-5,
          `${at}: handler force imbalance ${r.budgetHandlerImbalance}`,
        );
        assert.equal(r.budgetMergeEnergy, 0, `${at}: no merging`);
        assert.equal(r.budgetSplitEnergy, 0, `${at}: no splitting`);
      }
    } finally {
      gpu.device.destroy();
    }
  });
});
