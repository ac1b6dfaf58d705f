import assert from "node:assert/strict";
import { type CaseRecord, recordLine } from "../../core/result.ts";
import { fakeRecord } from "../fake_record.ts";
import { ResultsFileError, writeReport } from "./write_report.ts";
import { adapterDisagreements } from "../sections/adapter_agreement.ts";
import { join } from "node:path";
import { fakeSnapshots } from "../fake_record.ts";
import { main } from "../main.ts";
import { carriesMark, foreignTargets, REPORT_MARK } from "./foreign_files.ts";

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

/** Runs `reports/main.ts`'s `main` with console output captured; returns status and lines. */
function report(args: string[]): { code: number; errors: string[]; logs: string[] } {
  const errors: string[] = [];
  const logs: string[] = [];
  const { error, log } = console;
  console.error = (...a: unknown[]) => errors.push(a.join(" "));
  console.log = (...a: unknown[]) => logs.push(a.join(" "));
  try {
    return { code: main(args), errors, logs };
  } finally {
    console.error = error;
    console.log = log;
  }
}

/** A temporary folder holding `results.jsonl` with two cases (one with snapshots). */
function runFolder(): { dir: string; file: string } {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-write-report-" });
  const file = join(dir, "results.jsonl");
  const snapshots = fakeSnapshots({ n: 10, fluid: 5, frames: 2 });
  Deno.writeTextFileSync(
    file,
    [fakeRecord({ snapshots }), fakeRecord({ handler: "penalty" })].map(recordLine).join(""),
  );
  return { dir, file };
}

const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

Deno.test("an empty results file is refused with a message, exit 2, no report", () => {
  const { dir, file } = runFolder();
  try {
    Deno.writeTextFileSync(file, "");
    const r = report([file]);
    assert.equal(r.code, 2);
    assert.match(r.errors[0], /results file .*results\.jsonl holds no case \(it is empty\)/);
    Deno.writeTextFileSync(file, '{"schemaVersion":1,"scene":"x"\n');
    assert.equal(report([file]).code, 2);
    assert.deepEqual(names(dir), ["results.jsonl"], "no report written");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("--label given twice for two files is refused naming it, exit 2", () => {
  const { dir, file } = runFolder();
  try {
    const r = report([file, file, "--label", "gpu", "--label", "gpu"]);
    assert.equal(r.code, 2);
    assert.match(r.errors[0], /the label "gpu" is given twice/);
    assert.deepEqual(names(dir), ["results.jsonl"]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a report never replaces a page or table mergesplit did not write", () => {
  const { dir, file } = runFolder();
  try {
    const mine = join(dir, "index.html");
    Deno.writeTextFileSync(mine, "<html>my own page</html>");
    const r = report([file, "--out", mine, "--cdn"]);
    assert.equal(r.code, 2);
    assert.match(r.errors[0], /the report would replace .*index\.html, not written by mergesplit/);
    assert.equal(Deno.readTextFileSync(mine), "<html>my own page</html>");
    // a folder or a link in the report's place is named as such
    Deno.symlinkSync(mine, join(dir, "link.html"));
    for (const [out, kind] of [[dir, "a folder"], [join(dir, "link.html"), "a link"]]) {
      const k = report([file, "--out", out, "--cdn"]);
      assert.equal(k.code, 2);
      assert.ok(k.errors[0].includes(`would replace ${out} (${kind}), not written`), k.errors[0]);
    }
    Deno.removeSync(join(dir, "link.html"));
    // the user's own table in a folder without a report of ours
    Deno.mkdirSync(join(dir, "t"));
    Deno.writeTextFileSync(join(dir, "t", "claims.md"), "my notes");
    const t = report([file, "--out", join(dir, "t", "r.html"), "--cdn", "--format", "md"]);
    assert.equal(t.code, 2);
    assert.match(t.errors[0], /the tables would replace .*claims\.md/);
    assert.deepEqual(names(join(dir, "t")), ["claims.md"], "nothing written");
    // a report of ours, and the tables beside it, are replaced
    const ours = join(dir, "ours.html");
    assert.equal(report([file, "--out", ours, "--cdn", "--format", "md"]).code, 0);
    assert.equal(report([file, "--out", ours, "--cdn", "--format", "md"]).code, 0);
    assert.ok(Deno.readTextFileSync(ours).includes(REPORT_MARK));
    assert.deepEqual(foreignTargets([ours, mine], carriesMark(REPORT_MARK)), [mine]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("--export-dir is checked before the report is written", () => {
  const { dir, file } = runFolder();
  try {
    const out = join(dir, "r.html");
    const r = report([
      file,
      "--out",
      out,
      "--cdn",
      "--export",
      "ply",
      "--export-dir",
      "/etc/passwd",
    ]);
    assert.equal(r.code, 2);
    assert.match(r.errors[0], /--export-dir \/etc\/passwd: \/etc\/passwd is not a folder/);
    assert.deepEqual(names(dir), ["results.jsonl"], "no report");
    // a frame file of the user's in the way: refused before anything is written
    const frames = join(dir, "frames");
    assert.equal(
      report([file, "--out", out, "--cdn", "--export", "ply", "--export-dir", frames])
        .code,
      0,
    );
    const [folder] = names(frames);
    const [first] = names(join(frames, folder));
    Deno.writeTextFileSync(join(frames, folder, first), "my scan");
    Deno.removeSync(out);
    const f = report([file, "--out", out, "--cdn", "--export", "ply", "--export-dir", frames]);
    assert.equal(f.code, 2);
    assert.match(f.errors[0], /the export would replace .*frame_0000\.ply, not written by/);
    assert.equal(Deno.readTextFileSync(join(frames, folder, first)), "my scan");
    assert.deepEqual(names(dir), ["frames", "results.jsonl"], "no report");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
