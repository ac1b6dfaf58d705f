import assert from "node:assert/strict";
import { acquireGpu } from "../runtime/device.ts";
import {
  createHandlerStatistics,
  defineStatistics,
  statisticConstant,
} from "./handler_statistics.ts";

Deno.test("defineStatistics: a word each in order, override constants, decoding", async (t) => {
  const layout = defineStatistics({ worstError: "f32", pairs: "u32", stage2Runs: "u32" });

  await t.step("words, constants and the constants a WGSL module declares", () => {
    assert.deepEqual(layout.words, { worstError: 0, pairs: 1, stage2Runs: 2 });
    assert.equal(layout.length, 3);
    assert.equal(statisticConstant("stage2Runs"), "STAT_STAGE2_RUNS");
    assert.deepEqual(layout.constants, { STAT_WORST_ERROR: 0, STAT_PAIRS: 1, STAT_STAGE2_RUNS: 2 });
    const code = "override STAT_PAIRS: u32;\noverride STAT_WORST_ERROR_X: u32;";
    assert.deepEqual(layout.constantsFor(code), { STAT_PAIRS: 1 });
  });

  await t.step("decode reads f32 bits and counts", () => {
    const raw = new Uint32Array([new Uint32Array(Float32Array.of(0.25).buffer)[0], 7, 9]);
    assert.deepEqual(layout.decode(raw.buffer), { worstError: 0.25, pairs: 7, stage2Runs: 9 });
  });

  await t.step("a name that is not camelCase is refused, saying what to do", () => {
    assert.throws(() => defineStatistics({ "largest-group": "u32" }), /"largest-group".*camelCase/);
  });

  await t.step(
    "createHandlerStatistics: a zeroed buffer, sampled words, kinds checked",
    async () => {
      const { device } = await acquireGpu({ adapter: "software" });
      device.pushErrorScope("validation");
      const stats = createHandlerStatistics(device, layout, {
        label: "test statistics",
        sampled: { momentumError: "worstError", stage2Pairs: "pairs" },
      });
      assert.deepEqual(stats.sampled, { momentumError: 0, stage2Pairs: 1 });
      assert.equal(stats.buffer.label, "test statistics");
      assert.deepEqual(await stats.read(), { worstError: 0, pairs: 0, stage2Runs: 0 });
      assert.throws(
        () =>
          createHandlerStatistics(device, layout, {
            label: "wrong kind",
            sampled: { groups: "worstError" },
          }),
        /groups reads a u32 word, but statistic "worstError" is f32/,
      );
      stats.buffer.destroy();
      assert.equal(await device.popErrorScope(), null);
      device.destroy();
    },
  );
});
