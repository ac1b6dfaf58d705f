import assert from "node:assert/strict";
import { readResultsFile } from "./read_results_file.ts";
import { InputLimitError } from "./read_text_limited.ts";
import { recordLine } from "../result.ts";
import { recordFixture } from "../result_fixture.ts";

/** A minimal valid record of `scene`. */
function line(scene: string): string {
  const record = recordFixture({ scene, status: "failed", timings: null, metrics: null });
  return recordLine(record);
}

Deno.test("readResultsFile: streamed, a line past the limit skipped and named, the rest kept", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-read-results-" });
  try {
    const path = `${dir}/results.jsonl`;
    const long = `{"pad":"${"x".repeat(5000)}"}\n`;
    Deno.writeTextFileSync(path, line("a") + long + "\n{torn" + "\n" + line("b"));
    const { records, skipped } = readResultsFile(path, { maxLineBytes: 1000 });
    assert.deepEqual(records.map((r) => r.scene), ["a", "b"]);
    assert.deepEqual(skipped.map((s) => s.line), [2, 4]);
    assert.match(
      skipped[0].reason,
      /^longer than the limit of 1000 bytes \(4\.9 KiB\), not read; no record is that long: delete the line$/,
    );
    assert.equal(skipped[1].reason, "not JSON (a torn write?)");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("readResultsFile: /dev/zero and a directory are refused at once", () => {
  for (const path of ["/dev/zero", "/"]) {
    assert.throws(() => readResultsFile(path), InputLimitError);
  }
});
