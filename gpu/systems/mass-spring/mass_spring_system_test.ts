/**
 * The mass-spring system end to end at `tiny` (software adapter): the Fig. 3 ball on a mass-spring
 * cloth, on the harness's device and on one limited to WebGPU's guaranteed 8 storage buffers per
 * stage.
 */
import type { Scene } from "../../../core/scene/scene.ts";
import { getScene } from "../../../scenes/catalog.ts";
import { acquireGpu } from "../../runtime/device.ts";
import { assertSameWithin8 } from "../../storage_limit_fixture.ts";

Deno.test({
  name: "mass-spring system (tiny scene, software adapter)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    // Fixture: fig3's ball on its cloth, the cloth integrated by the mass-spring system (the
    // default system of a cloth body) instead of peridynamics.
    const base = getScene("fig3-ball-cloth-low", { scale: "tiny" });
    const solver = base.systems.peridynamics;
    const scene: Scene = {
      ...base,
      systems: {
        ...base.systems,
        "mass-spring": {
          cgIterations: solver.cgIterations,
          cgTolerance: solver.cgTolerance,
          drag: solver.drag ?? 0,
        },
      },
      bodies: base.bodies.map((b) => {
        if (b.kind !== "cloth") return b;
        const { system: _, ...cloth } = b;
        return cloth;
      }),
    };

    await t.step(
      "on a device of 8 storage buffers per stage: at most 8 per kernel, the same state",
      async () => {
        const gpu = await acquireGpu({ adapter: "software" });
        await assertSameWithin8(scene, gpu, {
          handler: "penalty",
          system: "mass-spring",
          steps: 40,
          expect: "classify_values",
        });
        gpu.device.destroy();
      },
    );
  },
});
