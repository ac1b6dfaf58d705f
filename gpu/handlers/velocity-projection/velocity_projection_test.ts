import assert from "node:assert/strict";
import { findCollisions } from "../../../core/grouping/collision_rules.ts";
import { Rng } from "../../../core/rng.ts";
import type { Vec3 } from "../../../core/vec3.ts";
import { velocityProjection } from "../../../core/reference/velocity_projection_reference.ts";
import { acquireGpu } from "../../runtime/device.ts";
import { checkWgslStruct } from "../../runtime/struct_layout.ts";
import { KIND_BITS } from "../../state/particle_state.ts";
import {
  type ContactCloud,
  contactLists,
  isolatedPairs,
  latticeCloud,
  pairCounts,
  storageBuffers,
  testBuffers,
  uploadContactCloud,
  velOf,
} from "../contact_cloud_fixture.ts";
import {
  VELOCITY_PROJECTION_PARAMS_STRUCT,
  VELOCITY_PROJECTION_WGSL,
  VelocityProjection,
  type VelocityProjectionBuffers,
} from "./velocity_projection.ts";

const f32 = Math.fround;

/** A contact cloud whose particles are fluid or solid, pinned or free. */
interface Cloud extends ContactCloud {
  options: ContactCloud["options"] & { fluid: boolean[]; pinned: boolean[] };
}

/**
 * A random cloud on the 1/64 lattice (Rules 1 and 2 exact in f32, as in f64) with 4 bodies: 0
 * and 2 solid (every 5th particle of body 0 pinned), 1 and 3 fluid (no self-collision), bonds
 * inside bodies.
 */
function makeCloud(rng: Rng, n: number, side: number, pins = true): Cloud {
  const cloud = latticeCloud(rng, n, { side, bodies: 4, selfCollision: (b) => b === 0 || b === 2 });
  const body = cloud.options.body as number[];
  const fluid = body.map((b) => b === 1 || b === 3);
  const pinned = body.map((b, i) => pins && b === 0 && i % 5 === 0);
  return { ...cloud, options: { ...cloud.options, fluid, pinned } };
}

/** Runs one sweep with the given contact slots; returns velOut (4 floats per particle). */
async function runGpu(
  device: GPUDevice,
  vp: VelocityProjection,
  s: Cloud,
  lists: number[][] = contactLists(s),
): Promise<Float32Array> {
  const cap = vp.capacity;
  const kind = new Uint32Array(cap);
  s.particles.forEach((_, i) => {
    kind[i] = (s.options.fluid[i] ? KIND_BITS.fluid : KIND_BITS.sheet) |
      (s.options.pinned[i] ? KIND_BITS.pinned : 0);
  });
  const t = testBuffers(device);
  const buffers: VelocityProjectionBuffers = {
    ...uploadContactCloud(t, s, {
      capacity: cap,
      maxPerParticle: vp.maxPerParticle,
      markVelocity: true,
      lists,
    }),
    kind: t.upload("kind", kind),
    velOut: t.upload("velOut", new Float32Array(4 * cap).fill(NaN)),
  };
  const bindings = vp.bind(buffers);
  vp.setCount(s.n);
  return await t.run((enc) => vp.encode(enc, bindings), {
    result: buffers.velOut,
    bytes: 16 * cap,
    label: "test velocity projection encoder",
  });
}

/** Σ m v over the first n particles of `out` (f64 sums of the f32 velocities). */
function momentum(s: Cloud, out: Float32Array | null): Vec3 {
  const m: [number, number, number] = [0, 0, 0];
  s.particles.forEach((p, i) => {
    const v = out ? velOf(out, i) : p.v;
    for (let c = 0; c < 3; c++) m[c] += p.mass * v[c];
  });
  return m;
}

