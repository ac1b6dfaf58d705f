import assert from "node:assert/strict";
import { referenceGrid } from "../../state/grid_reference.ts";
import { kernelRepulsionForces } from "../../../core/baselines.ts";
import type { Particle } from "../../../core/particle.ts";
import { Rng } from "../../../core/rng.ts";
import { acquireGpu } from "../../runtime/device.ts";
import {
  KERNEL_REPULSION_PARAMS_STRUCT,
  KERNEL_REPULSION_WGSL,
  KernelRepulsion,
  type KernelRepulsionBuffers,
  type KernelRepulsionGrid,
} from "./kernel_repulsion.ts";
import { checkWgslStruct } from "../../runtime/struct_layout.ts";
import { storageBuffers, testBuffers } from "../contact_cloud_fixture.ts";

const f32 = Math.fround;

interface Cloud {
  n: number;
  particles: Particle[];
  body: number[];
}

/** A random f32 cloud in [0, side)³ with masses 0.5..2 and `bodies` interleaved bodies. */
function makeCloud(rng: Rng, n: number, options: { side: number; bodies: number }): Cloud {
  const particles: Particle[] = [];
  const body: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = () => f32(rng.uniform(0, options.side));
    particles.push({ mass: f32(rng.uniform(0.5, 2)), x: [c(), c(), c()], v: [0, 0, 0] });
    body.push(rng.int(0, options.bodies - 1));
  }
  return { n, particles, body };
}

/** Runs the coupling pass on the first `n` particles of a cloud; returns the force buffer. */
async function runGpu(
  device: GPUDevice,
  coupling: KernelRepulsion,
  cloud: Cloud,
  options: { grid: KernelRepulsionGrid; initial?: Float32Array; n?: number },
): Promise<Float32Array> {
  const cap = coupling.capacity;
  const n = options.n ?? cloud.n;
  const pos = new Float32Array(4 * cap);
  const mass = new Float32Array(cap);
  cloud.particles.slice(0, n).forEach((p, i) => {
    pos.set([...p.x, 0.01], 4 * i);
    mass[i] = p.mass;
  });
  const { cellStart, sorted } = referenceGrid(pos, { grid: options.grid, stride: 4, count: n });
  const t = testBuffers(device);
  const force = new Float32Array(4 * cap);
  if (options.initial) force.set(options.initial.subarray(0, 4 * cap));
  const buffers: KernelRepulsionBuffers = {
    pos: t.upload("pos", pos),
    mass: t.upload("mass", mass),
    body: t.upload("body", Uint32Array.from(cloud.body), 4 * cap),
    cellStart: t.upload("cellStart", cellStart),
    sorted: t.upload("sorted", sorted, 4 * cap),
    force: t.upload("force", force),
  };
  const bindings = coupling.bind(buffers);
  coupling.setGrid(options.grid);
  coupling.setCount(n);
  return await t.run((enc) => coupling.encode(enc, bindings), {
    result: buffers.force,
    bytes: 16 * cap,
    label: "test sph coupling encoder",
  });
}

