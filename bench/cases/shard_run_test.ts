// run_tests: one implementation (the --shard parts and report --merge)
/**
 * End to end (issue 23): the three parts of a `--shard i/3` run hold disjoint cases whose union is
 * the unsharded run's case list, and `report --merge` of the parts names that list complete, or
 * the cases of a lost part missing.
 */
import assert from "node:assert/strict";
import { parseResults } from "../../core/result.ts";
import { runDeno } from "../deno_process_fixture.ts";

const run = runDeno;

Deno.test({
  name: "--shard 1/3, 2/3, 3/3: disjoint parts, the whole list together; report --merge checks it",
  sanitizeResources: false,
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "mergesplit-shard-" });
    try {
      const bench = [
        "bench/main.ts",
        "--scene",
        "fig3-*,fig4-fluid-cloth",
        "--handler",
        "merge-split,penalty-medium",
        "--scale",
        "tiny",
        "--steps",
        "3",
        "--adapter",
        "software",
      ];
      const whole = await run([...bench, "--out", `${dir}/whole`]);
      assert.equal(whole.code, 0, whole.stderr);
      const label = (r: { scene: string; handler: string; scale: string }) =>
        `${r.scene} × ${r.handler} × ${r.scale}`;
      const all = parseResults(Deno.readTextFileSync(`${dir}/whole/results.jsonl`));
      assert.ok(all.length >= 4, `${all.length} cases`);
      const parts = [];
      for (const i of [1, 2, 3]) {
        const r = await run([...bench, "--shard", `${i}/3`, "--out", `${dir}/part${i}`]);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, new RegExp(`\\(shard ${i}/3 of ${all.length} cases\\)`));
        parts.push(parseResults(Deno.readTextFileSync(`${dir}/part${i}/results.jsonl`)));
      }
      const union = parts.flat().map(label).sort();
      assert.equal(new Set(union).size, union.length, "the parts are disjoint");
      assert.deepEqual(union, all.map(label).sort(), "together they are the whole list");
      for (const r of parts.flat()) {
        const same = all.find((w) => label(w) === label(r))!;
        assert.equal(r.case?.list, same.case?.list, "one list hash");
        assert.equal(r.case?.index, same.case?.index, "the same place in the list");
        assert.equal(r.stateHash, same.stateHash, "the same simulation");
      }

      const files = [1, 2, 3].map((i) => `${dir}/part${i}/results.jsonl`);
      const merged = await run(["reports/main.ts", ...files, "--merge", "--out", `${dir}/m.html`]);
      assert.equal(merged.code, 0, merged.stderr);
      assert.match(merged.stdout, new RegExp(`${all.length} of ${all.length} cases, complete`));
      const lost = await run([
        "reports/main.ts",
        files[0],
        files[2],
        "--merge",
        "--out",
        `${dir}/l.html`,
      ]);
      assert.equal(lost.code, 0, lost.stderr);
      const missing = parts[1].map((r) => `#${r.case!.index + 1}`).join(", ");
      assert.match(lost.stderr, new RegExp(`missing ${missing} \\(shard 2/3\\)`));
      assert.match(Deno.readTextFileSync(`${dir}/l.html`), /missing #/);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
