import assert from "node:assert/strict";
import type { CaseRecord } from "../../core/result.ts";
import { fakeRecord } from "../fake_record.ts";
import { PAPER_TABLE_ONE } from "../tables/paper_table_one.ts";
import { MERGE_SPLIT_SHARE_MAX, STAGE2_SHARE_MIN, TIMING_CLAIMS } from "./timing_claims.ts";

/** A Table I case whose phases are `ms` (ms/step medians), with optional solver statistics. */
function tableOneCase(
  scene: string,
  ms: Record<string, number>,
  options: { warm?: boolean; adapter?: string; scale?: CaseRecord["scale"] } = {},
): CaseRecord {
  const base = fakeRecord({ scene, scale: options.scale ?? "small" });
  const phases = Object.fromEntries(
    Object.entries(ms).map(([p, median]) => [p, { ...base.timings!.phases.total, median }]),
  );
  return {
    ...base,
    timings: { ...base.timings!, phases },
    solvers: options.warm === undefined ? undefined : {
      "mass-spring": {
        iterations: 10,
        relativeResidual: 1e-6,
        converged: true,
        warmStart: options.warm,
      },
    },
    env: {
      ...base.env!,
      adapter: { ...base.env!.adapter, description: options.adapter ?? "llvmpipe (test)" },
    },
  };
}

const claim = (id: string) => TIMING_CLAIMS.find((c) => c.id === id)!;

/** Phases with collision detection + merging + splitting taking `share` of a 100 ms step. */
const steps = (share: number, stage2 = 40) => ({
  collisionDetection: 50 * share,
  merging: 40 * share,
  splitting: 10 * share,
  integrationStage1: 40,
  integrationStage2: stage2,
  total: 100,
});

Deno.test("§6.3's cost claims (y, y2)", async (t) => {
  await t.step("y's threshold is Table I's largest share (Fig. 8 top, 6.7 %)", () => {
    assert.ok(Math.abs(MERGE_SPLIT_SHARE_MAX - 107.4 / 1600) < 1e-12);
    assert.equal(PAPER_TABLE_ONE.length, 6);
  });

  await t.step("y: reproduced below the share, not reproduced above it, per adapter", () => {
    const scenes = PAPER_TABLE_ONE.map((c) => c.scene);
    const low = scenes.map((s) => tableOneCase(s, steps(0.05)));
    assert.equal(claim("y").evaluate(low).status, "reproduced");
    // one scene over the share on another adapter fails the claim and names that adapter
    const high = [...low, tableOneCase(scenes[1], steps(0.12), { adapter: "NVIDIA H100" })];
    const r = claim("y").evaluate(high);
    assert.equal(r.status, "not reproduced");
    assert.match(r.measured, /NVIDIA H100: fig8-cloth-tori small 12 %/);
    // a larger scale of the same case replaces the smaller one
    const grown = [...low, tableOneCase(scenes[0], steps(0.2), { scale: "medium" })];
    assert.equal(claim("y").evaluate(grown).status, "not reproduced");
  });

  await t.step("y: not run without Table I scenes", () => {
    assert.equal(claim("y").evaluate([fakeRecord()]).status, "not run");
  });

  await t.step("y2: read on cold-started stage 2 only, and can fail", () => {
    const s = PAPER_TABLE_ONE[0].scene;
    const doubled = tableOneCase(s, steps(0.05, 38), { warm: false });
    assert.equal(claim("y2").evaluate([doubled]).status, "reproduced");
    const cheap = tableOneCase(s, steps(0.05, 40 * STAGE2_SHARE_MIN - 1), { warm: false });
    assert.equal(claim("y2").evaluate([cheap]).status, "not reproduced");
    const warm = tableOneCase(s, steps(0.05, 38), { warm: true });
    const r = claim("y2").evaluate([warm]);
    assert.equal(r.status, "not run");
    assert.match(r.measured, /warm-starts stage 2/);
  });
});
