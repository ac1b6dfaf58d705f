import assert from "node:assert/strict";
import { fakeRecord } from "../reports/fake_record.ts";
import { checkRuns, comparisonMarkdown } from "./browser_check.ts";

Deno.test("browser check: what it compares and what fails it", async (t) => {
  const handlers = ["merge-split", "penalty-weak", "penalty-strong", "impulse"];
  const deno = handlers.map((handler) => fakeRecord({ handler }));
  await t.step("the same records: no problem, every state hash the same", () => {
    assert.deepEqual(checkRuns(deno, deno), []);
    const table = comparisonMarkdown(deno, deno);
    assert.equal(table.match(/\| same \|/g)?.length, handlers.length);
    assert.match(table, /\| claim \| browser \| Deno \|/);
  });
  await t.step("a case not ok in the browser, a missing case: each named", () => {
    const browser = [fakeRecord({ handler: "merge-split", status: "failed", error: "lost" })];
    const problems = checkRuns(browser, deno);
    assert.ok(problems.some((p) => p.includes("the browser ran 1 cases, Deno 4")));
    assert.ok(problems.some((p) => p.includes("merge-split: failed in the browser (lost)")));
  });
});
