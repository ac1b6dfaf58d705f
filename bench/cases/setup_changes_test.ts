import assert from "node:assert/strict";
import { getScene } from "../../scenes/catalog.ts";
import { Engine } from "../../gpu/engine.ts";
import { releaseSoftwareGpu, softwareGpu } from "../../gpu/engine_run_fixture.ts";
import { sceneUnder, setupChanges, setupChoices } from "../../core/setups.ts";
import type { CouplingReading } from "../../gpu/coupling/coupling.ts";
import { resolveCases } from "./suite.ts";
import { collisionsPossible } from "../../gpu/systems/registry.ts";

/** The state hash of `scene` (tiny) under `handler` after `steps` steps, under setup `id`. */
async function hashUnder(id: string, scene: string, handler: string, steps: number) {
  const setup = setupChoices(id);
  const engine = await Engine.create(sceneUnder(getScene(scene, { scale: "tiny" }), setup), {
    handler,
    gpu: await softwareGpu(),
    params: setup.handlerParams?.[handler],
    coupling: setup.coupling as CouplingReading,
  });
  try {
    await engine.run(steps);
    return await engine.stateHash();
  } finally {
    engine.destroy();
  }
}

// What `setupChanges` lets the bench skip: a variant on a case it does not change runs the paper's
// case bit for bit, so the ablation may read the paper's record in its place. Each run is long
// enough for contact (fig4 at tiny: 120 steps, fig9: 60), as the controls below show: the same
// scenes under merge-split end elsewhere under a variant that changes them.
const UNCHANGED = [
  ["compact-grouping", "fig4-fluid-cloth", "penalty-weak", 120],
  ["own-part-coupling", "fig4-fluid-cloth", "akinci", 120],
  ["own-part-coupling", "fig9-flip-cloth", "penalty-weak", 60],
  ["warm-stage-2", "fig4-fluid-cloth", "impulse", 120],
  ["warm-stage-2", "dam-break-sph", "merge-split", 40],
  // no two particles of the dam break may collide: no handler runs, merge-split's variants too
  ["compact-grouping", "dam-break-sph", "merge-split", 40],
  ["own-part-coupling", "dam-break-flip", "merge-split", 40],
  ["flip-density-correction", "fig4-fluid-cloth", "merge-split", 120],
] as const;
const CHANGED = [
  ["own-part-coupling", "fig4-fluid-cloth", "merge-split", 120],
  ["own-part-coupling", "fig9-flip-cloth", "merge-split", 60],
] as const;

Deno.test({
  name: "a variant the bench skips runs the paper's case bit for bit",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    try {
      for (const [id, scene, handler, steps] of UNCHANGED) {
        const built = getScene(scene, { scale: "tiny" });
        const systems = Object.keys(built.systems);
        assert.ok(
          !setupChanges(id, handler, systems, collisionsPossible(built)),
          `${id} leaves ${scene} × ${handler}`,
        );
        assert.equal(
          await hashUnder(id, scene, handler, steps),
          await hashUnder("paper", scene, handler, steps),
          `${id} on ${scene} × ${handler}`,
        );
      }
      // the comparison can tell: where a variant changes the case it ends elsewhere
      for (const [id, scene, handler, steps] of CHANGED) {
        assert.notEqual(
          await hashUnder(id, scene, handler, steps),
          await hashUnder("paper", scene, handler, steps),
          `${id} on ${scene} × ${handler}`,
        );
      }
    } finally {
      releaseSoftwareGpu();
    }
  },
});

Deno.test("--variant adds only the cases a variant changes", () => {
  const cases = resolveCases({
    scenes: ["fig4-fluid-cloth", "dam-break-sph"],
    handlers: ["merge-split", "penalty-weak"],
    scale: "tiny",
    setups: ["paper", "compact-grouping", "warm-stage-2", "flip-density-correction"],
  });
  assert.deepEqual(cases.map((c) => `${c.setup} ${c.scene.id} ${c.handler}`), [
    "paper fig4-fluid-cloth merge-split",
    "paper fig4-fluid-cloth penalty-weak",
    "paper dam-break-sph merge-split",
    "compact-grouping fig4-fluid-cloth merge-split",
    "warm-stage-2 fig4-fluid-cloth merge-split",
  ]);
});