Deno.test("KernelRepulsion (WebGPU, software adapter)", async (t) => {
  const gpu = await acquireGpu({ adapter: "software", label: "sph coupling test device" });
  const device = gpu.device;
  const n = 1000;
  const side = 0.6;
  const params = { h: 0.08, rho0: 1000, stiffness: 2e4 };
  const cloud = makeCloud(new Rng(11), n, { side, bodies: 3 });
  const coupling = new KernelRepulsion(device, { capacity: n, ...params, label: "test coupling" });
  /** A grid of edge `cellSize` leaving the top x layer outside (clamped into the border). */
  const gridFor = (cellSize: number): KernelRepulsionGrid => {
    const dims = Math.ceil(side / cellSize);
    return { gridMin: [0, -0.01, 0], cellSize, dims: [dims - 1, dims, dims] };
  };

  const compare = (got: Float32Array, c: Cloud, m: number, initial?: Float32Array) => {
    const ref = kernelRepulsionForces(c.particles.slice(0, m), {
      ...coupling.params,
      body: c.body.slice(0, m),
    });
    const fMax = Math.max(...ref.map((f) => Math.hypot(...f)));
    assert.ok(fMax > 0);
    for (let i = 0; i < m; i++) {
      for (let k = 0; k < 3; k++) {
        const want = (initial?.[4 * i + k] ?? 0) + ref[i][k];
        assert.ok(
          Math.abs(got[4 * i + k] - want) <= 1e-5 * fMax,
          `force ${i}.${k}: gpu ${got[4 * i + k]} want ${want}`,
        );
      }
      assert.equal(got[4 * i + 3], initial?.[4 * i + 3] ?? 0, "w is kept");
    }
    return ref;
  };

  await t.step("KernelRepulsionParams in the WGSL matches KERNEL_REPULSION_PARAMS_STRUCT", () => {
    checkWgslStruct(KERNEL_REPULSION_WGSL, KERNEL_REPULSION_PARAMS_STRUCT);
  });

  await t.step("matches the f64 reference, accumulating onto the force buffer", async () => {
    const rng = new Rng(12);
    const initial = Float32Array.from({ length: 4 * n }, () => f32(rng.uniform(-1, 1)));
    const got = await runGpu(device, coupling, cloud, { grid: gridFor(params.h), initial });
    const ref = compare(got, cloud, n, initial);
    assert.ok(ref.filter((f) => f.some((c) => c !== 0)).length > n / 2, "most particles couple");
  });

  await t.step("larger cells and count < capacity give the reference too", async () => {
    const m = 600;
    compare(
      await runGpu(device, coupling, cloud, { grid: gridFor(1.6 * params.h), n: m }),
      cloud,
      m,
    );
  });

  await t.step("forces sum to zero; one body alone feels nothing", async () => {
    const got = await runGpu(device, coupling, cloud, { grid: gridFor(params.h) });
    const sum = [0, 0, 0];
    let abs = 0;
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 3; k++) {
        sum[k] += got[4 * i + k];
        abs += Math.abs(got[4 * i + k]);
      }
    }
    assert.ok(abs > 0);
    for (const s of sum) assert.ok(Math.abs(s) <= 1e-6 * abs, `sum ${sum} vs ${abs}`);
    const one = { ...cloud, body: cloud.body.map(() => 2) };
    const none = await runGpu(device, coupling, one, { grid: gridFor(params.h) });
    assert.ok(none.every((v) => v === 0));
  });

  await t.step("a pair is equal and opposite bit for bit; scales with k", async () => {
    const pair: Cloud = {
      n: 2,
      particles: [
        { mass: f32(0.7), x: [0.1, 0.2, 0.3].map(f32), v: [0, 0, 0] },
        { mass: f32(1.9), x: [0.13, 0.17, 0.33].map(f32), v: [0, 0, 0] },
      ] as unknown as Particle[],
      body: [0, 1],
    };
    const f = await runGpu(device, coupling, pair, { grid: gridFor(params.h) });
    assert.ok(Math.abs(f[0]) > 0);
    for (let k = 0; k < 3; k++) assert.equal(f[k], -f[4 + k]);
    coupling.setParams({ stiffness: 2 * params.stiffness });
    const g = await runGpu(device, coupling, pair, { grid: gridFor(params.h) });
    coupling.setParams({ stiffness: params.stiffness });
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(g[k] - 2 * f[k]) <= 1e-6 * Math.abs(g[k]));
  });

  await t.step("argument errors name the argument", () => {
    assert.throws(
      () => new KernelRepulsion(device, { ...params, capacity: 0 }),
      /options\.capacity/,
    );
    assert.throws(
      () => new KernelRepulsion(device, { ...params, capacity: 4, rho0: 0 }),
      /options\.rho0/,
    );
    assert.throws(() => coupling.setGrid({ ...gridFor(params.h), cellSize: 0.05 }), /cellSize/);
    assert.throws(() => coupling.setParams({ h: 1 }), /cellSize/);
    assert.throws(() => coupling.setParams({ stiffness: -1 }), /params\.stiffness/);
    assert.throws(() => coupling.setCount(n + 1), /count/);
    const { small, big } = storageBuffers(device, { small: 16, big: 16 * n });
    const ok = { pos: big, mass: big, body: big, cellStart: big, sorted: big, force: big };
    assert.throws(() => coupling.bind({ ...ok, mass: small }), /buffers\.mass/);
    const b = coupling.bind({ ...ok, cellStart: small });
    const enc = device.createCommandEncoder({ label: "test error encoder" });
    assert.throws(() => coupling.encode(enc, b), /buffers\.cellStart/);
    small.destroy();
    big.destroy();
  });

  coupling.destroy();
  device.destroy();
});
