import assert from "node:assert/strict";
import { fakeRecord } from "../fake_record.ts";
import {
  comparePaperTableOne,
  coverageText,
  PAPER_TABLE_ONE,
  renderPaperTableOne,
  runCoverage,
} from "./paper_table_one.ts";
import type { CaseRecord, PhaseTiming } from "../../core/result.ts";
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

  await t.step("records without a mean (written before it was kept): the median, said so", () => {
    const [c] = comparePaperTableOne([medium]);
    assert.equal(c.statistic, "median");
    assert.match(renderPaperTableOne([medium]), /measured \(median ms\/step; medium/);
    assert.match(renderPaperTableOne([medium]), /the record predates the mean, so the median/);
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

/** `record` with every phase's samples replaced by `samples(phase)`, and their mean (`mean`). */
function withSamples(
  record: CaseRecord,
  samples: (phase: string) => number[],
  options: { mean: boolean },
): CaseRecord {
  const phases: Record<string, PhaseTiming> = {};
  for (const [name, p] of Object.entries(record.timings!.phases)) {
    const xs = samples(name);
    const sorted = [...xs].sort((a, b) => a - b);
    phases[name] = {
      ...p,
      median: sorted[sorted.length >> 1],
      min: sorted[0],
      max: sorted.at(-1)!,
      n: xs.length,
      samples: xs,
      ...(options.mean ? { mean: xs.reduce((a, b) => a + b, 0) / xs.length } : {}),
    };
  }
  return { ...record, timings: { ...record.timings!, phases } };
}

Deno.test("Table I: the mean beside the paper's averages, whole runs told from first steps", async (t) => {
  // fig6-wall at paper: 2,849 steps; its steps slow from 15 to 74 ms as the wall breaks, so the
  // median of the whole run (15 ms) is not its average (the mean)
  const dt = 0.2 / 2849;
  const fracture = (k: number) => (k < 1500 ? 15 : 15 + (59 * (k - 1500)) / 1328);
  const wholeSamples = Array.from({ length: 2829 }, (_, k) => fracture(k + 20));
  const whole = withSamples(
    fakeRecord({
      scene: "fig6-wall",
      handler: "merge-split",
      scale: "paper",
      steps: 2849,
      dt,
      protocol: { warmupSteps: 20, repeats: 1, timeoutSeconds: 600 },
    }),
    (p) => wholeSamples.map((x) => (p === "total" ? x : x / 10)),
    { mean: true },
  );
  // fig8-bowl at paper, 200 steps of its 29,954 (dt 1 s / 29,954)
  const partial = withSamples(
    fakeRecord({
      scene: "fig8-bowl",
      handler: "merge-split",
      scale: "paper",
      steps: 200,
      dt: 1 / 29954,
      protocol: { warmupSteps: 20, repeats: 1, timeoutSeconds: 600 },
    }),
    () => Array.from({ length: 180 }, (_, k) => (k < 170 ? 13 : 40)),
    { mean: true },
  );

  await t.step("the mean ms/step where the record has it: not the median", () => {
    const [fig6, bowl] = comparePaperTableOne([whole, partial]);
    assert.equal(fig6.statistic, "mean");
    const total = whole.timings!.phases.total;
    assert.equal(total.median, 15);
    assert.ok(total.mean! > 20, `a mean of ${total.mean} past the median`);
    assert.equal(fig6.ms.total, total.mean);
    assert.equal(fig6.ratio.total, total.mean! / 3500);
    assert.equal(fig6.ms.merging, whole.timings!.phases.merging.mean);
    assert.equal(fig6.share.measured.merging, whole.timings!.phases.merging.mean! / total.mean!);
    assert.equal(bowl.ms.total, (170 * 13 + 10 * 40) / 180);
    assert.notEqual(bowl.ms.total, partial.timings!.phases.total.median);
  });

  await t.step("whole run: the record's steps against the scene's duration / dt", () => {
    const [fig6, bowl] = comparePaperTableOne([whole, partial]);
    assert.deepEqual(fig6.coverage, {
      steps: 2849,
      warmup: 20,
      repeats: 1,
      wholeSteps: 2849,
      whole: true,
    });
    assert.deepEqual(bowl.coverage, {
      steps: 200,
      warmup: 20,
      repeats: 1,
      wholeSteps: 29954,
      whole: false,
    });
    assert.equal(
      coverageText(fig6),
      "fig6-wall: the whole run (2,849 steps, 0.2 s), the mean over steps 21–2,849 (after 20 warm-up)",
    );
    assert.equal(
      coverageText(bowl),
      "fig8-bowl: only its first 200 of 29,954 steps (the whole run: 1 s), the mean over steps 21–200 (after 20 warm-up)",
    );
    assert.equal(runCoverage({ ...whole, steps: 2848 }, 0.2).whole, false, "one step short");
  });

  await t.step("the caption says which cases are whole runs, and the statistic", () => {
    const html = renderPaperTableOne([whole, partial]);
    assert.match(html, /the mean ms\/step of its measured steps,/);
    assert.match(html, /fig6-wall: the whole run \(2,849 steps, 0\.2 s\)/);
    assert.match(html, /fig8-bowl: only its first 200 of 29,954 steps/);
    assert.match(html, /is not the paper's whole-run average/);
    assert.match(html, /measured \(mean ms\/step; paper/);
    const wholeOnly = renderPaperTableOne([whole]);
    assert.doesNotMatch(wholeOnly, /not the paper's whole-run average/);
    const mixed = renderPaperTableOne([whole, medium()]);
    assert.match(mixed, /or the median where a record predates the mean/);
  });
});

/** A fig8-cloth-tori record at medium without a mean (a record written before it was kept). */
function medium(): CaseRecord {
  return fakeRecord({ scene: "fig8-cloth-tori", handler: "merge-split", scale: "medium" });
}

Deno.test("Table I's durations are the catalogue scenes' at every scale", () => {
  for (const column of PAPER_TABLE_ONE) {
    for (const scale of ["tiny", "small", "medium", "paper"] as const) {
      assert.equal(getScene(column.scene, { scale }).duration, column.duration, column.scene);
    }
  }
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
