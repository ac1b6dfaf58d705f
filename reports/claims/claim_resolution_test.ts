import assert from "node:assert/strict";
import { CLAIMS, evaluateClaims, judgeClaim } from "./claims.ts";
import { bodyParticles, tooCoarse } from "./claim_resolution.ts";
import { RESOLUTION_MIN_PARTICLES, SHEET_SPAN_MIN } from "./claim_thresholds.ts";
import { fakeRecord } from "../fake_record.ts";

const claim = (id: string) => CLAIMS.find((c) => c.id === id)!;

/** The bowl of Fig. 8 broken into `pieces` fragments of ≥ 1 % of its `n` particles. */
function bowl(n: number, pieces: number, extra: Record<string, number> = {}) {
  return fakeRecord({
    scene: "fig8-bowl",
    scale: n < 100 ? "tiny" : "medium",
    particles: { solid: n, fluid: 2000 },
    summary: {
      brokenBonds: 100,
      fragmentsBeforeBlowUp: pieces,
      significantFragmentsBeforeBlowUp: pieces,
      largestFragmentShareBeforeBlowUp: 1 / pieces,
      largestFragment: Math.round(n / pieces),
      largestFragmentShare: Math.round(n / pieces) / n,
      significantFragments: pieces,
      fragments: pieces,
      ...extra,
    },
  });
}

Deno.test("a share of a body that is fewer than ten particles is too coarse to judge", async (t) => {
  await t.step("the bowl in 52 one-particle pieces at tiny: too coarse, not reproduced", () => {
    // 1 % of 52 particles is 0.52 of one: every particle is a "fragment of ≥ 1 %"
    const tiny = bowl(52, 52);
    assert.equal(bodyParticles(tiny, "breakable"), 52);
    const r = judgeClaim(claim("v"), [tiny]);
    assert.equal(r.status, "too coarse");
    assert.match(r.measured, /0\.52 particles \(0\.01 of 52\) in fig8-bowl at tiny/);
  });
  await t.step("the same claim judged where 1 % is many particles", () => {
    const medium = bowl(4000, 3);
    assert.equal(tooCoarse(claim("v"), [medium]), null);
    assert.equal(judgeClaim(claim("v"), [medium]).status, "reproduced");
  });
  await t.step("the count the summary records wins over the one older fields give", () => {
    const r = bowl(52, 52, { breakableParticles: 5000 });
    assert.equal(bodyParticles(r, "breakable"), 5000);
    assert.equal(tooCoarse(claim("v"), [r]), null);
  });
  await t.step("a leak share reads the crossing particles: Fig. 11's fluid", () => {
    const fluid = (n: number, scene: string) =>
      fakeRecord({ scene, scale: "tiny", particles: { solid: 256, fluid: n } });
    const few = [fluid(338, "fig11-nlimit-4-8"), fluid(338, "fig11-nlimit-32-64")];
    assert.equal(judgeClaim(claim("i"), few).status, "too coarse", "0.5 % of 338 is 1.7");
    const many = [fluid(3920, "fig11-nlimit-4-8"), fluid(3920, "fig11-nlimit-32-64")];
    assert.equal(tooCoarse(claim("i"), many), null, "0.5 % of 3,920 is 19.6");
    assert.ok(3920 * 0.005 >= RESOLUTION_MIN_PARTICLES && 338 * 0.005 < RESOLUTION_MIN_PARTICLES);
  });
  await t.step("a claim without a resolution, or records without counts, are judged", () => {
    assert.equal(tooCoarse(claim("o"), [bowl(52, 52)]), null);
    const noCount = fakeRecord({ scene: "fig8-bowl", particles: { solid: 52, fluid: 0 } });
    assert.equal(bodyParticles(noCount, "breakable"), null);
    assert.equal(tooCoarse(claim("v"), [noCount]), null);
  });
  await t.step("across seeds: too coarse at every seed is too coarse", () => {
    const records = [bowl(52, 52), { ...bowl(52, 52), seed: 7 }];
    const v = evaluateClaims(records, { claims: [claim("v")] })[0].result;
    assert.equal(v.status, "too coarse");
    assert.match(v.measured, /seed 2021 \(too coarse\).*seed 7 \(too coarse\)/);
  });
});

Deno.test("Fig. 11: a run whose largest meta-particle never spans the sheet has not reached j's premise", async (t) => {
  const cases = (share: number, lateMin: number, deflection: [number, number]) => [
    fakeRecord({
      scene: "fig11-nlimit-inf",
      summary: {
        largestSheetGroupFraction: share,
        largestSheetGroupFractionLateMin: lateMin,
        sheetDeflectionEnd: deflection[0],
        sheetDeflectionLateMax: deflection[0],
        sheetDeflectionLateMin: deflection[0],
      },
    }),
    fakeRecord({
      scene: "fig11-nlimit-8-16",
      summary: {
        sheetDeflectionEnd: deflection[1],
        sheetDeflectionLateMax: deflection[1],
        sheetDeflectionLateMin: deflection[1],
      },
    }),
  ];
  await t.step("32 % of the sheet: premise not reached, with the numbers", () => {
    const r = judgeClaim(claim("j"), cases(0.32, 0.3, [5.9, 5.06]));
    assert.equal(r.status, "premise not reached");
    assert.match(r.measured, /held at most 0\.32 of the sheet/);
    assert.match(r.measured, /5\.9/, "the evaluation's numbers follow");
  });
  await t.step("the whole sheet: judged, and then it can fail", () => {
    assert.equal(judgeClaim(claim("j"), cases(1, 1, [2, 5])).status, "reproduced");
    assert.equal(judgeClaim(claim("j"), cases(1, 1, [5, 5])).status, "not reproduced");
  });
  await t.step("permanent (j3): spanned at the impact, not over the second half", () => {
    const r = judgeClaim(claim("j3"), cases(SHEET_SPAN_MIN, 0.5, [2, 5]));
    assert.equal(r.status, "premise not reached");
    assert.match(r.measured, /only 0\.5 at one sample of the second half/);
    assert.equal(judgeClaim(claim("j"), cases(SHEET_SPAN_MIN, 0.5, [2, 5])).status, "reproduced");
  });
  await t.step("a claim not run stays not run", () => {
    const r = judgeClaim(claim("j"), cases(0.32, 0.3, [5.9, 5.06]).slice(0, 1));
    assert.equal(r.status, "not run");
  });
});
