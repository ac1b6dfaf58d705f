// run_tests: one implementation (the leak-trace diagnostic's log of a ball let through)
import assert from "node:assert/strict";
import { type FollowedPoint, formatTrace, type LeakEvent, traceLeaks } from "./leak_trace.ts";
import { getScene } from "../../scenes/catalog.ts";
import { buildParticles } from "../../core/scene/scene_builder.ts";
import { acquireGpu } from "../../gpu/runtime/device.ts";

Deno.test({
  name: "leak trace: a ball through a cloth without contact forces, and none under merge-split",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const gpu = await acquireGpu({ adapter: "software" });
    const scene = getScene("fig3-ball-cloth-high", { scale: "tiny" });
    const ball = buildParticles(scene).bodies.find((b) => b.name === "ball")!;
    try {
      await t.step(
        "a negligible penalty lets the whole ball through, each particle logged",
        async () => {
          const live: LeakEvent[] = [];
          const progress: number[] = [];
          const followed: FollowedPoint[] = [];
          const trace = await traceLeaks(scene, {
            handler: "penalty",
            params: { stiffness: 1e-9 },
            gpu,
            onEvent: (e) => live.push(e),
            onProgress: (done) => progress.push(done),
            progressEvery: 50,
            follow: [ball.start],
            followEvery: 1,
            onFollow: (f) => followed.push(f),
          });
          assert.equal(followed.length, trace.steps);
          for (const f of followed) {
            assert.equal(f.particle, ball.start);
            assert.ok(f.step >= 0 && f.step < trace.steps);
            assert.equal(f.nearest.length, 1);
            assert.equal(f.outside[0], false, "the ball falls through the cloth's interior");
          }
          // the followed particle ends on the far side, and was near the cloth on its way
          assert.ok(followed.some((f) => f.nearest[0] !== null && f.nearest[0].distanceRadii < 2));
          assert.deepEqual(live, trace.events, "each event reported as it was seen");
          assert.deepEqual(
            progress,
            Array.from({ length: Math.floor(trace.steps / 50) }, (_, k) => 50 * (k + 1)),
          );
          const ids = Array.from({ length: ball.count }, (_, k) => ball.start + k);
          assert.deepEqual(trace.through, ids, "every ball particle ends on the other side");
          const first = new Map<number, number>();
          for (const e of trace.events) {
            assert.equal(e.body, "ball");
            assert.ok(e.distanceRadii < 2, `seen within the reach: ${e.distanceRadii}`);
            assert.ok(e.step >= 0 && e.step < trace.steps);
            if (!first.has(e.particle)) {
              first.set(e.particle, e.step);
              assert.equal(e.to, "through");
              // it fell at most 0.5 r a step (the CFL step), not tunnelled
              assert.ok(e.movedRadii < 0.6, `${e.movedRadii}`);
              // straight through the sheet: seen on its side the step before
              assert.equal(e.unseenSteps, 0, `particle ${e.particle} at step ${e.step}`);
              assert.equal(e.previous?.step, e.step - 1);
              assert.ok(e.previous!.distanceRadii < 2);
              const gap = Math.hypot(...e.position.map((v, a) => v - e.sheetPosition[a]));
              assert.ok(Math.abs(gap / scene.radius - e.distanceRadii) < 1e-3);
            }
          }
          assert.equal(first.size, ball.count);
          assert.match(
            formatTrace(trace),
            new RegExp(`${ball.count} particles through at the end`),
          );
        },
      );
      await t.step("merge-split lets nothing through: no event", async () => {
        const trace = await traceLeaks(scene, { handler: "merge-split", gpu });
        assert.deepEqual(trace.events, []);
        assert.deepEqual(trace.through, []);
      });
    } finally {
      gpu.device.destroy();
    }
  },
});
