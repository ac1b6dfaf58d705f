import assert from "node:assert/strict";
import { findContacts, penaltyForces, penaltyPairForce } from "../../../core/baselines.ts";
import type { Pair } from "../../../core/collision_rules.ts";
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

const f32 = Math.fround;

/** A random f32 cloud in [0, side)³ with 3 bodies (body 1 without self-collision) and bonds. */
function makeCloud(rng: Rng, n: number, side: number) {
  const particles: Particle[] = [];
  const radius: number[] = [];
  const body: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = () => f32(rng.uniform(0, side));
    const v = () => f32(rng.uniform(-1, 1));
    particles.push({ mass: 1, x: [c(), c(), c()], v: [v(), v(), v()] });
    radius.push(f32(rng.uniform(0.04, 0.08)));
    body.push(Math.floor((3 * i) / n));
  }
  const bonded: Pair[] = [];
  for (let i = 0; i + 1 < n; i += 2) if (body[i] === body[i + 1]) bonded.push([i, i + 1]);
  const options = { radius, body, bonded, selfCollision: (b: number) => b !== 1 };
  return { n, particles, options };
}

/** Contact slots of K entries per particle from the f64 reference contact set. */
function contactSlots(contacts: readonly Pair[], n: number, k: number) {
  // n may exceed the particle count (capacity-sized slots); extra particles have no contacts.
  const lists: number[][] = Array.from({ length: n }, () => []);
  for (const [i, j] of contacts) {
    lists[i].push(j);
    lists[j].push(i);
  }
  const slots = new Uint32Array(n * k);
  const counts = new Uint32Array(n);
  lists.forEach((l, i) => {
    assert.ok(l.length <= k, `particle ${i} has ${l.length} contacts > K = ${k}`);
    slots.set(l.sort((a, b) => a - b), i * k);
    counts[i] = l.length;
  });
  return { slots, counts, maxCount: Math.max(...lists.map((l) => l.length)) };
}

/** Runs the penalty pass on a cloud with an initial force buffer; returns the force buffer. */
async function runGpu(
  device: GPUDevice,
  penalty: PenaltyForce,
  cloud: ReturnType<typeof makeCloud>,
  initial: Float32Array<ArrayBuffer>,
): Promise<Float32Array> {
  const { n, particles, options } = cloud;
  const k = penalty.maxPerParticle;
  const cap = penalty.capacity;
  const pos = new Float32Array(4 * cap);
  const vel = new Float32Array(4 * cap);
  particles.forEach((p, i) => {
    pos.set([...p.x, options.radius[i]], 4 * i);
    vel.set([...p.v, 0], 4 * i);
  });
  const { slots, counts } = contactSlots(findContacts(particles, options), cap, k);
  const created: GPUBuffer[] = [];
  const upload = (label: string, data: ArrayBufferView<ArrayBuffer>) => {
    const b = device.createBuffer({
      label: `test ${label}`,
      size: Math.max(16, data.byteLength),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
    device.queue.writeBuffer(b, 0, data);
    created.push(b);
    return b;
  };
  const buffers: PenaltyForceBuffers = {
    pos: upload("pos", pos),
    vel: upload("vel", vel),
    contacts: upload("contacts", slots),
    contactCount: upload("contactCount", counts),
    force: upload("force", Float32Array.from({ length: 4 * cap }, (_, i) => initial[i] ?? 0)),
  };
  const bindings = penalty.bind(buffers);
  penalty.setCount(n);
  const rb = device.createBuffer({
    label: "test readback",
    size: 16 * n,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  created.push(rb);
  const enc = device.createCommandEncoder({ label: "test penalty encoder" });
  penalty.encode(enc, bindings);
  enc.copyBufferToBuffer(buffers.force, 0, rb, 0, 16 * n);
  device.queue.submit([enc.finish()]);
  await rb.mapAsync(GPUMapMode.READ);
  const out = new Float32Array(rb.getMappedRange().slice(0));
  rb.unmap();
  for (const b of created) b.destroy();
  return out;
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
    const { maxCount } = contactSlots(findContacts(cloud.particles, cloud.options), n, 24);
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
    const small = device.createBuffer({
      label: "test small",
      size: 16,
      usage: GPUBufferUsage.STORAGE,
    });
    const big = device.createBuffer({
      label: "test big",
      size: 16 * n * 24,
      usage: GPUBufferUsage.STORAGE,
    });
    const ok = { pos: big, vel: big, contacts: big, contactCount: big, force: big };
    assert.throws(() => penalty.bind({ ...ok, contacts: small }), /buffers\.contacts/);
    small.destroy();
    big.destroy();
  });

  penalty.destroy();
  device.destroy();
});
