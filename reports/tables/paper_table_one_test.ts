import assert from "node:assert/strict";
import { fakeRecord } from "../fake_record.ts";
import { comparePaperTableOne, PAPER_TABLE_ONE, renderPaperTableOne } from "./paper_table_one.ts";
import { publishTables } from "./publish_tables.ts";
import { renderReport } from "../page/report.ts";
import { getScene } from "../../scenes/catalog.ts";
import { sampleFluid, sampleSolid } from "../../core/scene/scene_builder.ts";

Deno.test("the paper's Table I beside the measured cases", async (t) => {
  const small = fakeRecord({ scene: "fig6-wall", handler: "merge-split", scale: "small" });
  const medium = fakeRecord({
    scene: "fig6-wall",
    handler: "merge-split",
    scale: "medium",
    timeScale: 10,
  });
  const other = fakeRecord({ scene: "fig6-wall", handler: "penalty-weak", scale: "paper" });
  const unrelated = fakeRecord({ scene: "fig4-fluid-cloth", handler: "merge-split" });

  await t.step("Table I as printed: six scenes, totals in ms", () => {
    assert.deepEqual(PAPER_TABLE_ONE.map((c) => c.scene), [
      "fig6-wall",
      "fig8-cloth-tori",
      "fig8-dam-break-wall",
      "fig8-bowl",
      "fig9-flip-cloth",
      "fig9-flip-peridynamics",
    ]);
    assert.equal(PAPER_TABLE_ONE[3].ms.total, 27_400);
    assert.equal(PAPER_TABLE_ONE[3].fluid, 6_500_000);
  });

  await t.step("merge-split at the largest scale, ratios and shares", () => {
    const [c, ...rest] = comparePaperTableOne([small, medium, other, unrelated]);
    assert.equal(rest.length, 0, "one Table I scene measured");
    assert.equal(c.scale, "medium", "the largest scale run, merge-split only");
    const paper = PAPER_TABLE_ONE[0];
    const total = medium.timings!.phases.total.median;
    assert.equal(c.ms.total, total);
    assert.equal(c.ratio.total, total / paper.ms.total);
    assert.equal(c.ratio.merging, medium.timings!.phases.merging.median / paper.ms.merging);
    assert.equal(c.share.paper.integrationStage1, 800 / 3500);
    assert.equal(c.share.measured.splitting, medium.timings!.phases.splitting.median / total);
    assert.equal(c.solid, medium.particles!.solid);
  });

  await t.step("rendered and published, absent without a Table I scene", () => {
    const html = renderPaperTableOne([medium]);
    assert.match(html, /Fig\. 6/);
    assert.match(html, /measured \/ paper/);
    assert.match(renderPaperTableOne([unrelated]), /No Table I scene/);
    const report = renderReport([{ label: "a", records: [medium] }], { cdn: true });
    assert.ok(report.includes('id="table-1-paper"'));
    const none = renderReport([{ label: "a", records: [unrelated] }], { cdn: true });
    assert.ok(!none.includes('id="table-1-paper"'));
    const tables = publishTables([{ label: "a", records: [medium] }]);
    const paper = tables.find((x) => x.name === "table1-paper")!;
    assert.equal(paper.rows.length, 3, "paper, measured, ratio");
    const col = paper.header.indexOf("Total Time");
    assert.deepEqual(paper.rows.map((r) => (r[col] as { value: number }).value), [
      3500,
      medium.timings!.phases.total.median,
      medium.timings!.phases.total.median / 3500,
    ]);
    assert.ok(
      !publishTables([{ label: "a", records: [unrelated] }]).some((x) => x.name === "table1-paper"),
    );
  });
});

Deno.test("the catalogue's paper scale holds Table I's particle counts within 5 %", () => {
  for (const column of PAPER_TABLE_ONE) {
    const scene = getScene(column.scene, { scale: "paper" });
    let solid = 0, fluid = 0;
    scene.bodies.forEach((body, stream) => {
      if (body.kind === "cloth") solid += body.rows * body.cols;
      else if (body.kind === "solid") solid += sampleSolid(body).length / 3;
      else fluid += sampleFluid(body, { seed: scene.seed, stream }).length / 3;
    });
    const counts: [string, number, number][] = [
      ["solid", solid, column.solid],
      ["fluid", fluid, column.fluid],
    ];
    for (const [what, have, want] of counts) {
      const off = want === 0 ? have : Math.abs(have / want - 1);
      assert.ok(off <= 0.05, `${column.scene}: ${have} ${what} particles, Table I ${want}`);
    }
  }
});
