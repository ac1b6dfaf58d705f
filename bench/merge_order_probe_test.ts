import assert from "node:assert/strict";
import { getScene } from "../scenes/catalog.ts";
import { Engine } from "../gpu/engine.ts";
import { releaseSoftwareGpu, softwareGpu } from "../gpu/engine_run_fixture.ts";
import { MergeOrderProbe } from "./merge_order_probe.ts";

Deno.test("merge-order probe: groups of a scene in contact, no host sync counted", async () => {
  // Fig. 7's heaviest ball resting on the cloth at tiny: groups of three or more in contact
  const scene = getScene("fig7-mass-100", { scale: "tiny" });
  const engine = await Engine.create(scene, { handler: "merge-split", gpu: await softwareGpu() });
  try {
    const probe = new MergeOrderProbe();
    await probe.sample(engine); // before any step: nothing to probe
    assert.deepEqual(probe.summary(1), {
      mergeOrderGroups: 0,
      mergeOrderSpread: 0,
      mergeOrderSpreadPairUnion: 0,
    });
    // sampled at several times of the second half: the seeded placement moves the ball, so no one
    // instant is sure to hold a group of three in contact on every implementation
    const steps = Math.round(scene.duration / scene.dt);
    await engine.run(Math.round(0.5 * steps));
    for (let k = 0; k < 5; k++) {
      await engine.run(Math.round(0.1 * steps));
      const syncs = engine.hostSyncs;
      await probe.sample(engine);
      assert.equal(engine.hostSyncs, syncs, "the probe's reads are not the step's host syncs");
    }
    const s = probe.summary(scene.cfl.referenceSpeed);
    assert.ok(s.mergeOrderGroups > 0, `${s.mergeOrderGroups} groups probed`);
    assert.ok(Number.isFinite(s.mergeOrderSpread) && s.mergeOrderSpread >= 0);
    assert.ok(Number.isFinite(s.mergeOrderSpreadPairUnion) && s.mergeOrderSpreadPairUnion >= 0);
  } finally {
    engine.destroy();
    releaseSoftwareGpu();
  }
});
