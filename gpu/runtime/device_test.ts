import assert from "node:assert/strict";
import { GpuTimeoutError } from "./gpu_deadline.ts";
import { acquireGpu, REQUIRED_LIMITS, STORAGE_BUFFERS_ENV } from "./device.ts";

Deno.test("acquireGpu", async (t) => {
  await t.step(
    "the software adapter: identity captured, limits requested, timestamps when offered",
    async () => {
      const gpu = await acquireGpu({ adapter: "software" });
      assert.equal(gpu.info.isFallbackAdapter, true);
      assert.ok(gpu.info.description.length > 0);
      for (const name of Object.keys(REQUIRED_LIMITS)) assert.ok(gpu.info.limits[name] > 0, name);
      assert.equal(gpu.timestamps, gpu.adapter.features.has("timestamp-query"));
      assert.equal(gpu.info.features.includes("timestamp-query"), gpu.timestamps);
      gpu.device.destroy();
    },
  );
  await t.step("timestamps can be declined", async () => {
    const gpu = await acquireGpu({ adapter: "software", timestamps: false });
    assert.equal(gpu.timestamps, false);
    assert.deepEqual(gpu.info.features, []);
    gpu.device.destroy();
  });
});

Deno.test("storage buffers per stage: WebGPU's 8 at least, a cap by option or environment", async () => {
  const previous = Deno.env.get(STORAGE_BUFFERS_ENV);
  try {
    Deno.env.delete(STORAGE_BUFFERS_ENV);
    const eight = await acquireGpu({ adapter: "software", storageBuffers: 8 });
    assert.equal(eight.device.limits.maxStorageBuffersPerShaderStage, 8);
    eight.device.destroy();
    await assert.rejects(
      acquireGpu({ adapter: "software", storageBuffers: 7 }),
      /storageBuffers must be an integer in \[8, /,
    );
    Deno.env.set(STORAGE_BUFFERS_ENV, "8");
    const capped = await acquireGpu({ adapter: "software" });
    assert.equal(capped.device.limits.maxStorageBuffersPerShaderStage, 8);
    capped.device.destroy();
    Deno.env.set(STORAGE_BUFFERS_ENV, "eight");
    await assert.rejects(
      acquireGpu({ adapter: "software" }),
      /MERGESPLIT_STORAGE_BUFFERS must be an integer in \[8, \d+\] .* got NaN/,
    );
  } finally {
    if (previous === undefined) Deno.env.delete(STORAGE_BUFFERS_ENV);
    else Deno.env.set(STORAGE_BUFFERS_ENV, previous);
  }
});

Deno.test("acquireGpu: an adapter or device request that never answers ends in a GpuTimeoutError", async () => {
  const gpu = navigator.gpu;
  const real = gpu.requestAdapter;
  // a driver that hangs: the request never settles
  Object.defineProperty(gpu, "requestAdapter", {
    value: () => new Promise<GPUAdapter | null>(() => {}),
    configurable: true,
  });
  try {
    const t0 = performance.now();
    await assert.rejects(
      () => acquireGpu({ adapter: "software", deadlineSeconds: 0.2 }),
      (e: unknown) =>
        e instanceof GpuTimeoutError &&
        /requestAdapter \(adapter "software"\) in acquiring the GPU was still pending after/.test(
          e.message,
        ),
    );
    assert.ok(performance.now() - t0 < 5000, "ended by the deadline");
  } finally {
    delete (gpu as unknown as Record<string, unknown>).requestAdapter;
  }
  assert.equal(gpu.requestAdapter, real, "the real request is back");
  // the device request: the adapter answers, its requestDevice never does
  const adapter = await gpu.requestAdapter({ forceFallbackAdapter: true });
  assert.ok(adapter);
  Object.defineProperty(gpu, "requestAdapter", {
    value: () =>
      Promise.resolve(
        new Proxy(adapter, {
          get: (target, key) =>
            key === "requestDevice"
              ? () => new Promise<GPUDevice>(() => {})
              : Reflect.get(target, key, target),
        }),
      ),
    configurable: true,
  });
  try {
    await assert.rejects(
      () => acquireGpu({ adapter: "software", deadlineSeconds: 0.2 }),
      (e: unknown) => e instanceof GpuTimeoutError && /requestDevice on "/.test(e.message),
    );
  } finally {
    delete (gpu as unknown as Record<string, unknown>).requestAdapter;
  }
});
