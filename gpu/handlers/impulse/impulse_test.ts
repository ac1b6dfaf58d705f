import assert from "node:assert/strict";
import { findContacts, impulseVelocities } from "../../../core/baselines.ts";
import {
  findCollisions,
  type FindCollisionsOptions,
  type Pair,
} from "../../../core/collision_rules.ts";
import type { Particle } from "../../../core/particle.ts";
import { Rng } from "../../../core/rng.ts";
import type { Vec3 } from "../../../core/vec3.ts";
import { acquireGpu } from "../../runtime/device.ts";
import { Impulse, IMPULSE_PARAMS_STRUCT, IMPULSE_WGSL, type ImpulseBuffers } from "./impulse.ts";
import { checkWgslStruct } from "../../runtime/struct_layout.ts";

const f32 = Math.fround;
/** Positions and velocities on a 1/64 lattice: Rule 2 is exact in f32, as in f64. */
const Q = 64;

interface Scene {
  n: number;
  particles: Particle[];
  options: FindCollisionsOptions & { radius: number[] };
}

/** A random cloud on the 1/64 lattice with 3 bodies (body 1 without self-collision) and bonds. */
function makeCloud(rng: Rng, n: number, side: number): Scene {
  const particles: Particle[] = [];
  const radius: number[] = [];
  const body: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = () => rng.int(0, side - 1) / Q;
    const v = () => rng.int(-64, 64) / Q;
    particles.push({ mass: f32(rng.uniform(0.5, 3)), x: [c(), c(), c()], v: [v(), v(), v()] });
    radius.push(rng.int(3, 6) / Q);
    body.push(Math.floor((3 * i) / n));
  }
  const bonded: Pair[] = [];
  for (let i = 0; i + 1 < n; i += 2) if (body[i] === body[i + 1]) bonded.push([i, i + 1]);
  return {
    n,
    particles,
    options: { radius, body, bonded, selfCollision: (b: number) => b !== 1 },
  };
}

