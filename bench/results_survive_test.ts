// run_tests: one implementation (results files after a full disk and a torn line; runs on GL)
/**
 * End to end (issue 23): a disk that fills during a run, and a run killed while writing a line,
 * leave a results file that `report` and `--verify` read with every finished case in it.
 */
import assert from "node:assert/strict";
import { parseResults } from "../core/result.ts";
import { runDeno } from "./deno_process_fixture.ts";

const FILE_BLOCKS = 120; // ulimit -f (1 KiB blocks): three tiny cases fit, the fourth does not

/**
 * Every child on the GL backend (llvmpipe): the full-disk run must be (see runDeno), and --verify
 * compares state hashes on the adapter that wrote them.
 */
const run = (args: string[], options: { limitBlocks?: number } = {}) =>
  runDeno(args, { ...options, env: { DENO_WEBGPU_BACKEND: "gl" } });

Deno.test({
  name: "results survive a full disk and a torn line; report and --verify read them",
  sanitizeResources: false,
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "mergesplit-survive-" });
    try {
      const file = `${dir}/results.jsonl`;
      const bench = [
        "bench/main.ts",
        "--handler",
        "merge-split",
        "--scale",
        "tiny",
        "--steps",
        "10",
        "--adapter",
        "software",
        "--out",
        dir,
      ];
      const full = await run(
        [
          ...bench,
          "--scene",
          "fig4-fluid-cloth,fig3-ball-cloth-low,fig3-ball-cloth-high,dam-break-sph",
        ],
        { limitBlocks: FILE_BLOCKS },
      );
      assert.equal(full.code, 1, full.stderr);
      const errors = full.stderr.split("\n").filter((l) => l.startsWith("mergesplit bench: "));
      assert.equal(errors.length, 1, full.stderr);
      assert.match(
        errors[0],
        /could not write dam-break-sph × merge-split \(scale tiny\) to .*results\.jsonl: File too large.*; the cases finished before it are in the file/,
      );
      assert.ok(!/\n\s+at /.test(full.stderr), "no stack trace");
      const text = Deno.readTextFileSync(file);
      assert.ok(text.endsWith("\n"), "the failed write was cut back");
      assert.deepEqual(parseResults(text).map((r) => r.scene), [
        "fig4-fluid-cloth",
        "fig3-ball-cloth-low",
        "fig3-ball-cloth-high",
      ]);

      // A process killed while writing its line leaves a prefix of it.
      const torn = text.split("\n")[0].slice(0, 500);
      Deno.writeTextFileSync(file, torn, { append: true });
      const refused = await run([...bench, "--scene", "dam-break-sph"]);
      assert.equal(refused.code, 2, "an earlier run's file is not appended to unasked");
      assert.match(refused.stderr, /already holds results\.jsonl of an earlier run.*--append/);
      const appended = await run([...bench, "--scene", "dam-break-sph", "--append"]);
      assert.equal(appended.code, 0, appended.stderr);
      const lines = Deno.readTextFileSync(file).split("\n");
      assert.equal(lines[3], torn, "the torn line stays a line of its own");
      assert.match(lines[4], /^\{"schemaVersion":1,"scene":"dam-break-sph"/);

      const report = await run(["reports/main.ts", file, "--out", `${dir}/report.html`]);
      assert.equal(report.code, 0, report.stderr);
      assert.match(report.stderr + report.stdout, /line 4 .*skipped/);
      const verify = await run(["bench/main.ts", "--verify", file, "--adapter", "software"]);
      assert.equal(verify.code, 0, verify.stdout + verify.stderr);
      assert.match(verify.stdout + verify.stderr, /line 4 .*skipped/);
      assert.match(verify.stdout, /4 of 4 cases reproduced their state hash/);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
