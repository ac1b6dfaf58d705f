import assert from "node:assert/strict";
import type { CaseRecord } from "../core/result.ts";
import { caseGroupKey, caseKey, caseLabel, caseVariant, latestCases } from "./case_key.ts";
import { fakeRecord, type FakeRecordOptions } from "./fake_record.ts";

const FIG4 = "fig4-fluid-cloth";

/** The record of fig4 × merge-split at tiny scale with `fields` changed. */
const run = (fields: FakeRecordOptions = {}) =>
  fakeRecord({ scene: FIG4, handler: "merge-split", ...fields });

Deno.test("case identity: everything that changes a case's outcome", async (t) => {
  const base = run();
  const others: Array<[string, CaseRecord]> = [
    ["steps", run({ steps: 400 })],
    ["dt", run({ dt: 5e-4 })],
    ["seed", run({ seed: 7 })],
    ["handler parameters", run({ handlerParams: { ...base.handlerParams, nMax: Infinity } })],
    ["coupling", run({ coupling: "whole" })],
    ["configuration hash", run({ configHash: "d".repeat(64) })],
    ["sweep", run({ sweep: { "scene.dt": 1e-3 } })],
    ["scale", run({ scale: "small" })],
  ];

  await t.step("runs that differ in any of them are different cases, all kept", () => {
    for (const [what, other] of others) {
      assert.notEqual(caseKey(other), caseKey(base), what);
      assert.deepEqual(latestCases([base, other]), [base, other], what);
    }
    assert.equal(new Set([base, ...others.map(([, r]) => r)].map(caseKey)).size, 9);
    // the same configuration: the same case (absent coupling is own-part)
    assert.equal(caseKey(run({ coupling: "own-part" })), caseKey(run({ coupling: undefined })));
    assert.equal(caseKey(run({ status: "failed", startedAt: "x" })), caseKey(base));
  });

  await t.step("the same configuration run twice: the longest span, then the last", () => {
    const again = run({ summary: { passThroughMax: 3 } });
    assert.deepEqual(latestCases([base, again]), [again]);
    const third = run();
    assert.deepEqual(latestCases([base, again, third]), [third]);
  });

  await t.step("the group leaves configuration out (the comparison's mismatch warnings)", () => {
    for (const [what, other] of others.slice(0, 6)) {
      assert.equal(caseGroupKey(other), caseGroupKey(base), what);
    }
    assert.notEqual(caseGroupKey(others[6][1]), caseGroupKey(base), "a sweep value");
  });

  await t.step("labels name only what differs within scene × handler × scale", () => {
    const short = run({ steps: 100 });
    const seeded = run({ seed: 7 });
    const other = fakeRecord({ scene: FIG4, handler: "impulse", seed: 9 });
    const among = [base, short, seeded, other];
    assert.deepEqual(among.map((r) => caseLabel(r, { among })), [
      `${FIG4} × merge-split steps=200 seed=2021`,
      `${FIG4} × merge-split steps=100 seed=2021`,
      `${FIG4} × merge-split steps=200 seed=7`,
      `${FIG4} × impulse`,
    ]);
    assert.equal(
      caseLabel(short, { among, withScale: true }),
      `${FIG4} × merge-split steps=100 seed=2021 (tiny)`,
    );
    assert.equal(caseLabel(short), `${FIG4} × merge-split`, "without among: no variant");
    assert.equal(caseLabel({ ...short, variant: " steps=100" }), `${FIG4} × merge-split steps=100`);
    // one case alone, or twice in the same configuration: nothing to tell apart
    assert.equal(caseVariant(base, [base, run()]), "");
    // handler parameters: only the one that differs
    const nMax = run({ handlerParams: { ...base.handlerParams, nMax: Infinity } });
    assert.equal(caseVariant(nMax, [base, nMax]), " nMax=Infinity");
    assert.equal(
      caseVariant(run({ coupling: "whole" }), [base, run({ coupling: "whole" })]),
      " coupling=whole",
    );
    // only the configuration hash differs (e.g. warm-up or repetitions): its first 12 digits
    const hashed = run({ configHash: "0123456789abcdef".repeat(4) });
    assert.equal(caseVariant(hashed, [base, hashed]), " config=0123456789ab");
    assert.equal(caseVariant(base, [base, hashed]), " config=cccccccccccc");
    // the sweep values are part of the label, not of the variant
    const swept = run({ sweep: { "scene.dt": 1e-3 } });
    assert.equal(
      caseLabel(swept, { among: [base, swept] }),
      `${FIG4} × merge-split scene.dt=0.001`,
    );
  });
});
