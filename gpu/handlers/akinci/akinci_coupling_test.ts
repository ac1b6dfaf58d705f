import assert from "node:assert/strict";
import {
  akinciForces,
  boundaryDensity as referenceBoundaryDensity,
  boundaryPsi,
  type MovingPoints,
} from "../../../core/reference/akinci_reference.ts";
import { Rng } from "../../../core/rng.ts";
import { restMassForSpacing, sphPressure } from "../../../core/model/sph_params.ts";
import { acquireGpu } from "../../runtime/device.ts";
import {
  DEFAULT_STORAGE_BUFFERS,
  kernelStorageBuffers,
  readBuffer,
  storageBuffer,
} from "../../runtime/kernel.ts";
import { checkWgslStruct } from "../../runtime/struct_layout.ts";
import { referenceGrid } from "../../state/grid_reference.ts";
import type { GridGeometry } from "../../state/neighbor_grid.ts";
import { KIND_BITS } from "../../state/particle_state.ts";
import { AKINCI_PARAMS_STRUCT, AKINCI_WGSL, AkinciCoupling } from "./akinci_coupling.ts";

const f32 = Math.fround;

/** A cloth-like sheet of boundary particles (jittered lattice) with fluid particles around it. */
interface Cloud {
  n: number;
  pos: Float32Array; // xyzw
  vel: Float32Array; // xyzw
  mass: Float32Array;
  kind: Uint32Array;
  /** (p/ρ², ρ) per particle, as the SPH density pass writes it ((0, 0) for boundary particles). */
  pressure: Float32Array;
  rho: Float64Array;
  p: Float64Array;
}

const SPACING = 0.02;
const H = 2 * SPACING;
const RHO0 = 1000;
const SPH = { h: H, rho0: RHO0, stiffness: 2e4, gamma: 1, viscosity: 0 };
const PARAMS = { h: H, rho0: RHO0, soundSpeed: 12, friction: 0.1 };

function makeCloud(rng: Rng): Cloud {
  const sheet = 12;
  const fluid = 300;
  const solid = 20;
  const n = sheet * sheet + solid + fluid;
  const pos = new Float32Array(4 * n);
  const vel = new Float32Array(4 * n);
  const mass = new Float32Array(n);
  const kind = new Uint32Array(n);
  const pressure = new Float32Array(2 * n);
  const rho = new Float64Array(n);
  const p = new Float64Array(n);
  const m = f32(restMassForSpacing(SPACING, H, RHO0));
  const jitter = () => rng.uniform(-0.1, 0.1) * SPACING;
  let i = 0;
  const put = (x: number[], v: number[], k: number) => {
    pos.set([f32(x[0]), f32(x[1]), f32(x[2]), 0.005], 4 * i);
    vel.set([f32(v[0]), f32(v[1]), f32(v[2]), 0], 4 * i);
    mass[i] = m;
    kind[i] = k;
    i++;
  };
  const v = () => rng.uniform(-1, 1);
  for (let a = 0; a < sheet; a++) {
    for (let b = 0; b < sheet; b++) {
      put([0.02 + a * SPACING + jitter(), 0.1 + jitter(), 0.02 + b * SPACING + jitter()], [
        v(),
        v(),
        v(),
      ], KIND_BITS.sheet);
    }
  }
  for (let s = 0; s < solid; s++) { // a few scattered solid particles
    put(
      [rng.uniform(0.02, 0.24), rng.uniform(0.12, 0.16), rng.uniform(0.02, 0.24)],
      [v(), v(), v()],
      0,
    );
  }
  for (let s = 0; s < fluid; s++) {
    put(
      [rng.uniform(0.0, 0.26), rng.uniform(0.05, 0.16), rng.uniform(0.0, 0.26)],
      [v(), v(), v()],
      KIND_BITS.fluid,
    );
    const k = i - 1;
    rho[k] = f32(rng.uniform(950, 1150));
    p[k] = sphPressure(rho[k], SPH);
    pressure[2 * k] = f32(p[k] / (rho[k] * rho[k]));
    pressure[2 * k + 1] = rho[k];
  }
  return { n, pos, vel, mass, kind, pressure, rho, p };
}

