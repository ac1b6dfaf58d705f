// run_tests: one implementation (the bench's command line as a subprocess)
/**
 * `deno task bench` (cli.ts) when its outputs fail: a report that cannot be written whole makes
 * the exit status non-zero and leaves no cut-off page, and a full stdout or stderr loses lines but
 * never the run (the case runs, is recorded and reported, and the exit status is the cases').
 */
import assert from "node:assert/strict";
import { parseResults, recordLine } from "./core/result.ts";
import { fakeRecord } from "./reports/fake_record.ts";
import { runDeno } from "./bench/deno_process_fixture.ts";

const CASE = [
  "cli.ts",
  "--scene",
  "fig3-ball-cloth-low",
  "--handler",
  "merge-split",
  "--scale",
  "tiny",
  "--steps",
  "10",
  "--adapter",
  "software",
];

const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

Deno.test({
  name: "a report the disk cannot hold: exit 1, the results kept, no cut-off report",
  sanitizeResources: false,
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "mergesplit-cli-" });
    try {
      // 200 KiB: the case's results line fits, the report (about 1 MiB) does not
      const r = await runDeno([...CASE, "--out", dir], { limitBlocks: 200 });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /mergesplit bench: report not written \(.*File too large/);
      assert.deepEqual(names(dir), ["results.jsonl"], "no report.html, no temporary file");
      assert.equal(parseResults(Deno.readTextFileSync(`${dir}/results.jsonl`)).length, 1);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

for (const full of ["stdout", "stderr"] as const) {
  Deno.test({
    name: `${full} on a full disk (/dev/full): the case runs, is recorded and reported, exit 0`,
    sanitizeResources: false,
    fn: async () => {
      const dir = Deno.makeTempDirSync({ prefix: "mergesplit-cli-" });
      try {
        const r = await runDeno([...CASE, "--out", dir], { full });
        assert.equal(r.code, 0, r.stdout + r.stderr);
        assert.ok(!/Uncaught|\n\s+at /.test(r.stdout + r.stderr), r.stderr);
        assert.deepEqual(names(dir), ["report.html", "results.jsonl"]);
        const records = parseResults(Deno.readTextFileSync(`${dir}/results.jsonl`));
        assert.deepEqual(records.map((c) => c.status), ["ok"]);
        const other = full === "stdout" ? r.stderr : r.stdout;
        assert.match(other, full === "stdout" ? /\[1\/1\] fig3-ball-cloth-low/ : /report: /);
      } finally {
        Deno.removeSync(dir, { recursive: true });
      }
    },
  });
}

Deno.test({
  name: "bench/main.ts alone, stdout on /dev/full: the case is recorded, exit 0",
  sanitizeResources: false,
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "mergesplit-cli-" });
    try {
      const r = await runDeno(["bench/main.ts", ...CASE.slice(1), "--out", dir], {
        full: "stdout",
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(parseResults(Deno.readTextFileSync(`${dir}/results.jsonl`)).length, 1);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "deno task report, stdout on /dev/full: the report is written, exit 0",
  sanitizeResources: false,
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "mergesplit-cli-" });
    try {
      const file = `${dir}/results.jsonl`;
      Deno.writeTextFileSync(file, recordLine(fakeRecord()));
      const r = await runDeno(["reports/main.ts", file, "--cdn"], { full: "stdout" });
      assert.equal(r.code, 0, r.stderr);
      assert.ok(Deno.statSync(`${dir}/report.html`).size > 1000);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "deno task report that the disk cannot hold leaves the earlier report as it was, exit 2",
  sanitizeResources: false,
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "mergesplit-cli-" });
    try {
      const file = `${dir}/results.jsonl`;
      const out = `${dir}/r.html`;
      Deno.writeTextFileSync(file, recordLine(fakeRecord()));
      assert.equal((await runDeno(["reports/main.ts", file, "--out", out, "--cdn"])).code, 0);
      const good = Deno.readTextFileSync(out);
      // the inlined libraries make the page some 1 MB: past a 400 KiB file size limit
      const r = await runDeno(["reports/main.ts", file, "--out", out], { limitBlocks: 400 });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /cannot write the report .*r\.html: File too large/);
      assert.equal(Deno.readTextFileSync(out), good, "the earlier report is whole");
      assert.deepEqual(names(dir), ["r.html", "results.jsonl"], "no temporary file left");
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
