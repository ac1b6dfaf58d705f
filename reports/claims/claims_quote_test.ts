import assert from "node:assert/strict";
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

/** The claims that validate the harness rather than test a sentence of the paper. */
const VALIDATION = ["w", "w2", "x", "x2"];

Deno.test({
  name: "every claim of the paper quotes its sentence, word for word",
  // a checkout without ../shared (a bare clone elsewhere) has no paper to check against: the test
  // says so by being ignored, and runs wherever the paper is
  ignore: paper === null,
  fn: () => {
    for (const claim of CLAIMS) {
      if (!claim.quote) continue;
      assert.ok(
        paper!.includes(claim.quote.quote.replace(/\s+/g, " ")),
        `claim ${claim.id}: "${claim.quote.quote}" is not in the paper`,
      );
    }
  },
});

Deno.test("a claim quotes a sentence of the paper unless it validates the harness", () => {
  for (const claim of CLAIMS) {
    assert.equal(
      claim.quote === null,
      VALIDATION.includes(claim.id),
      `claim ${claim.id}: a quote, or a validation claim (${VALIDATION.join(", ")}), not both`,
    );
    if (claim.quote) assert.ok(claim.quote.where.length > 0, `claim ${claim.id}: where it stands`);
  }
});
