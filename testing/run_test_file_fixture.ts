/**
 * Test fixture of `testing/run_test_file_test.ts`: tests, nested steps, an ignored test and failures,
 * whose counts that test checks. Not a test file itself (no `_test` suffix): it fails on purpose.
 */
import assert from "node:assert/strict";

const order: string[] = [];
Deno.test("plain", () => {
  order.push("a");
});
Deno.test({ name: "ignored", ignore: true, fn: () => assert.fail("ignored tests do not run") });
Deno.test("steps", async (t) => {
  await t.step("outer", async (t) => {
    order.push("b");
    await t.step({ name: "inner", fn: () => void order.push("c") });
  });
  await t.step("a failing step", () => {
    if (Deno.env.get("MERGESPLIT_FIXTURE_FAIL")) assert.equal(1, 2);
  });
  console.log(`order: ${order.join(" ")}`);
});
Deno.test("throws", () => {
  if (Deno.env.get("MERGESPLIT_FIXTURE_FAIL")) throw new Error("thrown on purpose");
});
