import assert from "node:assert/strict";
import { CLAIM_QUOTES, VALIDATION_CLAIMS } from "./claim_quotes.ts";
import { CLAIMS } from "./claims.ts";

/** The paper's text with every run of whitespace one space (`shared/paper`, beside the repo). */
function paperText(): string {
  const url = new URL("../../shared/paper/merging-splitting.txt", import.meta.url);
  return Deno.readTextFileSync(url).replace(/\s+/g, " ");
}

Deno.test("every claim of the paper quotes its sentence, word for word", () => {
  const paper = paperText();
  for (const claim of CLAIMS) {
    const q = CLAIM_QUOTES[claim.id];
    if (VALIDATION_CLAIMS.includes(claim.id)) {
      assert.equal(q, undefined, `${claim.id} validates the harness: no quote`);
      continue;
    }
    assert.ok(q, `claim ${claim.id} quotes no sentence of the paper`);
    assert.ok(
      paper.includes(q.quote.replace(/\s+/g, " ")),
      `claim ${claim.id}: "${q.quote}" is not in the paper`,
    );
  }
  // no quote for a claim that does not exist
  const ids = new Set(CLAIMS.map((c) => c.id));
  for (const id of Object.keys(CLAIM_QUOTES)) assert.ok(ids.has(id), id);
});
