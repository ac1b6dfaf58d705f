import assert from "node:assert/strict";
import { acquireGpu } from "./device.ts";
import { bindKernel, createKernel, dispatch, readBuffer, storageBuffer } from "./kernel.ts";
import { WORKGROUP_SUM_WGSL } from "./workgroup_sum.ts";
import { Rng } from "../../core/rng.ts";

const CODE = `${WORKGROUP_SUM_WGSL}
@group(0) @binding(0) var<storage, read> v: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(SUM_WORKGROUP_SIZE)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3u) {
  let s = workgroup_sum(lid, v[wid.x * SUM_WORKGROUP_SIZE + lid]);
  out[wid.x * SUM_WORKGROUP_SIZE + lid] = s;
}`;

Deno.test("workgroup_sum: every invocation gets its workgroup's total, the same every run", async () => {
  const { device } = await acquireGpu({ adapter: "software", label: "workgroup sum test" });
  device.pushErrorScope("validation");
  for (const wg of [32, 64, 256]) {
    const groups = 3;
    const rng = new Rng(wg);
    const v = Float32Array.from({ length: wg * groups }, () => rng.uniform(-1, 1));
    const k = createKernel(device, {
      label: `sum ${wg}`,
      code: CODE,
      entryPoint: "main",
      bindings: ["read-only-storage", "storage"],
      constants: { SUM_WORKGROUP_SIZE: wg },
    });
    const input = storageBuffer(device, { label: "v", size: v.byteLength, data: v });
    const runs: Float32Array[] = [];
    for (let r = 0; r < 2; r++) {
      const out = storageBuffer(device, { label: "out", size: v.byteLength });
      const enc = device.createCommandEncoder({ label: "sum" });
      const pass = enc.beginComputePass();
      dispatch(pass, k, { bindGroup: bindKernel(device, k, [input, out]), workgroups: groups });
      pass.end();
      device.queue.submit([enc.finish()]);
      runs.push(new Float32Array(await readBuffer(device, out)));
    }
    for (let g = 0; g < groups; g++) {
      let want = 0;
      for (let i = 0; i < wg; i++) want += v[g * wg + i];
      for (let i = 0; i < wg; i++) {
        const got = runs[0][g * wg + i];
        assert.ok(Math.abs(got - want) <= 1e-5 * wg, `wg ${wg} group ${g}: ${got} vs ${want}`);
      }
    }
    assert.deepEqual(runs[1], runs[0], "bit-identical reruns");
  }
  assert.equal(await device.popErrorScope(), null);
  device.destroy();
});
