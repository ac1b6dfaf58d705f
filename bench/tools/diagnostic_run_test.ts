// run_tests: one implementation (the diagnostics' case setup)
import assert from "node:assert/strict";
import { getScene } from "../../scenes/catalog.ts";
import { acquireGpu } from "../../gpu/runtime/device.ts";
import { startDiagnostic } from "./diagnostic_run.ts";

Deno.test({
  name: "startDiagnostic: the scene's steps unless given; the handler and its overrides",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const gpu = await acquireGpu({ adapter: "software" });
    const scene = getScene("fig4-fluid-cloth", { scale: "tiny" });
    try {
      const whole = await startDiagnostic(scene, { handler: "penalty-weak", gpu });
      assert.equal(whole.steps, Math.round(scene.duration / scene.dt));
      assert.equal(whole.engine.handler.id, "penalty-weak");
      whole.engine.destroy();
      const some = await startDiagnostic(scene, {
        handler: "merge-split",
        params: { alpha: 0.5 },
        steps: 7,
        gpu,
      });
      assert.equal(some.steps, 7);
      assert.equal(some.engine.handlerParams.alpha, 0.5);
      some.engine.destroy();
      await assert.rejects(
        () => startDiagnostic(scene, { handler: "nope", gpu }),
        /known handlers: merge-split/,
      );
    } finally {
      gpu.device.destroy();
    }
  },
});
