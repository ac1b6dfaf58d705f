import assert from "node:assert/strict";
import { buildParticles } from "../core/scene/scene_builder.ts";
import { Engine } from "../gpu/engine.ts";
import { acquireGpu } from "../gpu/runtime/device.ts";
import { getScene } from "./catalog.ts";

Deno.test("Fig. 8 scenes: geometry, and the first steps under merge-split (tiny)", async (t) => {
  await t.step("bodies start apart, the wall's bottom layer is pinned", () => {
    for (const id of ["fig8-cloth-tori", "fig8-dam-break-wall", "fig8-bowl"]) {
      const s = getScene(id, { scale: "small" });
      const p = buildParticles(s);
      // no two particles of different bodies closer than 2r (no initial overlap)
      const r2 = (2 * s.radius * (1 - 1e-6)) ** 2;
      for (let i = 0; i < p.count; i += 7) {
        for (let j = 0; j < p.count; j++) {
          if (p.body[i] === p.body[j]) continue;
          const d2 = (p.x[3 * i] - p.x[3 * j]) ** 2 + (p.x[3 * i + 1] - p.x[3 * j + 1]) ** 2 +
            (p.x[3 * i + 2] - p.x[3 * j + 2]) ** 2;
          assert.ok(d2 >= r2, `${id}: particles ${i} and ${j} of different bodies overlap`);
        }
      }
      for (const b of p.bodies) assert.ok(b.count > 0, `${id}: ${b.kind} body has particles`);
      if (id === "fig8-dam-break-wall") {
        const wall = p.bodies[0];
        const pinned = p.pinned.subarray(wall.start, wall.start + wall.count);
        const layer = Math.round(0.06 / (2 * s.radius)) * Math.round(0.3 / (2 * s.radius));
        assert.equal(pinned.reduce((a, v) => a + v, 0), layer, "one pinned layer");
      }
    }
  });

  await t.step("the bowl falls freely until it meets the water", async () => {
    const gpu = await acquireGpu({ adapter: "software" });
    try {
      const s = getScene("fig8-bowl", { scale: "tiny" });
      const p = buildParticles(s);
      const bowl = p.bodies[0];
      const lowest = (x: ArrayLike<number>, stride: number) => {
        let y = Infinity;
        for (let i = bowl.start; i < bowl.start + bowl.count; i++) {
          y = Math.min(y, x[stride * i + 1]);
        }
        return y;
      };
      const steps = Math.round(0.15 / s.dt); // 0.11 m of a 0.3 m fall
      const engine = await Engine.create(s, { handler: "merge-split", gpu });
      try {
        await engine.run(steps);
        const { pos } = await engine.readState();
        const fall = lowest(p.x, 3) - lowest(pos, 4);
        const t = steps * s.dt;
        const want = 0.5 * 9.81 * t * t;
        assert.ok(Math.abs(fall / want - 1) < 0.05, `fell ${fall} m, free fall ${want} m`);
        assert.ok(pos.every(Number.isFinite), "finite state");
      } finally {
        engine.destroy();
      }
    } finally {
      gpu.device.destroy();
    }
  });
});
