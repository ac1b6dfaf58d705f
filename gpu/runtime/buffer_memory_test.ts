import assert from "node:assert/strict";
import { acquireGpu } from "./device.ts";
import { GpuMemoryError, trackBufferMemory } from "./buffer_memory.ts";

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

Deno.test("a buffer budget refuses the buffer that would pass it, naming it", async () => {
  const { device } = await acquireGpu({ adapter: "software", label: "buffer budget test" });
  try {
    const m = trackBufferMemory(device);
    m.setBudget({ bytes: 2 ** 20, what: "a test budget" });
    const usage = GPUBufferUsage.STORAGE;
    const a = device.createBuffer({ label: "first", size: 600 * 1024, usage });
    assert.throws(
      () => device.createBuffer({ label: "second", size: 600 * 1024, usage }),
      (e: unknown) =>
        e instanceof GpuMemoryError && e.needed === 1200 * 1024 &&
        /needs more than 1\.2 MiB of GPU buffers, over 1\.0 MiB \(a test budget\): buffer "second" of 600\.0 KiB with 600\.0 KiB already/
          .test(e.message),
    );
    assert.equal(m.live, 600 * 1024, "nothing allocated for the refused buffer");
    a.destroy();
    device.createBuffer({ label: "fits now", size: 600 * 1024, usage }).destroy();
    m.setBudget(null);
    device.createBuffer({ label: "no budget", size: 4 * 2 ** 20, usage }).destroy();
    assert.throws(() => m.setBudget({ bytes: 0, what: "x" }), /bytes must be > 0/);
  } finally {
    device.destroy();
  }
});
