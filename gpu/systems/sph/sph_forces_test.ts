import assert from "node:assert/strict";
import { referenceGrid } from "../../state/grid_reference.ts";
import { sphForces } from "../../../core/reference/sph_reference.ts";
import type { SphWalls } from "../../../core/model/sph_walls.ts";
import { suggestSphParams } from "../../../core/model/sph_params.ts";
import { acquireGpu } from "../../runtime/device.ts";
import { DEFAULT_STORAGE_BUFFERS, kernelStorageBuffers } from "../../runtime/kernel.ts";
import {
  SPH_PARAMS_STRUCT,
  SPH_WGSL,
  type SphBindings,
  SphForces,
  type SphGrid,
} from "./sph_forces.ts";
import { checkWgslStruct } from "../../runtime/struct_layout.ts";

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Rounds to a multiple of 2⁻¹², so sums and differences of such values are exact in f32. */
const q12 = (v: number) => Math.round(v * 4096) / 4096;

/** A scene in the gpu/README.md layout, with each particle's member position and velocity. */
interface Scene {
  n: number;
  /** Member positions x_i (what SPH must see), xyz interleaved. */
  x: Float64Array;
  /** Member velocities (the DOF velocity), xyz interleaved. */
  v: Float64Array;
  mass: Float32Array<ArrayBuffer>;
  fluid: Uint32Array<ArrayBuffer>;
  dof: Uint32Array<ArrayBuffer>;
  offset: Float32Array<ArrayBuffer>;
  dofX: Float32Array<ArrayBuffer>;
  dofV: Float32Array<ArrayBuffer>;
}

/** Jittered lattice block of side `side` with all particles unmerged. */
function makeScene(side: number, spacing: number, mass: number, seed: number): Scene {
  const r = rng(seed);
  const n = side * side * side;
  const x = new Float64Array(3 * n);
  const v = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const c = [i % side, Math.floor(i / side) % side, Math.floor(i / (side * side))];
    for (let k = 0; k < 3; k++) {
      x[3 * i + k] = q12((c[k] + 0.4 * (r() - 0.5)) * spacing);
      v[3 * i + k] = q12(4 * (r() - 0.5));
    }
  }
  const s: Scene = {
    n,
    x,
    v,
    mass: new Float32Array(n).fill(mass),
    fluid: new Uint32Array(n).fill(1),
    dof: new Uint32Array(n),
    offset: new Float32Array(4 * n),
    dofX: new Float32Array(4 * n),
    dofV: new Float32Array(4 * n),
  };
  for (let i = 0; i < n; i++) s.dof[i] = i;
  syncDofs(s);
  return s;
}

/** Fills dofX/dofV/offset from x, v and dof; dead DOF slots get NaN so reading them shows. */
function syncDofs(s: Scene): void {
  s.dofX.fill(NaN);
  s.dofV.fill(NaN);
  for (let i = 0; i < s.n; i++) {
    const d = s.dof[i];
    if (d === i) {
      for (let k = 0; k < 3; k++) {
        s.dofX[4 * d + k] = s.x[3 * d + k];
        s.dofV[4 * d + k] = s.v[3 * d + k];
      }
      s.dofX[4 * d + 3] = 0;
      s.dofV[4 * d + 3] = 0;
    }
  }
  for (let i = 0; i < s.n; i++) {
    const d = s.dof[i];
    for (let k = 0; k < 3; k++) s.offset[4 * i + k] = s.x[3 * i + k] - s.dofX[4 * d + k];
    s.offset[4 * i + 3] = 0;
  }
}

/** The particles `keep` of a scene, unmerged, renumbered in order. */
function subScene(s: Scene, keep: readonly number[]): Scene {
  const n = keep.length;
  const f: Scene = {
    n,
    x: Float64Array.from(keep.flatMap((i) => [...s.x.slice(3 * i, 3 * i + 3)])),
    v: Float64Array.from(keep.flatMap((i) => [...s.v.slice(3 * i, 3 * i + 3)])),
    mass: Float32Array.from(keep.map((i) => s.mass[i])),
    fluid: Uint32Array.from(keep.map((i) => s.fluid[i])),
    dof: Uint32Array.from(keep.map((_, a) => a)),
    offset: new Float32Array(4 * n),
    dofX: new Float32Array(4 * n),
    dofV: new Float32Array(4 * n),
  };
  syncDofs(f);
  return f;
}