/** The points of `kind` (fluid or not) of a cloud, in f64, from the f32 values the GPU sees. */
function pointsOf(c: Cloud, fluid: boolean): { index: number[]; points: MovingPoints } {
  const index: number[] = [];
  for (let i = 0; i < c.n; i++) if (((c.kind[i] & KIND_BITS.fluid) !== 0) === fluid) index.push(i);
  const pick = (arr: Float32Array, a: number) => Float64Array.from(index, (i) => arr[4 * i + a]);
  return {
    index,
    points: {
      x: pick(c.pos, 0),
      y: pick(c.pos, 1),
      z: pick(c.pos, 2),
      vx: pick(c.vel, 0),
      vy: pick(c.vel, 1),
      vz: pick(c.vel, 2),
    },
  };
}

Deno.test("AkinciCoupling (WebGPU, software adapter) against core/reference/akinci_reference.ts", async (t) => {
  // WebGPU's guaranteed storage buffers per stage: a kernel binding more would throw at creation
  const gpu = await acquireGpu({
    adapter: "software",
    label: "akinci test device",
    storageBuffers: DEFAULT_STORAGE_BUFFERS,
  });
  const device = gpu.device;
  const cloud = makeCloud(new Rng(31));
  const n = cloud.n;
  const grid: GridGeometry = { gridMin: [-0.02, 0.0, -0.02], cellSize: H, dims: [8, 6, 8] };
  const akinci = new AkinciCoupling(device, { capacity: n, ...PARAMS, grid, label: "test akinci" });

  const run = async (coupling = akinci) => {
    const { cellStart, sorted } = referenceGrid(cloud.pos, { grid, stride: 4 });
    const up = (label: string, data: ArrayBufferView) =>
      storageBuffer(device, { label, size: data.byteLength, data });
    const buffers = {
      pos: up("pos", cloud.pos),
      vel: up("vel", cloud.vel),
      mass: up("mass", cloud.mass),
      kind: up("kind", cloud.kind),
      cellStart: up("cellStart", cellStart),
      sorted: up("sorted", sorted),
      boundaryDensity: storageBuffer(device, { label: "boundary density", size: 4 * n }),
      pressure: up("pressure", cloud.pressure),
      force: storageBuffer(device, { label: "force", size: 16 * n }),
    };
    const bindings = coupling.bind(buffers);
    const encoder = device.createCommandEncoder({ label: "akinci test" });
    coupling.encodeBoundary(encoder, bindings);
    coupling.encodeForces(encoder, bindings);
    device.queue.submit([encoder.finish()]);
    const out = {
      psi: new Float32Array(await readBuffer(device, coupling.psiMass)),
      density: new Float32Array(await readBuffer(device, buffers.boundaryDensity)),
      force: new Float32Array(await readBuffer(device, buffers.force)),
    };
    for (const b of Object.values(buffers)) b.destroy();
    return out;
  };

  const fluid = pointsOf(cloud, true);
  const boundary = pointsOf(cloud, false);
  const psi = boundaryPsi(boundary.points, PARAMS);
  const density = referenceBoundaryDensity(fluid.points, { ...boundary.points, psi }, PARAMS);
  const ref = akinciForces({
    fluid: {
      ...fluid.points,
      mass: Float64Array.from(fluid.index, (i) => cloud.mass[i]),
      density: Float64Array.from(fluid.index, (i) => cloud.rho[i]),
      pressure: Float64Array.from(fluid.index, (i) => cloud.p[i]),
    },
    boundary: { ...boundary.points, psi },
  }, PARAMS);
  const got = await run();

  await t.step("every kernel binds at most 8 storage buffers (WebGPU's guaranteed limit)", () => {
    const used = Object.entries(kernelStorageBuffers(device))
      .filter(([label]) => label.startsWith("test akinci "));
    assert.deepEqual(used.map(([label]) => label).sort(), [
      "test akinci density",
      "test akinci forces",
      "test akinci psi",
    ]);
    for (const [label, n] of used) assert.ok(n <= DEFAULT_STORAGE_BUFFERS, `${label}: ${n}`);
  });

  await t.step("AkinciParams in the WGSL matches AKINCI_PARAMS_STRUCT", () => {
    checkWgslStruct(AKINCI_WGSL, AKINCI_PARAMS_STRUCT);
  });

  await t.step("Ψ of every boundary particle (Eqs. 4–5); the mass of fluid particles", () => {
    boundary.index.forEach((i, k) => {
      assert.ok(
        Math.abs(got.psi[i] - psi[k]) <= 1e-5 * psi[k],
        `psi ${i}: gpu ${got.psi[i]} want ${psi[k]}`,
      );
    });
    for (const i of fluid.index) assert.equal(got.psi[i], cloud.mass[i]);
  });

  await t.step("boundary term of each fluid particle's density (Eq. 6); 0 elsewhere", () => {
    const dMax = Math.max(...density);
    assert.ok(dMax > 0.3 * RHO0, `the sheet adds to the fluid's density (${dMax})`);
    fluid.index.forEach((i, k) => {
      assert.ok(
        Math.abs(got.density[i] - density[k]) <= 1e-5 * dMax,
        `density ${i}: gpu ${got.density[i]} want ${density[k]}`,
      );
    });
    for (const i of boundary.index) assert.equal(got.density[i], 0);
  });

  await t.step("pressure and friction forces and their reactions (Eqs. 9–14)", () => {
    const all = [
      ...fluid.index.map((i, k) => [i, ref.fluid, k] as const),
      ...boundary.index.map((i, k) => [i, ref.boundary, k] as const),
    ];
    const fMax = Math.max(
      ...all.map(([, f, k]) => Math.hypot(f[3 * k], f[3 * k + 1], f[3 * k + 2])),
    );
    assert.ok(fMax > 0);
    let coupled = 0;
    for (const [i, f, k] of all) {
      if (f[3 * k] !== 0 || f[3 * k + 1] !== 0 || f[3 * k + 2] !== 0) coupled++;
      for (let a = 0; a < 3; a++) {
        assert.ok(
          Math.abs(got.force[4 * i + a] - f[3 * k + a]) <= 2e-5 * fMax,
          `force ${i}.${a}: gpu ${got.force[4 * i + a]} want ${f[3 * k + a]}`,
        );
      }
    }
    assert.ok(coupled > n / 3, `most particles couple (${coupled} of ${n})`);
    const sum = [0, 1, 2].map((a) => all.reduce((s, [i]) => s + got.force[4 * i + a], 0));
    assert.ok(Math.hypot(...sum) <= 1e-4 * fMax, `momentum: Σf = ${sum}`);
  });

  await t.step("volumeScale scales Ψ and the boundary's density term with it", async () => {
    const scaled = new AkinciCoupling(device, {
      capacity: n,
      ...PARAMS,
      volumeScale: 2.5,
      grid,
      label: "test akinci scaled",
    });
    try {
      const s = await run(scaled);
      boundary.index.forEach((i, k) =>
        assert.ok(Math.abs(s.psi[i] - 2.5 * psi[k]) <= 1e-5 * 2.5 * psi[k], `psi ${i}`)
      );
      // The tolerance of the unscaled step, scaled: f32 rounding of a kernel sum is relative to
      // its largest terms (dMax), not to a small tail value near the support's edge, where
      // (h² − r²)³ cancels (lavapipe and llvmpipe round such a value 1.6e-5 apart, relatively).
      const dMax = 2.5 * Math.max(...density);
      fluid.index.forEach((i, k) =>
        assert.ok(
          Math.abs(s.density[i] - 2.5 * density[k]) <= 1e-5 * dMax,
          `density ${i}: ${s.density[i]} want ${2.5 * density[k]}`,
        )
      );
    } finally {
      scaled.destroy();
    }
    assert.throws(
      () => new AkinciCoupling(device, { capacity: n, ...PARAMS, volumeScale: 0, grid }),
      /options\.volumeScale must be/,
    );
  });

  await t.step("a rerun is bit-identical", async () => {
    const again = await run();
    assert.deepEqual(again.force, got.force);
    assert.deepEqual(again.density, got.density);
  });

  await t.step("argument errors name the argument", () => {
    assert.throws(
      () => new AkinciCoupling(device, { capacity: n, ...PARAMS, h: 0, grid }),
      /options\.h must be/,
    );
    assert.throws(
      () =>
        new AkinciCoupling(device, { capacity: n, ...PARAMS, grid: { ...grid, cellSize: H / 2 } }),
      /cellSize .* must be >= h/,
    );
    assert.throws(() => akinci.bind({} as never), /buffers\.pos is missing/);
  });

  akinci.destroy();
  device.destroy();
});
