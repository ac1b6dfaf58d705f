import assert from "node:assert/strict";
import type { CaseRecord } from "../../core/result.ts";
import { compareInputs, renderComparison } from "./comparison.ts";
import { fakeRecord } from "../fake_record.ts";
import { TABLE_I_PHASE_ORDER } from "../tables/table_one.ts";

/** Two result sets of the same three cases, the second taking twice as long on every phase. */
function twoMachines(): { label: string; records: CaseRecord[] }[] {
  const handlers = ["merge-split", "impulse", "penalty-weak"];
  return [
    { label: "A", records: handlers.map((handler) => fakeRecord({ handler })) },
    { label: "B", records: handlers.map((handler) => fakeRecord({ handler, timeScale: 2 })) },
  ];
}

/** The record without per-step samples (an older or trimmed result file). */
function withoutSamples(r: CaseRecord): CaseRecord {
  for (const t of Object.values(r.timings!.phases)) t.samples = [];
  return r;
}

Deno.test("comparison of machines", async (t) => {
  await t.step("twice as slow: speed-up 0.5 per phase, its CI contains it; geomean 0.5", () => {
    const c = compareInputs(twoMachines());
    assert.equal(c.rows.length, 3);
    assert.deepEqual(c.phases, [...TABLE_I_PHASE_ORDER]);
    for (const row of c.rows) {
      assert.equal(row.speedups[0], null, "the first input has no speed-up over itself");
      for (const p of c.phases) {
        const s = row.speedups[1]![p]!;
        assert.ok(Math.abs(s.value - 0.5) < 1e-12, `${row.handler} ${p}: ${s.value}`);
        assert.equal(s.method, "bootstrap");
        assert.ok(s.ci95![0] < s.value && s.value < s.ci95![1], `${p}: ${s.ci95}`);
      }
    }
    assert.equal(c.summary.length, 1);
    assert.equal(c.summary[0].label, "B");
    assert.equal(c.summary[0].cases, 3);
    assert.ok(Math.abs(c.summary[0].geometricMean! - 0.5) < 1e-12);
    assert.deepEqual(c.mismatches, []);
  });

  await t.step("the geometric mean over machines and cases of different speed-ups", () => {
    const [a, b] = twoMachines();
    const c3 = {
      label: "C",
      records: [
        fakeRecord({ handler: "merge-split", timeScale: 0.5 }),
        fakeRecord({ handler: "impulse", timeScale: 0.125 }),
      ],
    };
    const c = compareInputs([a, b, c3]);
    // C: speed-ups 2 and 8 → 4 over its 2 matched cases; penalty-weak has no C record
    assert.equal(c.summary[1].cases, 2);
    assert.ok(Math.abs(c.summary[1].geometricMean! - 4) < 1e-9);
    assert.equal(c.rows[2].speedups[2], null);
    assert.equal(c.summary[0].cases, 3);
  });

  await t.step("records without samples: the interval from the two medians' intervals", () => {
    const [a, b] = twoMachines();
    const c = compareInputs([
      { label: "A", records: a.records.map(withoutSamples) },
      { label: "B", records: b.records.map(withoutSamples) },
    ]);
    const s = c.rows[0].speedups[1]!.total!;
    assert.equal(s.method, "ci95");
    assert.ok(s.ci95![0] < 0.5 && 0.5 < s.ci95![1]);
    assert.ok(Math.abs(s.ci95![0] - 0.95 / (2 * 1.05)) < 1e-12);
  });

  await t.step("scale, seed and configuration mismatches are warned about", () => {
    const a = [
      fakeRecord({ handler: "merge-split" }),
      fakeRecord({ handler: "impulse" }),
      fakeRecord({ handler: "penalty-weak" }),
      fakeRecord({ handler: "penalty-strong" }),
    ];
    const b = [
      fakeRecord({ handler: "merge-split", timeScale: 2 }),
      fakeRecord({ handler: "impulse", scale: "small" }),
      fakeRecord({ handler: "penalty-weak", configHash: "d".repeat(64) }),
      fakeRecord({ handler: "penalty-strong", seed: 7, configHash: "e".repeat(64) }),
    ];
    const c = compareInputs([{ label: "A", records: a }, { label: "B", records: b }]);
    assert.deepEqual(c.rows.map((r) => r.handler), ["merge-split"], "only the matching case");
    const found = c.mismatches.map((m) => [m.field, m.case]);
    assert.deepEqual(found, [
      ["scale", "fig4-fluid-cloth × impulse"],
      ["seed", "fig4-fluid-cloth × penalty-strong (tiny)"],
      ["configHash", "fig4-fluid-cloth × penalty-weak (tiny)"],
      ["configHash", "fig4-fluid-cloth × penalty-strong (tiny)"],
    ]);
    assert.deepEqual(c.mismatches[0].values, [
      { label: "A", value: "tiny" },
      { label: "B", value: "small" },
    ]);
    assert.deepEqual(c.mismatches[1].values, [
      { label: "A", value: "2021" },
      { label: "B", value: "7" },
    ]);
    const html = renderComparison(c, { chartId: "x" });
    assert.match(html, /Configurations differ<\/strong> for 4 case\(s\)/);
    assert.match(
      html,
      /fig4-fluid-cloth × impulse: scales differ: A <code>tiny<\/code>, B <code>small<\/code>/,
    );
    assert.match(
      html,
      /penalty-strong \(tiny\): seed differs: A <code>2021<\/code>, B <code>7<\/code>/,
    );
    assert.match(
      html,
      /penalty-weak \(tiny\): configuration hash differs: A <code>cccccccccccc<\/code>/,
    );
  });

  await t.step(
    "scales in another order agree; a scale that one input lacks is warned about",
    () => {
      const a = [fakeRecord({ scale: "tiny" }), fakeRecord({ scale: "small" })];
      const b = [fakeRecord({ scale: "small" }), fakeRecord({ scale: "tiny" })];
      assert.deepEqual(
        compareInputs([{ label: "A", records: a }, { label: "B", records: b }]).mismatches,
        [],
      );
      const c = compareInputs([{ label: "A", records: a }, { label: "B", records: [b[1]] }]);
      assert.deepEqual(c.mismatches.map((m) => [m.field, m.values.map((v) => v.value)]), [
        ["scale", ["tiny, small", "tiny"]],
      ]);
    },
  );

  await t.step("runs of a case with different seeds are each matched to their own", () => {
    const run = (seed: number, timeScale: number) =>
      fakeRecord({ seed, configHash: String(seed).repeat(64), timeScale });
    const c = compareInputs([
      { label: "A", records: [run(1, 1), run(2, 1)] },
      { label: "B", records: [run(2, 2), run(1, 4)] },
    ]);
    assert.deepEqual(c.rows.map((r) => r.variant), [" seed=1", " seed=2"]);
    assert.deepEqual(c.rows.map((r) => r.speedups[1]!.total!.value), [0.25, 0.5]);
    assert.deepEqual(c.mismatches, [], "both inputs ran both seeds");
    assert.deepEqual(c.unmatched.map((u) => u.cases), [[], []]);
    const html = renderComparison(c, { chartId: "x" });
    assert.match(html, /<th class="row">fig4-fluid-cloth × merge-split seed=1 \(tiny\)<\/th>/);
    assert.match(html, /<th class="row">fig4-fluid-cloth × merge-split seed=2 \(tiny\)<\/th>/);
    // a seed that only one input ran: unmatched, named with its seed
    const d = compareInputs([
      { label: "A", records: [run(1, 1), run(2, 1)] },
      { label: "B", records: [run(1, 2)] },
    ]);
    assert.deepEqual(d.rows.map((r) => r.variant), [" seed=1"]);
    assert.deepEqual(d.unmatched[0].cases, ["fig4-fluid-cloth × merge-split seed=2 (tiny)"]);
  });

  await t.step("the HTML shows each speed-up with its CI and the summary per machine", () => {
    const html = renderComparison(compareInputs(twoMachines()), { chartId: "cmp" });
    assert.match(
      html,
      /<li><strong>B<\/strong>: speed-up 0\.5× over A, the geometric mean of the total step time's speed-up over 3 matched case\(s\)<\/li>/,
    );
    // per case and phase: the two medians, then B's speed-up with its interval
    assert.match(html, /9\.7 \/ 19\.4 <span class="ratio">\(0\.5× \[0\.\d+, 0\.\d+\]\)<\/span>/);
    assert.match(
      html,
      /<th class="row">total<\/th><td class="num ">29\.1<\/td><td class="num slower">58\.2 <span class="ratio">\(0\.5×\)<\/span>/,
    );
    assert.match(html, /id="cmp"/);
  });

  await t.step("labels and cases from result files are escaped", () => {
    const evil = "<img src=x onerror=alert(1)>";
    const [a, b] = twoMachines();
    b.records.push(fakeRecord({ handler: evil }));
    a.records.push(fakeRecord({ handler: evil, scale: "small" }));
    const html = renderComparison(
      compareInputs([{ label: evil, records: a.records }, { label: "B", records: b.records }]),
      { chartId: "c" },
    );
    assert.ok(!html.includes("<img"), "raw markup from a result file");
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
  });
});

