import assert from "node:assert/strict";
import {
  type FollowedPoint,
  formatTrace,
  type LeakEvent,
  SheetSides,
  type TracedSheet,
  traceLeaks,
} from "./leak_trace.ts";
import { getScene } from "../scenes/catalog.ts";
import { buildParticles } from "../core/scene_builder.ts";
import { acquireGpu } from "../gpu/runtime/device.ts";

/** A flat 5 × 5 sheet in the plane y = 0, spacing 1, then one more particle at `x`. */
function flatSheet(x: number[], stretch = 1): { sheet: TracedSheet; pos: Float32Array } {
  const pos = new Float32Array(4 * 26);
  for (let r = 0; r < 5; r++) {
    for (let c = 0; c < 5; c++) pos.set([c * stretch, 0, r * stretch, 0], 4 * (r * 5 + c));
  }
  pos.set([...x, 0], 4 * 25);
  return { sheet: { name: "cloth", start: 0, rows: 5, cols: 5, spacing: 1 }, pos };
}

Deno.test("leak trace: the side of a sheet, as the pass-through metric observes it", async (t) => {
  await t.step("a particle above or below an interior sheet particle is observed", () => {
    const { sheet, pos } = flatSheet([2, 0.5, 2]);
    const sides = new SheetSides(sheet, pos, { reach: 1 });
    const above = sides.observe([2.1, 0.5, 2]);
    const below = sides.observe([2.1, -0.5, 2]);
    assert.ok(above && below);
    assert.equal(above.side, -below.side);
    assert.deepEqual([above.row, above.col], [2, 2]);
    assert.ok(Math.abs(above.distance - Math.hypot(0.1, 0.5)) < 1e-6);
    assert.ok(Math.abs(above.normalCosine - 0.5 / Math.hypot(0.1, 0.5)) < 1e-6);
    assert.equal(above.strain, 0);
  });

  await t.step(
    "not observed: beyond the reach, next to the border, or in the sheet's plane",
    () => {
      const { sheet, pos } = flatSheet([0, 0, 0]);
      const sides = new SheetSides(sheet, pos, { reach: 1 });
      assert.equal(sides.observe([2, 1.5, 2]), null, "farther than the reach");
      assert.equal(sides.observe([0.1, 0.3, 2]), null, "nearest sheet particle on the border");
      // the initial side falls back to the plane at the centre particle
      assert.equal(sides.initialSide([2, 3, 2]), sides.observe([2, 0.3, 2])!.side);
    },
  );

  await t.step("the same observations wherever the sheet lies (cells keyed across zero)", () => {
    const { sheet, pos } = flatSheet([0, 0, 0]);
    const at = new SheetSides(sheet, pos, { reach: 1 });
    for (const shift of [[-7.3, -2.2, -5.1], [-0.5, -0.5, -0.5], [1e3, -1e3, 3.7]]) {
      const moved = pos.map((v, k) => (k % 4 === 3 ? v : v + shift[k % 4]));
      const there = new SheetSides(sheet, moved, { reach: 1 });
      for (const x of [[2.1, 0.5, 2], [1.6, -0.7, 2.4], [3.2, 0.9, 1.1], [2, 1.5, 2]]) {
        const here = at.observe(x as [number, number, number]);
        const seen = there.observe(x.map((v, a) => v + shift[a]) as [number, number, number]);
        assert.equal(seen?.side, here?.side, `${x} shifted by ${shift}`);
        assert.deepEqual([seen?.row, seen?.col], [here?.row, here?.col]);
        if (here) assert.ok(Math.abs(seen!.distance - here.distance) < 1e-3);
      }
    }
  });

  await t.step("the outline: the quadrilateral of the corners, along its normal", () => {
    const { sheet, pos } = flatSheet([0, 0, 0]);
    const sides = new SheetSides(sheet, pos, { reach: 1 });
    for (const x of [[2, 3, 2], [0.1, -5, 3.9], [4, 0, 4], [0, 1, 0]]) {
      assert.equal(sides.outsideOutline(x as [number, number, number]), false, `${x}`);
    }
    for (const x of [[4.1, 0, 2], [-0.1, -1, 2], [2, 0.5, 4.2], [2, -0.5, -3]]) {
      assert.equal(sides.outsideOutline(x as [number, number, number]), true, `${x}`);
    }
  });

  await t.step("a stretched sheet reports its strain", () => {
    const { sheet, pos } = flatSheet([0, 0, 0], 1.5);
    const seen = new SheetSides(sheet, pos, { reach: 2 }).observe([3, 0.2, 3]);
    assert.ok(seen);
    assert.ok(Math.abs(seen.strain - 0.5) < 1e-6);
    assert.throws(() => new SheetSides(sheet, pos, { reach: 0 }), /options.reach must be > 0/);
  });
});

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
