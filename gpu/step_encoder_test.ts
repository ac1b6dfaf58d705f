import assert from "node:assert/strict";
import { getScene } from "../scenes/catalog.ts";
import { buildEngineParts } from "./engine_parts.ts";
import { applicableHandler, handlerParams } from "./handlers/registry.ts";
import { acquireGpu } from "./runtime/device.ts";
import { StepEncoder } from "./step_encoder.ts";
import { planSystems } from "./systems/registry.ts";

// The engine's parts and its step encoding, without the engine: what a step dispatches, per
// phase, for a scene whose particles may collide and for one whose particles cannot.
Deno.test({
  name: "engine parts and step encoder",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const gpu = await acquireGpu({ adapter: "software" });
    const encodeTwo = (sceneId: string, handler: string) => {
      const scene = getScene(sceneId, { scale: "tiny" });
      applicableHandler(scene, handler);
      const parts = buildEngineParts(scene, gpu, {
        handler,
        handlerParams: handlerParams(scene, handler),
        plan: planSystems(scene),
      });
      const steps = new StepEncoder({
        ...parts,
        device: gpu.device,
        scene,
        handler: parts.collisionsPossible ? parts.handler : {},
        detect: parts.collisionsPossible,
        stageGates: true,
      });
      const perStep = [0, scene.metricsEvery - 1].map((step) => {
        gpu.device.queue.submit([steps.encode(step).finish()]);
        return steps.dispatches;
      });
      for (const p of [parts.handler, ...parts.systems, parts.coupling, parts.metrics]) p.destroy();
      for (const p of [parts.budget, parts.clock, parts.contacts, steps, parts.state]) p.destroy();
      return { parts, perStep };
    };

    await t.step("two bodies under merge-split: detection and both stages", () => {
      const { parts, perStep } = encodeTwo("fig4-fluid-cloth", "merge-split");
      assert.equal(parts.collisionsPossible, true);
      assert.ok(parts.maxPerParticle >= 1);
      const [first, sampled] = perStep;
      for (const phase of ["neighborSearch", "collisionDetection", "merging2", "splitting2"]) {
        assert.ok(
          (first[phase as keyof typeof first] ?? 0) > 0,
          `${phase}: ${JSON.stringify(first)}`,
        );
      }
      assert.equal(first.metrics, undefined, "no sample on the first step");
      assert.ok((sampled.metrics ?? 0) > 0, "a sample on the metricsEvery-th step");
    });

    await t.step("one fluid body: no detection, one stage, identity hooks", () => {
      const { parts, perStep } = encodeTwo("dam-break-sph", "merge-split");
      assert.equal(parts.collisionsPossible, false);
      const [first] = perStep;
      assert.equal(first.collisionDetection, undefined);
      assert.equal(first.merging2, undefined);
      assert.ok((first.merging1 ?? 0) > 0, "identity DOFs are dispatched");
    });

    await t.step("a handler the scene does not take is refused by name", () => {
      const scene = getScene("dam-break-sph", { scale: "tiny" });
      assert.throws(() => applicableHandler(scene, "no-such-handler"), /no-such-handler/);
    });
    gpu.device.destroy();
  },
});
