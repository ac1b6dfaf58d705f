import assert from "node:assert/strict";
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
