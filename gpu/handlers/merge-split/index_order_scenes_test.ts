/**
 * The GPU's index-order grouping on contact graphs of catalogue scenes (issue 45): Fig. 11 (a fluid
 * block on the whole cloth, with and without a limit) and Fig. 7 (a heavy ball on a cloth) at
 * `tiny`, run by the engine under `merge-split.grouping=index-order` until contact; the last
 * step's colliding pairs and the marked pairs stage 2 merged are read back, and its groups (`dof`)
 * must be those of `core/grouping/index_order_grouping.ts` on that graph, bit for bit. The same
 * stage is grouped again on the engine's pair lists by both paths of `GroupingKernels` (the
 * one-workgroup pass and the dispatched one over the components): the reference's labels again,
 * and member lists and statistics word for word the same.
 */
import assert from "node:assert/strict";
import { getScene } from "../../../scenes/catalog.ts";
import { groupIndexOrder } from "../../../core/grouping/index_order_grouping.ts";
import { GROUPING_METHODS } from "../../../core/grouping/index_order_grouping.ts";
import type { Pair } from "../../../core/grouping/collision_rules.ts";
import { Engine } from "../../engine.ts";
import { readBuffer, storageBuffer } from "../../runtime/kernel.ts";
import { releaseSoftwareGpu, softwareGpu } from "../../engine_run_fixture.ts";
import { type GroupingBuffers, GroupingKernels } from "./grouping.ts";
import { MERGE_SPLIT_STATS } from "./merge_split_stats.ts";

const APPROACH_BIT = 0x80000000;

/**
 * Stage 2's grouping of the engine's last step (its pair lists, the approaching marked pairs
 * flagged) by `GroupingKernels` on one path, into buffers of its own: labels, member starts and
 * lists, statistics.
 */
async function regroup(
  engine: Engine,
  p: { seed: number; step: number; nMin: number; nMax: number },
  small: boolean,
): Promise<Uint32Array[]> {
  const device = engine.gpu.device;
  const n = engine.count;
  const c = engine.collisions;
  const own = (label: string, words: number) =>
    storageBuffer(device, { label: `index-order regroup ${label}`, size: 4 * words });
  const buffers: GroupingBuffers = {
    pairCount: c.pairCount,
    pairs: c.pairs,
    markedCount: c.markedCount,
    marked: c.marked,
    dof: own("dof", n),
    memberStart: own("member starts", n + 1),
    memberList: own("member list", 2 * n),
    stats: own("stats", MERGE_SPLIT_STATS.length),
    kind: engine.state.buffers.kind,
  };
  const grouping = new GroupingKernels(device, {
    count: n,
    maxPerParticle: engine.maxPerParticle,
    buffers,
    method: "index-order",
    small,
  });
  grouping.setParams(p);
  const encoder = device.createCommandEncoder({ label: "index-order regroup encoder" });
  const pass = encoder.beginComputePass({ label: "index-order regroup pass" });
  grouping.encode(pass, { stage: 2 });
  pass.end();
  device.queue.submit([encoder.finish()]);
  assert.equal(grouping.dispatchesPerStage[1] === 2, small);
  const out = [buffers.dof, buffers.memberStart, buffers.memberList, buffers.stats];
  const words = await Promise.all(
    out.map(async (b) => new Uint32Array(await readBuffer(device, b))),
  );
  grouping.destroy();
  for (const b of out) b.destroy();
  return words;
}

Deno.test("index-order grouping on catalogue scenes equals the paper's pass", async (t) => {
  for (
    const [id, at] of [["fig11-nlimit-8-16", 0.1], ["fig11-nlimit-inf", 0.1], [
      "fig7-mass-100",
      0.8,
    ]] as const
  ) {
    const scene = getScene(id, { scale: "tiny" });
    const steps = Math.round(at * scene.duration / scene.dt);
    await t.step(`${id} at tiny, step ${steps}`, async () => {
      const engine = await Engine.create(scene, {
        handler: "merge-split",
        gpu: await softwareGpu(),
        params: { grouping: GROUPING_METHODS.indexOf("index-order") },
      });
      try {
        await engine.run(steps);
        const device = engine.gpu.device;
        const K = engine.maxPerParticle;
        const u32 = async (b: GPUBuffer) => new Uint32Array(await readBuffer(device, b));
        const c = engine.collisions;
        const [pairCount, pairs, markedCount, marked] = await Promise.all(
          [c.pairCount, c.pairs, c.markedCount, c.marked].map(u32),
        );
        const graph: Pair[] = [];
        for (let i = 0; i < engine.count; i++) {
          for (let k = 0; k < pairCount[i]; k++) graph.push([i, pairs[i * K + k]]);
          for (let k = 0; k < markedCount[i]; k++) {
            const m = marked[i * K + k];
            if (m & APPROACH_BIT) graph.push([i, (m & ~APPROACH_BIT) >>> 0]);
          }
        }
        assert.ok(graph.length > 20, `${graph.length} colliding pairs: the scene is in contact`);
        const p = engine.handlerParams;
        const want = groupIndexOrder(graph, {
          particleCount: engine.count,
          nMin: p.nMin,
          nMax: p.nMax,
          seed: scene.seed,
          step: engine.step - 1,
        });
        assert.ok(want.groups.length > 5, `${want.groups.length} groups`);
        const dof = (await u32(engine.state.buffers.dof)).slice(0, engine.count);
        assert.deepEqual([...dof], [...want.dof]);
        const again = { seed: scene.seed, step: engine.step - 1, nMin: p.nMin, nMax: p.nMax };
        const [small, dispatched] = [
          await regroup(engine, again, true),
          await regroup(engine, again, false),
        ];
        assert.deepEqual([...small[0].slice(0, engine.count)], [...want.dof], "one workgroup");
        for (let k = 0; k < small.length; k++) assert.deepEqual([...small[k]], [...dispatched[k]]);
      } finally {
        engine.destroy();
      }
    });
  }
  releaseSoftwareGpu();
});

Deno.test({
  name: "EngineOptions.oneWorkgroupGrouping: 2 dispatches a stage where it fits, the same state",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const scene = getScene("fig4-fluid-cloth", { scale: "tiny" });
    const params = { grouping: GROUPING_METHODS.indexOf("index-order") };
    const run = async (oneWorkgroupGrouping: boolean) => {
      const engine = await Engine.create(scene, {
        handler: "merge-split",
        gpu: await softwareGpu(),
        params,
        oneWorkgroupGrouping,
      });
      try {
        await engine.run(120); // past first contact
        const stats = await engine.readStats();
        const report = engine.handler.report?.(stats);
        return {
          hash: await engine.stateHash(),
          dispatches: report?.grouping?.dispatchesPerStage,
          groups: report?.grouping?.stages[0].groups,
        };
      } finally {
        engine.destroy();
      }
    };
    try {
      const [dispatched, one] = [await run(false), await run(true)];
      assert.deepEqual(one.dispatches, [2, 2]);
      assert.ok(dispatched.dispatches![0] > 2);
      assert.ok(dispatched.groups! > 0, "groups formed");
      assert.equal(one.groups, dispatched.groups);
      assert.equal(one.hash, dispatched.hash);
    } finally {
      releaseSoftwareGpu();
    }
  },
});