/**
 * Merges groups of particles into DOFs: root = lowest index, X_root = a q12-rounded point near the
 * group, V_root shared by the members (their velocity is the DOF's, Eqs. 6–7).
 */
function mergeGroups(s: Scene, groups: number[][]): void {
  for (const g of groups) {
    const root = Math.min(...g);
    for (const i of g) {
      s.dof[i] = root;
      for (let k = 0; k < 3; k++) s.v[3 * i + k] = s.v[3 * g[0] + k];
    }
  }
  syncDofs(s);
  for (const g of groups) {
    const root = Math.min(...g);
    for (let k = 0; k < 3; k++) {
      const centre = q12(g.reduce((a, i) => a + s.x[3 * i + k], 0) / g.length);
      s.dofX[4 * root + k] = centre;
      for (const i of g) {
        s.offset[4 * i + k] = s.x[3 * i + k] - centre;
        assert.equal(Math.fround(centre + s.offset[4 * i + k]), s.x[3 * i + k]);
      }
    }
  }
}

/**
 * A grid of cell edge `cellSize` whose box covers the particles except the top z layers, which
 * are outside and clamped into the border cells (gpu/README.md).
 */
function gridFor(s: Scene, cellSize: number): SphGrid {
  const axis = (k: number) => Array.from({ length: s.n }, (_, i) => s.x[3 * i + k]);
  const lo = [0, 1, 2].map((k) => Math.min(...axis(k)) - 0.25 * cellSize);
  const hi = [0, 1, 2].map((k) => Math.max(...axis(k)));
  const dims = [0, 1, 2].map((k) => Math.ceil((hi[k] - lo[k]) / cellSize));
  dims[2] = Math.max(1, dims[2] - 1);
  return { gridMin: lo, cellSize, dims };
}

interface GpuResult {
  density: Float32Array;
  force: Float32Array;
  /** (p/ρ², ρ) per particle, the boundary-coupling channel (when `boundaryDensity` was given). */
  pressure?: Float32Array;
}

