import assert from "node:assert/strict";
import { committedSubmissions } from "./committed_submissions.ts";
import { SUBMISSIONS_DIR } from "./read_submission.ts";
import { suiteRecords } from "./submission_fixture.ts";
import { writeSubmission } from "./write_submission.ts";

Deno.test("committed submissions: the accepted ones by name; a refused one stops the docs", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-hw-" });
  const root = new URL(`file://${dir}/`);
  try {
    assert.deepEqual(committedSubmissions(root), []);
    const at = (name: string) => `${dir}/${SUBMISSIONS_DIR}${name}`;
    writeSubmission("r.jsonl", suiteRecords(), { out: at("b-good"), driver: "d" });
    writeSubmission("r.jsonl", suiteRecords(), { out: at("a-good"), driver: "d" });
    assert.deepEqual(
      committedSubmissions(root).map((s) => s.dir.split("/").at(-1)),
      ["a-good", "b-good"],
    );
    writeSubmission("r.jsonl", suiteRecords().slice(2), { out: at("c-bad"), driver: "d" });
    assert.throws(
      () => committedSubmissions(root),
      /c-bad is refused by the checker: case fig4-fluid-cloth × penalty-weak is there 0 times/,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
