import assert from "node:assert/strict";
import { acquireGpu, REQUIRED_LIMITS } from "./device.ts";

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
