import assert from "node:assert/strict";
import { acquireGpu } from "./device.ts";
import {
  beginKernelRecord,
  bindKernel,
  clearKernelCache,
  createGroupLayout,
  createKernel,
  dispatch,
  dispatchesEncoded,
  type DispatchOptions,
  keepPipelineLabels,
  type Kernel,
  kernelStorageBuffers,
  kernelWorkgroupSizes,
  pipelineStats,
  readBuffer,
  storageBuffer,
} from "./kernel.ts";
import type { BindingResource } from "./kernel.ts";

const SPARSE_WGSL = `
struct P { scale: f32, unused: f32, count: u32 }
@group(0) @binding(0) var<uniform> p: P;
@group(0) @binding(3) var<storage, read> a: array<f32>;
@group(0) @binding(7) var<storage, read_write> out: array<f32>;

override WORKGROUP_SIZE: u32 = 64u;

@compute @workgroup_size(WORKGROUP_SIZE)
fn scale(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i < p.count) {
    out[i] = a[i] * p.scale + f32(i);
  }
}
`;

const TWO_GROUP_WGSL = `
struct P { add: f32, mul: f32, count: u32 }
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(1) @binding(0) var<uniform> p: P;

@compute @workgroup_size(32)
fn add(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * 32u;
  if (i < p.count) {
    out[i] = a[i] + p.add;
  }
}

@group(0) @binding(2) var<storage, read_write> inout: array<f32>;

@compute @workgroup_size(32)
fn mul(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i < p.count) {
    inout[i] = inout[i] * p.mul;
  }
}
`;

