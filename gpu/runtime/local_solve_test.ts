import assert from "node:assert/strict";
import { encodeCgIterations } from "./cg.ts";
import { acquireGpu } from "./device.ts";
import {
  ALL_ITERATIONS,
  deviceLoopBudget,
  iterationsPerDispatch,
  LOCAL_BUDGET,
  UNCAPPED_LOCAL_MAX_CHUNKS,
  wgslLoopBudget,
} from "./local_solve.ts";

Deno.test("local solves: the loop budget per adapter and the iterations a dispatch takes", async (t) => {
  await t.step("a software adapter has the loop cap's budget", async () => {
    const { device } = await acquireGpu({ adapter: "software" });
    assert.equal(deviceLoopBudget(device), LOCAL_BUDGET);
    device.destroy();
  });

  await t.step("with a budget: as many iterations as fit, 0 below `least`", () => {
    assert.equal(iterationsPerDispatch(100, { setup: 50, chunks: 3, budget: 1050 }), 10);
    assert.equal(iterationsPerDispatch(100, { setup: 50, chunks: 3, budget: 249 }), 0);
    assert.equal(iterationsPerDispatch(100, { setup: 50, chunks: 3, budget: 249, least: 1 }), 1);
    assert.equal(
      iterationsPerDispatch(100, { setup: 8, chunks: 3 }),
      Math.floor((LOCAL_BUDGET - 8) / 100),
    );
  });

  await t.step(
    "without a cap: every iteration up to the chunk bound, a capped adapter's above",
    () => {
      const at = (chunks: number) =>
        iterationsPerDispatch(1e9, { setup: 1e9, chunks, budget: null });
      assert.equal(at(1), ALL_ITERATIONS);
      assert.equal(at(UNCAPPED_LOCAL_MAX_CHUNKS), ALL_ITERATIONS);
      // above the bound, what a capped adapter takes (here not even one iteration fits)
      assert.equal(at(UNCAPPED_LOCAL_MAX_CHUNKS + 1), 0);
      assert.equal(
        iterationsPerDispatch(100, {
          setup: 8,
          chunks: UNCAPPED_LOCAL_MAX_CHUNKS + 1,
          budget: null,
        }),
        iterationsPerDispatch(100, { setup: 8, chunks: UNCAPPED_LOCAL_MAX_CHUNKS + 1 }),
      );
      assert.equal(wgslLoopBudget(null, ALL_ITERATIONS), 0xffff_ffff);
      assert.equal(wgslLoopBudget(null, 3), LOCAL_BUDGET);
      assert.equal(wgslLoopBudget(4000, 3), 4000);
      // the host then encodes one solve_local dispatch for any count of iterations
      const seen: string[] = [];
      encodeCgIterations((k) => seen.push(k), {
        iterations: 100_000,
        localIterations: ALL_ITERATIONS,
        loop: "local",
      });
      assert.deepEqual(seen, ["solve_local"]);
    },
  );
});
