/**
 * Dispatches of one stage's grouping (issue 45: at most 16 per stage, not a fixed chain of gated
 * rounds; issue 48: the paper's index-order grouping of the small scenes in 2): the plan
 * `GroupingKernels` encodes, counted on a device against `groupingPlan`, then the plan's count at
 * the particle counts of the catalogue's scenes at every scale, on both adapter paths (a fallback
 * adapter: 64 scan items per invocation, the rounds in one workgroup up to 65,536 particles and
 * the index-order pass in one up to its bound within llvmpipe's loop budget; a GPU: 16 items,
 * 16,384, no loop cap).
 */
import assert from "node:assert/strict";
import { getScene, sceneIds } from "../../../scenes/catalog.ts";
import { estimateSceneSize } from "../../../core/scene/scene_size.ts";
import type { Scale } from "../../../core/scene/scene.ts";
import { GROUPING_MAX_ROUNDS } from "../../../core/grouping/grouping.ts";
import type { GroupingMethod } from "../../../core/grouping/index_order_grouping.ts";
import { LOCAL_BUDGET } from "../../runtime/local_solve.ts";
import { MAX_SCAN_ITEMS, scanDispatches } from "../../runtime/prefix_scan.ts";
import { CONTACT_SLOTS } from "../../state/contact_slots.ts";
import {
  groupingDispatches,
  groupingPlan,
  indexOrderSmall,
  LOCAL_LIMIT,
  roundsShape,
  SMALL_LIMIT,
} from "./grouping.ts";
import { randomCase, run, setup } from "./merge_split_fixture.ts";

const MOST = 16;

/** The two adapter paths: scan items per invocation, local limit, loop budget. */
const PATHS = {
  fallback: { items: 64, localLimit: LOCAL_LIMIT, budget: LOCAL_BUDGET },
  gpu: { items: 16, localLimit: 16384, budget: 0xffffffff },
} as const;

/** The dispatches of one stage for N particles on `path`. */
function dispatchesAt(
  n: number,
  path: keyof typeof PATHS,
  method: GroupingMethod,
  limited: boolean,
): number {
  const p = PATHS[path];
  const shape = roundsShape({
    count: n,
    maxPerParticle: CONTACT_SLOTS,
    maxRounds: GROUPING_MAX_ROUNDS,
    localLimit: p.localLimit,
    budget: p.budget,
  });
  // the one-workgroup index-order pass is never the default (grouping.ts indexOrderSmall)
  const small = method === "index-order" ? false : shape.small;
  const plan = groupingPlan({
    method,
    limited,
    small,
    local: n <= p.localLimit,
    localDispatches: shape.localDispatches,
  });
  // the member starts' scan, bounded to 2 levels (PrefixScan maxLevels)
  const items = Math.max(p.items, Math.min(MAX_SCAN_ITEMS, Math.ceil((n + 1) / 256 ** 2)));
  return groupingDispatches(plan, scanDispatches(n + 1, items));
}

Deno.test("grouping dispatches per stage", async (t) => {
  await t.step("the plan is what a stage encodes", async () => {
    for (
      const [n, grouping, nMax, smallGrouping, localLimit] of [
        [2000, "index-order", 64, undefined, undefined],
        [2000, "index-order", Infinity, undefined, undefined],
        [2000, "index-order", 64, true, undefined],
        [2000, "index-order", Infinity, true, undefined],
        [2000, "index-order", 64, false, undefined],
        [2000, "index-order", Infinity, false, undefined],
        [5000, "compact", 64, false, undefined],
        [5000, "compact", 64, false, 0],
        [300, "compact", 64, true, undefined],
        [5000, "compact", Infinity, undefined, undefined],
      ] as const
    ) {
      const c = randomCase(3, n);
      const { device, ms } = await setup(c, { grouping, smallGrouping, localLimit });
      ms.setParams({ count: n, seed: 1, step: 1, alpha: 1, beta: 0, nMin: 8, nMax });
      run(device, (pass) => ms.encodeGroup(pass, { stage: 1 }));
      const g = ms.grouping;
      assert.equal(
        g.dispatchesPerStage[0],
        groupingDispatches(g.plan, g.scanDispatches),
        `${grouping} N=${n} n_max=${nMax}`,
      );
      if (grouping === "index-order") {
        // K = 8 slots: 2,000 particles within the one-workgroup pass's bound, run where asked for
        const d = g.dispatchesPerStage[0];
        assert.ok(smallGrouping === true ? d === 2 : d > 2, `index-order N=${n}: ${d}`);
      }
      assert.equal(await device.popErrorScope(), null);
      ms.destroy();
      device.destroy();
    }
  });

  // the largest scene of each scale in the catalogue
  const largest = (scale: Scale) =>
    Math.max(
      ...sceneIds().map((id) => Math.ceil(estimateSceneSize(getScene(id, { scale })).particles)),
    );
  const sizes = (["tiny", "small", "medium", "paper"] as const).map((s) =>
    [s, largest(s)] as const
  );

  await t.step("index order and the connected components: at most 16 at every scale", () => {
    for (const [scale, n] of sizes) {
      for (const path of ["fallback", "gpu"] as const) {
        for (
          const [method, limited] of [["index-order", true], ["index-order", false], [
            "compact",
            false,
          ]] as const
        ) {
          const d = dispatchesAt(n, path, method, limited);
          assert.ok(
            d <= MOST,
            `${method}${limited ? "" : " (no limit)"} ${scale} N=${n} ${path}: ${d}`,
          );
        }
      }
    }
  });

  await t.step("index order: the dispatched pass by default; one workgroup only in bounds", () => {
    // K = 16: llvmpipe's budget bounds the one-workgroup pass, SMALL_LIMIT a GPU's
    const fits = (count: number, path: keyof typeof PATHS) =>
      indexOrderSmall({ count, maxPerParticle: CONTACT_SLOTS, budget: PATHS[path].budget });
    assert.ok(fits(2979, "fallback") && !fits(2980, "fallback"));
    assert.ok(fits(SMALL_LIMIT, "gpu") && !fits(SMALL_LIMIT + 1, "gpu"));
    const plan = (small: boolean) =>
      groupingPlan({
        method: "index-order",
        limited: true,
        small,
        local: true,
        localDispatches: 1,
      });
    assert.deepEqual(plan(true), ["ioSmall", "ioMembersSmall"]);
    // the paper setup's scenes at small (Fig. 3 and Fig. 4): the dispatched pass's 10 per stage
    for (const id of ["fig3-ball-cloth-high", "fig4-fluid-cloth"]) {
      const n = Math.ceil(estimateSceneSize(getScene(id, { scale: "small" })).particles);
      for (const path of ["fallback", "gpu"] as const) {
        assert.equal(dispatchesAt(n, path, "index-order", true), 10, `${id} small ${path}`);
      }
    }
  });

  await t.step("compact rounds: at most 16 at every scale, past the local limit too", () => {
    for (const [scale, n] of sizes) {
      for (const path of ["fallback", "gpu"] as const) {
        const d = dispatchesAt(n, path, "compact", true);
        assert.ok(d <= MOST, `compact ${scale} N=${n} ${path}: ${d}`);
      }
    }
    // past the local limit: the components, then a workgroup per component (no round chain)
    assert.deepEqual(
      groupingPlan({
        method: "compact",
        limited: true,
        small: false,
        local: false,
        localDispatches: 1,
      }),
      [
        "init",
        "ccHook",
        "ioFlattenCount",
        "ioAlloc",
        "compFill",
        "roundsComp",
        "count",
        "scan",
        "fill",
        "rank",
      ],
    );
  });
});
