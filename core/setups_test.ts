import assert from "node:assert/strict";
import { PAPER_SETUP, sceneUnder, setupChanges, setupChoices, SETUPS, VARIANTS } from "./setups.ts";
import { GROUPING_METHODS } from "./grouping/index_order_grouping.ts";
import type { Scene } from "./scene/scene.ts";

Deno.test("setups: the paper's choices and variants that change one", async (t) => {
  await t.step(
    "the paper's: index order, both systems, stage 2 cold, no position corrections",
    () => {
      assert.equal(
        PAPER_SETUP.handlerParams?.["merge-split"].grouping,
        GROUPING_METHODS.indexOf("index-order"),
      );
      assert.equal(PAPER_SETUP.coupling, "whole");
      assert.equal(PAPER_SETUP.systemParams?.["mass-spring"].warmStart, 0);
      assert.equal(PAPER_SETUP.systemParams?.peridynamics.warmStart, 0);
      assert.equal(PAPER_SETUP.systemParams?.flip.densityIterations, 0);
    },
  );

  await t.step("a variant is the paper's setup with its one change on top", () => {
    for (const v of VARIANTS) {
      const c = setupChoices(v.id);
      const changed = [
        c.coupling !== PAPER_SETUP.coupling,
        JSON.stringify(c.handlerParams) !== JSON.stringify(PAPER_SETUP.handlerParams),
        JSON.stringify(c.systemParams) !== JSON.stringify(PAPER_SETUP.systemParams),
        c.sceneHandlers === true,
      ].filter(Boolean).length;
      assert.equal(changed, 1, v.id);
    }
    const warm = setupChoices("warm-stage-2");
    assert.equal(warm.systemParams?.["mass-spring"].warmStart, 1);
    assert.equal(warm.systemParams?.flip.densityIterations, 0);
    assert.equal(warm.coupling, "whole");
    assert.equal(setupChoices("own-part-coupling").coupling, "own-part");
    assert.equal(SETUPS.size, 1 + VARIANTS.length);
  });

  await t.step("system parameters land only on the systems a scene configures", () => {
    const scene = {
      id: "s",
      systems: { "mass-spring": { cgIterations: 12 }, sph: { h: 0.1 } },
    } as unknown as Scene;
    const under = sceneUnder(scene, PAPER_SETUP);
    assert.deepEqual(under.systems, {
      "mass-spring": { cgIterations: 12, warmStart: 0 },
      sph: { h: 0.1 },
    });
    assert.deepEqual(
      scene.systems["mass-spring"],
      { cgIterations: 12 },
      "the scene is not changed",
    );
  });

  await t.step("a variant changes only the cases its choices reach", () => {
    const cloth = ["mass-spring", "sph"];
    for (const [id, setup] of SETUPS) {
      if (setup.sceneHandlers) continue; // below: only where the scene says
      assert.ok(setupChanges(id, "merge-split", [...cloth, "flip", "peridynamics"]), id);
    }
    assert.ok(setupChanges("paper", "penalty-weak", []));
    // the grouping is merge-split's parameter
    assert.ok(!setupChanges("compact-grouping", "penalty-weak", cloth));
    // one part per DOF outside merge-split: the readings agree
    assert.ok(!setupChanges("own-part-coupling", "akinci", cloth));
    // stage 2 is merge-split's; and a scene without an implicit spring system has no warm start
    assert.ok(!setupChanges("warm-stage-2", "penalty-weak", cloth));
    assert.ok(!setupChanges("warm-stage-2", "merge-split", ["sph"]));
    assert.ok(setupChanges("warm-stage-2", "merge-split", ["peridynamics", "sph"]));
    // FLIP's density correction under any handler of a FLIP scene, nowhere else
    assert.ok(setupChanges("flip-density-correction", "penalty-weak", ["flip", "mass-spring"]));
    assert.ok(!setupChanges("flip-density-correction", "merge-split", cloth));
    // where no two particles may collide no handler runs: merge-split's variants change nothing,
    // the density correction (FLIP's own) still does
    for (const id of ["compact-grouping", "own-part-coupling", "warm-stage-2"]) {
      assert.ok(!setupChanges(id, "merge-split", ["sph", "peridynamics"], false), id);
    }
    assert.ok(setupChanges("flip-density-correction", "merge-split", ["flip"], false));
    assert.throws(() => setupChanges("warm", "merge-split", []), /unknown setup "warm"/);
  });

  await t.step(
    "a setup of the scenes' own rule: the scene's block for it, where it has one",
    () => {
      const block = { "penalty-weak": { stiffness: 19.6 } };
      const scene = {
        id: "s",
        systems: {},
        handlers: { "penalty-weak": { stiffness: 280 }, "penalty-strong": { stiffness: 28000 } },
        setupHandlers: { "per-scene-levels": block },
      } as unknown as Scene;
      const under = sceneUnder(scene, setupChoices("per-scene-levels"));
      assert.deepEqual(under.handlers, {
        "penalty-weak": { stiffness: 19.6 },
        "penalty-strong": { stiffness: 28000 },
      });
      assert.deepEqual(sceneUnder(scene, PAPER_SETUP).handlers, scene.handlers);
      assert.ok(setupChanges("per-scene-levels", "penalty-weak", [], true, block));
      assert.ok(!setupChanges("per-scene-levels", "penalty-strong", [], true, block));
      assert.ok(!setupChanges("per-scene-levels", "penalty-weak", [], true, undefined));
      assert.ok(!setupChanges("per-scene-levels", "penalty-weak", [], false, block));
    },
  );

  await t.step("an unknown setup names the valid ones", () => {
    assert.throws(
      () => setupChoices("warm"),
      /unknown setup "warm"; setups: paper, compact-grouping/,
    );
  });
});