Deno.test("no speed-up between cases of other scale, steps, setup or clock: a warning instead", async (t) => {
  const a = [fakeRecord({ handler: "merge-split", setup: "paper" })];
  const cases: [string, CaseRecord, string, RegExp][] = [
    [
      "scale",
      fakeRecord({ scale: "small", setup: "paper" }),
      "scale",
      /scales differ: A <code>tiny/,
    ],
    [
      "steps",
      fakeRecord({ steps: 400, setup: "paper" }),
      "steps",
      /steps differ: A <code>200<\/code>, B <code>400/,
    ],
    [
      "setup",
      fakeRecord({ setup: "compact-grouping" }),
      "setup",
      /setup differs: A <code>paper<\/code>, B <code>compact-grouping/,
    ],
    [
      "timing clock",
      (() => {
        const r = fakeRecord({ setup: "paper" });
        r.timings!.source = "wall-clock";
        return r;
      })(),
      "timing",
      /timing clock differs: A <code>timestamp<\/code>, B <code>wall-clock/,
    ],
  ];
  for (const [what, b, field, text] of cases) {
    await t.step(what, () => {
      const c = compareInputs([{ label: "A", records: a }, { label: "B", records: [b] }]);
      assert.deepEqual(c.rows, [], "no row, so no speed-up");
      assert.deepEqual(c.summary[0].cases, 0);
      assert.deepEqual(c.mismatches.map((m) => m.field), [field]);
      assert.match(renderComparison(c, { chartId: "x" }), text);
    });
  }
  await t.step("the same case timed the same way is compared", () => {
    const c = compareInputs([
      { label: "A", records: a },
      { label: "B", records: [fakeRecord({ setup: "paper", timeScale: 2 })] },
    ]);
    assert.equal(c.rows.length, 1);
    assert.equal(c.rows[0].speedups[1]!.total!.value, 0.5);
  });
});
