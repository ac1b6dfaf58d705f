import assert from "node:assert/strict";
import { SpringTable } from "../../core/model/spring_table.ts";
import type { Scene } from "../../core/scene/scene.ts";
import type { ParticleSet } from "../../core/scene/scene_builder.ts";
import { Rng } from "../../core/rng.ts";
import { syncVelocity } from "../../core/sync_velocity.ts";
import { wallStep } from "../../core/domain_wall.ts";
import type { Vec3 } from "../../core/vec3.ts";
import { acquireGpu } from "../runtime/device.ts";
import { dispatchesEncoded, kernelStorageBuffers, readBuffer } from "../runtime/kernel.ts";
import { checkWgslStruct } from "../runtime/struct_layout.ts";
import { ParticleState } from "../state/particle_state.ts";
import { Coupling, COUPLING_PARAMS, COUPLING_WGSL, type CouplingReading } from "./coupling.ts";

const K = 3;
const DT = 0.01;
/** Fixture: 6 particles, particle i in body (and system) i % 3; DOFs {0, 2, 4}, {1}, {3, 5}. */
const MEMBERS = [[0, 2, 4], [1], [], [3, 5], [], []];

function particleSet(mass: number[], pinned: number[]): ParticleSet {
  const n = mass.length;
  return {
    count: n,
    x: new Float64Array(3 * n),
    v: new Float64Array(3 * n),
    mass: Float64Array.from(mass),
    radius: new Float64Array(n).fill(0.01),
    body: Uint32Array.from({ length: n }, (_, i) => i % K),
    pinned: Uint8Array.from(pinned),
    bodies: [0, 1, 2].map((b) => ({ name: `b${b}`, kind: "fluid" as const, start: 0, count: 0 })),
    springs: SpringTable.from([]),
  };
}

const SCENE = {
  dt: DT,
  radius: 0.01,
  gravity: [0, -9.81, 0],
  domain: { min: [-100, -100, -100], max: [100, 100, 100] },
} as unknown as Scene;

async function run(
  reading: CouplingReading,
  pinned: number[],
  maxBindingSize?: number,
  storageBuffers?: number,
  /** The domain's walls from the DOFs' positions (default: far from every DOF). */
  walls?: (dofX: Float32Array) => Scene["domain"],
) {
  const { device } = await acquireGpu({ adapter: "software", storageBuffers });
  device.pushErrorScope("validation");
  const rng = new Rng(7);
  const mass = [1, 2, 0.5, 3, 1.5, 0.25];
  const n = mass.length;
  const state = new ParticleState(device, {
    particles: particleSet(mass, pinned),
    systemOf: [0, 1, 2],
    selfCollision: [true, true, true],
  });
  // the DOFs' positions come after the forces from the same generator: drawn here in that order
  const draws = { force: new Float32Array(), dofX: new Float32Array() };
  const vec4 = () =>
    Float32Array.from({ length: 4 * n }, (_, k) => (k % 4 === 3 ? 0 : rng.uniform(-1, 1)));
  draws.force = vec4();
  draws.dofX = vec4();
  const scene = walls ? { ...SCENE, domain: walls(draws.dofX) } : SCENE;
  const coupling = new Coupling(device, {
    state,
    systems: K,
    reading,
    scene,
    maxBindingSize,
  });
  const b = state.buffers;
  const memberStart = new Uint32Array(n + 1);
  const memberList: number[] = [];
  const dof = new Uint32Array(n);
  MEMBERS.forEach((m, d) => {
    memberStart[d] = memberList.length;
    for (const i of m) (dof[i] = d), memberList.push(i);
  });
  memberStart[n] = memberList.length;
  const dofM = new Float32Array(n);
  MEMBERS.forEach((m, d) => (dofM[d] = m.reduce((a, i) => a + mass[i], 0)));
  const { force, dofX } = draws;
  const q = device.queue;
  q.writeBuffer(b.memberStart, 0, memberStart);
  q.writeBuffer(b.memberList, 0, Uint32Array.from(memberList));
  q.writeBuffer(b.dof, 0, dof);
  q.writeBuffer(b.dofM, 0, dofM);
  q.writeBuffer(b.handlerForce, 0, force);
  q.writeBuffer(b.dofX, 0, dofX);
  let enc = device.createCommandEncoder({ label: "gather" });
  let pass = enc.beginComputePass({ label: "gather" });
  const beforeGather = dispatchesEncoded();
  coupling.encodeGather(pass);
  const gatherDispatches = dispatchesEncoded() - beforeGather;
  pass.end();
  q.submit([enc.finish()]);
  // each system's velocity for every DOF
  const partVel = Array.from({ length: K }, vec4);
  partVel.forEach((v, s) => {
    const slice = coupling.slice(s).vel;
    q.writeBuffer(slice.buffer, slice.offset!, v);
  });
  const slices = await Promise.all(
    Array.from({ length: K }, async (_, s) => {
      const { mass: m, force: f } = coupling.slice(s);
      return {
        mass: new Float32Array(
          await readBuffer(device, m.buffer, { offset: m.offset, size: m.size }),
        ),
        force: new Float32Array(
          await readBuffer(device, f.buffer, { offset: f.offset, size: f.size }),
        ),
      };
    }),
  );
  enc = device.createCommandEncoder({ label: "sync" });
  pass = enc.beginComputePass({ label: "sync" });
  const beforeSync = dispatchesEncoded();
  coupling.encodeSync(pass);
  const dispatches = { gather: gatherDispatches, sync: dispatchesEncoded() - beforeSync };
  pass.end();
  q.submit([enc.finish()]);
  const outV = new Float32Array(await readBuffer(device, b.dofV));
  const outX = new Float32Array(await readBuffer(device, b.dofX));
  const outE = new Float32Array(await readBuffer(device, b.syncEnergy));
  assert.equal(await device.popErrorScope(), null);
  const used = kernelStorageBuffers(device);
  coupling.destroy();
  state.destroy();
  device.destroy();
  return {
    mass,
    force,
    dofX,
    dofM,
    partVel,
    slices,
    outV,
    outX,
    outE,
    used,
    dispatches,
    domain: scene.domain,
  };
}

