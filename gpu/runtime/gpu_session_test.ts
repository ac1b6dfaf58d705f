import assert from "node:assert/strict";
import { acquireGpu } from "./device.ts";
import { GpuSession } from "./gpu_session.ts";
import { GpuMemoryError } from "./buffer_memory.ts";

const STORAGE = GPUBufferUsage.STORAGE;

Deno.test("GpuSession: peak beyond the start, budget, ownership of the device", async () => {
  const gpu = await acquireGpu({ adapter: "software" });
  const earlier = gpu.device.createBuffer({ label: "earlier case", size: 4096, usage: STORAGE });
  const budget = { bytes: 1 << 20, what: "a test budget" };
  const borrowed = new GpuSession(gpu, { owns: false, memoryBudget: budget });
  const a = gpu.device.createBuffer({ label: "a", size: 1024, usage: STORAGE });
  assert.equal(borrowed.peakBufferBytes, 1024, "the earlier case's buffer does not count");
  assert.throws(
    () => gpu.device.createBuffer({ label: "big", size: 2 << 20, usage: STORAGE }),
    GpuMemoryError,
  );
  borrowed.throwReported("nothing");
  borrowed.close();
  borrowed.close(); // idempotent
  // not owned: the device lives on, without the budget
  gpu.device.createBuffer({ label: "after", size: 2 << 20, usage: STORAGE }).destroy();
  a.destroy();
  earlier.destroy();
  // owned: closing destroys the device
  const owned = new GpuSession(gpu, { owns: true, memoryBudget: null });
  owned.close();
  const info = await gpu.device.lost;
  assert.equal(info.reason, "destroyed");
});
