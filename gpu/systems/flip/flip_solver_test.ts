import assert from "node:assert/strict";
import {
  divergence,
  flipStep,
  separationVelocity,
} from "../../../core/reference/flip_reference.ts";
import {
  AXIS_KEYS,
  CELL_FLUID,
  CELL_SOLID,
  type FaceArrays,
  flipGrid,
} from "../../../core/model/flip_grid.ts";
import { Rng } from "../../../core/rng.ts";
import { acquireGpu } from "../../runtime/device.ts";
import {
  DEFAULT_STORAGE_BUFFERS,
  kernelStorageBuffers,
  readBuffer,
  storageBuffer,
} from "../../runtime/kernel.ts";
import { checkWgslStruct } from "../../runtime/struct_layout.ts";
import { gridForDomain, NeighborGrid } from "../../state/neighbor_grid.ts";
import { FLIP_PARAMS, FLIP_WGSL, FlipSolver } from "./flip_solver.ts";

const DX = 0.05;
const MIN: [number, number, number] = [0, 0, 0];
const MAX: [number, number, number] = [0.4, 0.4, 0.4];
const DT = 2e-3;
const G: [number, number, number] = [0, -9.81, 0];

/**
 * Fixture: FLIP particles, 2 per cell edge (8 per cell), jittered, filling the bottom half of a
 * closed 8×8×8 box with random velocities; a block of OTHER particles (a "solid", moving down)
 * over part of the fluid; positions and velocities rounded to f32 so GPU and reference see the
 * same numbers.
 */
function fixture(seed: number) {
  const rng = new Rng(seed);
  const x: number[] = [], v: number[] = [], m: number[] = [], isFlip: number[] = [];
  const h = DX / 2;
  for (let k = 0; k < 16; k++) {
    for (let j = 0; j < 7; j++) {
      for (let i = 0; i < 16; i++) {
        x.push(...[i, j, k].map((c) => (c + 0.5 + rng.uniform(-0.2, 0.2)) * h));
        v.push(rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5));
        m.push(1e-3 * rng.uniform(0.8, 1.2));
        isFlip.push(1);
      }
    }
  }
  for (let k = 0; k < 4; k++) {
    for (let j = 0; j < 3; j++) {
      for (let i = 0; i < 4; i++) {
        x.push(0.1 + (i + 0.5) * h, 0.2 + (j + 0.5) * h, 0.15 + (k + 0.5) * h);
        v.push(0.1, -1, 0);
        m.push(2e-3);
        isFlip.push(0);
      }
    }
  }
  const f32 = (a: number[]) => Float64Array.from(Float32Array.from(a));
  return { x: f32(x), v: f32(v), m: f32(m), isFlip: Uint8Array.from(isFlip) };
}