const v3 = (a: Float32Array, i: number): Vec3 => [a[4 * i], a[4 * i + 1], a[4 * i + 2]];
const close = (a: number, b: number, tol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

/**
 * Checks one run against the f64 reference: parts, then Eq. 17 as a fold of Eq. 3, Eq. 19, the
 * position update between the walls; returns the DOF coordinates the walls acted on.
 */
function checkReference(reading: CouplingReading, r: Awaited<ReturnType<typeof run>>): number {
  let acted = 0;
  MEMBERS.forEach((members, d) => {
    const fAll = [0, 1, 2].map((a) => members.reduce((acc, i) => acc + r.force[4 * i + a], 0));
    // reference (f64): parts, then Eq. 17 as a fold of Eq. 3 (= the mass-weighted mean) and
    // ΔĒk = Σ ½ m_s |v_s − V′|² (Eq. 19 for every pair of the fold)
    let M = 0;
    const p = [0, 0, 0];
    const parts: { m: number; v: Vec3 }[] = [];
    for (let s = 0; s < K; s++) {
      const own = members.filter((i) => i % K === s);
      const m = own.reduce((a, i) => a + r.mass[i], 0);
      close(r.slices[s].mass[d], reading === "whole" && m > 0 ? r.dofM[d] : m, 1e-6, "mass");
      for (let a = 0; a < 3; a++) {
        const want = reading === "whole" && m > 0
          ? fAll[a]
          : own.reduce((acc, i) => acc + r.force[4 * i + a], 0);
        close(r.slices[s].force[4 * d + a], want, 1e-5, "force");
      }
      if (m > 0) {
        const v = v3(r.partVel[s], d);
        parts.push({ m, v });
        M += m;
        for (let a = 0; a < 3; a++) p[a] += m * v[a];
      }
    }
    if (members.length === 0) return;
    const V = p.map((x) => x / M);
    const dE = parts.reduce(
      (acc, { m, v }) => acc + 0.5 * m * v.reduce((e, x, a) => e + (x - V[a]) ** 2, 0),
      0,
    );
    const lo = r.domain.min.map((m) => m + SCENE.radius);
    const hi = r.domain.max.map((m) => m - SCENE.radius);
    const want = wallStep(v3(r.dofX, d), V, { lo, hi, dt: DT });
    acted += want.v.filter((v, a) => v !== V[a]).length;
    for (let a = 0; a < 3; a++) {
      close(r.outV[4 * d + a], want.v[a], 1e-5, `V′[${d}]`);
      close(r.outX[4 * d + a], want.x[a], 1e-5, `X′[${d}]`);
    }
    close(r.outE[d], dE, 1e-4, `ΔĒk[${d}]`);
    if (parts.length === 2) {
      // two parts: exactly the pairwise Eq. 19 of core/sync_velocity.ts
      const ref = syncVelocity(parts[0].m, parts[0].v, parts[1].m, parts[1].v);
      close(r.outE[d], ref.deltaEk, 1e-4, "syncVelocity");
    }
  });
  return acted;
}

Deno.test("coupling of K = 3 systems against an f64 reference (Eqs. 17–19)", async (t) => {
  await t.step(
    "WGSL struct matches its layout",
    () => checkWgslStruct(COUPLING_WGSL, COUPLING_PARAMS),
  );

  // 3 slices of 64 vec4 (3 KiB): at most 2 KiB per binding binds the part forces and velocities as
  // two ranges (system 2 in the second), the gather and the sync two dispatches each
  const paths = [["one range", undefined], ["two ranges", 2048]] as const;
  for (const [path, maxBindingSize] of paths) {
    for (const reading of ["own-part", "whole"] as const) {
      await t.step(
        `${reading}, ${path}: part masses, system masses, part forces, V′, ΔĒk, X′`,
        async () => {
          const r = await run(reading, [0, 0, 0, 0, 0, 0], maxBindingSize);
          assert.equal(checkReference(reading, r), 0, "no wall within reach");
        },
      );
    }
  }

  await t.step("one range: the gather and the sync one dispatch each, two ranges two", async () => {
    for (const [path, maxBindingSize] of paths) {
      const { dispatches } = await run("own-part", [0, 0, 0, 0, 0, 0], maxBindingSize);
      const want = path === "one range" ? 1 : 2;
      assert.deepEqual(dispatches, { gather: want, sync: want }, path);
    }
  });

  await t.step(
    "two ranges (two dispatches each) and one range (one each): bit-identical",
    async () => {
      for (const reading of ["own-part", "whole"] as const) {
        const one = await run(reading, [0, 0, 0, 0, 0, 0]);
        const two = await run(reading, [0, 0, 0, 0, 0, 0], 2048);
        assert.deepEqual(two.slices, one.slices, `${reading}: part masses and forces`);
        assert.deepEqual([two.outV, two.outX, two.outE], [one.outV, one.outX, one.outE], reading);
      }
    },
  );

  await t.step(
    "on a device of 8 storage buffers per stage: at most 8 per kernel, the same results",
    async () => {
      for (const reading of ["own-part", "whole"] as const) {
        for (const maxBindingSize of [undefined, 2048]) {
          const want = await run(reading, [0, 0, 0, 0, 1, 0], maxBindingSize);
          const got = await run(reading, [0, 0, 0, 0, 1, 0], maxBindingSize, 8);
          assert.deepEqual(got.slices, want.slices, `${reading}: part masses and forces`);
          assert.deepEqual([got.outV, got.outX, got.outE], [want.outV, want.outX, want.outE]);
          const coupling = Object.entries(got.used).filter(([k]) => k.startsWith("coupling "));
          const labels = maxBindingSize === undefined ? ["coupling gather", "coupling sync"] : [
            "coupling gather_masses",
            "coupling gather_forces",
            "coupling sync_velocities",
            "coupling sync_positions",
          ];
          assert.deepEqual(coupling.map(([label]) => label).sort(), labels.sort());
          for (const [label, count] of coupling) assert.ok(count <= 8, `${label} binds ${count}`);
        }
      }
    },
  );

  await t.step(
    "the walls: a velocity condition (core/domain_wall.ts), no position corrected",
    async () => {
      // per axis, the live DOFs' lowest coordinate 2 mm inside the low wall's plane (it crosses when
      // moving out faster than 0.2 m/s) and their highest 2 mm outside the high one (not pulled back)
      const live = MEMBERS.flatMap((m, d) => (m.length ? [d] : []));
      const walls = (x: Float32Array) => {
        const axis = (a: number) => live.map((d) => x[4 * d + a]);
        const lo = [0, 1, 2].map((a) => Math.min(...axis(a)) - 0.002);
        const hi = [0, 1, 2].map((a) => Math.max(...axis(a)) - 0.002);
        return {
          min: lo.map((v) => v - SCENE.radius) as [number, number, number],
          max: hi.map((v) => v + SCENE.radius) as [number, number, number],
        };
      };
      for (const reading of ["own-part", "whole"] as const) {
        const r = await run(reading, [0, 0, 0, 0, 0, 0], undefined, undefined, walls);
        const acted = checkReference(reading, r);
        assert.ok(acted > 0, `${reading}: the walls acted on no coordinate`);
      }
    },
  );

  await t.step("a pinned member fixes its whole DOF, any K", async () => {
    const r = await run("own-part", [0, 0, 0, 0, 1, 0]); // particle 4 is in DOF 0 (3 systems)
    for (let a = 0; a < 3; a++) {
      assert.equal(r.outV[a], 0);
      assert.equal(r.outX[a], r.dofX[a]);
    }
    assert.equal(r.outE[0], 0);
    assert.notEqual(r.outV[4 * 3], 0, "other DOFs move");
  });
});
