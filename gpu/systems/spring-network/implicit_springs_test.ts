import { SPRING_CLASS_STRUCT } from "../../state/spring_csr.ts";
import assert from "node:assert/strict";
import {
  dispatchesEncoded,
  kernelStorageBuffers,
  readBuffer,
  storageBuffer,
} from "../../runtime/kernel.ts";

const STORAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
import {
  backwardEulerStep,
  type DofState,
  dofStateFromGroups,
} from "../../../core/reference/cloth_reference.ts";
import { buildClothSprings } from "../../../core/model/cloth_springs.ts";
import { DOF_ACTIVE, DOF_FIXED } from "../../../core/model/dof_flags.ts";
import type { Spring } from "../../../core/model/spring.ts";
import { acquireGpu } from "../../runtime/device.ts";
import {
  CLOTH_PARAMS_STRUCT,
  type ClothBuffers,
  IMPLICIT_SPRINGS_WGSL,
  ImplicitSprings,
} from "./implicit_springs.ts";
import { checkWgslStruct } from "../../runtime/struct_layout.ts";

/** A storage buffer holding `data` (gpu/runtime/kernel.ts). */
const upload = (device: GPUDevice, label: string, data: Float32Array | Uint32Array): GPUBuffer =>
  storageBuffer(device, { label, size: data.byteLength, data });

/** The whole buffer read back as f32. */
const read = async (device: GPUDevice, buffer: GPUBuffer): Promise<Float32Array> =>
  new Float32Array(await readBuffer(device, buffer));

/** xyz (3 per element) → vec4 (w = 0). */
function vec4(xyz: ArrayLike<number>): Float32Array {
  const n = xyz.length / 3;
  const out = new Float32Array(4 * n);
  for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) out[4 * i + a] = xyz[3 * i + a];
  return out;
}

/** f32-rounded copy of a DOF state, so that GPU and reference see the same inputs. */
function roundState<T extends DofState>(state: T): T {
  const r = (a: ArrayLike<number>) => Float64Array.from(Float32Array.from(a));
  return {
    ...state,
    offset: r(state.offset),
    dofX: r(state.dofX),
    dofV: r(state.dofV),
    dofM: r(state.dofM),
  };
}

/** Fixture: a test cloth's springs (2 cm spacing; stiff stretch, softer shear and bend). */
function fixtureSprings(rows: number, cols: number): Spring[] {
  return buildClothSprings({
    rows,
    cols,
    spacing: 0.02,
    structural: 2000,
    shear: 500,
    bend: 100,
    damping: 0.1,
  });
}

/** The GPU buffers of a DOF state (gpu/README.md layouts). */
function uploadState(device: GPUDevice, state: DofState, extForce?: ArrayLike<number>) {
  const n = state.dof.length;
  const dof = Uint32Array.from(state.dof);
  const memberStart = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) memberStart[dof[i] + 1]++;
  for (let d = 0; d < n; d++) memberStart[d + 1] += memberStart[d];
  const fill = memberStart.slice(0, n);
  const memberList = new Uint32Array(n);
  for (let i = 0; i < n; i++) memberList[fill[dof[i]]++] = i;
  const flag = (f?: ArrayLike<number | boolean>) =>
    Uint32Array.from({ length: n }, (_, i) => (f?.[i] ? 1 : 0));
  const buffers: ClothBuffers = {
    dof: upload(device, "dof", dof),
    offset: upload(device, "offset", vec4(state.offset)),
    dofX: upload(device, "dofX", vec4(state.dofX)),
    dofV: upload(device, "dofV", vec4(state.dofV)),
    dofM: upload(device, "dofM", Float32Array.from(state.dofM)),
    extForce: upload(device, "extForce", vec4(extForce ?? new Float64Array(3 * n))),
    memberStart: upload(device, "memberStart", memberStart),
    memberList: upload(device, "memberList", memberList),
    pinned: upload(device, "pinned", flag(state.pinned)),
    dofVOut: upload(device, "dofVOut", new Float32Array(4 * n).fill(12345)),
  };
  return buffers;
}

function destroyAll(buffers: ClothBuffers) {
  for (const b of Object.values(buffers)) b?.destroy();
}

