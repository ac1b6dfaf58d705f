import assert from "node:assert/strict";
import { findContacts, impulseVelocities } from "../../../core/baselines.ts";
import { findCollisions } from "../../../core/grouping/collision_rules.ts";
import { Rng } from "../../../core/rng.ts";
import { acquireGpu } from "../../runtime/device.ts";
import { Impulse, IMPULSE_PARAMS_STRUCT, IMPULSE_WGSL, type ImpulseBuffers } from "./impulse.ts";
import { checkWgslStruct } from "../../runtime/struct_layout.ts";
import {
  type ContactCloud,
  isolatedPairs,
  latticeCloud,
  pairCounts,
  storageBuffers,
  testBuffers,
  uploadContactCloud,
  velOf,
} from "../contact_cloud_fixture.ts";

const f32 = Math.fround;

/**
 * A random cloud on the 1/64 lattice (Rule 2 exact in f32, as in f64) with 3 bodies (body 1
 * without self-collision) and bonds.
 */
const makeCloud = (rng: Rng, n: number, side: number): ContactCloud =>
  latticeCloud(rng, n, { side, bodies: 3, selfCollision: (b) => b !== 1 });

/** Runs one impulse sweep with CPU-built contact slots; returns velOut (4 floats per particle). */
async function runGpu(device: GPUDevice, impulse: Impulse, s: ContactCloud): Promise<Float32Array> {
  const cap = impulse.capacity;
  const t = testBuffers(device);
  const buffers: ImpulseBuffers = {
    ...uploadContactCloud(t, s, {
      capacity: cap,
      maxPerParticle: impulse.maxPerParticle,
      markVelocity: true,
    }),
    velOut: t.upload("velOut", new Float32Array(4 * cap).fill(NaN)),
  };
  const bindings = impulse.bind(buffers);
  impulse.setCount(s.n);
  return await t.run((enc) => impulse.encode(enc, bindings), {
    result: buffers.velOut,
    bytes: 16 * cap,
    label: "test impulse encoder",
  });
}

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
      const hits = pairCounts(pairs);
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
  const pairs = (rng: Rng, count: number): ContactCloud => {
    const scene = isolatedPairs(rng, count);
    const { particles } = scene;
    const contacts = findContacts(particles, scene.options);
    assert.deepEqual(contacts, Array.from({ length: count }, (_, p) => [2 * p, 2 * p + 1]));
    assert.equal(findCollisions(particles, scene.options).pairs.length, count, "all approach");
    return scene;
  };

  await t.step("head-on, e = 1, equal masses: the normal velocities are exchanged", async () => {
    impulse.setParams({ restitution: 1 });
    const s: ContactCloud = {
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
    const { big, other, small } = storageBuffers(device, {
      big: 16 * n * 24,
      other: 16 * n,
      small: 16,
    });
    const ok = { pos: big, vel: big, mass: big, contacts: big, contactCount: big, velOut: other };
    assert.throws(() => impulse.bind({ ...ok, velOut: big }), /buffers\.velOut must not/);
    assert.throws(() => impulse.bind({ ...ok, mass: small }), /buffers\.mass/);
    for (const b of [big, other, small]) b.destroy();
  });

  impulse.destroy();
  device.destroy();
});
