import assert from "node:assert/strict";
import { recordLine } from "../core/result.ts";
import { main, probeDriver } from "./write_submission.ts";
import { readSubmission } from "./read_submission.ts";
import { suiteRecords } from "./submission_fixture.ts";

/** `main(args)` with its output kept; returns the exit status and the lines printed. */
function quietly(args: string[]): { code: number; lines: string[] } {
  const lines: string[] = [];
  const { error, log } = console;
  console.error = console.log = (...a: unknown[]) => lines.push(a.join(" "));
  try {
    return { code: main(args), lines };
  } finally {
    Object.assign(console, { error, log });
  }
}

Deno.test("submit: the records reduced and the system, in the fixed layout, then checked", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-submit-" });
  try {
    const records = suiteRecords();
    Deno.writeTextFileSync(`${dir}/in.jsonl`, records.map(recordLine).join(""));
    const out = `${dir}/sub`;
    const ok = quietly([`${dir}/in.jsonl`, "--out", out, "--driver", "Mesa 1"]);
    assert.equal(ok.code, 0, ok.lines.join("\n"));
    assert.deepEqual([...Deno.readDirSync(out)].map((e) => e.name).sort(), [
      "results.jsonl",
      "system.json",
    ]);
    const s = readSubmission(out);
    assert.equal(s.records.length, 5);
    assert.ok(s.records.every((r) => !r.snapshots && !r.metrics?.series));
    assert.ok(s.records.every((r) => !r.timings!.phases.total.samples));
    assert.deepEqual(
      [s.system.suite, s.system.driver, s.system.commits, s.system.scales],
      ["hardware", "Mesa 1", ["c".repeat(40)], ["small"]],
    );
    assert.equal(s.system.rates.sph, 3000);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("submit: written but refused (exit 1) naming why; bad input exit 2", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-submit-" });
  try {
    Deno.writeTextFileSync(`${dir}/in.jsonl`, suiteRecords().slice(1).map(recordLine).join(""));
    const bad = quietly([`${dir}/in.jsonl`, "--out", `${dir}/sub`, "--driver", "d"]);
    assert.equal(bad.code, 1);
    assert.match(bad.lines.join("\n"), /refused: case fig4-fluid-cloth × penalty-weak is there 0/);
    assert.equal(quietly([]).code, 2);
    assert.equal(quietly([`${dir}/none.jsonl`]).code, 2);
    assert.equal(quietly([`${dir}/in.jsonl`, "--name", "Bad Name"]).code, 2);
    Deno.writeTextFileSync(`${dir}/torn.jsonl`, "{");
    assert.match(quietly([`${dir}/torn.jsonl`]).lines.join("\n"), /torn\.jsonl: results line 1/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the driver: unknown without an adapter or a way to ask", () => {
  assert.equal(probeDriver(undefined), "unknown");
  assert.equal(probeDriver(suiteRecords()[0]), "unknown");
});