/** A uniform buffer holding `data` (two f32 then a u32, both test structs) at byte `offset`. */
function uniform(device: GPUDevice, label: string, size: number, offset: number, data: number[]) {
  const buffer = device.createBuffer({
    label,
    size,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  const bytes = new ArrayBuffer(16);
  new Float32Array(bytes, 0, 2).set(data.slice(0, 2));
  new Uint32Array(bytes, 8, 1)[0] = data[2];
  device.queue.writeBuffer(buffer, offset, bytes);
  return buffer;
}

/** Runs the dispatches in one pass and reads `buffer` back as f32. */
async function run(
  device: GPUDevice,
  dispatches: [Kernel, DispatchOptions][],
  buffer: GPUBuffer,
): Promise<Float32Array> {
  const encoder = device.createCommandEncoder({ label: "kernel test encoder" });
  const pass = encoder.beginComputePass({ label: "kernel test pass" });
  for (const [kernel, options] of dispatches) dispatch(pass, kernel, options);
  pass.end();
  device.queue.submit([encoder.finish()]);
  return new Float32Array(await readBuffer(device, buffer));
}

Deno.test("kernel.ts on the software adapter", async (t) => {
  const { device } = await acquireGpu({ adapter: "software" });
  const gpuErrors: string[] = [];
  device.addEventListener("uncapturederror", (e) => {
    gpuErrors.push((e as GPUUncapturedErrorEvent).error.message);
  });
  const n = 200;
  const a = Float32Array.from({ length: n }, (_, i) => (i % 17) - 8);

  await t.step("sparse bindings, bound in order and by binding number", async () => {
    const kernel = createKernel(device, {
      label: "sparse",
      code: SPARSE_WGSL,
      entryPoint: "scale",
      bindings: [[0, "uniform"], [3, "read-only-storage"], [7, "storage"]],
      constants: { WORKGROUP_SIZE: 16 },
    });
    assert.deepEqual(kernel.groups.map((g) => g.bindings), [[0, 3, 7]]);
    assert.equal(kernel.layout, kernel.groups[0].layout);
    const params = uniform(device, "sparse params", 16, 0, [3, 0, n]);
    const src = storageBuffer(device, { label: "sparse a", size: 4 * n, data: a });
    const expected = a.map((x, i) => x * 3 + i);
    for (const resources of [[params, src], new Map([[0, params], [3, src], [5, params]])]) {
      const out = storageBuffer(device, { label: "sparse out", size: 4 * n });
      const group = bindKernel(
        device,
        kernel,
        Array.isArray(resources) ? [...resources, out] : resources.set(7, out),
      );
      const got = await run(device, [[kernel, {
        bindGroup: group,
        workgroups: Math.ceil(n / 16),
      }]], out);
      assert.deepEqual(got, expected);
    }
  });

  await t.step(
    "two groups, a shared group layout with a dynamic offset, indirect dispatch",
    async () => {
      const shared = createGroupLayout(device, "shared params layout", [
        { type: "uniform", hasDynamicOffset: true, minBindingSize: 16 },
      ]);
      const add = createKernel(device, {
        label: "add",
        code: TWO_GROUP_WGSL,
        entryPoint: "add",
        groups: [["read-only-storage", "storage"], shared],
      });
      const mul = createKernel(device, {
        label: "mul",
        code: TWO_GROUP_WGSL,
        entryPoint: "mul",
        groups: [[[2, "storage"]], shared],
      });
      assert.equal(add.groups[1], shared);
      assert.equal(mul.groups[1].layout, add.groups[1].layout);
      // Slot 0 (unused) and slot 1 at byte 256: add 5, multiply by -2.
      const params = uniform(device, "two-group params", 512, 256, [5, -2, n]);
      const src = storageBuffer(device, { label: "two-group a", size: 4 * n, data: a });
      const out = storageBuffer(device, { label: "two-group out", size: 4 * n });
      const args = storageBuffer(device, {
        label: "indirect args",
        size: 12,
        data: new Uint32Array([Math.ceil(n / 32), 1, 1]),
        usage: GPUBufferUsage.INDIRECT,
      });
      const p = bindKernel(device, add, [{ buffer: params, size: 16 }], { group: 1 });
      const dynamicOffsets = [undefined, [256]];
      const got = await run(device, [
        [add, {
          bindGroup: [bindKernel(device, add, [src, out]), p],
          dynamicOffsets,
          invocations: n,
          workgroupSize: 32,
        }],
        [mul, {
          bindGroup: [bindKernel(device, mul, [out]), p],
          dynamicOffsets,
          indirect: args,
          indirectOffset: 0,
        }],
      ], out);
      assert.deepEqual(got, a.map((x) => (x + 5) * -2));
    },
  );

  await t.step("bad layouts and resources throw, naming the kernel", () => {
    const base = { label: "bad", code: SPARSE_WGSL, entryPoint: "scale" };
    assert.throws(
      () => createKernel(device, { ...base, bindings: [[3, "uniform"], [1, "storage"]] }),
      /bad bind group layout: binding 1 is not ascending/,
    );
    assert.throws(() => createKernel(device, base), /bad: give either bindings or groups/);
    const kernel = createKernel(device, {
      ...base,
      bindings: [[0, "uniform"], [3, "read-only-storage"], [7, "storage"]],
    });
    const b = storageBuffer(device, { label: "b", size: 16 });
    assert.throws(() => bindKernel(device, kernel, [b, b]), /bad: 3 bindings expected, 2 given/);
    assert.throws(
      () => bindKernel(device, kernel, new Map([[0, b], [3, b]])),
      /bad: binding 7 is missing/,
    );
    assert.throws(() => bindKernel(device, kernel, [b], { group: 1 }), /bad: no bind group 1/);
    // a storage binding past the adapter's limit names the buffer, its size and the limit
    const limit = device.limits.maxStorageBufferBindingSize;
    if (limit + 256 <= device.limits.maxBufferSize) {
      const u = device.createBuffer({ label: "u", size: 16, usage: GPUBufferUsage.UNIFORM });
      const big = device.createBuffer({
        label: "too big to bind",
        size: limit + 256,
        usage: GPUBufferUsage.STORAGE,
      });
      assert.throws(
        () => bindKernel(device, kernel, new Map([[0, u], [3, big], [7, b]])),
        /^RangeError: bad: binding 3 would bind [\d.]+ MiB of buffer "too big to bind", more than the adapter's maxStorageBufferBindingSize/,
      );
      // a range within the limit binds
      bindKernel(
        device,
        kernel,
        new Map<number, BindingResource>([[0, u], [3, { buffer: big, size: 1024 }], [7, b]]),
      );
      big.destroy();
      u.destroy();
    }
  });

  await t.step("dispatches are counted; workgroup sizes set by override are recorded", () => {
    const code = `override WG: u32 = 64u;
@group(0) @binding(0) var<storage, read_write> a: array<u32>;
@compute @workgroup_size(WG) fn main(@builtin(global_invocation_id) g: vec3u) { a[0] = g.x; }`;
    const k = createKernel(device, {
      label: "sized kernel",
      code,
      entryPoint: "main",
      bindings: ["storage"],
      constants: { WG: 32 },
    });
    assert.equal(kernelWorkgroupSizes(device)["sized kernel"], 32);
    const b = storageBuffer(device, { label: "count target", size: 16 });
    const group = bindKernel(device, k, [b]);
    const enc = device.createCommandEncoder({ label: "count" });
    const pass = enc.beginComputePass();
    const before = dispatchesEncoded();
    dispatch(pass, k, { bindGroup: group, workgroups: 2 });
    dispatch(pass, k, { bindGroup: group, workgroups: 0 }); // nothing recorded
    dispatch(pass, k, { bindGroup: group, invocations: 100, workgroupSize: 32 });
    assert.equal(dispatchesEncoded() - before, 2);
    pass.end();
    device.queue.submit([enc.finish()]);
  });

  await t.step("pipelines and layouts cached per device, kernel records begun anew", async () => {
    const bindings = [[0, "uniform"], [3, "read-only-storage"], [7, "storage"]] as const;
    const base = { code: SPARSE_WGSL, entryPoint: "scale", bindings };
    const before = pipelineStats(device);
    const first = createKernel(device, {
      ...base,
      label: "first",
      constants: { WORKGROUP_SIZE: 8 },
    });
    const again = createKernel(device, {
      ...base,
      label: "again",
      constants: { WORKGROUP_SIZE: 8 },
    });
    const other = createKernel(device, {
      ...base,
      label: "other",
      constants: { WORKGROUP_SIZE: 4 },
    });
    assert.equal(again.pipeline, first.pipeline, "same code, entry point, constants, layouts");
    assert.equal(again.label, "again");
    assert.equal(again.layout, first.layout);
    assert.notEqual(other.pipeline, first.pipeline, "other constants: another pipeline");
    const after = pipelineStats(device);
    assert.equal(after.created - before.created, 2);
    assert.equal(after.reused - before.reused, 1);
    assert.ok(after.seconds > before.seconds);
    // equal entries, written differently: one layout object, so bind groups fit either kernel
    const l1 = createGroupLayout(device, "l1", ["read-only-storage", "storage"]);
    const l2 = createGroupLayout(device, "l2", [[0, "read-only-storage"], [1, {
      type: "storage",
    }]]);
    assert.equal(l2.layout, l1.layout);
    assert.equal(l2.label, "l2");
    // the reused pipeline runs with the bind group of its new kernel
    const params = uniform(device, "cached params", 16, 0, [2, 0, n]);
    const src = storageBuffer(device, { label: "cached a", size: 4 * n, data: a });
    const out = storageBuffer(device, { label: "cached out", size: 4 * n });
    const got = await run(device, [[again, {
      bindGroup: bindKernel(device, again, [params, src, out]),
      invocations: n,
      workgroupSize: 8,
    }]], out);
    assert.deepEqual(got, a.map((x, i) => x * 2 + i));
    // a new record lists only the kernels created since, cached or not
    beginKernelRecord(device);
    assert.deepEqual(kernelWorkgroupSizes(device), {});
    assert.deepEqual(kernelStorageBuffers(device), {});
    createKernel(device, { ...base, label: "next case", constants: { WORKGROUP_SIZE: 8 } });
    assert.deepEqual(kernelWorkgroupSizes(device), { "next case": 8 });
    assert.deepEqual(kernelStorageBuffers(device), { "next case": 2 });
    // a cleared cache compiles anew
    clearKernelCache(device);
    const fresh = createKernel(device, {
      ...base,
      label: "fresh",
      constants: { WORKGROUP_SIZE: 8 },
    });
    assert.notEqual(fresh.pipeline, first.pipeline);
    assert.equal(pipelineStats(device).created - after.created, 1);
    // for the profiler: a pipeline only under its own label
    keepPipelineLabels(device);
    const w = { ...base, constants: { WORKGROUP_SIZE: 8 } };
    const named = createKernel(device, { ...w, label: "named" });
    assert.notEqual(named.pipeline, fresh.pipeline);
    assert.equal(named.pipeline.label, "named");
    assert.equal(createKernel(device, { ...w, label: "named" }).pipeline, named.pipeline);
  });

  await device.queue.onSubmittedWorkDone();
  assert.deepEqual(gpuErrors, []);
  device.destroy();
});