/** Test-only kernel: the lead's position update X += dt V' on live DOFs, with V ← V'. */
const ADVANCE_WGSL = `
struct AdvanceParams { count: u32, dt: f32 }
@group(0) @binding(0) var<uniform> params: AdvanceParams;
@group(0) @binding(1) var<storage, read> dof: array<u32>;
@group(0) @binding(2) var<storage, read_write> dofX: array<vec4f>;
@group(0) @binding(3) var<storage, read> dofV: array<vec4f>;
@compute @workgroup_size(64)
fn advance(@builtin(global_invocation_id) gid: vec3u) {
  let d = gid.x;
  if (d < params.count && dof[d] == d) {
    dofX[d] = vec4f(dofX[d].xyz + params.dt * dofV[d].xyz, dofX[d].w);
  }
}`;

function advancer(device: GPUDevice, buffers: ClothBuffers, n: number, dt: number) {
  const layout = device.createBindGroupLayout({
    label: "advance layout",
    entries: [
      { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: "uniform" } },
      { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: "read-only-storage" } },
      { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: { type: "storage" } },
      { binding: 3, visibility: GPUShaderStage.COMPUTE, buffer: { type: "read-only-storage" } },
    ],
  });
  const pipeline = device.createComputePipeline({
    label: "advance pipeline",
    layout: device.createPipelineLayout({
      label: "advance pipeline layout",
      bindGroupLayouts: [layout],
    }),
    compute: {
      module: device.createShaderModule({ label: "advance", code: ADVANCE_WGSL }),
      entryPoint: "advance",
    },
  });
  const params = device.createBuffer({
    label: "advance params",
    size: 16,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  const p = new ArrayBuffer(16);
  new Uint32Array(p, 0, 1)[0] = n;
  new Float32Array(p, 4, 1)[0] = dt;
  device.queue.writeBuffer(params, 0, p);
  const group = device.createBindGroup({
    label: "advance bind group",
    layout,
    entries: [
      { binding: 0, resource: { buffer: params } },
      { binding: 1, resource: { buffer: buffers.dof } },
      { binding: 2, resource: { buffer: buffers.dofX } },
      { binding: 3, resource: { buffer: buffers.dofVOut as GPUBuffer } },
    ],
  });
  return (encoder: GPUCommandEncoder) => {
    const pass = encoder.beginComputePass({ label: "advance pass" });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(Math.ceil(n / 64));
    pass.end();
  };
}

/** Flat rows × cols grid in the x–z plane, optionally jittered (seeded). */
function gridParticles(rows: number, cols: number, spacing: number, jitter: number, seed: number) {
  let s = seed >>> 0 || 1;
  const rnd = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return (s / 2 ** 32) * 2 - 1;
  };
  const n = rows * cols;
  const x = new Float64Array(3 * n), v = new Float64Array(3 * n);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      x.set([c * spacing + jitter * rnd(), jitter * rnd(), r * spacing + jitter * rnd()], 3 * i);
      v.set([0.2 * rnd(), 0.2 * rnd(), 0.2 * rnd()], 3 * i);
    }
  }
  return { x, v, m: new Float64Array(n).fill(1e-3), rnd };
}

