import assert from "node:assert/strict";
import { type MetricsSample, SAMPLE_FIELDS } from "../gpu/metrics/metrics.ts";
import { reboundHeight, summariseMetrics } from "./case_metrics.ts";

/** A sample with every field 0 but those given. */
const sample = (values: Partial<MetricsSample>): MetricsSample => ({
  ...Object.fromEntries(SAMPLE_FIELDS.map((f) => [f, 0])) as MetricsSample,
  kinetic: 1,
  ...values,
});

Deno.test("case summary: fluid validity and dam-break fields", async (t) => {
  const series = [
    sample({ time: 0.1, densityErrorMax: 0.02, densityErrorMean: 0.004, volumeChange: -0.01 }),
    sample({ time: 0.2, densityErrorMax: 0.05, densityErrorMean: 0.002, volumeChange: -0.03 }),
    sample({ time: 0.3, densityErrorMax: 0.01, densityErrorMean: 0.001, volumeChange: -0.02 }),
  ];
  await t.step("fluid scenes: worst density errors, final volume change", () => {
    const s = summariseMetrics(series, { referenceSpeed: 1, fluid: true });
    assert.equal(s.densityErrorMax, 0.05);
    assert.equal(s.densityErrorMean, 0.004);
    assert.equal(s.volumeChange, -0.02);
    assert.equal(s.columnWidth, undefined);
  });
  await t.step(
    "dam-break scenes add a, |g|, the tank and the front's error; scenes without fluid add nothing",
    () => {
      const s = summariseMetrics(series, {
        referenceSpeed: 1,
        fluid: true,
        damBreak: { columnWidth: 0.24, gravity: 9.81, tankLength: 1.92, radius: 0.01 },
      });
      assert.equal(s.columnWidth, 0.24);
      assert.equal(s.gravity, 9.81);
      assert.equal(s.tankLength, 1.92);
      // these samples have no front (0): 100 % short at the experiment's points up to T = 2.7
      assert.equal(s.surgeFrontError, 1);
      assert.equal(s.surgeFrontErrorMean, 1);
      // and no column (0): 100 % short at the judged points up to τ = 0.3 s · 6.39 = 1.92
      assert.equal(s.columnHeightError, 1);
      assert.equal(s.columnHeightErrorMean, 1);
      assert.ok(!("radius" in s), "the radius is an option, not a summary field");
      const early = summariseMetrics([sample({ time: 0.05 })], {
        referenceSpeed: 1,
        damBreak: { columnWidth: 0.24, gravity: 9.81, tankLength: 1.92, radius: 0.01 },
      });
      assert.ok(Number.isNaN(early.surgeFrontError), "no experimental point before T = 0.83");
      assert.ok(Number.isNaN(early.columnHeightError), "no experimental point before τ = 0.56");
      // a front at Z = 1.1 × the experiment's 1.217 at T = 0.832 (t = 0.092 s) and after
      const scale = Math.sqrt(2 * 9.81 / 0.24);
      const ahead = [0.08, 0.092, 0.1].map((time) => sample({ time, frontX: 0.24 * 1.1 * 1.217 }));
      const f = summariseMetrics(ahead, {
        referenceSpeed: 1,
        fluid: true,
        damBreak: { columnWidth: 0.24, gravity: 9.81, tankLength: 1.92, radius: 0.01 },
      });
      assert.ok(Math.abs(0.832 / scale - 0.092) < 1e-3);
      assert.ok(Math.abs(f.surgeFrontError! - 0.1) < 1e-9, `${f.surgeFrontError}`);
      const dry = summariseMetrics(series, { referenceSpeed: 1 });
      for (const k of ["densityErrorMax", "volumeChange", "columnWidth", "gravity"]) {
        assert.ok(!(k in dry), k);
      }
    },
  );
});

