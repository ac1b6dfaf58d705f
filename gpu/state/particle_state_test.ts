import assert from "node:assert/strict";
import { SpringTable } from "../../core/model/spring_table.ts";
import type { ParticleSet } from "../../core/scene/scene_builder.ts";
import { Rng } from "../../core/rng.ts";
import { acquireGpu } from "../runtime/device.ts";
import { kernelStorageBuffers, readBuffer } from "../runtime/kernel.ts";
import { checkWgslStruct } from "../runtime/struct_layout.ts";
import { KIND_BITS, PARTICLE_STATE_WGSL, ParticleState, STATE_PARAMS } from "./particle_state.ts";

/** Fixture: `n` particles in two bodies (a 2 × 2 cloth with one spring, then a fluid). */
function particles(n: number, rng: Rng): ParticleSet {
  return {
    count: n,
    x: Float64Array.from({ length: 3 * n }, () => rng.uniform(-1, 1)),
    v: Float64Array.from({ length: 3 * n }, () => rng.uniform(-1, 1)),
    mass: Float64Array.from({ length: n }, () => rng.uniform(0.5, 2)),
    radius: new Float64Array(n).fill(0.01),
    body: Uint32Array.from({ length: n }, (_, i) => (i < 4 ? 0 : 1)),
    pinned: Uint8Array.from({ length: n }, (_, i) => (i === 0 ? 1 : 0)),
    bodies: [
      { name: "sheet", kind: "cloth", start: 0, count: 4, rows: 2, cols: 2 },
      { name: "fluid", kind: "fluid", start: 4, count: n - 4 },
    ],
    springs: SpringTable.from([{ i: 0, j: 1, restLength: 0.1, ks: 10, kd: 0 }]),
  };
}

Deno.test("ParticleState: buffers from a particle set; identity DOFs, DOF velocities, write-back", async (t) => {
  await t.step("WGSL struct matches its layout", () => {
    checkWgslStruct(PARTICLE_STATE_WGSL, STATE_PARAMS);
  });

  await t.step("kernels against the CPU", async () => {
    await kernelsAgainstCpu();
  });

  await t.step(
    "on a device of 8 storage buffers per stage: each kernel binds at most 8",
    async () => {
      const device = await kernelsAgainstCpu(8);
      const used = Object.entries(kernelStorageBuffers(device))
        .filter(([label]) => label.startsWith("particle state "));
      assert.deepEqual(used.map(([label]) => label).sort(), [
        "particle state dof_velocities",
        "particle state identity_dof_values",
        "particle state write_back",
        "particle state write_back_dofs",
      ]);
      for (const [label, count] of used) assert.ok(count <= 8, `${label} binds ${count}`);
      device.destroy();
    },
  );
});

/**
 * Builds a state on a software device (asking for `storageBuffers` per stage, default: what the
 * harness asks for), runs its kernels and checks them against the CPU; returns the device (destroyed
 * unless `storageBuffers` is given).
 */
async function kernelsAgainstCpu(storageBuffers?: number): Promise<GPUDevice> {
  const { device } = await acquireGpu({ adapter: "software", storageBuffers });
  device.pushErrorScope("validation");
  const n = 70;
  const p = particles(n, new Rng(3));
  const state = new ParticleState(device, {
    particles: p,
    systemOf: [1, 0],
    selfCollision: [true, false],
  });
  const b = state.buffers;
  const u32 = async (buf: GPUBuffer) => new Uint32Array(await readBuffer(device, buf));
  const f32 = async (buf: GPUBuffer) => new Float32Array(await readBuffer(device, buf));
  assert.deepEqual([...(await u32(b.system)).slice(0, 6)], [1, 1, 1, 1, 0, 0]);
  const kind = await u32(b.kind);
  assert.equal(kind[0], KIND_BITS.sheet | KIND_BITS.pinned);
  assert.equal(kind[5], KIND_BITS.fluid);
  // the bond 0–1 listed once, under its lower index 0
  assert.deepEqual([...(await u32(b.bondStart)).slice(0, 3)], [0, 1, 1]);
  assert.deepEqual([...(await u32(b.bondList)).slice(0, 1)], [1]);
  const cls = (await u32(b.bondClass))[0];
  assert.deepEqual([...(await f32(b.springClasses)).slice(4 * cls, 4 * cls + 4)], [
    Math.fround(0.1),
    10,
    0,
    0,
  ]);
  assert.deepEqual([...(await u32(b.selfCollision)).slice(0, 2)], [1, 0]);

  const run = (f: (pass: GPUComputePassEncoder) => void) => {
    const enc = device.createCommandEncoder({ label: "test" });
    const pass = enc.beginComputePass({ label: "test" });
    f(pass);
    pass.end();
    device.queue.submit([enc.finish()]);
  };
  // the identity map is there from the start; encodeIdentityDofs writes the DOF values
  run((pass) => state.encodeIdentityDofs(pass));
  const dofX = await f32(b.dofX);
  const dofV = await f32(b.dofV);
  const dofM = await f32(b.dofM);
  assert.deepEqual([...(await u32(b.dof)).slice(0, n)], [...Array(n).keys()]);
  assert.deepEqual([...(await u32(b.memberStart)).slice(0, n + 1)], [...Array(n + 1).keys()]);
  assert.deepEqual([...(await u32(b.memberList)).slice(0, n)], [...Array(n).keys()]);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      assert.equal(dofX[4 * i + a], Math.fround(p.x[3 * i + a]));
      assert.equal(dofV[4 * i + a], Math.fround(p.v[3 * i + a]));
    }
    assert.equal(dofX[4 * i + 3], 0);
    assert.equal(dofM[i], Math.fround(p.mass[i]));
  }
  assert.ok((await f32(b.offset)).every((o) => o === 0));

  // a merged map: particle i belongs to DOF i − i % 2, offset (i % 2) along x
  const dof = Uint32Array.from({ length: n }, (_, i) => i - (i % 2));
  const offset = Float32Array.from({ length: 4 * n }, (_, k) => (k % 4 === 0 ? (k / 4) % 2 : 0));
  device.queue.writeBuffer(b.dof, 0, dof);
  device.queue.writeBuffer(b.offset, 0, offset);
  run((pass) => state.encodeDofVelocities(pass));
  const velOut = await f32(b.velOut);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) assert.equal(velOut[4 * i + a], dofV[4 * dof[i] + a]);
  }
  run((pass) => state.encodeWriteBack(pass));
  const { pos, vel } = await state.read();
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      assert.equal(pos[4 * i + a], Math.fround(dofX[4 * dof[i] + a] + offset[4 * i + a]));
      assert.equal(vel[4 * i + a], velOut[4 * i + a]);
    }
    assert.equal(pos[4 * i + 3], Math.fround(0.01), "the radius stays in w");
  }
  // the two as one dispatch: the same velOut, positions and velocities, from a cleared velOut
  const enc = device.createCommandEncoder({ label: "clear velOut" });
  enc.clearBuffer(b.velOut);
  device.queue.submit([enc.finish()]);
  run((pass) => state.encodeDofWriteBack(pass));
  assert.deepEqual(await f32(b.velOut), velOut);
  const fused = await state.read();
  assert.deepEqual(fused.pos, pos);
  assert.deepEqual(fused.vel, vel);
  const h1 = await state.hash();
  assert.match(h1, /^[0-9a-f]{64}$/);
  assert.equal(await state.hash(), h1);
  assert.equal(await device.popErrorScope(), null);
  state.destroy();
  if (storageBuffers === undefined) device.destroy();
  return device;
}
