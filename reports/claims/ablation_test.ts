import assert from "node:assert/strict";
import { fakeRecord } from "../fake_record.ts";
import { ablation, moved, renderAblation, statusText } from "./ablation.ts";
import { evaluateClaims, underSetup } from "./claims.ts";

/** Claim a's case (merge-split on Fig. 4) under `setup`, leaking `leaked` of 400 fluid particles. */
const fig4 = (setup: string | undefined, leaked: number) =>
  fakeRecord({ setup, summary: { passThroughMax: leaked } });

Deno.test("ablation: each claim under the paper's setup and each variant", async (t) => {
  await t.step("claims are read from the paper's setup", () => {
    const records = [fig4("paper", 0), fig4("compact-grouping", 40)];
    const a = evaluateClaims(records).find((c) => c.claim.id === "a")!;
    assert.equal(a.result.status, "reproduced");
    // records made before setups are read as they are
    const legacy = evaluateClaims([fig4(undefined, 40)]).find((c) => c.claim.id === "a")!;
    assert.equal(legacy.result.status, "not reproduced");
  });

  await t.step("a verdict that moves with a variant is marked", () => {
    const a = ablation([fig4("paper", 0), fig4("compact-grouping", 40)])!;
    assert.deepEqual(a.setups, ["paper", "compact-grouping"]);
    const row = a.rows.find((r) => r.claim.id === "a")!;
    assert.deepEqual(row.statuses, ["reproduced", "not reproduced"]);
    assert.equal(row.scale, "tiny");
    const html = renderAblation(a);
    assert.match(html, /<td class="badge bad moved">not reproduced ◆<\/td>/);
    // a and a2 (the same run with the leak tolerance) both move
    assert.equal(html.match(/◆/g)?.length, 2);
  });

  await t.step(
    "a variant's column reads the paper's records of the cases it does not change",
    () => {
      const systems = ["mass-spring", "sph"];
      const ms = fig4("paper", 0);
      const msCompact = fig4("compact-grouping", 40);
      const penalty = fakeRecord({ setup: "paper", handler: "penalty-weak", systems });
      const warm = fakeRecord({ setup: "paper", handler: "merge-split", seed: 7, systems });
      // made before records kept their systems: read as having every system a variant sets
      const old = fakeRecord({ setup: "paper", handler: "akinci" });
      const records = [ms, msCompact, penalty, warm, old];
      // the bench ran merge-split under compact grouping, not penalty (the grouping is not its)
      assert.deepEqual(underSetup(records, "compact-grouping"), [msCompact, penalty, old]);
      assert.deepEqual(underSetup(records, "paper"), [ms, penalty, warm, old]);
      // warm-stage-2 changes merge-split on a cloth scene: nothing of the paper's stands in for it
      assert.deepEqual(underSetup(records, "warm-stage-2"), [penalty, old]);
      // FLIP's correction reaches any handler of a FLIP scene: a record without systems may be one
      assert.deepEqual(underSetup(records, "flip-density-correction"), [penalty, warm]);
      // a variant record of a case the variant does not change (an older run) is read once
      const penaltyCompact = { ...penalty, setup: "compact-grouping" };
      assert.deepEqual(underSetup([...records, penaltyCompact], "compact-grouping"), [
        msCompact,
        penaltyCompact,
        old,
      ]);
      // a dam break, where no two particles may collide: merge-split's variants change nothing
      const dam = fakeRecord({
        setup: "paper",
        scene: "dam-break-sph",
        handler: "merge-split",
        systems: ["sph"],
        collisionsPossible: false,
      });
      assert.deepEqual(underSetup([ms, msCompact, dam], "compact-grouping"), [msCompact, dam]);
      assert.deepEqual(underSetup([ms, dam], "own-part-coupling"), [dam]);
    },
  );

  await t.step(
    "a variant run at fewer seeds is judged at them, against the paper's verdict there",
    () => {
      const at = (setup: string, seed: number, leaked: number) =>
        fakeRecord({ setup, seed, summary: { passThroughMax: leaked } });
      const paper = [at("paper", 2021, 0), at("paper", 7, 0), at("paper", 99, 0)];
      const rowA = (records: ReturnType<typeof at>[]) =>
        ablation(records)!.rows.find((r) => r.claim.id === "a")!;
      // the variant at one seed of three, the same outcome there: no move (today's read would be
      // "not run" at seeds 7 and 99, a verdict that moved)
      const same = rowA([...paper, at("compact-grouping", 2021, 0)]);
      assert.deepEqual(same.statuses, ["reproduced", "reproduced"]);
      assert.deepEqual(same.seeds, [null, [2021]]);
      assert.equal(moved(same, 1), false);
      assert.equal(statusText(same, 1), "reproduced (seed 2021)");
      // a claim these records do not judge (Fig. 10's h) reads "not run", seeds unnamed
      const h = ablation([...paper, at("compact-grouping", 2021, 0)])!.rows.find((r) =>
        r.claim.id === "h"
      )!;
      assert.deepEqual([h.seeds[1], statusText(h, 1)], [[2021], "not run"]);
      // a leak under the variant at its seed: it moves
      const leaks = rowA([...paper, at("compact-grouping", 2021, 40)]);
      assert.deepEqual(leaks.statuses, ["reproduced", "not reproduced"]);
      assert.equal(moved(leaks, 1), true);
      assert.match(renderAblation(ablation([...paper, at("compact-grouping", 2021, 40)])!), /◆/);
      // the paper's leak at a seed the variant did not run is not set against the variant
      const elsewhere = rowA([
        at("paper", 2021, 0),
        at("paper", 7, 40),
        at("paper", 99, 0),
        at("compact-grouping", 2021, 0),
      ]);
      assert.deepEqual(elsewhere.statuses, ["not reproduced", "reproduced"]);
      assert.deepEqual(elsewhere.baselines, ["not reproduced", "reproduced"]);
      assert.equal(moved(elsewhere, 1), false);
      assert.equal(
        statusText(elsewhere, 1),
        "reproduced (seed 2021; the paper's there: reproduced)",
      );
      // every seed run: the paper's column is the baseline, as before
      const full = rowA([...paper, ...[2021, 7, 99].map((s) => at("compact-grouping", s, 0))]);
      assert.deepEqual(full.seeds, [null, null]);
      assert.deepEqual(full.baselines, ["reproduced", "reproduced"]);
    },
  );

  await t.step("no variant, no ablation", () => {
    assert.equal(ablation([fig4("paper", 0)]), null);
    assert.equal(ablation([fig4(undefined, 0)]), null);
  });
});