/** Runs one impulse sweep with CPU-built contact slots; returns velOut (4 floats per particle). */
async function runGpu(device: GPUDevice, impulse: Impulse, s: Scene): Promise<Float32Array> {
  const cap = impulse.capacity;
  const k = impulse.maxPerParticle;
  const pos = new Float32Array(4 * cap);
  const vel = new Float32Array(4 * cap);
  const mass = new Float32Array(cap);
  s.particles.forEach((p, i) => {
    pos.set([...p.x, s.options.radius[i]], 4 * i);
    vel.set([...p.v, i + 0.5], 4 * i); // w marks the particle: it must be copied
    mass[i] = p.mass;
  });
  const lists: number[][] = Array.from({ length: cap }, () => []);
  for (const [i, j] of findContacts(s.particles, s.options)) {
    lists[i].push(j);
    lists[j].push(i);
  }
  const slots = new Uint32Array(cap * k);
  const counts = new Uint32Array(cap);
  lists.forEach((l, i) => {
    assert.ok(l.length <= k, `particle ${i} has ${l.length} contacts > K`);
    slots.set(l.sort((a, b) => a - b), i * k);
    counts[i] = l.length;
  });
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
  const buffers: ImpulseBuffers = {
    pos: upload("pos", pos),
    vel: upload("vel", vel),
    mass: upload("mass", mass),
    contacts: upload("contacts", slots),
    contactCount: upload("contactCount", counts),
    velOut: upload("velOut", new Float32Array(4 * cap).fill(NaN)),
  };
  const bindings = impulse.bind(buffers);
  impulse.setCount(s.n);
  const rb = device.createBuffer({
    label: "test readback",
    size: 16 * cap,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  created.push(rb);
  const enc = device.createCommandEncoder({ label: "test impulse encoder" });
  impulse.encode(enc, bindings);
  enc.copyBufferToBuffer(buffers.velOut, 0, rb, 0, 16 * cap);
  device.queue.submit([enc.finish()]);
  await rb.mapAsync(GPUMapMode.READ);
  const out = new Float32Array(rb.getMappedRange().slice(0));
  rb.unmap();
  for (const b of created) b.destroy();
  return out;
}

const velOf = (out: Float32Array, i: number): Vec3 => [out[4 * i], out[4 * i + 1], out[4 * i + 2]];

Deno.test("Impulse (WebGPU, software adapter)", async (t) => {
  const gpu = await acquireGpu({ adapter: "software", label: "impulse test device" });
  const device = gpu.device;
  const n = 1200;
  const impulse = new Impulse(device, {
    capacity: n,
    maxPerParticle: 24,
    restitution: 0.6,
    label: "test impulse",
  });

  await t.step("ImpulseParams in the WGSL matches IMPULSE_PARAMS_STRUCT", () => {
    checkWgslStruct(IMPULSE_WGSL, IMPULSE_PARAMS_STRUCT);
  });

  await t.step("matches the f64 Jacobi reference on a cloud with exclusions", async () => {
    const s = makeCloud(new Rng(31), n, 80);
    for (const e of [0.6, 0]) {
      impulse.setParams({ restitution: e });
      const out = await runGpu(device, impulse, s);
      const ref = impulseVelocities(s.particles, { ...s.options, restitution: e });
      const { pairs } = findCollisions(s.particles, s.options);
      const hits = new Map<number, number>();
      for (const [i, j] of pairs) {
        hits.set(i, (hits.get(i) ?? 0) + 1);
        hits.set(j, (hits.get(j) ?? 0) + 1);
      }
      assert.ok([...hits.values()].some((a) => a >= 3), "some particles have several impacts");
      assert.ok(hits.size > n / 4);
      for (let i = 0; i < n; i++) {
        const got = velOf(out, i);
        if (!hits.has(i)) {
          assert.deepEqual(got, s.particles[i].v.map(f32), `untouched ${i}`);
        } else {
          for (let c = 0; c < 3; c++) {
            assert.ok(
              Math.abs(got[c] - ref[i][c]) <= 1e-5,
              `velocity ${i}.${c}: gpu ${got[c]} ref ${ref[i][c]}`,
            );
          }
        }
        assert.equal(out[4 * i + 3], i + 0.5, "w is copied");
      }
    }
  });

  /** Isolated pairs 2 m apart: (ZERO, va, ma) and (x, vb, mb), each hitting head-on-ish. */
  const pairs = (rng: Rng, count: number): Scene => {
    const particles: Particle[] = [];
    const radius: number[] = [];
    for (let p = 0; p < count; p++) {
      const o: Vec3 = [2 * (p % 10), 2 * Math.floor(p / 10), 0];
      const m = () => f32(rng.uniform(0.2, 5));
      const jitter = () => rng.int(-8, 8) / Q;
      const v = () => rng.int(-32, 32) / Q;
      particles.push({ mass: m(), x: o, v: [1, v(), v()] });
      particles.push({
        mass: m(),
        x: [o[0] + 0.5, o[1] + jitter(), o[2] + jitter()],
        v: [-1, v(), v()],
      });
      radius.push(0.3, 0.3);
    }
    const scene = { n: 2 * count, particles, options: { radius } };
    const contacts = findContacts(particles, scene.options);
    assert.deepEqual(contacts, Array.from({ length: count }, (_, p) => [2 * p, 2 * p + 1]));
    assert.equal(findCollisions(particles, scene.options).pairs.length, count, "all approach");
    return scene;
  };

  await t.step("head-on, e = 1, equal masses: the normal velocities are exchanged", async () => {
    impulse.setParams({ restitution: 1 });
    const s: Scene = {
      n: 2,
      particles: [
        { mass: 1, x: [0, 0, 0], v: [1, 0.25, 0] },
        { mass: 1, x: [0.5, 0, 0], v: [-0.5, 0, 0.125] },
      ],
      options: { radius: [0.3, 0.3] },
    };
    const out = await runGpu(device, impulse, s);
    assert.deepEqual(velOf(out, 0), [-0.5, 0.25, 0]);
    assert.deepEqual(velOf(out, 1), [1, 0, 0.125]);
  });

  await t.step("single pairs: momentum conserved for any masses (e = 1 and e = 0.3)", async () => {
    const s = pairs(new Rng(32), 200);
    for (const e of [1, 0.3]) {
      impulse.setParams({ restitution: e });
      const out = await runGpu(device, impulse, s);
      for (let p = 0; p < 200; p++) {
        const [a, b] = [s.particles[2 * p], s.particles[2 * p + 1]];
        const [va, vb] = [velOf(out, 2 * p), velOf(out, 2 * p + 1)];
        for (let c = 0; c < 3; c++) {
          const before = a.mass * a.v[c] + b.mass * b.v[c];
          const after = a.mass * va[c] + b.mass * vb[c];
          assert.ok(Math.abs(after - before) <= 1e-5 * (a.mass + b.mass), `pair ${p}.${c}`);
        }
      }
    }
  });

  await t.step("e = 0: a single pair leaves no approaching normal velocity", async () => {
    impulse.setParams({ restitution: 0 });
    const s = pairs(new Rng(33), 200);
    const out = await runGpu(device, impulse, s);
    for (let p = 0; p < 200; p++) {
      const [a, b] = [s.particles[2 * p], s.particles[2 * p + 1]];
      const x = b.x.map((c, k) => c - a.x[k]);
      const d = Math.hypot(...x);
      const [va, vb] = [velOf(out, 2 * p), velOf(out, 2 * p + 1)];
      const vn = x.reduce((acc, c, k) => acc + (c / d) * (vb[k] - va[k]), 0);
      assert.ok(Math.abs(vn) <= 1e-6, `pair ${p}: relative normal velocity ${vn}`);
    }
  });

  await t.step("argument errors name the argument", () => {
    assert.throws(
      () => new Impulse(device, { capacity: 4, restitution: 1.5 }),
      /options\.restitution/,
    );
    assert.throws(() => new Impulse(device, { capacity: 0, restitution: 1 }), /options\.capacity/);
    assert.throws(() => impulse.setParams({ restitution: -1 }), /params\.restitution/);
    assert.throws(() => impulse.setCount(n + 1), /count/);
    const big = device.createBuffer({
      label: "test big",
      size: 16 * n * 24,
      usage: GPUBufferUsage.STORAGE,
    });
    const other = device.createBuffer({
      label: "test other",
      size: 16 * n,
      usage: GPUBufferUsage.STORAGE,
    });
    const small = device.createBuffer({
      label: "test small",
      size: 16,
      usage: GPUBufferUsage.STORAGE,
    });
    const ok = { pos: big, vel: big, mass: big, contacts: big, contactCount: big, velOut: other };
    assert.throws(() => impulse.bind({ ...ok, velOut: big }), /buffers\.velOut must not/);
    assert.throws(() => impulse.bind({ ...ok, mass: small }), /buffers\.mass/);
    for (const b of [big, other, small]) b.destroy();
  });

  impulse.destroy();
  device.destroy();
});
