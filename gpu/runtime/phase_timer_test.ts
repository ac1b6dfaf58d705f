import assert from "node:assert/strict";
import { acquireGpu } from "./device.ts";
import { PhaseTimer, writtenRuns } from "./phase_timer.ts";

/** A kernel whose cost grows with `iterations` (writes its result so it is not optimized out). */
const BUSY_WGSL = `
override ITERATIONS: u32 = 1u;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64)
fn busy(@builtin(global_invocation_id) id: vec3u) {
  var x = f32(id.x) * 1e-3;
  for (var k = 0u; k < ITERATIONS; k = k + 1u) {
    x = fract(x * 1.618034 + 0.5) + sin(x);
  }
  out[id.x] = x;
}
`;

Deno.test("PhaseTimer", async (t) => {
  const { device, timestamps } = await acquireGpu({
    adapter: "software",
    label: "phase timer test",
  });
  assert.ok(timestamps, "llvmpipe offers timestamp-query; this test expects it");
  device.pushErrorScope("validation");

  const layout = device.createBindGroupLayout({
    label: "busy layout",
    entries: [{ binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: "storage" } }],
  });
  const module = device.createShaderModule({ label: "busy shader", code: BUSY_WGSL });
  const busy = (iterations: number) =>
    device.createComputePipeline({
      label: `busy ${iterations}`,
      layout: device.createPipelineLayout({
        label: "busy pipeline layout",
        bindGroupLayouts: [layout],
      }),
      compute: { module, entryPoint: "busy", constants: { ITERATIONS: iterations } },
    });
  const light = busy(1);
  const heavy = busy(4000);
  const groups = 64;
  const out = device.createBuffer({
    label: "busy out",
    size: groups * 64 * 4,
    usage: GPUBufferUsage.STORAGE,
  });
  const bindGroup = device.createBindGroup({
    label: "busy bind group",
    layout,
    entries: [{ binding: 0, resource: { buffer: out } }],
  });
  const run = (
    encoder: GPUCommandEncoder,
    label: string,
    pipeline: GPUComputePipeline | null,
    writes?: GPUComputePassTimestampWrites,
  ) => {
    const pass = encoder.beginComputePass({ label, timestampWrites: writes });
    if (pipeline) {
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroup);
      pass.dispatchWorkgroups(groups);
    }
    pass.end();
  };

  await t.step("options are validated", () => {
    assert.throws(
      () => new PhaseTimer(device, { phases: [], capacitySteps: 1 }),
      /at least one phase/,
    );
    assert.throws(
      () => new PhaseTimer(device, { phases: ["a", "a"], capacitySteps: 1 }),
      /listed twice/,
    );
    assert.throws(
      () => new PhaseTimer(device, { phases: ["a"], capacitySteps: 0 }),
      /capacitySteps/,
    );
    assert.throws(
      () => new PhaseTimer(device, { phases: ["a", "b"], capacitySteps: 1025 }),
      /capacitySteps ≤ 1024/,
    );
    const timer = new PhaseTimer(device, { phases: ["a"], capacitySteps: 2 });
    assert.throws(() => timer.writes("b", 0), /unknown phase "b"/);
    assert.throws(() => timer.writes("a", 2), /outside \[0, 2\)/);
    timer.destroy();
  });

  await t.step("phases are timed per step, one map per batch, batches repeat", async () => {
    const steps = 3;
    const timer = new PhaseTimer(device, {
      phases: ["empty", "light", "heavy", "split", "untimed"],
      capacitySteps: steps,
    });
    assert.equal(timer.enabled, true);
    assert.equal(timer.reason, "");
    for (let batch = 0; batch < 2; batch++) {
      const encoder = device.createCommandEncoder({ label: `timed batch ${batch}` });
      const started = performance.now();
      for (let s = 0; s < steps; s++) {
        run(encoder, "empty", null, timer.writes("empty", s));
        run(encoder, "light", light, timer.writes("light", s));
        run(encoder, "heavy", heavy, timer.writes("heavy", s));
        // "split": two passes, the phase runs from the first's begin to the second's end.
        run(encoder, "split 1", heavy, timer.writes("split", s, { part: "begin" }));
        run(encoder, "between", light);
        run(encoder, "split 2", heavy, timer.writes("split", s, { part: "end" }));
      }
      timer.resolve(encoder);
      device.queue.submit([encoder.finish()]);
      const { steps: got, ms } = await timer.read();
      const wallMs = performance.now() - started;
      assert.equal(got, steps);
      assert.deepEqual(Object.keys(ms), timer.phases);
      for (const name of ["empty", "light", "heavy", "split"]) {
        assert.equal(ms[name].length, steps);
        for (const v of ms[name]) assert.ok(Number.isFinite(v) && v >= 0, `${name}: ${v} ms`);
      }
      assert.ok(ms.untimed.every(Number.isNaN), "a phase never timed reads NaN");
      const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
      // Generous orderings: a 4000-iteration kernel against an empty pass and a 1-iteration one.
      assert.ok(sum(ms.heavy) > 2 * sum(ms.empty), `heavy ${ms.heavy} vs empty ${ms.empty}`);
      assert.ok(sum(ms.heavy) > 2 * sum(ms.light), `heavy ${ms.heavy} vs light ${ms.light}`);
      assert.ok(sum(ms.split) > 1.2 * sum(ms.heavy), `split ${ms.split} vs heavy ${ms.heavy}`);
      // Units: all GPU time fits in the wall-clock time of the batch (ticks are nanoseconds).
      const gpuMs = sum(ms.empty) + sum(ms.light) + sum(ms.heavy) + sum(ms.split);
      assert.ok(gpuMs <= wallMs * 1.05, `GPU ${gpuMs} ms within wall ${wallMs} ms`);
      assert.ok(gpuMs >= wallMs * 0.05, `GPU ${gpuMs} ms is a real share of wall ${wallMs} ms`);
    }
    timer.destroy();
  });

  await t.step("read() before resolve() says what to do; partial batches work", async () => {
    const timer = new PhaseTimer(device, { phases: ["p", "q"], capacitySteps: 8 });
    const encoder = device.createCommandEncoder({ label: "partial batch" });
    run(encoder, "p", light, timer.writes("p", 0));
    run(encoder, "q", light, timer.writes("q", 1));
    await assert.rejects(timer.read(), /resolve\(encoder\)/);
    timer.resolve(encoder);
    device.queue.submit([encoder.finish()]);
    const { steps, ms } = await timer.read();
    assert.equal(steps, 2);
    assert.ok(ms.p[0] >= 0 && Number.isNaN(ms.p[1]));
    assert.ok(Number.isNaN(ms.q[0]) && ms.q[1] >= 0);
    assert.deepEqual(
      await timer.read(),
      { steps: 0, ms: { p: [], q: [] } },
      "a new batch is empty",
    );
    timer.destroy();
  });

  await t.step(
    "only written queries are resolved (an unwritten one hangs wgpu on Vulkan)",
    async () => {
      // phases p, q, r over 3 steps: p every step, q only in step 1, r's begin only in step 2
      const timer = new PhaseTimer(device, { phases: ["p", "q", "r"], capacitySteps: 4 });
      const encoder = device.createCommandEncoder({ label: "sparse batch" });
      for (let s = 0; s < 3; s++) run(encoder, "p", light, timer.writes("p", s));
      run(encoder, "q", light, timer.writes("q", 1));
      run(encoder, "r", light, timer.writes("r", 2, { part: "begin" }));
      const resolves: [number, number, number][] = [];
      const spy = new Proxy(encoder, {
        get(target, key) {
          if (key === "resolveQuerySet") {
            return (set: GPUQuerySet, first: number, count: number, dst: GPUBuffer, at: number) => {
              resolves.push([first, count, at]);
              target.resolveQuerySet(set, first, count, dst, at);
            };
          }
          const v = Reflect.get(target, key);
          return typeof v === "function" ? v.bind(target) : v;
        },
      });
      timer.resolve(spy);
      // queries: step s, phase k → 2(3s + k), +1; p: 0-1, 6-7, 12-13; q (step 1): 8-9; r begin: 16
      assert.deepEqual(resolves.map(([f, c]) => [f, c]), [[0, 2], [6, 4], [12, 2], [16, 1]]);
      assert.ok(resolves.every(([, , at]) => at % 256 === 0), "256-byte aligned destinations");
      device.queue.submit([encoder.finish()]);
      const { ms } = await timer.read();
      assert.ok(ms.p.every((v) => v >= 0) && ms.q[1] >= 0, `${JSON.stringify(ms)}`);
      assert.ok(Number.isNaN(ms.q[0]) && Number.isNaN(ms.r[2]), "unwritten slots read NaN");
      timer.destroy();
    },
  );

  await t.step("writtenRuns: maximal runs of the requested begin/end bits", () => {
    assert.deepEqual(writtenRuns(new Uint8Array([3, 3, 0, 1, 2, 3]), 6), [[0, 4], [6, 1], [9, 3]]);
    assert.deepEqual(writtenRuns(new Uint8Array([3, 3, 3]), 2), [[0, 4]], "only `slots` slots");
    assert.deepEqual(writtenRuns(new Uint8Array(4), 4), []);
  });

  await t.step("disabled by the caller: no writes, empty reads", async () => {
    const timer = new PhaseTimer(device, { phases: ["p"], capacitySteps: 2, enabled: false });
    assert.equal(timer.enabled, false);
    assert.match(timer.reason, /enabled: false/);
    assert.equal(timer.writes("p", 1), undefined);
    const encoder = device.createCommandEncoder({ label: "untimed" });
    run(encoder, "p", light, timer.writes("p", 0));
    timer.resolve(encoder);
    device.queue.submit([encoder.finish()]);
    assert.deepEqual(await timer.read(), { steps: 0, ms: { p: [] } });
    timer.destroy();
  });

  await t.step("no validation errors", async () => {
    const error = await device.popErrorScope();
    assert.equal(error, null, error?.message);
  });
  out.destroy();
  device.destroy();

  await t.step("a device without timestamp-query disables the timer and says why", async () => {
    const plain = await acquireGpu({
      adapter: "software",
      timestamps: false,
      label: "untimed device",
    });
    const timer = new PhaseTimer(plain.device, { phases: ["p"], capacitySteps: 1 });
    assert.equal(timer.enabled, false);
    assert.match(timer.reason, /lacks the "timestamp-query" feature.*wall clock/);
    assert.equal(timer.writes("p", 0), undefined);
    plain.device.destroy();
  });
});
