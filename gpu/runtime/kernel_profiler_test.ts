import assert from "node:assert/strict";
import { acquireGpu } from "./device.ts";
import { bindKernel, createKernel, dispatch, readBuffer, storageBuffer } from "./kernel.ts";
import { KernelProfiler } from "./kernel_profiler.ts";

// out[i] = a[i] * 2 + i, then out[i] += 1 in a second kernel, the work of `LOOPS` rounds each
const WGSL = `
override LOOPS: u32 = 1u;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn double(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i < arrayLength(&out)) {
    var v = 0.0;
    for (var k = 0u; k < LOOPS; k++) { v = a[i] * 2.0 + f32(i); }
    out[i] = v;
  }
}
@compute @workgroup_size(64)
fn increment(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i < arrayLength(&out)) { out[i] = out[i] + 1.0; }
}
`;

Deno.test("KernelProfiler times each dispatch by phase and kernel; the work is unchanged", async (t) => {
  const { device } = await acquireGpu({ adapter: "software", timestamps: true });
  const n = 4096;
  const a = Float32Array.from({ length: n }, (_, i) => i % 7);
  const input = storageBuffer(device, { label: "a", size: 4 * n, data: a });
  const out = storageBuffer(device, { label: "out", size: 4 * n });
  const kernel = (entryPoint: string, loops: number) =>
    createKernel(device, {
      label: `profiler test ${entryPoint}`,
      code: WGSL,
      entryPoint,
      bindings: ["read-only-storage", "storage"],
      constants: { LOOPS: loops },
    });
  const heavy = kernel("double", 2000);
  const light = kernel("increment", 1);
  const heavyGroup = bindKernel(device, heavy, [input, out]);
  const lightGroup = bindKernel(device, light, [input, out]);
  const profiler = new KernelProfiler(device);

  await t.step("rows per phase and kernel, counts and times", async () => {
    for (let step = 0; step < 3; step++) {
      const encoder = profiler.wrap(device.createCommandEncoder({ label: "profiled" }));
      profiler.phase = "first";
      const pass = encoder.beginComputePass({ label: "two kernels in one pass" });
      dispatch(pass, heavy, { bindGroup: heavyGroup, invocations: n, workgroupSize: 64 });
      dispatch(pass, light, { bindGroup: lightGroup, invocations: n, workgroupSize: 64 });
      pass.end();
      profiler.phase = "second";
      const pass2 = encoder.beginComputePass({ label: "again" });
      dispatch(pass2, light, { bindGroup: lightGroup, invocations: n, workgroupSize: 64 });
      pass2.end();
      profiler.resolve(encoder);
      device.queue.submit([encoder.finish()]);
      await profiler.read();
    }
    assert.equal(profiler.steps, 3);
    const rows = profiler.rows();
    assert.deepEqual(
      rows.map((r) => [r.phase, r.kernel, r.dispatches, r.indirect]).sort(),
      [
        ["first", "profiler test double", 3, 0],
        ["first", "profiler test increment", 3, 0],
        ["second", "profiler test increment", 3, 0],
      ],
    );
    for (const r of rows) assert.ok(r.ms > 0, `${r.phase} ${r.kernel}: ${r.ms} ms`);
    // most time first: the kernel with 2000 rounds per element leads
    assert.equal(rows[0].kernel, "profiler test double");
    const result = new Float32Array(await readBuffer(device, out));
    for (const i of [0, 1, 100, n - 1]) assert.equal(result[i], a[i] * 2 + i + 2, `out[${i}]`);
  });

  await t.step("reset forgets; reading before resolving throws", async () => {
    profiler.reset();
    assert.equal(profiler.steps, 0);
    assert.deepEqual(profiler.rows(), []);
    const encoder = profiler.wrap(device.createCommandEncoder({ label: "unresolved" }));
    const pass = encoder.beginComputePass({ label: "one" });
    dispatch(pass, light, { bindGroup: lightGroup, invocations: n, workgroupSize: 64 });
    pass.end();
    await assert.rejects(() => profiler.read(), /recorded after the last resolve/);
    profiler.resolve(encoder);
    device.queue.submit([encoder.finish()]);
    await profiler.read();
    assert.equal(profiler.rows()[0].dispatches, 1);
  });

  await t.step("a device without timestamp-query is refused, naming the feature", async () => {
    const plain = await acquireGpu({ adapter: "software", timestamps: false });
    assert.throws(() => new KernelProfiler(plain.device), /timestamp-query/);
    plain.device.destroy();
  });

  profiler.destroy();
  input.destroy();
  out.destroy();
  device.destroy();
});