/** Uploads a scene, runs density and forces (twice when asked) and reads both outputs back. */
async function runGpu(
  device: GPUDevice,
  s: Scene,
  sph: SphForces,
  grid: SphGrid,
  boundaryDensity?: Float32Array<ArrayBuffer>,
): Promise<GpuResult> {
  const { cellStart, sorted } = referenceGrid(s.x, { grid, stride: 3 });
  const created: GPUBuffer[] = [];
  const upload = (label: string, data: ArrayBufferView<ArrayBuffer>, size = data.byteLength) => {
    const b = device.createBuffer({
      label: `test ${label}`,
      size: Math.max(16, size),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
    device.queue.writeBuffer(b, 0, data);
    created.push(b);
    return b;
  };
  const cap = sph.capacity;
  const buffers = {
    cellStart: upload("cellStart", cellStart),
    sorted: upload("sorted", sorted, 4 * cap),
    mass: upload("mass", s.mass, 4 * cap),
    dof: upload("dof", s.dof, 4 * cap),
    offset: upload("offset", s.offset, 16 * cap),
    dofX: upload("dofX", s.dofX, 16 * cap),
    dofV: upload("dofV", s.dofV, 16 * cap),
    fluid: upload("fluid", s.fluid, 4 * cap),
    density: upload("density", new Float32Array(cap).fill(-1)),
    force: upload("force", new Float32Array(4 * cap).fill(-1)),
    ...(boundaryDensity
      ? {
        boundaryDensity: upload("boundary density", boundaryDensity, 4 * cap),
        pressure: upload("pressure channel", new Float32Array(2 * cap)),
      }
      : {}),
  };
  const bindings: SphBindings = sph.bind(buffers);
  sph.setGrid(grid);
  sph.setCount(s.n);
  const readback = device.createBuffer({
    label: "test readback",
    size: 28 * s.n,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  created.push(readback);
  const encoder = device.createCommandEncoder({ label: "test sph encoder" });
  sph.encode(encoder, bindings);
  encoder.copyBufferToBuffer(buffers.density, 0, readback, 0, 4 * s.n);
  encoder.copyBufferToBuffer(buffers.force, 0, readback, 4 * s.n, 16 * s.n);
  if (buffers.pressure) {
    encoder.copyBufferToBuffer(buffers.pressure, 0, readback, 20 * s.n, 8 * s.n);
  }
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const bytes = readback.getMappedRange().slice(0);
  readback.unmap();
  for (const b of created) b.destroy();
  return {
    density: new Float32Array(bytes, 0, s.n),
    force: new Float32Array(bytes, 4 * s.n, 4 * s.n),
    ...(boundaryDensity ? { pressure: new Float32Array(bytes, 20 * s.n, 2 * s.n) } : {}),
  };
}

/** Asserts GPU outputs match the f64 reference within `tol` of the largest magnitude. */
function compare(
  s: Scene,
  gpu: GpuResult,
  params: Parameters<typeof sphForces>[1],
  options: { tol?: number; density?: ArrayLike<number>; walls?: SphWalls } = {},
) {
  const tol = options.tol ?? 1e-4;
  const ref = sphForces(
    { positions: s.x, velocities: s.v, masses: s.mass, fluid: s.fluid },
    params,
    { density: options.density, walls: options.walls },
  );
  const rhoMax = Math.max(...ref.density);
  const fMax = Math.max(...Array.from(ref.force, Math.abs));
  assert.ok(rhoMax > 0 && fMax > 0);
  for (let i = 0; i < s.n; i++) {
    const dr = Math.abs(gpu.density[i] - ref.density[i]);
    assert.ok(dr <= 1e-5 * rhoMax, `density ${i}: gpu ${gpu.density[i]} ref ${ref.density[i]}`);
    for (let k = 0; k < 3; k++) {
      const df = Math.abs(gpu.force[4 * i + k] - ref.force[3 * i + k]);
      assert.ok(
        df <= tol * fMax,
        `force ${i}.${k}: gpu ${gpu.force[4 * i + k]} ref ${ref.force[3 * i + k]}`,
      );
    }
    assert.equal(gpu.force[4 * i + 3], 0);
  }
  return ref;
}

const sameBits = (a: Float32Array, b: Float32Array) =>
  assert.deepEqual(
    new Uint32Array(a.buffer, a.byteOffset, a.length),
    new Uint32Array(b.buffer, b.byteOffset, b.length),
  );

Deno.test("SphForces (WebGPU, software adapter)", async (t) => {
  // WebGPU's guaranteed storage buffers per stage: a kernel binding more would throw at creation
  const gpu = await acquireGpu({
    adapter: "software",
    label: "sph test device",
    storageBuffers: DEFAULT_STORAGE_BUFFERS,
  });
  const device = gpu.device;
  const suggested = suggestSphParams({ radius: 0.05, rho0: 1000, maxSpeed: 2, gravity: 9.81 });
  const h = suggested.h;
  // Spacing 0.09 < 2r: compressed, so pressures are positive nearly everywhere.
  const params = {
    h,
    rho0: 1000,
    stiffness: suggested.stiffness,
    viscosity: suggested.viscosity,
  };
  const side = 9; // 729 particles
  const capacity = side * side * side;
  const sph = new SphForces(device, { capacity, ...params, label: "test sph" });

  await t.step("every kernel binds at most 8 storage buffers (WebGPU's guaranteed limit)", () => {
    const used = Object.entries(kernelStorageBuffers(device))
      .filter(([label]) => label.startsWith("test sph "));
    assert.deepEqual(used.map(([label]) => label).sort(), [
      "test sph density",
      "test sph forces",
      "test sph gather",
    ]);
    for (const [label, n] of used) assert.ok(n <= DEFAULT_STORAGE_BUFFERS, `${label}: ${n}`);
  });

  await t.step("SphParams in sph.wgsl matches SPH_PARAMS_STRUCT", () => {
    checkWgslStruct(SPH_WGSL, SPH_PARAMS_STRUCT);
  });

  await t.step("unmerged fluid matches the f64 reference", async () => {
    const s = makeScene(side, 0.09, suggested.mass, 1);
    const out = await runGpu(device, s, sph, gridFor(s, h));
    const ref = compare(s, out, params);
    assert.ok(ref.pressure.some((p) => p > 0));
  });

  await t.step("the boundary channel: Σ_b Ψ_b W_ib added to ρ_i, (p/ρ², ρ) written", async () => {
    // Akinci et al. 2012, Eq. 6: a handler's boundary term enters the density, hence the pressure
    // and the forces; the SPH system hands (p_i/ρ_i², ρ_i) back for the handler's forces.
    const s = makeScene(side, 0.1, suggested.mass, 5);
    const r = rng(9);
    const bd = Float32Array.from({ length: s.n }, () => q12(300 * r()));
    const out = await runGpu(device, s, sph, gridFor(s, h), bd);
    const fluidOnly = sphForces(
      { positions: s.x, velocities: s.v, masses: s.mass, fluid: s.fluid },
      params,
    ).density;
    const density = fluidOnly.map((rho, i) => rho + bd[i]);
    const ref = compare(s, out, params, { density });
    for (let i = 0; i < s.n; i++) {
      const rho = ref.density[i];
      assert.ok(Math.abs(out.pressure![2 * i + 1] - rho) <= 1e-5 * rho, `ρ ${i}`);
      const want = ref.pressure[i] / (rho * rho);
      assert.ok(Math.abs(out.pressure![2 * i] - want) <= 1e-4 * Math.max(want, 1e-3), `p/ρ² ${i}`);
    }
    assert.ok(ref.pressure.filter((p) => p > 0).length > s.n / 2, "the boundary term compresses");
  });

  await t.step("viscosity alone and pressure alone match the reference", async () => {
    const s = makeScene(side, 0.09, suggested.mass, 2);
    for (const p of [{ ...params, stiffness: 0 }, { ...params, viscosity: 0 }]) {
      const one = new SphForces(device, { capacity, ...p, label: "test sph one term" });
      compare(s, await runGpu(device, s, one, gridFor(s, h)), p);
      one.destroy();
    }
  });

  await t.step("Tait state equation (γ = 7) matches the reference", async () => {
    const s = makeScene(side, 0.095, suggested.mass, 3);
    const p = { ...params, stiffness: suggested.stiffness / 7, gamma: 7 };
    const tait = new SphForces(device, {
      capacity,
      ...p,
      workgroupSize: 32,
      label: "test sph tait",
    });
    compare(s, await runGpu(device, s, tait, gridFor(s, h)), p);
    tait.destroy();
  });

  await t.step(
    "merged particles (also fluid–solid): SPH sees the members' positions",
    async () => {
      const s = makeScene(side, 0.09, suggested.mass, 4);
      const groups = [[0, 1], [10, 11, 20], [300, 301, 309, 381], [728, 727]];
      s.fluid[381] = 0; // a fluid–solid meta-particle (coupling, paper §5.2)
      mergeGroups(s, groups);
      assert.ok(groups.every((g) => g.some((i) => s.offset[4 * i] !== 0)));
      compare(s, await runGpu(device, s, sph, gridFor(s, h)), params);
    },
  );

  await t.step("non-fluid particles get zero and do not change fluid results", async () => {
    const s = makeScene(side, 0.09, suggested.mass, 5);
    const r = rng(6);
    for (let i = 0; i < s.n; i++) if (r() < 0.25) s.fluid[i] = 0;
    s.mass.forEach((_, i) => {
      if (!s.fluid[i]) s.mass[i] *= 3; // a heavier solid must not matter either
    });
    const grid = gridFor(s, h);
    const out = await runGpu(device, s, sph, grid);
    compare(s, out, params);
    // The same scene without the non-fluid particles: fluid outputs are bit-identical, since
    // removing particles keeps the order of the remaining summands.
    const keep = Array.from({ length: s.n }, (_, i) => i).filter((i) => s.fluid[i]);
    const f = subScene(s, keep);
    const only = await runGpu(device, f, sph, grid);
    for (let i = 0; i < s.n; i++) {
      if (s.fluid[i]) continue;
      assert.equal(out.density[i], 0);
      for (let k = 0; k < 4; k++) assert.equal(out.force[4 * i + k], 0);
    }
    sameBits(Float32Array.from(keep.map((i) => out.density[i])), only.density);
    sameBits(
      Float32Array.from(keep.flatMap((i) => [...out.force.slice(4 * i, 4 * i + 4)])),
      only.force,
    );
  });

  await t.step(
    "domain walls: mirror images (edges and corners too) match the reference",
    async () => {
      // the lattice spans 0 .. 0.72 (± 0.018 jitter): walls one radius below it on every axis and
      // just above it on x and z, so particles see one, two and three walls; y's top is far
      const walls = { min: [-0.03, -0.03, -0.03], max: [0.75, 10, 0.76] };
      const s = makeScene(side, 0.09, suggested.mass, 11);
      mergeGroups(s, [[0, 1], [80, 81]]);
      const walled = new SphForces(device, { capacity, ...params, walls, label: "test sph walls" });
      const out = await runGpu(device, s, walled, gridFor(s, h));
      walled.destroy();
      const used = Object.entries(kernelStorageBuffers(device))
        .filter(([label]) => label.startsWith("test sph walls "));
      assert.equal(used.length, 3, "gather, density (walls too), forces (walls too)");
      for (const [label, n] of used) assert.ok(n <= DEFAULT_STORAGE_BUFFERS, `${label}: ${n}`);
      const ref = compare(s, out, params, { walls });
      const bare = sphForces({ positions: s.x, velocities: s.v, masses: s.mass }, params);
      const corner = 0; // near three walls: its images raise its density
      assert.ok(ref.density[corner] > 1.5 * bare.density[corner], `${ref.density[corner]}`);
      assert.throws(
        () =>
          new SphForces(device, {
            capacity,
            ...params,
            walls: { min: [0, 0, 0], max: [1, 0.3, 1] },
          }),
        /axis 1: the box must be finite and at least 2h/,
      );
    },
  );

  await t.step("cells larger than h give the same results", async () => {
    const s = makeScene(side, 0.09, suggested.mass, 8);
    compare(s, await runGpu(device, s, sph, gridFor(s, 1.7 * h)), params);
  });

  await t.step("the gather split in two (one binding each half) gives the same bits", async () => {
    const s = makeScene(side, 0.09, suggested.mass, 7);
    mergeGroups(s, [[5, 6, 7]]);
    const grid = gridFor(s, h);
    const split = new SphForces(device, {
      capacity,
      ...params,
      label: "test sph split gather",
      maxBindingSize: 16 * capacity + 256,
    });
    assert.ok(split.splitGather && !sph.splitGather);
    const a = await runGpu(device, s, sph, grid);
    const b = await runGpu(device, s, split, grid);
    split.destroy();
    sameBits(a.density, b.density);
    sameBits(a.force, b.force);
  });

  await t.step("two runs give bit-identical outputs", async () => {
    const s = makeScene(side, 0.09, suggested.mass, 7);
    mergeGroups(s, [[5, 6, 7]]);
    const grid = gridFor(s, h);
    const a = await runGpu(device, s, sph, grid);
    const b = await runGpu(device, s, sph, grid);
    sameBits(a.density, b.density);
    sameBits(a.force, b.force);
  });

  await t.step("argument errors name the argument", () => {
    assert.throws(() => new SphForces(device, { ...params, capacity: 0 }), /options\.capacity/);
    assert.throws(() => new SphForces(device, { ...params, capacity: 8, h: -1 }), /options\.h/);
    assert.throws(
      () => new SphForces(device, { ...params, capacity: 8, workgroupSize: 1000 }),
      /options\.workgroupSize/,
    );
    assert.throws(
      () => sph.setGrid({ gridMin: [0, 0, 0], cellSize: h / 2, dims: [2, 2, 2] }),
      /cellSize/,
    );
    assert.throws(() => sph.setCount(capacity + 1), /count/);
    const small = device.createBuffer({
      label: "test small",
      size: 16,
      usage: GPUBufferUsage.STORAGE,
    });
    const noStorage = device.createBuffer({
      label: "test no storage",
      size: 16 * capacity,
      usage: GPUBufferUsage.COPY_DST,
    });
    const big = device.createBuffer({
      label: "test big",
      size: 16 * capacity,
      usage: GPUBufferUsage.STORAGE,
    });
    const ok = {
      cellStart: big,
      sorted: big,
      mass: big,
      dof: big,
      offset: big,
      dofX: big,
      dofV: big,
      fluid: big,
      density: big,
      force: big,
    };
    assert.throws(() => sph.bind({ ...ok, dofX: small }), /buffers\.dofX/);
    assert.throws(() => sph.bind({ ...ok, fluid: noStorage }), /buffers\.fluid needs/);
    for (const b of [small, noStorage, big]) b.destroy();
  });

  sph.destroy();
  device.destroy();
});
