import assert from "node:assert/strict";
import { CLAIM_QUOTES, VALIDATION_CLAIMS } from "./claim_quotes.ts";
import { CLAIMS } from "./claims.ts";

/** The paper's text (`shared/paper`, beside the repository, where every checkout and CI has it). */
const PAPER = new URL("../../../shared/paper/merging-splitting.txt", import.meta.url);

/** The paper's text with every run of whitespace one space, or null where there is no copy. */
function paperText(): string | null {
  try {
    return Deno.readTextFileSync(PAPER).replace(/\s+/g, " ");
  } catch {
    return null;
  }
}

const paper = paperText();

Deno.test({
  name: "every claim of the paper quotes its sentence, word for word",
  // a checkout without ../shared (a bare clone elsewhere) has no paper to check against: the test
  // says so by being ignored, and runs wherever the paper is
  ignore: paper === null,
  fn: () => {
    for (const claim of CLAIMS) {
      const q = CLAIM_QUOTES[claim.id];
      if (VALIDATION_CLAIMS.includes(claim.id)) {
        assert.equal(q, undefined, `${claim.id} validates the harness: no quote`);
        continue;
      }
      assert.ok(q, `claim ${claim.id} quotes no sentence of the paper`);
      assert.ok(
        paper!.includes(q.quote.replace(/\s+/g, " ")),
        `claim ${claim.id}: "${q.quote}" is not in the paper`,
      );
    }
    // no quote for a claim that does not exist
    const ids = new Set(CLAIMS.map((c) => c.id));
    for (const id of Object.keys(CLAIM_QUOTES)) assert.ok(ids.has(id), id);
  },
});

Deno.test("every claim of the paper has a quote, and every quote a claim", () => {
  for (const claim of CLAIMS) {
    assert.ok(
      VALIDATION_CLAIMS.includes(claim.id) !== Boolean(CLAIM_QUOTES[claim.id]),
      `claim ${claim.id}: a quote, or named a validation claim, not both`,
    );
  }
  const ids = new Set(CLAIMS.map((c) => c.id));
  for (const id of Object.keys(CLAIM_QUOTES)) assert.ok(ids.has(id), id);
});
