import assert from "node:assert/strict";
import { acquireGpu } from "./device.ts";
import { bindKernel, createKernel, dispatch, readBuffer, storageBuffer } from "./kernel.ts";
import { COPY_PARAMS, DISPATCH_GATE_WGSL, DispatchGate, GATE_PARAMS } from "./dispatch_gate.ts";
import { checkWgslStruct } from "./struct_layout.ts";

// count: every invocation adds 1; stale_args: writes (3, 1, 1) into args (a "solver gate").
const CODE = `
@group(0) @binding(0) var<storage, read_write> counter: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> args: array<u32>;
@compute @workgroup_size(64) fn count(@builtin(global_invocation_id) g: vec3u) {
  atomicAdd(&counter[0], 1u);
}
@compute @workgroup_size(1) fn write_args() {
  args[0] = 3u; args[1] = 1u; args[2] = 1u;
}`;

Deno.test("DispatchGate", async (t) => {
  const { device } = await acquireGpu({ adapter: "software", label: "dispatch gate test" });
  device.pushErrorScope("validation");

  await t.step("WGSL structs match the TypeScript layouts", () => {
    checkWgslStruct(DISPATCH_GATE_WGSL, GATE_PARAMS);
    checkWgslStruct(DISPATCH_GATE_WGSL, COPY_PARAMS);
  });

  const k = (entryPoint: string, binding: number) =>
    createKernel(device, {
      label: `gate test ${entryPoint}`,
      code: CODE,
      entryPoint,
      bindings: [[binding, "storage"]],
    });
  const count = k("count", 0);
  const writeArgs = k("write_args", 1);
  const counter = storageBuffer(device, { label: "counter", size: 16 });
  const args = storageBuffer(device, {
    label: "solver args",
    size: 16,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.INDIRECT | GPUBufferUsage.COPY_DST,
  });
  const flag = storageBuffer(device, { label: "flag", size: 16 });
  const group = bindKernel(device, count, [counter]);
  const argsGroup = bindKernel(device, writeArgs, [args]);
  const gate = new DispatchGate(device, { label: "test gate", flag: { buffer: flag, word: 2 } });

  // A region: 2 direct dispatches (2 and 5 workgroups of 64), then a solver that writes its own
  // indirect args (3 workgroups) and dispatches from them.
  const step = async (open: boolean, staleArgs: boolean, rewritten = false) => {
    device.queue.writeBuffer(flag, 8, new Uint32Array([open ? 7 : 0]));
    device.queue.writeBuffer(counter, 0, new Uint32Array([0]));
    device.queue.writeBuffer(args, 0, new Uint32Array(staleArgs ? [9, 1, 1] : [0, 1, 1]));
    const enc = device.createCommandEncoder({ label: "gate test step" });
    const pass = enc.beginComputePass({ label: "gate test pass" });
    gate.encodeOpen(pass);
    gate.run(() => {
      dispatch(pass, count, { bindGroup: group, workgroups: 2 });
      dispatch(pass, count, { bindGroup: group, invocations: 5 * 64, workgroupSize: 64 });
      dispatch(pass, writeArgs, { bindGroup: argsGroup, workgroups: 1 });
      dispatch(pass, count, { bindGroup: group, indirect: args, indirectOffset: 0, rewritten });
    });
    pass.end();
    device.queue.submit([enc.finish()]);
    return new Uint32Array(await readBuffer(device, counter))[0];
  };

  await t.step("open: the region runs as it would ungated", async () => {
    assert.equal(await step(true, false), (2 + 5 + 3) * 64);
    assert.equal(await step(true, true), (2 + 5 + 3) * 64);
  });

  await t.step("closed: nothing runs, whatever the stale indirect arguments say", async () => {
    assert.equal(await step(false, true), 0);
    assert.equal(await step(false, false), 0);
    assert.equal(await step(true, true), (2 + 5 + 3) * 64, "and opens again");
  });

  await t.step("rewritten arguments: copied the first time, then zeroed when closed", async () => {
    for (let k = 0; k < 3; k++) {
      assert.equal(await step(false, true, true), 0, `closed, region ${k}`);
      assert.equal(await step(true, true, true), (2 + 5 + 3) * 64, `open, region ${k}`);
    }
  });

  await t.step("too many dispatches in a region fail with a clear message", () => {
    const small = new DispatchGate(device, {
      label: "small gate",
      flag: { buffer: flag, word: 0 },
      capacity: 1,
    });
    const enc = device.createCommandEncoder({ label: "overflow" });
    const pass = enc.beginComputePass();
    assert.throws(
      () =>
        small.run(() => {
          dispatch(pass, count, { bindGroup: group, workgroups: 1 });
          dispatch(pass, count, { bindGroup: group, workgroups: 1 });
        }),
      /more than 1 direct dispatches; construct the gate with a larger capacity/,
    );
    pass.end();
    small.destroy();
  });

  assert.equal(await device.popErrorScope(), null);
  gate.destroy();
  device.destroy();
});
