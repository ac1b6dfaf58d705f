/**
 * Test fixture: a scene run on the harness's device and on one limited to WebGPU's guaranteed 8
 * storage buffers per stage gives the same state, and a system's kernels bind at most 8 there.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Scene } from "../core/scene/scene.ts";
import { Engine } from "./engine.ts";
import { acquireGpu, type GpuContext } from "./runtime/device.ts";
import { DEFAULT_STORAGE_BUFFERS, kernelStorageBuffers } from "./runtime/kernel.ts";

/**
 * Runs `scene` under `options.handler` for `options.steps` steps on `gpu` and on a fresh device
 * of 8 storage buffers per stage; asserts equal state hashes, that the kernels labelled
 * `<options.system> …` bind at most 8 there, and that one of them ends in `options.expect`.
 */
export async function assertSameWithin8(
  scene: Scene,
  gpu: GpuContext,
  options: { handler: string; system: string; steps: number; expect: string },
): Promise<void> {
  const gpu8 = await acquireGpu({ adapter: "software", storageBuffers: DEFAULT_STORAGE_BUFFERS });
  try {
    const hashes = [];
    for (const on of [gpu, gpu8]) {
      const engine = await Engine.create(scene, { handler: options.handler, gpu: on });
      try {
        assert.ok(engine.systems.some((s) => s.id === options.system), options.system);
        await engine.run(options.steps);
        hashes.push(await engine.stateHash());
      } finally {
        engine.destroy();
      }
    }
    assert.equal(hashes[1], hashes[0]);
    const used = Object.entries(kernelStorageBuffers(gpu8.device))
      .filter(([label]) => label.startsWith(`${options.system} `));
    assert.ok(used.some(([label]) => label.endsWith(` ${options.expect}`)), options.expect);
    for (const [label, count] of used) {
      assert.ok(count <= DEFAULT_STORAGE_BUFFERS, `${label} binds ${count}`);
    }
  } finally {
    gpu8.device.destroy();
  }
}
