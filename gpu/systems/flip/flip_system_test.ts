import assert from "node:assert/strict";
import type { Scene } from "../../../core/scene/scene.ts";
import { validateScene } from "../../../core/scene/scene.ts";
import { getScene } from "../../../scenes/catalog.ts";
import { acquireGpu } from "../../runtime/device.ts";
import { Engine } from "../../engine.ts";
import { latticeRestDensity } from "../../../core/model/sph_params.ts";
import { FLIP_SYSTEM, flipRestDensities } from "./flip_system.ts";

/**
 * A FLIP fluid at rest on the floor of a closed box, filling it wall to wall (the fig4 domain at
 * tiny, r = 0.02 m; dx = 0.075 m divides it), 300 steps: hydrostatic. Thresholds by a physical rule, fixed before running: the fluid stays "at
 * rest" when its fastest particle stays below 5 % of √(2gH), the speed of a fall over its own
 * height H, and its volume holds when its mean height changes by less than 2 % of H.
 */
Deno.test({
  name: "flip system: a fluid at rest in a box stays at rest (hydrostatic), no volume drift",
  sanitizeResources: false,
  fn: async () => {
    const base = getScene("fig4-fluid-cloth", { scale: "tiny" });
    const H = 0.2;
    const r = base.radius;
    const floor = base.domain.min[1];
    const scene: Scene = validateScene({
      ...base,
      id: "flip-hydrostatic",
      bodies: [{
        kind: "fluid",
        name: "water",
        system: "flip",
        // wall to wall: a block with free sides would collapse (a dam break), not rest
        shape: {
          type: "box",
          min: [base.domain.min[0], floor, base.domain.min[2]],
          max: [base.domain.max[0], floor + H, base.domain.max[2]],
        },
        spacing: 2 * r,
        jitter: 0.05,
        velocity: [0, 0, 0],
        particleMass: 1000 * (2 * r) ** 3,
      }],
      systems: { flip: { dx: 0.075 } },
      applicableHandlers: ["merge-split"],
    });
    const gpu = await acquireGpu({ adapter: "software" });
    const engine = await Engine.create(scene, { handler: "merge-split", gpu });
    const y0 = await meanHeight(engine);
    await engine.run(300);
    const series = await engine.readMetrics();
    const y1 = await meanHeight(engine);
    const stats = (await engine.readAllSolverStats()).flip;
    engine.destroy();
    gpu.device.destroy();
    const limit = 0.05 * Math.sqrt(2 * 9.81 * H);
    const fastest = Math.max(...series.map((s) => s.maxSpeed));
    assert.equal(Math.max(...series.map((s) => s.nanCount)), 0);
    assert.ok(fastest < limit, `max speed ${fastest} m/s ≥ ${limit} m/s`);
    assert.ok(Math.abs(y1 - y0) < 0.02 * H, `mean height ${y0} → ${y1} m`);
    assert.ok(stats.converged, `pressure solve ${JSON.stringify(stats)}`);
  },
});

async function meanHeight(engine: Engine): Promise<number> {
  const pos = await engine.readPositions();
  let sum = 0;
  for (let i = 0; i < pos.length / 4; i++) sum += pos[4 * i + 1];
  return sum / (pos.length / 4);
}

Deno.test("flipRestDensities: the body's lattice reading for FLIP particles, 0 for others", () => {
  const scene = { bodies: [{ spacing: 0.02 }, { spacing: 0.01 }] } as unknown as Pick<
    Scene,
    "bodies"
  >;
  const m = 1000 * 0.02 ** 3;
  const rho = flipRestDensities(scene, { mass: [m, m, 1], body: [0, 0, 1] }, [1, 1, 0], 0.04);
  assert.equal(rho[0], Math.fround(latticeRestDensity(m, 0.02, 0.04)));
  assert.equal(rho[1], rho[0]);
  assert.equal(rho[2], 0);
  const bad = { bodies: [{}] } as unknown as Pick<Scene, "bodies">;
  assert.throws(
    () => flipRestDensities(bad, { mass: [m], body: [0] }, [1], 0.04),
    /bodies\[0\]\.spacing/,
  );
});

Deno.test("flip system: the density correction's walls need a domain at least 2·dx wide", () => {
  const scene = getScene("dam-break-flip", { scale: "tiny" });
  const dx = 0.08;
  const params = { dx, densityIterations: 1 } as Parameters<
    NonNullable<typeof FLIP_SYSTEM.checkScene>
  >[0];
  // one cell across z: the mirror planes of both side walls would lie within h = dx
  const narrow = { ...scene, domain: { min: [0, 0, 0], max: [1.92, 0.72, dx] } } as Scene;
  assert.throws(() => FLIP_SYSTEM.checkScene!(params, narrow), /domain.*2·dx = 0\.16/s);
  FLIP_SYSTEM.checkScene!({ ...params, densityIterations: 0 }, narrow);
  FLIP_SYSTEM.checkScene!(params, {
    ...narrow,
    domain: { ...narrow.domain, max: [1.92, 0.72, 2 * dx] },
  });
});
