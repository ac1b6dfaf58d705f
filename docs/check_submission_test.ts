import assert from "node:assert/strict";
import type { CaseRecord } from "../core/result.ts";
import { recordLine } from "../core/result.ts";
import { SUBMISSION_ENV as ENV, suiteRecords } from "./submission_fixture.ts";
import { main, submissionProblems } from "./check_submission.ts";
import { readSubmission, SUBMISSION_FILES } from "./read_submission.ts";
import { writeSubmission } from "./write_submission.ts";

/** The reasons to refuse the submission of `records`, written to a temporary folder. */
function refusals(records: CaseRecord[], edit?: (dir: string) => void): string[] {
  const dir = Deno.makeTempDirSync();
  try {
    writeSubmission("results.jsonl", records, { out: dir, driver: "d" });
    edit?.(dir);
    return submissionProblems(readSubmission(dir));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/** `suiteRecords()` with `change` applied to the record of figure `k`. */
function changed(k: number, change: (r: CaseRecord) => void): CaseRecord[] {
  const records = suiteRecords();
  change(records[k]);
  return records;
}

Deno.test("a whole clean run of the hardware suite is accepted", () => {
  assert.deepEqual(refusals(suiteRecords()), []);
});

Deno.test("refused: not the hardware suite's whole case list", async (t) => {
  const cases: [string, CaseRecord[], RegExp][] = [
    ["a case missing", suiteRecords().slice(1), /fig4-fluid-cloth × penalty-weak is there 0 times/],
    [
      "a case twice",
      [...suiteRecords(), suiteRecords()[1]],
      /fig5-wall × merge-split is there 2 times/,
    ],
    [
      "another case",
      changed(2, (r) => (r.scene = "fig6-wall")),
      /fig6-wall × merge-split is not one/,
    ],
    [
      "another scale",
      changed(0, (r) => (r.scale = "medium")),
      /ran at medium, small; .* one of paper, small/,
    ],
    [
      "a scale of no submission",
      suiteRecords().map((r) => ({ ...r, scale: "tiny" as const })),
      /ran at tiny/,
    ],
    [
      "other steps",
      changed(2, (r) => (r.steps = 30)),
      /dam-break-sph × merge-split ran 30 steps, not 200/,
    ],
    ["two runs", changed(1, (r) => (r.case!.list = "ffffffffffffffff")), /of 2 runs/],
    [
      "a case not ok",
      changed(3, (r) => (r.status = "timeout")),
      /dam-break-flip × merge-split finished timeout/,
    ],
    [
      "a scene file",
      changed(2, (r) => (r.sceneSource = "wall.json")),
      /ran a scene file, wall\.json/,
    ],
  ];
  for (const [what, records, why] of cases) {
    await t.step(what, () => assert.match(refusals(records).join("\n"), why));
  }
});

Deno.test("refused: not the paper's setup", async (t) => {
  const cases: [string, CaseRecord[], RegExp][] = [
    [
      "a variant",
      changed(0, (r) => (r.setup = "compact-grouping")),
      /under setup compact-grouping, not the paper's/,
    ],
    ["no setup recorded", changed(0, (r) => delete r.setup), /under setup none recorded/],
    [
      "the other coupling",
      changed(2, (r) => (r.coupling = "own-part")),
      /coupling own-part, not the paper's whole/,
    ],
    ["a sweep", changed(2, (r) => (r.sweep = { "scene.dt": 1e-4 })), /is a case of a sweep/],
    [
      "a parameter of the setup changed",
      changed(4, (r) => (r.handlerParams.grouping = 99)),
      /merge-split\.grouping = 99, the paper's is/,
    ],
  ];
  for (const [what, records, why] of cases) {
    await t.step(what, () => assert.match(refusals(records).join("\n"), why));
  }
});

Deno.test("refused: a dirty tree, several commits, no commit, several adapters", async (t) => {
  const cases: [string, CaseRecord[], RegExp][] = [
    ["dirty", changed(1, (r) => (r.env!.git.dirty = true)), /name 2 commits/],
    [
      "all dirty",
      suiteRecords().map((r) => ({
        ...r,
        env: { ...ENV, git: { commit: "c".repeat(40), dirty: true } },
      })),
      /had uncommitted changes/,
    ],
    ["two commits", changed(3, (r) => (r.env!.git.commit = "d".repeat(40))), /name 2 commits/],
    ["no commit", suiteRecords().map((r) => ({ ...r, env: null })), /name no commit/],
    ["two adapters", changed(4, (r) => (r.env!.adapter.backend = "gl")), /name 2 adapters/],
  ];
  for (const [what, records, why] of cases) {
    await t.step(what, () => assert.match(refusals(records).join("\n"), why));
  }
});

Deno.test("refused: records that fail the schema or changed after the submission", async (t) => {
  const file = (dir: string) => `${dir}/${SUBMISSION_FILES.records}`;
  await t.step("a field of the wrong type", () => {
    const why = refusals(suiteRecords(), (dir) => {
      const lines = Deno.readTextFileSync(file(dir)).split("\n");
      lines[1] = lines[1].replace(/"steps":200/, '"steps":"200"');
      Deno.writeTextFileSync(file(dir), lines.join("\n"));
    }).join("\n");
    assert.match(why, /results\.jsonl line 2 fails the schema: .*steps/);
    assert.match(why, /changed after it was submitted/);
  });
  await t.step("a record edited (valid, but not what was submitted)", () => {
    const why = refusals(suiteRecords(), (dir) => {
      const edited = suiteRecords().map((r) => ({ ...r, stateHash: "b".repeat(64) }));
      Deno.writeTextFileSync(file(dir), edited.map(recordLine).join(""));
    });
    assert.deepEqual(why.length, 1);
    assert.match(why[0], /changed after it was submitted/);
  });
});

Deno.test("check-submission's exit status: 0 accepted, 1 refused, 2 no submission", () => {
  const dir = Deno.makeTempDirSync();
  const quiet = { error: console.error, log: console.log };
  console.error = console.log = () => {};
  try {
    writeSubmission("results.jsonl", suiteRecords(), { out: `${dir}/good`, driver: "d" });
    writeSubmission("results.jsonl", suiteRecords().slice(1), { out: `${dir}/bad`, driver: "d" });
    Deno.mkdirSync(`${dir}/empty`);
    assert.deepEqual(
      [`${dir}/good`, `${dir}/bad`, `${dir}/empty`, `${dir}/none`].map((d) => main([d])),
      [0, 1, 2, 2],
    );
    assert.equal(main([]), 2);
  } finally {
    Object.assign(console, quiet);
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("refused: a system.json that says other than its records, or names no driver", async (t) => {
  const system = (dir: string) => `${dir}/${SUBMISSION_FILES.system}`;
  const edited = (change: (o: Record<string, unknown>) => void) =>
    refusals(suiteRecords(), (dir) => {
      const o = JSON.parse(Deno.readTextFileSync(system(dir)));
      change(o);
      Deno.writeTextFileSync(system(dir), JSON.stringify(o));
    }).join("\n");
  await t.step("another adapter", () => {
    const why = edited((o) => ((o.adapter as { description: string }).description = "H100"));
    assert.match(why, /system\.json's adapter is not what the records say/);
  });
  await t.step("another commit", () => {
    assert.match(edited((o) => (o.commits = ["d".repeat(40)])), /system\.json's commits is not/);
  });
  await t.step("no driver", () => {
    assert.match(edited((o) => delete o.driver), /names no driver/);
  });
  await t.step("another suite", () => {
    assert.match(edited((o) => (o.suite = "default")), /suite is default, not hardware/);
  });
});