Deno.test("case summary: leak fraction and the fluid's net rebound", async (t) => {
  const series = [
    sample({ time: 0.1, passThrough: 0, fluidUpVelocity: -3, maxRebound: 0 }),
    sample({ time: 0.2, passThrough: 4, fluidUpVelocity: 0.4, maxRebound: 2.5 }),
    sample({ time: 0.3, passThrough: 2, fluidUpVelocity: 0.1, maxRebound: 1 }),
  ];
  await t.step("the most particles through, over those that can cross", () => {
    const s = summariseMetrics(series, { referenceSpeed: 4, crossingParticles: 800 });
    assert.equal(s.passThroughMax, 4);
    assert.equal(s.passThroughFraction, 4 / 800);
    assert.equal(s.referenceSpeed, 4);
    assert.equal(summariseMetrics(series, { referenceSpeed: 4 }).passThroughFraction, 0);
  });
  await t.step("rebound: the fluid's net upward velocity at its most, one droplet's apart", () => {
    const s = summariseMetrics(series, { referenceSpeed: 4 });
    assert.equal(s.fluidRebound, 0.4);
    assert.equal(s.maxRebound, 2.5);
    const falling = summariseMetrics([sample({ fluidUpVelocity: -1 })], { referenceSpeed: 4 });
    assert.equal(falling.fluidRebound, 0, "a fluid that only falls has no rebound");
  });
});

Deno.test("case summary: the step budget over the budget steps", () => {
  const series = [
    sample({ budgetMomentumScale: 2, budgetMergeMomentum: 2e-6, budgetMergeEnergy: -0.4 }),
    sample({ budgetMomentumScale: 4, budgetMergeMomentum: 2e-6, budgetMergeEnergy: -0.2 }),
    // the final sample of a run whose length is not a multiple of metricsEvery: no budget
    sample({ budgetMomentumScale: 0, budgetMergeEnergy: 0 }),
  ];
  const s = summariseMetrics(series, { referenceSpeed: 1 });
  assert.equal(s.budgetSteps, 2);
  assert.equal(s.budgetMergeMomentumMax, 1e-6, "the worst relative to that step's scale");
  assert.ok(Math.abs(s.budgetMergeEnergyMean - -0.3) < 1e-12, "mean per budget step");
  assert.equal(summariseMetrics([sample({})], { referenceSpeed: 1 }).budgetSteps, 0);
});

Deno.test("case summary: fragment statistics of the brittle solids", () => {
  const series = [
    sample({ time: 0.1, brokenBonds: 0, fragments: 1, largestFragment: 600 }),
    sample({
      time: 0.2,
      brokenBonds: 40,
      fragments: 3,
      largestFragment: 500,
      significantFragments: 2,
    }),
    sample({
      time: 0.3,
      brokenBonds: 90,
      fragments: 9,
      largestFragment: 450,
      significantFragments: 3,
    }),
  ];
  const s = summariseMetrics(series, {
    referenceSpeed: 1,
    breakableBonds: 900,
    breakableParticles: 600,
  });
  assert.equal(s.brokenFraction, 0.1);
  assert.equal(s.firstFracture, 0.2);
  assert.equal(s.fragments, 9);
  assert.equal(s.significantFragments, 3, "at the end");
  assert.equal(s.largestFragmentShare, 0.75);
  const none = summariseMetrics(series, { referenceSpeed: 1 });
  assert.equal(none.largestFragmentShare, 0, "no solid particles: no share");
});

