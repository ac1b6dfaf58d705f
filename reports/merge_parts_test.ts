import assert from "node:assert/strict";
import { join } from "node:path";
import { type CaseRecord, recordLine } from "../core/result.ts";
import { fakeRecord } from "./fake_record.ts";
import { mergeRefusal, mixedCommits } from "./merge_parts.ts";
import { ResultsFileError, writeReport } from "./page/write_report.ts";

/** Position `index` of a 2-case list `list` (shard `index + 1`/2), run on `backend` by `commit`. */
function part(list: string, index: number, backend = "vulkan", commit = "a".repeat(40)) {
  const base = fakeRecord({ case: { index, of: 2, list, shard: `${index + 1}/2` } });
  return {
    ...base,
    env: {
      ...base.env!,
      adapter: { ...base.env!.adapter, backend },
      git: { commit, dirty: false },
    },
  } satisfies CaseRecord;
}

Deno.test("mergeRefusal: parts of different case lists, or adapters, are not one run", () => {
  const one = (file: string, r: CaseRecord) => ({ file, records: [r] });
  assert.equal(mergeRefusal([one("a", part("L", 0)), one("b", part("L", 1))]), null);
  const steps = mergeRefusal([one("a", part("L", 0)), one("b", { ...part("M", 1), steps: 7 })]);
  assert.match(steps!, /^--merge: a \(list L, 200 steps, tiny, on llvmpipe \(test\) \(vulkan\)\)/);
  assert.match(steps!, / and b \(list M, 7 steps, tiny, on llvmpipe \(test\) \(vulkan\)\)/);
  assert.match(steps!, /leave out --merge to compare them$/);
  // records whose list hash left the adapter out (before it was kept): the adapter still tells
  const gl = mergeRefusal([one("a", part("L", 0)), one("b", part("L", 1, "gl"))]);
  assert.match(gl!, /b \(list L, 200 steps, tiny, on llvmpipe \(test\) \(gl\)\) are not parts/);
});

Deno.test("mixedCommits names the parts of each commit", () => {
  const a = { file: "a", records: [part("L", 0)] };
  assert.equal(mixedCommits([a, { file: "b", records: [part("L", 1)] }]), null);
  const b = { file: "b", records: [part("L", 1, "vulkan", "b".repeat(40))] };
  assert.equal(
    mixedCommits([a, b]),
    "parts from different commits: a (commit aaaaaaaaaaaa), b (commit bbbbbbbbbbbb); their cases may differ in code as well as in results",
  );
});

Deno.test("report --merge refuses parts of two runs, and names parts of two commits", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-merge-" });
  try {
    const write = (name: string, r: CaseRecord) => {
      Deno.writeTextFileSync(join(dir, name), recordLine(r));
      return join(dir, name);
    };
    const a = write("a.jsonl", part("L", 0));
    const other = write("b.jsonl", { ...part("M", 1), steps: 7 });
    assert.throws(
      () => writeReport([a, other], { merge: true, out: join(dir, "r.html") }),
      (e: unknown) =>
        e instanceof ResultsFileError && e.message.includes("are not parts of one run"),
    );
    const later = write("c.jsonl", part("L", 1, "vulkan", "c".repeat(40)));
    const { coverage } = writeReport([a, later], { merge: true, out: join(dir, "r.html") });
    assert.deepEqual(coverage[0], "case list L: 2 of 2 cases, complete");
    assert.match(coverage[1], /^parts from different commits: .*a\.jsonl \(commit aaaaaaaaaaaa\)/);
    assert.match(Deno.readTextFileSync(join(dir, "r.html")), /parts from different commits/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
