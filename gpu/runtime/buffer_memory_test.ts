import assert from "node:assert/strict";
import { acquireGpu } from "./device.ts";
import { trackBufferMemory } from "./buffer_memory.ts";

Deno.test("trackBufferMemory counts live and peak bytes", async () => {
  const { device } = await acquireGpu({ adapter: "software", label: "buffer memory test" });
  const m = trackBufferMemory(device);
  assert.equal(trackBufferMemory(device), m, "idempotent");
  const usage = GPUBufferUsage.STORAGE;
  const a = device.createBuffer({ label: "a", size: 1024, usage });
  const b = device.createBuffer({ label: "b", size: 4096, usage });
  assert.equal(m.live, 5120);
  a.destroy();
  a.destroy(); // twice counts once
  assert.equal(m.live, 4096);
  assert.equal(m.peak, 5120);
  m.resetPeak();
  assert.equal(m.peak, 4096);
  b.destroy();
  assert.equal(m.live, 0);
  assert.equal(m.created, 2);
  device.destroy();
});