Deno.test("case summary: what is read before the blow-up", async (t) => {
  const ok = (time: number, values: Partial<MetricsSample> = {}) =>
    sample({ time, maxSpeed: 2, largestFragment: 300, fragments: 5, ...values });
  const options = { referenceSpeed: 1, breakableParticles: 600, fluidParticles: 200 };
  await t.step("no blow-up: the end's fragments, the most fast rebounds", () => {
    const s = summariseMetrics(
      [ok(0.1, { fastRebound: 30 }), ok(0.2, { fastRebound: 4 })],
      options,
    );
    assert.ok(Number.isNaN(s.blowUpTime));
    assert.equal(s.exploded, false);
    assert.equal(s.fastReboundFraction, 0.15);
    assert.equal(s.fragmentsBeforeBlowUp, 5);
    assert.equal(s.largestFragmentShareBeforeBlowUp, 0.5);
  });
  for (
    const [why, bad] of [
      ["a NaN", { nanCount: 3 }],
      ["a particle past 10× the reference speed", { maxSpeed: 10.5 }],
      ["an infinite energy", { kinetic: Infinity }],
    ] as const
  ) {
    await t.step(`${why}: the samples before it`, () => {
      const series = [
        ok(0.1, { fastRebound: 10, significantFragments: 4 }),
        ok(0.2, { fastRebound: 20, largestFragment: 30, fragments: 80, significantFragments: 6 }),
        ok(0.3, { ...bad, fastRebound: 200, largestFragment: 1, fragments: 600 }),
        ok(0.4, { fastRebound: 200, largestFragment: 1, fragments: 600 }),
      ];
      const s = summariseMetrics(series, options);
      assert.equal(s.exploded, true);
      assert.equal(s.blowUpTime, 0.3);
      assert.equal(s.fastReboundFraction, 0.1);
      assert.equal(s.fragmentsBeforeBlowUp, 80);
      assert.equal(s.significantFragmentsBeforeBlowUp, 6);
      assert.equal(s.largestFragmentShareBeforeBlowUp, 0.05);
      assert.equal(s.fragments, 600, "the end's, as before");
    });
  }
  await t.step("significant fragments at the first fracture", () => {
    const s = summariseMetrics([
      ok(0.1),
      ok(0.2, { brokenBonds: 3, significantFragments: 1 }),
      ok(0.3, { brokenBonds: 50, significantFragments: 4 }),
    ], options);
    assert.equal(s.significantFragmentsAtFirstFracture, 1);
    assert.ok(
      Number.isNaN(summariseMetrics([ok(0.1)], options).significantFragmentsAtFirstFracture),
    );
  });
});

Deno.test("reboundHeight: the rise after the first low point, 0 without one", () => {
  // falls, the impact at 0.2, jumps back to 0.35, falls again below the impact
  assert.ok(Math.abs(reboundHeight([1, 0.6, 0.3, 0.2, 0.3, 0.35, 0.1]) - 0.15) < 1e-12);
  assert.equal(reboundHeight([1, 0.5, 0.2, 0.1]), 0, "never rises");
  assert.equal(reboundHeight([]), 0);
  // a later, higher rise counts too: the highest point after the first low one
  assert.ok(Math.abs(reboundHeight([1, 0.2, 0.25, 0.1, 0.4]) - 0.2) < 1e-12);
});

Deno.test("case summary: the sheet's deflection over the run's second half", () => {
  const series = [0, 5, 1, 2, 3].map((d) => sample({ sheetDeflection: d }));
  const s = summariseMetrics(series, { referenceSpeed: 1 });
  // samples 2..4 (the second half): the impact's 5 is before it
  assert.equal(s.sheetDeflectionLateMax, 3);
  assert.equal(s.sheetDeflectionLateMin, 1);
  assert.equal(s.sheetDeflection, 5);
  const none = summariseMetrics([], { referenceSpeed: 1 });
  assert.equal(none.sheetDeflectionLateMax, 0);
});

Deno.test("case summary: the sheet's largest meta-particle over the second half, and the counts the shares are of", () => {
  // 100 cloth particles: the largest meta-particle holds 90 at the impact, then 60, 40, 70
  const series = [0, 90, 60, 40, 70].map((g) => sample({ largestSheetGroup: g }));
  const s = summariseMetrics(series, {
    referenceSpeed: 1,
    sheetParticles: 100,
    crossingParticles: 500,
    breakableParticles: 0,
  });
  assert.equal(s.largestSheetGroupFraction, 0.9);
  assert.equal(s.largestSheetGroupFractionLateMin, 0.4);
  assert.equal(s.sheetParticles, 100);
  assert.equal(s.crossingParticles, 500);
  assert.equal(s.breakableParticles, 0);
  assert.equal(s.fluidParticles, undefined, "not given, not recorded");
  const noCloth = summariseMetrics(series, { referenceSpeed: 1 });
  assert.equal(noCloth.largestSheetGroupFractionLateMin, undefined);
});