Deno.test("ImplicitSprings on the software adapter", async (t) => {
  const { device } = await acquireGpu({ adapter: "software" });
  const gpuErrors: string[] = [];
  device.addEventListener("uncapturederror", (e) => {
    gpuErrors.push((e as GPUUncapturedErrorEvent).error.message);
  });

  await t.step("WGSL structs match the TypeScript layouts", () => {
    checkWgslStruct(IMPLICIT_SPRINGS_WGSL, CLOTH_PARAMS_STRUCT);
    checkWgslStruct(IMPLICIT_SPRINGS_WGSL, SPRING_CLASS_STRUCT);
  });

  await t.step(
    "one step matches the f64 reference (merged DOFs, pinned particles, non-cloth DOF)",
    async () => {
      const [rows, cols] = [8, 8];
      const nc = rows * cols;
      const n = nc + 2; // two extra non-cloth particles; one is merged into a cloth DOF
      const springs = fixtureSprings(rows, cols);
      const g = gridParticles(rows, cols, 0.02, 0.004, 7);
      const x = new Float64Array(3 * n),
        v = new Float64Array(3 * n),
        m = new Float64Array(n).fill(1e-3);
      x.set(g.x);
      v.set(g.v);
      x.set([0.07, 0.005, 0.07, 0.5, 0.5, 0.5], 3 * nc);
      v.set([0, -1, 0, 0.3, 0.2, 0.1], 3 * nc);
      m[nc] = 3e-3;
      const pinned = new Uint8Array(n);
      pinned[0] = pinned[cols - 1] = pinned[20] = 1;
      const cloth = Uint8Array.from({ length: n }, (_, i) => (i < nc ? 1 : 0));
      // Groups: pairs and triples of cloth particles, one with a pinned member, one with the
      // non-cloth particle nc (a "fluid" particle touching the cloth).
      const groups = [[9, 10], [27, 28, 35], [20, 21], [36, nc], [50, 58]];
      const state = roundState(dofStateFromGroups({ x, v, m, groups, pinned, cloth }));
      const extForce = Float64Array.from(
        Float32Array.from({ length: 3 * n }, (_, k) => 1e-3 * Math.sin(1.7 * k)),
      );
      const dt = 2e-3;
      const gravity: [number, number, number] = [0, -9.81, 0];
      const drag = 3; // implicit linear drag −c M v on the cloth DOFs
      const ref = backwardEulerStep(springs, state, {
        dt,
        gravity,
        extForce,
        tolerance: 1e-12,
        drag,
      });

      const system = new ImplicitSprings(device, {
        particleCount: n,
        springs,
        maxIterations: 200,
        tolerance: 1e-6,
        drag,
      });
      const buffers = uploadState(device, state, extForce);
      const bindings = system.bind(buffers);
      const encoder = device.createCommandEncoder({ label: "cloth step" });
      system.encodeStep(encoder, { bindings, dt, gravity });
      device.queue.submit([encoder.finish()]);
      const out = await read(device, buffers.dofVOut as GPUBuffer);
      const stats = await system.readSolverStats();
      assert.ok(
        stats.converged && stats.iterations > 0 && stats.iterations < 200,
        JSON.stringify(stats),
      );

      let scale = 0, worst = 0;
      for (let d = 0; d < n; d++) {
        if (!(ref.flags[d] & DOF_ACTIVE)) continue;
        for (let a = 0; a < 3; a++) {
          const dv = ref.dofV[3 * d + a] - state.dofV[3 * d + a];
          scale = Math.max(scale, Math.abs(dv), Math.abs(ref.dofV[3 * d + a]));
        }
      }
      for (let d = 0; d < n; d++) {
        if (ref.flags[d] & DOF_ACTIVE) {
          for (let a = 0; a < 3; a++) {
            worst = Math.max(
              worst,
              Math.abs(out[4 * d + a] - ref.dofV[3 * d + a]),
            );
          }
          assert.equal(out[4 * d + 3], 0);
        } else {
          // Non-live slots and the non-cloth DOF nc + 1 are left untouched.
          assert.deepEqual(
            [...out.slice(4 * d, 4 * d + 4)],
            [12345, 12345, 12345, 12345],
            `slot ${d}`,
          );
        }
        if (ref.flags[d] & DOF_FIXED) {
          assert.deepEqual([...out.slice(4 * d, 4 * d + 3)], [0, 0, 0], `fixed DOF ${d}`);
        }
      }
      assert.ok(worst <= 2e-5 * scale, `max |v_gpu − v_ref| = ${worst}, velocity scale ${scale}`);
      // the same step with the spring words split over two bindings: bit-identical
      const split = new ImplicitSprings(device, {
        particleCount: n,
        springs,
        maxIterations: 200,
        tolerance: 1e-6,
        drag,
        maxBindingSize: 2048,
      });
      const ranges = split.springCsr.wordRanges;
      assert.ok(ranges.firstLength < split.packed.words.length, "the words span two bindings");
      const buffers2 = uploadState(device, state, extForce);
      const encoder2 = device.createCommandEncoder({ label: "cloth step, split words" });
      split.encodeStep(encoder2, { bindings: split.bind(buffers2), dt, gravity });
      device.queue.submit([encoder2.finish()]);
      assert.deepEqual(await read(device, buffers2.dofVOut as GPUBuffer), out);
      destroyAll(buffers2);
      split.destroy();
      // the per-slot kernels dispatched as a 2D grid (2 workgroups per row, as past 65,535
      // workgroups at Table I's counts; 5 workgroups of 16 make 3 rows, the last one past the
      // end): bit-identical to the 1D grid, with the same statistics
      const stepWith = async (rowLength: number | undefined) => {
        const sys = new ImplicitSprings(device, {
          particleCount: n,
          springs,
          maxIterations: 200,
          tolerance: 1e-6,
          drag,
          localSolve: false,
          workgroupSize: 16,
          rowLength,
        });
        const buf = uploadState(device, state, extForce);
        const enc = device.createCommandEncoder({ label: `cloth step, rows of ${rowLength}` });
        sys.encodeStep(enc, { bindings: sys.bind(buf), dt, gravity });
        device.queue.submit([enc.finish()]);
        const result = {
          v: await read(device, buf.dofVOut as GPUBuffer),
          stats: await sys.readSolverStats(),
        };
        destroyAll(buf);
        sys.destroy();
        return result;
      };
      assert.equal(Math.ceil(n / 16), 5);
      const flat = await stepWith(undefined);
      assert.ok(flat.stats.converged && flat.stats.iterations > 0, JSON.stringify(flat.stats));
      assert.deepEqual(await stepWith(2), flat);
      // two-stage: stage 1 saves its Δv, stage 2 (the same system here) starts from it and
      // converges at once to the same answer; the iterations are counted per stage
      const staged = new ImplicitSprings(device, {
        particleCount: n,
        springs,
        maxIterations: 200,
        tolerance: 1e-6,
        drag,
      });
      const buffers3 = uploadState(device, state, extForce);
      const b3 = staged.bind(buffers3);
      const e1 = device.createCommandEncoder({ label: "stage 1" });
      staged.encodeStep(e1, { bindings: b3, dt, gravity, stage: 1 });
      device.queue.submit([e1.finish()]);
      const s1 = await staged.readSolverStats();
      const out1 = await read(device, buffers3.dofVOut as GPUBuffer);
      const e2 = device.createCommandEncoder({ label: "stage 2" });
      staged.encodeStep(e2, { bindings: b3, dt, gravity, stage: 2 });
      device.queue.submit([e2.finish()]);
      const s2 = await staged.readSolverStats();
      const out2 = await read(device, buffers3.dofVOut as GPUBuffer);
      assert.equal(s1.iterations, stats.iterations, "stage 1 is the cold solve");
      assert.ok(s2.converged && s2.iterations <= 1, `warm stage 2: ${JSON.stringify(s2)}`);
      let diff = 0;
      for (let k = 0; k < out1.length; k++) diff = Math.max(diff, Math.abs(out2[k] - out1[k]));
      assert.ok(diff <= 2e-5 * scale, `stage 2 vs stage 1: ${diff}`);
      assert.deepEqual(s2.stages, [
        { solves: 1, iterations: s1.iterations },
        { solves: 1, iterations: s2.iterations },
      ]);
      // cold (the paper's tests, §6.3): stage 2 solves from zero, as many iterations as stage 1
      // and the same answer bit for bit
      const e3 = device.createCommandEncoder({ label: "stage 2, cold" });
      staged.encodeStep(e3, { bindings: b3, dt, gravity, stage: 2, warmStart: false });
      device.queue.submit([e3.finish()]);
      const s3 = await staged.readSolverStats();
      assert.equal(s3.iterations, s1.iterations, "a cold stage 2 is stage 1's solve again");
      assert.deepEqual(await read(device, buffers3.dofVOut as GPUBuffer), out1);
      destroyAll(buffers3);
      staged.destroy();
      assert.equal(ref.flags[36], DOF_ACTIVE);
      assert.equal(ref.flags[20], DOF_ACTIVE | DOF_FIXED);
      assert.equal(ref.flags[nc + 1], 0);
      destroyAll(buffers);
      system.destroy();
    },
  );

  await t.step(
    "slots span the system's particles: others before, inside and after it, a DOF rooted at a non-cloth particle",
    async () => {
      const [rows, cols] = [8, 8];
      const nc = rows * cols;
      const n = nc + 4;
      // particle order: 0 a fluid particle merged into a cloth DOF (whose root it becomes), 1 a
      // free one, cloth 0..31 at 2..33, at 34 a fluid particle merged into another cloth DOF (a
      // particle inside the span the system does not own), cloth 32..63 at 35..66, 67 a free one
      const at = (c: number) => (c < 32 ? c + 2 : c + 3);
      const springs = fixtureSprings(rows, cols).map((sp) => ({ ...sp, i: at(sp.i), j: at(sp.j) }));
      const g = gridParticles(rows, cols, 0.02, 0.004, 7);
      const x = new Float64Array(3 * n), v = new Float64Array(3 * n);
      const m = new Float64Array(n).fill(1e-3);
      for (let c = 0; c < nc; c++) {
        x.set(g.x.slice(3 * c, 3 * c + 3), 3 * at(c));
        v.set(g.v.slice(3 * c, 3 * c + 3), 3 * at(c));
      }
      const fluid = [0, 1, 34, 67];
      const fluidX = [[0.07, 0.005, 0.07], [0.5, 0.5, 0.5], [0.09, 0.004, 0.09], [-0.2, 0.4, 0.1]];
      const fluidV = [[0, -1, 0], [0.3, 0.2, 0.1], [0.1, -0.5, 0], [0, 0, 1]];
      fluid.forEach((i, k) => {
        x.set(fluidX[k], 3 * i);
        v.set(fluidV[k], 3 * i);
        m[i] = 3e-3;
      });
      const pinned = new Uint8Array(n);
      pinned[at(0)] = pinned[at(cols - 1)] = pinned[at(20)] = 1;
      const cloth = Uint8Array.from({ length: n }, (_, i) => (fluid.includes(i) ? 0 : 1));
      const groups = [
        [at(9), at(10)],
        [at(27), at(28), at(35)],
        [at(20), at(21)],
        [0, at(36)],
        [34, at(44), at(45)],
        [at(50), at(58)],
      ];
      const state = roundState(dofStateFromGroups({ x, v, m, groups, pinned, cloth }));
      assert.equal(state.dof[at(36)], 0, "a DOF rooted outside the span");
      const extForce = Float64Array.from(
        Float32Array.from({ length: 3 * n }, (_, k) => 1e-3 * Math.sin(1.7 * k)),
      );
      const dt = 2e-3;
      const gravity: [number, number, number] = [0, -9.81, 0];
      const drag = 3;
      const ref = backwardEulerStep(springs, state, {
        dt,
        gravity,
        extForce,
        tolerance: 1e-12,
        drag,
      });
      for (const localSolve of [true, false]) {
        const system = new ImplicitSprings(device, {
          particleCount: n,
          springs,
          cloth,
          maxIterations: 200,
          tolerance: 1e-6,
          drag,
          localSolve,
        });
        assert.deepEqual([system.firstParticle, system.slotCount], [2, nc + 1]);
        const buffers = uploadState(device, state, extForce);
        const encoder = device.createCommandEncoder({ label: "cloth step, span" });
        system.encodeStep(encoder, { bindings: system.bind(buffers), dt, gravity });
        device.queue.submit([encoder.finish()]);
        const out = await read(device, buffers.dofVOut as GPUBuffer);
        const stats = await system.readSolverStats();
        assert.ok(stats.converged && stats.iterations > 0, JSON.stringify(stats));
        let scale = 0, worst = 0;
        for (let d = 0; d < n; d++) {
          if (!(ref.flags[d] & DOF_ACTIVE)) {
            assert.deepEqual([...out.slice(4 * d, 4 * d + 4)], [12345, 12345, 12345, 12345]);
            continue;
          }
          for (let a = 0; a < 3; a++) {
            scale = Math.max(scale, Math.abs(ref.dofV[3 * d + a]));
            worst = Math.max(worst, Math.abs(out[4 * d + a] - ref.dofV[3 * d + a]));
          }
        }
        assert.ok(ref.flags[0] & DOF_ACTIVE, "the DOF rooted at particle 0 is the system's");
        assert.ok(
          worst <= 2e-5 * scale,
          `localSolve ${localSolve}: max |Δ| ${worst}, scale ${scale}`,
        );
        destroyAll(buffers);
        system.destroy();
      }
    },
  );

  await t.step(
    "a 16×16 cloth pinned at its edges settles under gravity at dt = 2e-3; reruns are bit-identical",
    async () => {
      const [rows, cols] = [16, 16];
      const n = rows * cols;
      const dt = 2e-3;
      const springs: Spring[] = buildClothSprings({
        rows,
        cols,
        spacing: 0.02,
        structural: 5000,
        shear: 1250,
        bend: 250,
        damping: 0.5,
      });
      const g = gridParticles(rows, cols, 0.02, 0, 1);
      g.v.fill(0);
      const pinned = Uint8Array.from(
        { length: n },
        (_, i) => (i < cols || i >= n - cols || i % cols === 0 || i % cols === cols - 1 ? 1 : 0),
      );
      const simulate = async (steps: number, sample: number) => {
        const state = dofStateFromGroups({ ...g, pinned });
        const system = new ImplicitSprings(device, {
          particleCount: n,
          springs,
          maxIterations: 40,
        });
        const buffers = uploadState(device, state);
        (buffers.dofVOut as GPUBuffer).destroy();
        buffers.dofVOut = buffers.dofV; // in place
        const bindings = system.bind(buffers);
        const advance = advancer(device, buffers, n, dt);
        const history: Array<{ step: number; ke: number; vmax: number; iterations: number }> = [];
        for (let done = 0; done < steps; done += sample) {
          const encoder = device.createCommandEncoder({ label: "settle steps" });
          for (let k = 0; k < sample; k++) {
            system.encodeStep(encoder, { bindings, dt, gravity: [0, -9.81, 0] });
            advance(encoder);
          }
          device.queue.submit([encoder.finish()]);
          const vel = await read(device, buffers.dofV);
          let ke = 0, vmax = 0;
          for (let i = 0; i < n; i++) {
            const s2 = vel[4 * i] ** 2 + vel[4 * i + 1] ** 2 + vel[4 * i + 2] ** 2;
            assert.ok(Number.isFinite(s2), `NaN/Inf velocity at step ${done + sample}`);
            ke += 0.5 * 1e-3 * s2;
            vmax = Math.max(vmax, Math.sqrt(s2));
          }
          history.push({
            step: done + sample,
            ke,
            vmax,
            iterations: (await system.readSolverStats()).iterations,
          });
        }
        const final = { x: await read(device, buffers.dofX), v: await read(device, buffers.dofV) };
        destroyAll(buffers);
        system.destroy();
        return { history, final };
      };
      const { history, final } = await simulate(400, 50);
      const peak = Math.max(...history.map((h) => h.ke));
      const last = history[history.length - 1];
      assert.ok(last.ke < 1e-4 * peak, `kinetic energy ${peak} -> ${last.ke}`);
      assert.ok(last.vmax < 5e-3, `max speed ${last.vmax} after 400 steps`);
      for (let k = 3; k < history.length; k++) {
        assert.ok(
          history[k].ke < history[k - 1].ke,
          `kinetic energy decays: ${JSON.stringify(history)}`,
        );
      }
      assert.ok(
        history.every((h) => h.iterations > 0 && h.iterations < 40),
        JSON.stringify(history),
      );
      for (let i = 0; i < n; i++) {
        assert.ok(final.x.slice(4 * i, 4 * i + 3).every(Number.isFinite));
        if (pinned[i]) assert.equal(final.x[4 * i + 1], 0, `pinned particle ${i} stays`);
      }
      const sag = Math.min(...Array.from({ length: n }, (_, i) => final.x[4 * i + 1]));
      assert.ok(sag < -1e-3 && sag > -0.05, `the cloth sags a little: min y = ${sag}`);
      // Bit-identical reruns (first 30 steps, fresh objects).
      const a = await simulate(30, 30), b = await simulate(30, 30);
      assert.deepEqual(new Uint32Array(a.final.x.buffer), new Uint32Array(b.final.x.buffer));
      assert.deepEqual(new Uint32Array(a.final.v.buffer), new Uint32Array(b.final.v.buffer));
    },
  );

  await t.step(
    "the one-workgroup CG (solve_local) and the fused loop equal the five dispatched kernels bit for bit, across dispatches, also on a device of 8 storage buffers per stage",
    async () => {
      const [rows, cols] = [9, 7];
      const nc = rows * cols;
      const n = nc + 3;
      const springs = buildClothSprings({
        rows,
        cols,
        spacing: 0.02,
        structural: 3000,
        shear: 700,
        bend: 150,
        damping: 0.2,
      });
      const g = gridParticles(rows, cols, 0.02, 0.005, 11);
      const x = new Float64Array(3 * n), v = new Float64Array(3 * n);
      x.set(g.x);
      v.set(g.v);
      const m = new Float64Array(n).fill(1e-3);
      const pinned = new Uint8Array(n);
      pinned[0] = pinned[cols - 1] = 1;
      const cloth = Uint8Array.from({ length: n }, (_, i) => (i < nc ? 1 : 0));
      const groups = [[3, 4, 10], [30, 31], [nc - 1, nc], [40, 47, 48, 54]];
      const state = roundState(dofStateFromGroups({ x, v, m, groups, pinned, cloth }));
      const dt = 3e-3;
      const gravity: [number, number, number] = [0, -9.81, 0];
      const run = async (
        options: {
          localSolve: boolean;
          localBudget?: number;
          fusedLoop?: boolean;
          maxIterations?: number;
        },
        on: GPUDevice = device,
      ) => {
        const device = on;
        const system = new ImplicitSprings(device, {
          particleCount: n,
          springs,
          maxIterations: 40,
          tolerance: 1e-7,
          drag: 1,
          ...options,
        });
        const buffers = uploadState(device, state);
        const bindings = system.bind(buffers);
        const outs: Float32Array[] = [];
        const dispatches: number[] = [];
        for (const stage of [1, 2] as const) {
          const encoder = device.createCommandEncoder({ label: `stage ${stage}` });
          const before = dispatchesEncoded();
          system.encodeStep(encoder, { bindings, dt, gravity, stage });
          dispatches.push(dispatchesEncoded() - before);
          device.queue.submit([encoder.finish()]);
          outs.push(await read(device, buffers.dofVOut as GPUBuffer));
        }
        const stats = await system.readSolverStats();
        const local = system.localIterations;
        const loop = system.loop;
        destroyAll(buffers);
        system.destroy();
        return { outs, stats, local, loop, dispatches };
      };
      // per stage: classify, classify_values, spring_forces, init_cg (or init_cg_warm), the loop,
      // one finish kernel; stage 2's warm start: A x and warm_residual, and the gate dispatch of
      // the five-kernel loop (whose gate after init_cg, and after the warm start, is a dispatch of
      // its own; elsewhere the next kernel takes it, and the finish kernel the last gate)
      // (no iteration: the gate alone, and no warm start)
      const expected = (loop: string, iterations: number, local: number) => {
        const cg = iterations === 0
          ? 1
          : loop === "local"
          ? Math.ceil(iterations / local)
          : loop === "fused"
          ? 3 * iterations - 1
          : 1 + 5 * iterations - 2;
        const warm = iterations === 0 ? 0 : loop === "dispatched" ? 3 : 2;
        return [4 + cg + 1, 4 + warm + cg + 1];
      };
      const dispatched = await run({ localSolve: false, fusedLoop: false });
      assert.equal(dispatched.loop, "dispatched");
      assert.equal(dispatched.local, 0);
      assert.deepEqual(dispatched.dispatches, expected("dispatched", 40, 0));
      assert.ok(dispatched.stats.stages![0].iterations > 3, JSON.stringify(dispatched.stats));
      // stage 1 runs into the cap of 40 iterations (gate_final's path), stage 2 converges earlier
      assert.equal(dispatched.stats.stages![0].iterations, 40);
      assert.ok(dispatched.stats.stages![1].iterations < 40);
      // the default budget: one dispatch takes every iteration; a budget of 4000: an iteration
      // costs every invocation at least 184 counted loop iterations here (its slot loops and the
      // two totals), so a dispatch takes at most 21 of the 40 and the solve goes on in the next
      for (const localBudget of [undefined, 4000]) {
        const local = await run({ localSolve: true, localBudget });
        assert.ok(local.local >= 2, `iterations per dispatch: ${local.local}`);
        assert.deepEqual(local.dispatches, expected("local", 40, local.local));
        if (localBudget) assert.ok(local.local < dispatched.stats.stages![0].iterations);
        assert.deepEqual(local.stats, dispatched.stats);
        assert.deepEqual(local.outs, dispatched.outs, `budget ${localBudget}`);
      }
      // three direct dispatches per iteration, the totals in every workgroup
      const fused = await run({ localSolve: false });
      assert.equal(fused.loop, "fused");
      assert.deepEqual(fused.dispatches, expected("fused", 40, 0));
      assert.deepEqual(fused.stats, dispatched.stats);
      assert.deepEqual(fused.outs, dispatched.outs, "fused loop");
      // WebGPU's guaranteed 8 storage buffers per stage: every kernel fits, solve_local's 8 too
      const gpu8 = await acquireGpu({ adapter: "software", storageBuffers: 8, label: "8 buffers" });
      for (const [localSolve, fusedLoop] of [[true, true], [false, true], [false, false]]) {
        const on8 = await run({ localSolve, fusedLoop }, gpu8.device);
        assert.equal(on8.local > 0, localSolve);
        assert.deepEqual(on8.stats, dispatched.stats);
        assert.deepEqual(
          on8.outs,
          dispatched.outs,
          `on 8 storage buffers, localSolve ${localSolve}, fusedLoop ${fusedLoop}`,
        );
      }
      const used = Object.entries(kernelStorageBuffers(gpu8.device));
      for (
        const kernel of [
          "classify_values",
          "solve_local",
          "update_p_fused",
          "apply_a_gate",
          "init_cg_warm",
          "pap_finish",
          "finish_stage1_save",
          "finish_stage2",
        ]
      ) assert.ok(used.some(([label]) => label.endsWith(` ${kernel}`)), kernel);
      for (const [label, count] of used) assert.ok(count <= 8, `${label} binds ${count}`);
      gpu8.device.destroy();
      // caps of 0, 1 and 2 iterations: the gate with no iteration after it (a dispatch of its own,
      // the finish kernel's last gate a repeat of it), the first iteration's gate and gate_final
      // in one solve; each loop the same statistics and velocities
      for (const maxIterations of [0, 1, 2]) {
        const reference = await run({ localSolve: false, fusedLoop: false, maxIterations });
        assert.deepEqual(reference.dispatches, expected("dispatched", maxIterations, 0));
        if (maxIterations === 0) {
          // the gate's record: one iteration counted, the residual of the start, not converged
          const { iterations, relativeResidual, converged } = reference.stats;
          assert.deepEqual({ iterations, relativeResidual, converged }, {
            iterations: 1,
            relativeResidual: 1,
            converged: false,
          });
        }
        for (const [localSolve, fusedLoop] of [[true, true], [false, true]]) {
          const other = await run({ localSolve, fusedLoop, maxIterations });
          assert.deepEqual(other.dispatches, expected(other.loop, maxIterations, other.local));
          const what = `${other.loop} loop, ${maxIterations} iterations`;
          assert.deepEqual(other.stats, reference.stats, what);
          assert.deepEqual(other.outs, reference.outs, what);
        }
      }
    },
  );

  await t.step("errors name the bad argument", () => {
    const springs = [{ i: 0, j: 1, restLength: 1, ks: 1, kd: 0 }];
    assert.throws(
      () => new ImplicitSprings(device, { particleCount: 0, springs }),
      /options\.particleCount/,
    );
    assert.throws(
      () => new ImplicitSprings(device, { particleCount: 2, springs: [{ ...springs[0], j: 2 }] }),
      /options\.springs\[0\]\.j/,
    );
    assert.throws(
      () =>
        new ImplicitSprings(device, {
          particleCount: 2,
          springs: [{ ...springs[0], restLength: 0 }],
        }),
      /options\.springs\[0\]\.restLength/,
    );
    assert.throws(
      () => new ImplicitSprings(device, { particleCount: 2, springs, tolerance: -1 }),
      /options\.tolerance/,
    );
    const system = new ImplicitSprings(device, { particleCount: 2, springs });
    const state = dofStateFromGroups({ x: [0, 0, 0, 1, 0, 0], v: new Float64Array(6), m: [1, 1] });
    const buffers = uploadState(device, state);
    const small = device.createBuffer({ label: "small", size: 16, usage: STORAGE });
    assert.throws(() => system.bind({ ...buffers, dofX: small }), /buffers\.dofX has 16 bytes/);
    assert.throws(
      () => system.bind({ ...buffers, dofM: undefined as unknown as GPUBuffer }),
      /buffers\.dofM is missing/,
    );
    const bindings = system.bind(buffers);
    const encoder = device.createCommandEncoder({ label: "unused" });
    assert.throws(() => system.encodeStep(encoder, { bindings, dt: 0 }), /options\.dt/);
    assert.throws(
      () => system.encodeStep(encoder, { bindings, dt: 1, gravity: [0, 1] }),
      /options\.gravity/,
    );
    small.destroy();
    destroyAll(buffers);
    system.destroy();
  });

  await t.step("no uncaptured GPU errors", () => {
    assert.deepEqual(gpuErrors, []);
  });

  device.destroy();
});
