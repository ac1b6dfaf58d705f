import assert from "node:assert/strict";
import { acquireGpu } from "./device.ts";
import { StepClock } from "./step_clock.ts";

/**
 * Encodes and submits `steps` empty-pass steps through `clock`, `perSubmit` to a submit (and one
 * at each batch's end), ending the batch after the last.
 */
async function runSteps(
  device: GPUDevice,
  clock: StepClock<"a" | "b">,
  steps: number,
  perSubmit = 1,
) {
  const pending: GPUCommandBuffer[] = [];
  for (let s = 0; s < steps; s++) {
    clock.beginStep();
    const encoder = device.createCommandEncoder({ label: `step clock test step ${s}` });
    for (const phase of ["a", "b"] as const) {
      encoder.beginComputePass({ label: `phase ${phase}`, timestampWrites: clock.writes(phase) })
        .end();
    }
    const ends = clock.endStep(encoder, s === steps - 1);
    pending.push(encoder.finish());
    if (ends || pending.length === perSubmit) {
      device.queue.submit(pending.splice(0));
      clock.submitted();
    }
    if (ends) await clock.endBatch();
  }
}

Deno.test("StepClock: the wall clock covers every batch's steps, the host's time every step; reset forgets both", async () => {
  const gpu = await acquireGpu({ adapter: "software", label: "step clock test" });
  try {
    for (const timestamps of [gpu.timestamps, false]) {
      const clock = new StepClock<"a" | "b">(gpu.device, {
        phases: ["a", "b"],
        timestamps,
        batchSteps: 3,
      });
      await runSteps(gpu.device, clock, 7); // batches of 3, 3 and 1 steps
      const t = clock.timings;
      assert.equal(t.source, timestamps ? "timestamp" : "wall-clock");
      assert.equal(t.total.length, 7);
      assert.equal(t.wall.steps, 7);
      assert.ok(t.wall.ms > 0, "three batches take some wall-clock time");
      assert.equal(clock.hostSyncs, 3, "one host sync per batch");
      assert.equal(t.host.steps, 7, "every step's encode and submit is counted");
      assert.ok(
        t.host.ms > 0 && t.host.ms <= t.wall.ms,
        "the host's time lies inside the wall clock",
      );
      clock.reset();
      assert.deepEqual(clock.timings.wall, { steps: 0, ms: 0 });
      assert.deepEqual(clock.timings.host, { steps: 0, ms: 0 });
      await runSteps(gpu.device, clock, 2);
      assert.equal(clock.timings.wall.steps, 2);
      assert.equal(clock.timings.host.steps, 2);
      // two steps to a submit: each step's timestamps, every step's host time counted once
      clock.reset();
      await runSteps(gpu.device, clock, 7, 2);
      assert.equal(clock.timings.total.length, 7);
      assert.equal(clock.timings.host.steps, 7);
      assert.ok(clock.timings.host.ms <= clock.timings.wall.ms);
      clock.destroy();
    }
  } finally {
    gpu.device.destroy();
  }
});
