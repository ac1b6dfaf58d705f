import assert from "node:assert/strict";
import { acquireGpu } from "./device.ts";
import { bindKernel, createKernel, dispatch, readBuffer, storageBuffer } from "./kernel.ts";
import { StepParamRing } from "./step_param_ring.ts";

// Each step's dispatch records the uniform it reads: out[slot] = value.
const CODE = `
struct P { value: u32, slot: u32 }
@group(0) @binding(0) var<uniform> p: P;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn record() { out[p.slot] = p.value; }`;

Deno.test("StepParamRing", async (t) => {
  const { device } = await acquireGpu({ adapter: "software", label: "step param ring test" });
  device.pushErrorScope("validation");
  const kernel = createKernel(device, {
    label: "ring test record",
    code: CODE,
    entryPoint: "record",
    bindings: ["uniform", "storage"],
  });
  const uniform = device.createBuffer({
    label: "ring test params",
    size: 8,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  const out = storageBuffer(device, { label: "ring test out", size: 64 });
  const group = bindKernel(device, kernel, [uniform, out]);
  const pack = (value: number, slot: number) => new Uint32Array([value, slot]).buffer;

  /** k steps, each in its own command buffer, all in one submit; `ring` or direct writes. */
  const steps = async (k: number, ring?: StepParamRing) => {
    device.queue.writeBuffer(out, 0, new Uint32Array(16));
    const buffers = [];
    for (let s = 0; s < k; s++) {
      const encoder = device.createCommandEncoder({ label: `ring test step ${s}` });
      if (ring) ring.write([pack(100 + s, s)], encoder);
      else device.queue.writeBuffer(uniform, 0, pack(100 + s, s));
      const pass = encoder.beginComputePass({ label: "ring test pass" });
      dispatch(pass, kernel, { bindGroup: group, workgroups: 1 });
      pass.end();
      buffers.push(encoder.finish());
    }
    device.queue.submit(buffers);
    return [...new Uint32Array(await readBuffer(device, out))].slice(0, k);
  };

  await t.step("steps sharing a submit each read their own values", async () => {
    const ring = new StepParamRing(device, { label: "test", targets: [uniform], bytes: 8 });
    assert.deepEqual(await steps(5, ring), [100, 101, 102, 103, 104]);
    // and again past the ring's first round (slots are reused only across submits)
    for (let r = 0; r < 14; r++) await steps(5, ring);
    assert.deepEqual(await steps(5, ring), [100, 101, 102, 103, 104]);
    ring.destroy();
  });

  await t.step(
    "the failure it prevents: direct writes leave every step the last value",
    async () => {
      assert.deepEqual(await steps(3, undefined), [0, 0, 102]);
    },
  );

  await t.step("bad sizes are refused with the label", () => {
    assert.throws(
      () => new StepParamRing(device, { label: "odd", targets: [uniform], bytes: 6 }),
      /odd: bytes must be a positive multiple of 4, got 6/,
    );
    const ring = new StepParamRing(device, { label: "two", targets: [uniform], bytes: 8 });
    const encoder = device.createCommandEncoder({ label: "ring test refused" });
    assert.throws(() => ring.write([], encoder), /two: 0 values for 1 targets/);
    assert.throws(
      () => ring.write([new ArrayBuffer(4)], encoder),
      /two: values for "ring test params" have 4 bytes, not 8/,
    );
    ring.destroy();
  });

  await t.step("without an encoder the values hold from the next submit", async () => {
    const ring = new StepParamRing(device, { label: "now", targets: [uniform], bytes: 8 });
    ring.write([pack(42, 3)]);
    const encoder = device.createCommandEncoder({ label: "ring test lone step" });
    const pass = encoder.beginComputePass({ label: "ring test pass" });
    dispatch(pass, kernel, { bindGroup: group, workgroups: 1 });
    pass.end();
    device.queue.submit([encoder.finish()]);
    assert.equal(new Uint32Array(await readBuffer(device, out))[3], 42);
    ring.destroy();
  });

  const error = await device.popErrorScope();
  assert.equal(error, null, error?.message);
});
