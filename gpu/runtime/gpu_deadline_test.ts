import assert from "node:assert/strict";
import {
  DEFAULT_DEADLINE_FACTOR,
  DEFAULT_DEADLINE_FLOOR_SECONDS,
  GpuDeadline,
  GpuTimeoutError,
} from "./gpu_deadline.ts";

const never = () => new Promise<never>(() => {});

Deno.test("GpuDeadline", async (t) => {
  await t.step("the floor alone before any batch, then factor × slowest ms/step × steps", () => {
    const d = new GpuDeadline();
    assert.equal(d.seconds(100), DEFAULT_DEADLINE_FLOOR_SECONDS);
    d.observe(10, 50); // 5 ms/step
    d.observe(10, 20); // faster: the slowest stays
    assert.equal(d.msPerStep, 5);
    assert.equal(d.batches, 2);
    assert.equal(d.seconds(100), DEFAULT_DEADLINE_FLOOR_SECONDS, "50 × 5 ms × 100 = 25 s < floor");
    assert.equal(d.seconds(1000), (DEFAULT_DEADLINE_FACTOR * 5 * 1000) / 1000);
    d.observe(0, 10); // an empty batch teaches nothing
    assert.equal(d.msPerStep, 5);
  });

  await t.step("work that settles in time passes through, value or error", async () => {
    const d = new GpuDeadline({ floorSeconds: 5 });
    assert.equal(await d.wait(Promise.resolve(7), { phase: "p", operation: "o" }), 7);
    await assert.rejects(
      () => d.wait(Promise.reject(new TypeError("mapping failed")), { phase: "p", operation: "o" }),
      /^TypeError: mapping failed$/,
    );
  });

  await t.step(
    "work that never settles: a GpuTimeoutError naming phase and operation",
    async () => {
      const d = new GpuDeadline({ floorSeconds: 0.05 });
      const t0 = performance.now();
      await assert.rejects(
        () =>
          d.wait(never(), {
            phase: "step batch 3 (steps 40–59)",
            operation: "mapAsync of the phase timer readback",
            steps: 20,
          }),
        (e: unknown) =>
          e instanceof GpuTimeoutError && e.reason === "deadline" &&
          e.phase === "step batch 3 (steps 40–59)" &&
          /^GPU work did not complete: mapAsync of the phase timer readback in step batch 3 \(steps 40–59\) was still pending after 0\.050 s \(the 0\.050 s floor: no batch of this case had finished yet\)/
            .test(e.message),
      );
      assert.ok(performance.now() - t0 < 2000);
      const learned = new GpuDeadline({ floorSeconds: 0.01, factor: 2 });
      learned.observe(4, 120); // 30 ms/step: 2 × 30 ms × 2 steps = 0.12 s
      await assert.rejects(
        () => learned.wait(never(), { phase: "metrics readback", operation: "o", steps: 2 }),
        (e: unknown) =>
          e instanceof GpuTimeoutError && e.seconds === 0.12 &&
          /after 0\.12 s \(2 × 30\.0 ms\/step × 2 step\(s\), at least 0\.010 s\)/.test(e.message),
      );
    },
  );

  await t.step("the case's end cuts any wait, with its own reason", async () => {
    const d = new GpuDeadline({ floorSeconds: 60, notAfter: performance.now() + 50 });
    await assert.rejects(
      () =>
        d.wait(never(), { phase: "step batch 1 (steps 0–9)", operation: "onSubmittedWorkDone" }),
      (e: unknown) =>
        e instanceof GpuTimeoutError && e.reason === "case time limit" && e.seconds < 1 &&
        /onSubmittedWorkDone in step batch 1/.test(e.message),
    );
  });

  await t.step("bad options are named", () => {
    assert.throws(() => new GpuDeadline({ floorSeconds: 0 }), /floorSeconds must be > 0/);
    assert.throws(() => new GpuDeadline({ factor: NaN }), /factor must be > 0/);
  });
});
