import assert from "node:assert/strict";
import { CLAIM_THRESHOLDS, CLAIMS } from "./claims.ts";

/** The rows of the README's table of claim thresholds, as trimmed cells. */
function readmeThresholdRows(): string[][] {
  const readme = Deno.readTextFileSync(new URL("../README.md", import.meta.url));
  const start = readme.indexOf("| threshold");
  assert.ok(start >= 0, "README.md has a table of claim thresholds");
  const table = readme.slice(start, readme.indexOf("\n\n", start));
  return table.split("\n").filter((line) => line.startsWith("| `")).map((line) =>
    line.trim().replace(/^\||\|$/g, "").split("|").map((cell) => cell.trim())
  );
}

Deno.test("claim thresholds: the README's table is CLAIM_THRESHOLDS", async (t) => {
  await t.step("same names, values, units, claims and reasons, in order", () => {
    assert.deepEqual(
      readmeThresholdRows(),
      CLAIM_THRESHOLDS.map((th) => [
        `\`${th.name}\``,
        String(th.value),
        th.unit,
        th.claims,
        th.reason,
      ]),
    );
  });
  await t.step("every claim a threshold names exists", () => {
    const ids = new Set(CLAIMS.map((c) => c.id));
    for (const th of CLAIM_THRESHOLDS) {
      for (const id of th.claims.split(", ")) assert.ok(ids.has(id), `${th.name}: claim ${id}`);
    }
  });
});
