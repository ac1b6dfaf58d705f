/**
 * A suite runs the cases of every claim it says it judges (issue 57, item 7): for each named suite
 * with `judges` (`bench/cases/suites.ts`), each judged claim's `needs` (`reports/claims/claims.ts`)
 * are among the suite's cases under the paper's setup at its first seed. A root test: it reads the
 * bench's suites and the report's claims, two layers that never import each other.
 *
 * @module
 */
import assert from "node:assert/strict";
import { SUITES } from "./bench/cases/suites.ts";
import { type CaseSpec, resolveCases } from "./bench/cases/suite.ts";
import { suiteSweeps } from "./bench/cases/sweep.ts";
import { HANDLERS } from "./gpu/handlers/registry.ts";
import { CLAIMS } from "./reports/claims/claims.ts";
import type { Claim } from "./reports/claims/claim.ts";

/** The needs of `claim` that `cases` lack, in words (`scene × handler [sweep]`). */
export function unmetNeeds(claim: Claim, cases: readonly CaseSpec[]): string[] {
  return claim.needs.flatMap((need) =>
    need.handlers.filter((handler) =>
      !cases.some((c) =>
        c.scene.id === need.scene && c.handler === handler &&
        (need.sweep ? c.sweep?.[need.sweep] !== undefined : !c.sweep)
      )
    ).map((handler) => `${need.scene} × ${handler}${need.sweep ? ` [${need.sweep}]` : ""}`)
  );
}

/** The paper's cases of suite `name` at its scale and first seed, with its entries' sweeps. */
function suiteCases(name: string): CaseSpec[] {
  const suite = SUITES[name];
  const cases = resolveCases({
    scenes: [],
    handlers: [],
    scale: suite.scale ?? "small",
    suite: name,
    seeds: ["scene"],
    setups: ["paper"],
    memoryBytes: 2 ** 40,
  });
  return suiteSweeps(cases, suite, { knownHandlers: [...HANDLERS.keys()] });
}

Deno.test("every suite runs the cases of each claim it says it judges", async (t) => {
  for (const [name, suite] of Object.entries(SUITES)) {
    if (!suite.judges) continue;
    await t.step(name, () => {
      const ids = suite.judges!;
      const cases = suiteCases(name);
      const unmet = ids.flatMap((id) => {
        const claim = CLAIMS.find((c) => c.id === id);
        assert.ok(claim, `suite ${name} judges "${id}", which is no claim`);
        return unmetNeeds(claim, cases).map((n) => `${id}: ${n}`);
      });
      assert.deepEqual(unmet, [], `suite ${name} lacks cases of claims it judges`);
    });
  }
});

Deno.test("a suite without a case a claim needs fails the check", () => {
  const cases = suiteCases("default");
  const a = CLAIMS.find((c) => c.id === "a")!;
  assert.deepEqual(unmetNeeds(a, cases), []);
  const without = cases.filter((c) =>
    !(c.scene.id === "fig4-fluid-cloth" && c.handler === "merge-split")
  );
  assert.deepEqual(unmetNeeds(a, without), ["fig4-fluid-cloth × merge-split"]);
  const r = CLAIMS.find((c) => c.id === "r")!;
  assert.ok(unmetNeeds(r, cases).length > 0, "the default suite runs no stiffness sweep");
});
