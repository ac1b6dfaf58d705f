import assert from "node:assert/strict";
import { findContacts, penaltyForces, penaltyPairForce } from "../../../core/baselines.ts";
import type { Particle } from "../../../core/particle.ts";
import { Rng } from "../../../core/rng.ts";
import { acquireGpu } from "../../runtime/device.ts";
import {
  PENALTY_FORCE_WGSL,
  PENALTY_PARAMS_STRUCT,
  PenaltyForce,
  type PenaltyForceBuffers,
} from "./penalty_force.ts";
import { checkWgslStruct } from "../../runtime/struct_layout.ts";
import {
  type ContactCloud,
  contactLists,
  contactSlots,
  storageBuffers,
  testBuffers,
  uniformCloud,
  uploadContactCloud,
} from "../contact_cloud_fixture.ts";

const f32 = Math.fround;

/** A random f32 cloud in [0, side)³ with 3 bodies (body 1 without self-collision) and bonds. */
const makeCloud = (rng: Rng, n: number, side: number): ContactCloud =>
  uniformCloud(rng, n, { side, bodies: 3, selfCollision: (b) => b !== 1 });

/** Runs the penalty pass on a cloud with an initial force buffer; returns the force buffer. */
async function runGpu(
  device: GPUDevice,
  penalty: PenaltyForce,
  cloud: ContactCloud,
  initial: Float32Array<ArrayBuffer>,
): Promise<Float32Array> {
  const cap = penalty.capacity;
  const t = testBuffers(device);
  const { pos, vel, contacts, contactCount } = uploadContactCloud(t, cloud, {
    capacity: cap,
    maxPerParticle: penalty.maxPerParticle,
  });
  const buffers: PenaltyForceBuffers = {
    pos,
    vel,
    contacts,
    contactCount,
    force: t.upload("force", Float32Array.from({ length: 4 * cap }, (_, i) => initial[i] ?? 0)),
  };
  const bindings = penalty.bind(buffers);
  penalty.setCount(cloud.n);
  return await t.run((enc) => penalty.encode(enc, bindings), {
    result: buffers.force,
    bytes: 16 * cloud.n,
    label: "test penalty encoder",
  });
}

Deno.test("PenaltyForce (WebGPU, software adapter)", async (t) => {
  const gpu = await acquireGpu({ adapter: "software", label: "penalty test device" });
  const device = gpu.device;
  const n = 1200;
  const cloud = makeCloud(new Rng(6), n, 1.2);
  const penalty = new PenaltyForce(device, {
    capacity: n,
    maxPerParticle: 24,
    stiffness: 500,
    label: "test penalty",
  });

  await t.step("PenaltyParams in the WGSL matches PENALTY_PARAMS_STRUCT", () => {
    checkWgslStruct(PENALTY_FORCE_WGSL, PENALTY_PARAMS_STRUCT);
  });

  const compare = (got: Float32Array, initial: Float32Array, damping: number) => {
    const ref = penaltyForces(cloud.particles, {
      ...cloud.options,
      stiffness: penalty.params.stiffness,
      damping,
    });
    const fMax = Math.max(...ref.map((f) => Math.hypot(...f)));
    assert.ok(fMax > 1);
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < 3; c++) {
        const want = initial[4 * i + c] + ref[i][c];
        assert.ok(
          Math.abs(got[4 * i + c] - want) <= 1e-5 * fMax,
          `force ${i}.${c}: gpu ${got[4 * i + c]} want ${want}`,
        );
      }
      assert.equal(got[4 * i + 3], initial[4 * i + 3], "w is kept");
    }
  };

  await t.step("accumulates the f64 reference forces onto the force buffer", async () => {
    const { maxCount } = contactSlots(contactLists(cloud), { capacity: n, maxPerParticle: 24 });
    assert.ok(maxCount >= 4, "the cloud has multi-contact particles");
    const rng = new Rng(7);
    const initial = Float32Array.from({ length: 4 * n }, () => f32(rng.uniform(-3, 3)));
    compare(await runGpu(device, penalty, cloud, initial), initial, 0);
  });

  await t.step("with damping: matches the reference (clamped, never attractive)", async () => {
    penalty.setParams({ damping: 20 });
    const clamped = findContacts(cloud.particles, cloud.options).filter(([i, j]) => {
      const r = cloud.options.radius;
      const sphere = (a: number) => ({ ...cloud.particles[a], radius: r[a] });
      return penaltyPairForce(sphere(i), sphere(j), { stiffness: 500, damping: 20 })
        .every((c) => c === 0);
    });
    assert.ok(clamped.length > 0, "some contacts are clamped");
    const initial = new Float32Array(4 * n);
    compare(await runGpu(device, penalty, cloud, initial), initial, 20);
    penalty.setParams({ damping: 0 });
  });

  await t.step("forces sum to zero; a single pair is equal and opposite bit for bit", async () => {
    const got = await runGpu(device, penalty, cloud, new Float32Array(4 * n));
    let abs = 0;
    const sum = [0, 0, 0];
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < 3; c++) {
        sum[c] += got[4 * i + c];
        abs += Math.abs(got[4 * i + c]);
      }
    }
    assert.ok(abs > 0);
    for (const s of sum) assert.ok(Math.abs(s) <= 1e-6 * abs, `sum ${sum} vs ${abs}`);
    const pair = {
      n: 2,
      particles: [
        { mass: 1, x: [0.1, 0.2, 0.3], v: [0.5, 0, 0] },
        { mass: 1, x: [0.17, 0.23, 0.31], v: [-0.2, 0.1, 0] },
      ].map((p) => ({ ...p, x: p.x.map(f32), v: p.v.map(f32) })) as unknown as Particle[],
      options: {
        radius: [f32(0.05), f32(0.06)],
        body: [0, 1],
        bonded: [],
        selfCollision: () => true,
      },
    };
    penalty.setParams({ damping: 7 });
    const f = await runGpu(device, penalty, pair, new Float32Array(8));
    penalty.setParams({ damping: 0 });
    assert.ok(Math.abs(f[0]) > 0);
    for (let c = 0; c < 3; c++) assert.equal(f[c], -f[4 + c]);
  });

  await t.step("argument errors name the argument", () => {
    assert.throws(
      () => new PenaltyForce(device, { capacity: 0, stiffness: 1 }),
      /options\.capacity/,
    );
    assert.throws(
      () => new PenaltyForce(device, { capacity: 4, stiffness: -1 }),
      /options\.stiffness/,
    );
    assert.throws(() => penalty.setParams({ damping: NaN }), /params\.damping/);
    assert.throws(() => penalty.setCount(n + 1), /count/);
    const { small, big } = storageBuffers(device, { small: 16, big: 16 * n * 24 });
    const ok = { pos: big, vel: big, contacts: big, contactCount: big, force: big };
    assert.throws(() => penalty.bind({ ...ok, contacts: small }), /buffers\.contacts/);
    small.destroy();
    big.destroy();
  });

  penalty.destroy();
  device.destroy();
});
