import assert from "node:assert/strict";
import { type CaseRecord, recordLine } from "../../core/result.ts";
import { fakeRecord } from "../fake_record.ts";
import { ResultsFileError, writeReport } from "./write_report.ts";
import { adapterDisagreements } from "../sections/adapter_agreement.ts";

/** Writes `lines` as a results file in a new folder; returns its path. */
function resultsFile(lines: string[]): string {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-write-report-" });
  Deno.writeTextFileSync(`${dir}/results.jsonl`, lines.join(""));
  return `${dir}/results.jsonl`;
}

/** A fake record run on `description` over `backend`, ending in `stateHash`. */
function onAdapter(description: string, backend: string, stateHash: string): CaseRecord {
  const r = fakeRecord({ stateHash });
  r.env = { ...r.env!, adapter: { ...r.env!.adapter, description, backend } };
  return r;
}

Deno.test("writeReport: one absurd record is skipped and named, the rest is written", () => {
  const bad: Array<[string, (r: Record<string, unknown>) => void, RegExp]> = [
    ["wallSeconds 1e13", (r) => (r.wallSeconds = 1e13), /"wallSeconds" must be seconds from 0/],
    ["wallSeconds -5", (r) => (r.wallSeconds = -5), /"wallSeconds" must be seconds from 0/],
    ["wallSeconds Infinity", (r) => (r.wallSeconds = "Infinity"), /"wallSeconds" must be/],
    ["compileSeconds 1e308", (r) => (r.compileSeconds = 1e308), /"compileSeconds" must be/],
    // deno-lint-ignore no-explicit-any
    ["git commit a number", (r: any) => (r.env.git.commit = 5), /"env\.git\.commit" must be/],
  ];
  for (const [name, mutate, reason] of bad) {
    const record = JSON.parse(recordLine(fakeRecord({ scene: "fig3-ball-cloth-high" })));
    mutate(record);
    const file = resultsFile([recordLine(fakeRecord()), JSON.stringify(record) + "\n"]);
    try {
      const { skipped, inputs } = writeReport([file]);
      assert.equal(skipped.length, 1, name);
      assert.match(skipped[0], /results\.jsonl line 2 skipped: /, name);
      assert.match(skipped[0], reason, name);
      assert.deepEqual(inputs[0].records.map((r) => r.scene), ["fig4-fluid-cloth"], name);
    } finally {
      Deno.removeSync(file.replace(/\/results\.jsonl$/, ""), { recursive: true });
    }
  }
});

Deno.test("writeReport: /dev/zero and a directory are refused at once, naming the file", () => {
  for (const [path, kind] of [["/dev/zero", "a character device"], ["/tmp", "a directory"]]) {
    assert.throws(() => writeReport([path], { out: "/nonexistent/report.html" }), (e) => {
      assert.ok(e instanceof ResultsFileError, String(e));
      assert.equal(
        e.message,
        `results file ${path} is ${kind}, not a regular file; pass the path of a results.jsonl written by \`deno task bench\``,
      );
      return true;
    });
  }
});

Deno.test("writeReport: every adapter's record of a case is shown, differing states said", () => {
  const file = resultsFile([
    recordLine(onAdapter("llvmpipe (LLVM 15)", "gl", "a".repeat(64))),
    recordLine(onAdapter("SwiftShader Device", "vulkan", "b".repeat(64))),
  ]);
  try {
    const { path, inputs } = writeReport([file]);
    const html = Deno.readTextFileSync(path);
    assert.equal(inputs[0].records.length, 2);
    assert.ok(html.includes("adapter=llvmpipe (LLVM 15) (gl)"), "the first adapter's case");
    assert.ok(html.includes("adapter=SwiftShader Device (vulkan)"), "the second adapter's case");
    assert.ok(html.includes("1 case(s) ended in different states on different adapters"));
    assert.deepEqual(adapterDisagreements(inputs[0].records), [{
      label: "fig4-fluid-cloth × merge-split (tiny)",
      states: [
        { adapter: "llvmpipe (LLVM 15) (gl)", stateHash: "a".repeat(64) },
        { adapter: "SwiftShader Device (vulkan)", stateHash: "b".repeat(64) },
      ],
    }]);
    const same = [onAdapter("a", "gl", "c".repeat(64)), onAdapter("b", "vulkan", "c".repeat(64))];
    assert.deepEqual(adapterDisagreements(same), [], "agreeing adapters are not named");
  } finally {
    Deno.removeSync(file.replace(/\/results\.jsonl$/, ""), { recursive: true });
  }
});
