/**
 * The paper's setup is the default everywhere (issue 57, item 6): an engine built through `mod.ts`
 * from a catalogue scene, with no setup applied and no parameter given, runs `core/setups.ts`'s
 * paper setup — merge-split's index-order grouping, meta-particles in both systems (`whole`),
 * stage 2 cold, FLIP without the density correction — as the bench's `paper` cases do.
 *
 * @module
 */
import assert from "node:assert/strict";
import { Engine, getScene, PAPER_SETUP, sceneSystems } from "./mod.ts";

Deno.test("an engine built through mod.ts runs the paper's setup by default", async () => {
  // FLIP on a mass-spring cloth: every choice of the paper's setup reaches this scene
  const scene = getScene("fig9-flip-cloth", { scale: "tiny" });
  const systems = sceneSystems(scene);
  const set = Object.entries(PAPER_SETUP.systemParams ?? {}).filter(([id]) =>
    systems.some((s) => s.entry.id === id)
  );
  assert.ok(set.length >= 2, "the scene runs at least two systems the paper's setup sets");
  for (const [id, params] of set) {
    const resolved = systems.find((s) => s.entry.id === id)!.params;
    for (const [name, value] of Object.entries(params as Record<string, number>)) {
      assert.equal(resolved[name], value, `${id}.${name}: the schema's default is the paper's`);
    }
  }
  const engine = await Engine.create(scene, { handler: "merge-split", adapter: "software" });
  try {
    for (const [name, value] of Object.entries(PAPER_SETUP.handlerParams!["merge-split"])) {
      assert.equal(engine.handlerParams[name], value, `merge-split.${name}`);
    }
    assert.equal(engine.coupling, PAPER_SETUP.coupling);
  } finally {
    engine.destroy();
  }
});