Deno.test("VelocityProjection (WebGPU, software adapter)", async (t) => {
  const gpu = await acquireGpu({ adapter: "software", label: "velocity projection test device" });
  const device = gpu.device;
  const n = 1200;
  const vp = new VelocityProjection(device, {
    capacity: n,
    maxPerParticle: 24,
    label: "test velocity projection",
  });

  await t.step("VelocityProjectionParams in the WGSL matches the TypeScript layout", () => {
    checkWgslStruct(VELOCITY_PROJECTION_WGSL, VELOCITY_PROJECTION_PARAMS_STRUCT);
  });

  await t.step("the WGSL compiles and the pipeline validates", async () => {
    const info = await device.createShaderModule({
      label: "test velocity projection module",
      code: VELOCITY_PROJECTION_WGSL,
    }).getCompilationInfo();
    const errors = info.messages.filter((m) => m.type === "error");
    assert.deepEqual(errors.map((m) => `${m.lineNum}: ${m.message}`), []);
    device.pushErrorScope("validation");
    new VelocityProjection(device, { capacity: 8, label: "test validation" }).destroy();
    assert.equal(await device.popErrorScope(), null);
  });

  await t.step("matches the f64 reference on a cloud with 4 bodies, pins and bonds", async () => {
    const s = makeCloud(new Rng(41), n, 80);
    const out = await runGpu(device, vp, s);
    const ref = velocityProjection(s.particles, s.options);
    const { fluid, pinned } = s.options;
    const { pairs } = findCollisions(s.particles, s.options);
    const mixed = pairs.filter(([i, j]) => fluid[i] !== fluid[j]);
    const hits = pairCounts(mixed);
    const several = (f: boolean) => [...hits].some(([i, a]) => fluid[i] === f && a >= 3);
    assert.ok(several(true), "some fluid particles have several solid contacts");
    assert.ok(several(false), "some solid particles have several fluid contacts");
    assert.ok(pairs.some(([i, j]) => fluid[i] && fluid[j]), "fluid–fluid pairs are present");
    assert.ok(pairs.some(([i, j]) => !fluid[i] && !fluid[j]), "solid–solid pairs are present");
    assert.ok(mixed.some(([i, j]) => pinned[i] || pinned[j]), "pinned solids are hit");
    let changed = 0;
    for (let i = 0; i < n; i++) {
      const got = velOf(out, i);
      if (!hits.has(i) || (pinned[i] && !fluid[i])) {
        assert.deepEqual(got, s.particles[i].v.map(f32), `untouched ${i}`);
      } else {
        changed++;
        for (let c = 0; c < 3; c++) {
          assert.ok(
            Math.abs(got[c] - ref[i][c]) <= 1e-5 * Math.max(1, Math.abs(ref[i][c])),
            `velocity ${i}.${c}: gpu ${got[c]} ref ${ref[i][c]}`,
          );
        }
      }
      assert.equal(out[4 * i + 3], i + 0.5, "w is copied");
    }
    assert.ok(changed > n / 8, `${changed} particles projected`);
  });

  await t.step("without pins the total momentum is conserved (f32 rounding)", async () => {
    const s = makeCloud(new Rng(42), n, 80, false);
    const out = await runGpu(device, vp, s);
    const [before, after] = [momentum(s, null), momentum(s, out)];
    let exchanged = 0; // Σ m |Δv|: the momentum moved between particles
    s.particles.forEach((p, i) => {
      exchanged += p.mass * Math.hypot(...velOf(out, i).map((v, c) => v - p.v[c]));
    });
    assert.ok(exchanged > 100, `momentum exchanged ${exchanged}`);
    for (let c = 0; c < 3; c++) {
      assert.ok(
        Math.abs(after[c] - before[c]) <= 1e-7 * exchanged,
        `momentum ${c}: ${before[c]} → ${after[c]} (exchanged ${exchanged})`,
      );
    }
  });

  await t.step("isolated fluid–solid pairs: momentum kept, no approach left", async () => {
    const rng = new Rng(43);
    const fluid: boolean[] = [];
    const count = 200;
    const cloud = isolatedPairs(rng, count, {
      afterPair: () => {
        const first = rng.int(0, 1) === 1;
        fluid.push(first, !first);
      },
    });
    const { particles } = cloud;
    const s: Cloud = {
      ...cloud,
      options: { ...cloud.options, fluid, pinned: fluid.map(() => false) },
    };
    assert.equal(findCollisions(particles, s.options).pairs.length, count, "all approach");
    const out = await runGpu(device, vp, s);
    for (let p = 0; p < count; p++) {
      const [f, c] = fluid[2 * p] ? [2 * p, 2 * p + 1] : [2 * p + 1, 2 * p];
      const [a, b] = [particles[f], particles[c]];
      const [va, vb] = [velOf(out, f), velOf(out, c)];
      const x = a.x.map((q, k) => q - b.x[k]);
      const d = Math.hypot(...x);
      const w = x.reduce((acc, q, k) => acc + (q / d) * (va[k] - vb[k]), 0);
      assert.ok(w >= -1e-6, `pair ${p}: still approaching at ${w}`);
      for (let k = 0; k < 3; k++) {
        const before = a.mass * a.v[k] + b.mass * b.v[k];
        const after = a.mass * va[k] + b.mass * vb[k];
        assert.ok(Math.abs(after - before) <= 1e-5 * (a.mass + b.mass), `pair ${p}.${k}`);
      }
    }
  });

  await t.step("a pair in one slot only (a full slot) changes neither particle", async () => {
    // fluid 0 between solids 1 and 2, both approaching; fluid 0's slot lost solid 2
    const s: Cloud = {
      n: 3,
      particles: [
        { mass: 1, x: [0, 0, 0], v: [0, -1, 0] },
        { mass: 2, x: [0, -0.5, 0], v: [0, 0, 0] },
        { mass: 1, x: [0.5, 0, 0], v: [-1, 0, 0] },
      ],
      options: {
        radius: [0.3, 0.3, 0.3],
        fluid: [true, false, false],
        pinned: [false, false, false],
      },
    };
    const out = await runGpu(device, vp, s, [[1], [0, 2], [0, 1]]);
    // fluid 0 against solid 1 alone: w = −1, n̂ = +y
    assert.deepEqual(velOf(out, 0), [0, 0, 0]);
    assert.deepEqual(velOf(out, 1), [0, -0.5, 0]);
    assert.deepEqual(velOf(out, 2), [-1, 0, 0], "solid 2 gets nothing: the fluid did not see it");
  });

  await t.step("deterministic: two runs agree bit for bit", async () => {
    const s = makeCloud(new Rng(44), n, 80);
    const [a, b] = [await runGpu(device, vp, s), await runGpu(device, vp, s)];
    assert.deepEqual(new Uint32Array(a.buffer), new Uint32Array(b.buffer));
  });

  await t.step("argument errors name the argument", () => {
    assert.throws(() => new VelocityProjection(device, { capacity: 0 }), /options\.capacity/);
    assert.throws(
      () => new VelocityProjection(device, { capacity: 4, maxPerParticle: 0 }),
      /options\.maxPerParticle/,
    );
    assert.throws(() => vp.setCount(n + 1), /count/);
    const { big, other, small } = storageBuffers(device, {
      big: 16 * n * 24,
      other: 16 * n,
      small: 16,
    });
    const ok = {
      pos: big,
      vel: big,
      mass: big,
      kind: big,
      contacts: big,
      contactCount: big,
      velOut: other,
    };
    assert.throws(() => vp.bind({ ...ok, velOut: big }), /buffers\.velOut must not/);
    assert.throws(() => vp.bind({ ...ok, kind: small }), /buffers\.kind/);
    for (const b of [big, other, small]) b.destroy();
  });

  vp.destroy();
  device.destroy();
});
