// run_tests: one implementation (appends to a results file by several processes: no WebGPU)
import assert from "node:assert/strict";
import {
  appendResultLine,
  endsTorn,
  ResultsWriteError,
  type ResultsWriter,
} from "./results_file.ts";
import { writerLine } from "./results_file_writer_fixture.ts";

const line = (n: number) => JSON.stringify({ case: n, pad: "x".repeat(50) }) + "\n";

Deno.test("appendResultLine: a line per case; a torn last line is closed, never appended onto", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = `${dir}/results.jsonl`;
    appendResultLine(path, line(1), { what: "case 1" });
    assert.equal(endsTorn(path), false);
    // a process killed in the middle of writing case 2 leaves a prefix of its line
    Deno.writeTextFileSync(path, line(2).slice(0, 20), { append: true });
    assert.equal(endsTorn(path), true);
    appendResultLine(path, line(3), { what: "case 3" });
    const lines = Deno.readTextFileSync(path).split("\n");
    assert.deepEqual(lines, [line(1).trim(), line(2).slice(0, 20), line(3).trim(), ""]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("appendResultLine: a failed write is cut back and named; earlier cases stay", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = `${dir}/results.jsonl`;
    appendResultLine(path, line(1), { what: "case 1" });
    const before = Deno.readTextFileSync(path);
    // a disk that fills after 10 bytes of the next line
    const full: ResultsWriter = {
      write(file, data) {
        file.writeSync(data.subarray(0, 10));
        throw new Error("No space left on device (os error 28)");
      },
    };
    assert.throws(
      () => appendResultLine(path, line(2), { what: "fig4-fluid-cloth × penalty", writer: full }),
      (e: unknown) =>
        e instanceof ResultsWriteError &&
        /could not write fig4-fluid-cloth × penalty to .*results\.jsonl: No space left/.test(
          e.message,
        ),
    );
    assert.equal(Deno.readTextFileSync(path), before, "the torn bytes were cut back");
    appendResultLine(path, line(3), { what: "case 3" });
    assert.equal(Deno.readTextFileSync(path), before + line(3));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("appendResultLine: a device that is always full (/dev/full) is one ResultsWriteError", () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.symlinkSync("/dev/full", `${dir}/results.jsonl`);
    assert.throws(
      () => appendResultLine(`${dir}/results.jsonl`, line(1), { what: "case 1" }),
      /could not write case 1 to .*: .*(space|No space)/i,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("appendResultLine: three processes appending 70 KB lines at once leave every line intact", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = `${dir}/results.jsonl`;
    const [writers, count, bytes] = [3, 150, 70_000];
    const fixture = new URL("./results_file_writer_fixture.ts", import.meta.url).pathname;
    const runs = Array.from({ length: writers }, (_, w) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--no-check", fixture, path, String(w), String(count), String(bytes)],
        stdout: "null",
        stderr: "piped",
      }).output());
    for (const r of await Promise.all(runs)) {
      assert.equal(r.code, 0, new TextDecoder().decode(r.stderr));
    }
    const lines = Deno.readTextFileSync(path).split("\n");
    assert.equal(lines.pop(), "");
    const intact = new Set<string>();
    for (const l of lines) {
      const r = JSON.parse(l);
      assert.equal(l + "\n", writerLine(r.writer, r.index, bytes));
      intact.add(`${r.writer}/${r.index}`);
    }
    assert.equal(lines.length, writers * count);
    assert.equal(intact.size, writers * count);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