Deno.test("FLIP step on the GPU against the f64 reference (core/reference/flip_reference.ts)", async (t) => {
  await t.step("WGSL struct matches its layout", () => {
    checkWgslStruct(FLIP_WGSL, FLIP_PARAMS);
  });

  // WebGPU's guaranteed storage buffers per stage: a kernel binding more would throw at creation
  const { device } = await acquireGpu({
    adapter: "software",
    storageBuffers: DEFAULT_STORAGE_BUFFERS,
  });
  // the two readings of occupied cells, and the volume correction (ρ0 below the fixture's ~64
  // kg/m³, so that most fluid cells are over-dense and the correction acts)
  const configs = [
    { occupied: "fluid", volumeCorrection: 0, rho0: 1000, name: "fluid reading" },
    { occupied: "solid", volumeCorrection: 0, rho0: 1000, name: "solid reading" },
    { occupied: "fluid", volumeCorrection: 0.5, rho0: 50, name: "volume correction" },
    // particles closer than 0.9 of their spacing (0.025 m, jittered ±20 %) pushed apart
    {
      occupied: "fluid",
      volumeCorrection: 0,
      rho0: 1000,
      name: "separation",
      separation: { distance: 0.0225, strength: 0.5 },
    },
  ] as const;
  for (const config of configs) {
    const { occupied, volumeCorrection, rho0, name } = config;
    const separation = "separation" in config ? config.separation : undefined;
    device.pushErrorScope("validation");
    const p = fixture(11);
    const n = p.m.length;
    const grid = flipGrid(MIN, MAX, DX);
    const ref = flipStep(grid, p, {
      dt: DT,
      gravity: G,
      flipRatio: 0.97,
      tolerance: 1e-10,
      maxIterations: 2000,
      occupied,
      volumeCorrection,
      rho0,
      separation,
    });

    const vec4 = (a: Float64Array, w = 0) =>
      Float32Array.from({ length: 4 * n }, (_, k) => (k % 4 === 3 ? w : a[3 * (k >> 2) + (k % 4)]));
    const buf = (label: string, data: ArrayBufferView) =>
      storageBuffer(device, { label, size: data.byteLength, data });
    const pos = buf("pos", vec4(p.x, 0.0125));
    const owned = Uint32Array.from(p.isFlip);
    const ids = Uint32Array.from({ length: n }, (_, i) => i);
    const nbGeometry = gridForDomain(MIN, MAX, DX);
    const nbGrid = new NeighborGrid(device, { capacity: n, ...nbGeometry, label: "test grid" });
    const partMass = Float32Array.from(p.m, (mi, i) => (owned[i] ? mi : 0));
    const partVel = buf("partVel", new Float32Array(4 * n).fill(7));
    const buffers = {
      pos,
      mass: buf("mass", Float32Array.from(p.m)),
      dof: buf("dof", ids),
      dofV: buf("dofV", vec4(p.v)),
      owned: buf("owned", owned),
      cellStart: nbGrid.cellStart,
      sorted: nbGrid.sorted,
      memberStart: buf("memberStart", Uint32Array.from({ length: n + 1 }, (_, i) => i)),
      memberList: buf("memberList", ids),
      partMass: buf("partMass", partMass),
      partForce: buf("partForce", new Float32Array(4 * n)),
      partVel,
    };
    const solverOptions = {
      particleCount: n,
      domain: { min: MIN, max: MAX },
      dx: DX,
      neighborGrid: nbGeometry,
      dt: DT,
      gravity: G,
      flipRatio: 0.97,
      tolerance: 1e-5,
      maxIterations: 200,
      occupied,
      volumeCorrection,
      rho0,
      separation,
    };
    const solver = new FlipSolver(device, solverOptions);
    const bindings = solver.bind(buffers);
    const encoder = device.createCommandEncoder({ label: "flip test" });
    nbGrid.encode(encoder, { pos, count: n });
    solver.encodeStep(encoder, bindings);
    device.queue.submit([encoder.finish()]);
    const got = await solver.readGrid();
    const stats = await solver.readSolverStats();
    const out = new Float32Array(await readBuffer(device, partVel));

    // the reference's face arrays in the GPU's order (u, v, w concatenated)
    const cat = <T extends ArrayLike<number>>(a: FaceArrays<T>) =>
      AXIS_KEYS.flatMap((k) => [...(a[k] as ArrayLike<number>) as number[]]);

    await t.step(`${name}: cell and face classes equal the reference's`, () => {
      assert.deepEqual([...got.cellType], [...ref.cells]);
      assert.ok(ref.cells.includes(CELL_FLUID), "fixture");
      assert.equal(ref.cells.includes(CELL_SOLID), occupied === "solid", "occupied cells");
      assert.deepEqual([...got.faceClass], cat(ref.faces));
    });

    await t.step(`${name}: P2G: face mass and velocities within f32 rounding`, () => {
      const mass = cat(ref.mass), uOld = cat(ref.uOld);
      const mMax = Math.max(...mass);
      for (let f = 0; f < solver.faces; f++) {
        assert.ok(Math.abs(got.faceMass[f] - mass[f]) <= 1e-5 * mMax, `mass of face ${f}`);
        if (mass[f] > 1e-3 * mMax) {
          assert.ok(Math.abs(got.faceOld[f] - uOld[f]) <= 1e-4, `u_old of face ${f}`);
        }
      }
    });

    await t.step(
      `${name}: projection: converged, divergence-free, q and u as the reference's`,
      () => {
        assert.ok(stats.converged, JSON.stringify(stats));
        assert.ok(stats.iterations > 5 && stats.iterations < 200, JSON.stringify(stats));
        const uNew = cat(ref.uNew);
        const uMax = Math.max(...uNew.map(Math.abs));
        let worst = 0;
        for (let f = 0; f < solver.faces; f++) {
          worst = Math.max(worst, Math.abs(got.faceU[f] - uNew[f]));
        }
        assert.ok(worst <= 1e-4 * uMax, `max |u_gpu − u_ref| = ${worst} (max |u| ${uMax})`);
        // divergence of the GPU's own field, by the reference's definition
        const [nu, nv] = [ref.uNew.x.length, ref.uNew.y.length];
        const gpuU = {
          x: Float64Array.from(got.faceU.slice(0, nu)),
          y: Float64Array.from(got.faceU.slice(nu, nu + nv)),
          z: Float64Array.from(got.faceU.slice(nu + nv)),
        };
        const after = divergence(grid, gpuU, ref.cells);
        // the solver's tolerance is relative to its right-hand side D_before − D_target
        const before = Math.max(...ref.divergenceBefore.map((d, c) => Math.abs(d - ref.target[c])));
        const left = Math.max(...after.map((d, c) => Math.abs(d - ref.target[c])));
        if (volumeCorrection > 0) {
          assert.ok(Math.max(...ref.target) > 0.1 * before, "the correction acts");
        }
        assert.ok(before > 1e-3, `the fixture is divergent (${before})`);
        assert.ok(left <= 5e-5 * before, `max |D| after ${left} vs before ${before}`);
      },
    );

    await t.step(
      `${name}: G2P: FLIP particles' new velocities; other particles untouched`,
      () => {
        if (separation) {
          const sep = separationVelocity(p, { ...separation, dt: DT });
          assert.ok(Math.max(...sep.map(Math.abs)) > 0.05, "the separation acts");
        }
        let worst = 0, scale = 0;
        for (let i = 0; i < n; i++) {
          if (!owned[i]) {
            assert.deepEqual([...out.slice(4 * i, 4 * i + 4)], [7, 7, 7, 7], `particle ${i}`);
            continue;
          }
          for (let a = 0; a < 3; a++) {
            worst = Math.max(worst, Math.abs(out[4 * i + a] - ref.v[3 * i + a]));
            scale = Math.max(scale, Math.abs(ref.v[3 * i + a]));
          }
        }
        assert.ok(worst <= 1e-4 * scale, `max |v_gpu − v_ref| = ${worst} (scale ${scale})`);
      },
    );

    await t.step(`${name}: no GPU errors; a rerun is bit-identical`, async () => {
      const enc = device.createCommandEncoder({ label: "flip rerun" });
      solver.encodeStep(enc, bindings);
      device.queue.submit([enc.finish()]);
      const again = new Float32Array(await readBuffer(device, partVel));
      assert.deepEqual(again, out);
      assert.equal(await device.popErrorScope(), null);
    });

    await t.step(
      `${name}: the one-workgroup CG and the fused loop equal the five dispatched kernels bit for bit, across dispatches; the face kernels per axis equal them over all faces`,
      async () => {
        assert.ok(solver.localIterations >= 2, `local path: ${solver.localIterations}`);
        assert.equal(solver.perAxis, false, "the face arrays fit one binding each");
        // the face kernels once per axis (a face quantity of the grid over the binding limit),
        // with each loop
        for (const localSolve of [true, false]) {
          const perAxis = new FlipSolver(device, {
            ...solverOptions,
            localSolve,
            maxBindingSize: 4 * solver.faces - 4,
          });
          assert.equal(perAxis.perAxis, true);
          await compare(perAxis, `per axis, localSolve ${localSolve}`);
          perAxis.destroy();
        }
        // the dispatched kernels; then one workgroup taking 3 iterations per dispatch, so the
        // solve goes on over several dispatches
        for (const fusedLoop of [false, true]) {
          const dispatched = new FlipSolver(device, {
            ...solverOptions,
            localSolve: false,
            fusedLoop,
          });
          assert.equal(dispatched.localIterations, 0);
          assert.equal(dispatched.loop, fusedLoop ? "fused" : "dispatched");
          await compare(dispatched, `dispatched, fusedLoop ${fusedLoop}`);
          dispatched.destroy();
        }
        // the budget of 3 iterations: (3 + 1) · iteration cost − 1 after the setup (the first
        // gate's totals, one dot product's cost, and 8)
        const chunks = Math.ceil(solver.slots / 64);
        const owned = Math.ceil(chunks / 64);
        const total = owned * 72 + owned + 8;
        const perIteration = 31 * chunks + 3 * total + 16;
        const three = new FlipSolver(device, {
          ...solverOptions,
          localBudget: total + 8 + 4 * perIteration - 1,
        });
        assert.equal(three.localIterations, 3);
        assert.ok(stats.iterations > 3, "the solve spans several dispatches");
        await compare(three, "3 iterations per dispatch");
        three.destroy();
        async function compare(other: FlipSolver, what: string) {
          const enc = device.createCommandEncoder({ label: `flip ${what}` });
          nbGrid.encode(enc, { pos, count: n });
          other.encodeStep(enc, other.bind(buffers));
          device.queue.submit([enc.finish()]);
          assert.deepEqual(new Float32Array(await readBuffer(device, partVel)), out, what);
          assert.deepEqual(await other.readSolverStats(), stats, what);
          assert.deepEqual(await other.readGrid(), got, what);
        }
      },
    );
    solver.destroy();
    nbGrid.destroy();
  }

  await t.step("every kernel binds at most 8 storage buffers (WebGPU's guaranteed limit)", () => {
    // the solvers above (label "flip") built every entry point, solve_local, both loops and the
    // face kernels over all faces and per axis included
    const used = Object.entries(kernelStorageBuffers(device))
      .filter(([label]) => label.startsWith("flip "));
    const entryPoints = [...FLIP_WGSL.matchAll(/@compute[^]*?\bfn (\w+)/g)].map((m) => m[1]);
    assert.equal(entryPoints.length, 19);
    // the kernels that read faces have one pipeline over all faces and one per axis; apply_a
    // also runs as apply_a_gate (the fused loop's first iteration)
    const perAxis = ["p2g", "faces", "cell_sides", "pressure_update", "g2p"];
    assert.deepEqual(
      used.map(([label]) => label).sort(),
      [
        ...entryPoints.flatMap((e) => [
          `flip ${e}`,
          ...(perAxis.includes(e) ? ["x", "y", "z"].map((a) => `flip ${e} ${a}`) : []),
        ]),
        "flip apply_a_gate",
      ].sort(),
    );
    for (const [label, n] of used) assert.ok(n <= DEFAULT_STORAGE_BUFFERS, `${label}: ${n}`);
  });
  device.destroy();
});
