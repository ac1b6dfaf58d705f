// run_tests: one implementation (the device check's stages and budget)
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseResults } from "../../core/result.ts";
import { sceneToJson } from "../../core/scene/scene.ts";
import { getScene } from "../../scenes/catalog.ts";
import { loadSceneFile } from "../cases/suite.ts";
import {
  completeRecordLines,
  DEFAULT_BUDGET,
  gpuCheckOutDir,
  type GpuCheckSummary,
  GpuCheckUsageError,
  main,
  parseGpuCheckArgs,
  runGpuCheck,
  summaryText,
  writeSceneFiles,
} from "./gpu_check.ts";
import {
  type BudgetPolicy,
  budgetPolicy,
  getGpuCheckPlan,
  GPU_CHECK_PLANS,
  PAPER_BUILD_SECONDS,
  planFidelityStages,
  planStages,
  reportDeadline,
  type Stage,
  type StageStatus,
  stageStatus,
  stageWindow,
  TABLE_ONE_STAGE_SECONDS,
  TABLE_ONE_WHOLE_RUNS,
  wholeRunSeconds,
} from "./gpu_check_plan.ts";
import { getSuite } from "../cases/suites.ts";

Deno.test("the plan: the issue's stages in priority order, with their arguments", () => {
  const stages = planStages();
  assert.deepEqual(stages.map((s) => s.id), [
    "adapters",
    "default-small",
    "fig4-scales",
    "dam-break-sph-paper",
    "dam-break-sph-paper-k1",
    "small-one-workgroup",
    "table1-fig6-fig9-pd",
    "table1-fig9-cloth",
    "table1-fig8-tori",
    "table1-fig8-wall",
    "table1-fig8-bowl",
    "groupings-paper",
  ]);
  const args = Object.fromEntries(stages.map((s) => [s.id, s.args.join(" ")]));
  assert.equal(args.adapters, "--list-adapters");
  assert.equal(args["default-small"], "--suite default --scale small");
  assert.equal(
    args["fig4-scales"],
    "--scene fig4-fluid-cloth --handler merge-split --scale small,medium,paper --steps 200",
  );
  assert.equal(
    args["dam-break-sph-paper"],
    "--scene dam-break-sph --handler merge-split --scale paper --steps 200",
  );
  assert.equal(
    args["dam-break-sph-paper-k1"],
    `${args["dam-break-sph-paper"]} --steps-per-submit 1`,
  );
  assert.equal(
    args["small-one-workgroup"],
    "--scene fig4-fluid-cloth,fig9-flip-cloth --handler merge-split --scale small --steps 200 " +
      "--one-workgroup-grouping",
  );
  assert.equal(
    args["groupings-paper"],
    "--scene fig8-cloth-tori,fig6-wall --handler merge-split --scale paper --steps 200 " +
      "--variant compact-grouping",
  );
  // Table I: whole runs (no --steps: duration / dt steps), merge-split, at paper
  assert.equal(
    args["table1-fig6-fig9-pd"],
    "--scene fig6-wall,fig9-flip-peridynamics --handler merge-split --scale paper",
  );
  const alone: [string, string][] = [
    ["table1-fig9-cloth", "fig9-flip-cloth"],
    ["table1-fig8-tori", "fig8-cloth-tori"],
    ["table1-fig8-wall", "fig8-dam-break-wall"],
    ["table1-fig8-bowl", "fig8-bowl"],
  ];
  for (const [id, scene] of alone) {
    assert.equal(args[id], `--scene ${scene} --handler merge-split --scale paper`, id);
  }
  for (const s of stages) {
    assert.ok(!s.args.some((a) => ["--out", "--timeout", "--adapter"].includes(a)), s.id);
    assert.ok(s.id.length <= 22, `${s.id}: longer than the summary's stage column`);
  }
  const quick = planStages({ scale: "tiny", steps: 10 });
  assert.equal(quick[0].args.join(" "), "--list-adapters", "the adapters stage keeps its own");
  for (const s of quick.slice(1)) {
    const scale = s.args.indexOf("--scale");
    assert.equal(s.args[scale + 1], "tiny", s.id);
    assert.equal(s.args[s.args.indexOf("--steps") + 1], "10", s.id);
  }
});

Deno.test("Table I's stages: every scene's whole run once, each sized to fit 600 s alone", () => {
  const table1 = planStages().filter((s) => s.id.startsWith("table1-"));
  const scenes = table1.flatMap((s) => s.args[s.args.indexOf("--scene") + 1].split(","));
  assert.deepEqual(
    [...scenes].sort(),
    getSuite("table1").cases.map(([scene]) => scene).sort(),
    "the table1 suite's six scenes, each once",
  );
  // the rates' steps are the whole runs' at paper, duration / dt as bench/runner.ts counts them
  for (const run of TABLE_ONE_WHOLE_RUNS) {
    const scene = getScene(run.scene, { scale: "paper" });
    assert.equal(run.steps, Math.round(scene.duration / scene.dt), run.scene);
  }
  // each stage's minimum is its estimate: 60 s of build a scene plus steps × ms per step
  const estimates = Object.fromEntries(table1.map((s) => [s.id, s.minSeconds]));
  assert.deepEqual(estimates, {
    "table1-fig6-fig9-pd": 438, // 60 + 2,849 × 74 ms + 60 + 2,678 × 40 ms
    "table1-fig9-cloth": 307, // 60 + 2,542 × 97 ms
    "table1-fig8-tori": 243, // 60 + 23,100 × 7.9 ms
    "table1-fig8-wall": 299, // 60 + 32,725 × 7.3 ms
    "table1-fig8-bowl": 474, // 60 + 29,954 × 13.8 ms
  });
  assert.equal(wholeRunSeconds(["fig6-wall"]), Math.ceil(PAPER_BUILD_SECONDS + 2849 * 0.074));
  assert.throws(() => wholeRunSeconds(["fig4-fluid-cloth"]), /no whole-run rate/);
  for (const s of table1) {
    assert.ok(s.minSeconds <= TABLE_ONE_STAGE_SECONDS, `${s.id}: ${s.minSeconds} s`);
    // run alone (--only) in one 10-minute command: its window holds the estimate
    const w = stageWindow(s, { budget: 600, elapsed: 2, policy: budgetPolicy(600) });
    assert.ok(w.start && w.seconds >= s.minSeconds, `${s.id} in --budget 600`);
  }
  // the default check (900 s) reaches the first after the short stages
  const first = stageWindow(table1[0], { budget: 900, elapsed: 200, policy: budgetPolicy(900) });
  assert.ok(first.start);
});

Deno.test("budget policy: 5 % for the report (10–60 s), 2 % grace (3–15 s), 2 s margin", () => {
  assert.deepEqual(budgetPolicy(480), { reportReserve: 24, grace: 10, margin: 2 });
  assert.deepEqual(budgetPolicy(DEFAULT_BUDGET), { reportReserve: 45, grace: 15, margin: 2 });
  assert.deepEqual(budgetPolicy(60), { reportReserve: 10, grace: 3, margin: 2 });
  assert.deepEqual(budgetPolicy(36000), { reportReserve: 60, grace: 15, margin: 2 });
  assert.equal(reportDeadline(480, budgetPolicy(480)), 478);
});

Deno.test("stage window: start, SIGINT and SIGKILL times; a stage with too little time is skipped", () => {
  const policy = budgetPolicy(480);
  const w = stageWindow({ minSeconds: 30 }, { budget: 480, elapsed: 0, policy });
  assert.deepEqual(w, { start: true, seconds: 444, interruptAt: 444, killAt: 454 });
  const later = stageWindow({ minSeconds: 30 }, { budget: 480, elapsed: 400, policy });
  assert.deepEqual(later, { start: true, seconds: 44, interruptAt: 444, killAt: 454 });
  assert.deepEqual(stageWindow({ minSeconds: 30 }, { budget: 480, elapsed: 430, policy }), {
    start: false,
    reason: "14 s left, the stage needs 30",
  });
  assert.deepEqual(stageWindow({ minSeconds: 5 }, { budget: 480, elapsed: 460, policy }), {
    start: false,
    reason: "0 s left, the stage needs 5",
  });
  // A budget smaller than the reserves: nothing starts.
  const tiny = stageWindow({ minSeconds: 1 }, { budget: 10, elapsed: 0, policy: budgetPolicy(10) });
  assert.equal(tiny.start, false);
});

Deno.test("stage status from the exit status and whether the runner stopped it", () => {
  const cases: [number, boolean, StageStatus][] = [
    [0, false, "complete"],
    [1, false, "complete"], // a case failed or timed out: every case still ran
    [0, true, "complete"], // the stop came as it ended
    [130, true, "cut"], // SIGINT: the bench kept its finished cases
    [137, true, "cut"], // SIGKILL after the grace
    [2, false, "reached"],
    [134, false, "reached"], // an abort
  ];
  for (const [code, stopped, status] of cases) {
    assert.equal(stageStatus({ code, stopped }), status, `${code} ${stopped}`);
  }
});

/**
 * The runner's decisions for stages that would take `durations` seconds each, and stop `stopDelay`
 * seconds after a SIGINT (the kill comes at the grace): each stage's status and the time the last
 * one ended.
 */
function simulate(
  stages: readonly Pick<Stage, "minSeconds">[],
  durations: readonly number[],
  options: { budget: number; policy: BudgetPolicy; stopDelay: number },
): { statuses: StageStatus[]; end: number } {
  let elapsed = 0;
  const statuses = stages.map((stage, k): StageStatus => {
    const w = stageWindow(stage, { budget: options.budget, elapsed, policy: options.policy });
    if (!w.start) return "skipped";
    if (durations[k] <= w.seconds) {
      elapsed += durations[k];
      return stageStatus({ code: 0, stopped: false });
    }
    elapsed = Math.min(w.interruptAt + options.stopDelay, w.killAt);
    return stageStatus({ code: 130, stopped: true });
  });
  return { statuses, end: elapsed };
}

Deno.test("which stages run, are cut or skipped for a budget and the stages' times", () => {
  const stages = planStages();
  const at = (budget: number, durations: number[]) =>
    simulate(stages, durations, { budget, policy: budgetPolicy(budget), stopDelay: 3 }).statuses;
  const none = (n: number) => Array<StageStatus>(n).fill("skipped");
  // The software adapter: the default suite alone takes longer than 480 s.
  assert.deepEqual(at(480, [2, 490, 100, 20, 20, 20, 400, 300, 240, 290, 470, 250]), [
    "complete",
    "cut",
    ...none(10),
  ]);
  // An H100 at the default 900 s: the short stages, then Table I's first whole runs (438 s
  // estimated); the next (307 s) no longer fits, nor the later ones.
  assert.deepEqual(at(900, [2, 162, 8, 5, 5, 5, 430, 300, 240, 290, 470, 250]), [
    ...Array(7).fill("complete"),
    ...none(5),
  ]);
  // A stage that does not fit is skipped and a later, shorter one still runs: after 700 s of the
  // short stages the cloth tori (243 s) start in a budget of 1,500 s, not the FLIP cloth (307 s).
  assert.deepEqual(at(1500, [2, 690, 8, 5, 5, 5, 430, 300, 240, 290, 470, 250]), [
    ...Array(7).fill("complete"),
    "skipped",
    "complete",
    "skipped",
    "skipped",
    "skipped",
  ]);
  // A whole run slower than its estimate is cut at its window's end; the later stages get nothing.
  assert.deepEqual(at(900, [2, 162, 8, 5, 5, 5, 900, 300, 240, 290, 470, 250]), [
    ...Array(6).fill("complete"),
    "cut",
    ...none(5),
  ]);
  // Everything in one long budget.
  assert.deepEqual(
    at(3000, [2, 162, 8, 5, 5, 5, 430, 300, 240, 290, 470, 250]),
    Array(12).fill("complete"),
  );
});

Deno.test("the stages end by the budget less the report reserve, whatever they take", () => {
  const stages = planStages();
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 20000 }),
      fc.array(fc.double({ min: 0, max: 5000, noNaN: true }), {
        minLength: stages.length,
        maxLength: stages.length,
      }),
      fc.double({ min: 0, max: 100, noNaN: true }),
      (budget, durations, stopDelay) => {
        const policy = budgetPolicy(budget);
        const { end } = simulate(stages, durations, { budget, policy, stopDelay });
        assert.ok(end <= Math.max(0, budget - policy.reportReserve - policy.margin) + 1e-9);
        assert.ok(reportDeadline(budget, policy) <= budget);
      },
    ),
  );
});

Deno.test("arguments: defaults, and one line naming the bad option", () => {
  assert.deepEqual(parseGpuCheckArgs([]), {
    plan: "hardware",
    only: null,
    budget: DEFAULT_BUDGET,
    out: null,
    adapter: null,
    seed: null,
    help: false,
  });
  assert.deepEqual(parseGpuCheckArgs(["--budget", "480", "--out", "x", "--adapter", "software"]), {
    plan: "hardware",
    only: null,
    budget: 480,
    out: "x",
    adapter: "software",
    seed: null,
    help: false,
  });
  assert.equal(parseGpuCheckArgs(["--seed", "scene, 7,99"]).seed, "scene, 7,99");
  assert.equal(parseGpuCheckArgs(["-h"]).help, true);
  assert.equal(parseGpuCheckArgs(["--plan", "fidelity"]).plan, "fidelity");
  assert.deepEqual(
    parseGpuCheckArgs(["--plan", "fidelity", "--only", "fig11-medium, adapters"]).only,
    ["fig11-medium", "adapters"],
  );
  const bad: [string[], RegExp][] = [
    [
      ["--only", "fig11-medium"],
      /^--only: no stage fig11-medium in plan hardware; its stages: adapters, default-small/,
    ],
    [["--plan", "all"], /^--plan: unknown plan "all"; plans: hardware, fidelity$/],
    [["--plan", "constructor"], /^--plan: unknown plan "constructor"/],
    [["--budget", "soon"], /^--budget must be a finite decimal number of seconds > 0, got "soon"$/],
    [["--budget=0"], /^--budget must be a finite decimal number of seconds > 0, got "0"$/],
    [["--budget", "0x10"], /^--budget must be a finite decimal number of seconds > 0, got "0x10"/],
    [["--budget", "-5"], /^--budget needs a value; one starting with "-" goes as --budget=-/],
    [
      ["--budget"],
      /^--budget needs a value; valid options: --plan <id>, --only <stages>, --budget/,
    ],
    [
      ["--scale", "tiny"],
      /^unknown option --scale; valid options: --plan <id>, --only <stages>, --budget/,
    ],
    [["paper"], /^unexpected argument "paper": gpu-check takes options only/],
    [["--out="], /^--out must not be empty$/],
    [["--seed", "7,7"], /^--seed lists a seed twice: "7,7"$/],
    [["--seed", "seven"], /^--seed/],
  ];
  for (const [args, message] of bad) {
    assert.throws(() => parseGpuCheckArgs(args), (e: Error) => {
      assert.ok(e instanceof GpuCheckUsageError, args.join(" "));
      assert.ok(!e.message.includes("\n"), `one line: ${e.message}`);
      assert.match(e.message, message);
      return true;
    });
  }
});

Deno.test("plans by id: hardware (the default) and fidelity, issue 24's GPU runs", () => {
  assert.deepEqual(Object.keys(GPU_CHECK_PLANS), ["hardware", "fidelity"]);
  assert.deepEqual(getGpuCheckPlan("hardware").stages(), planStages());
  assert.throws(() => getGpuCheckPlan("toString"), /unknown plan "toString"; plans: hardware/);
  const stages = planFidelityStages();
  assert.deepEqual(stages.map((s) => s.id), [
    "adapters",
    "fig5-ice-small",
    "fig8-wall-ice-small",
    "fig11-medium",
    "fig5-ice-medium",
    "fig8-bowl-ice-small",
  ]);
  const [, fig5, fig8] = stages;
  assert.deepEqual(fig5.sceneFiles, [{ scene: "fig5-wall", scale: "small", material: "ice" }]);
  assert.deepEqual(fig5.args, ["--handler", "merge-split,kernel-repulsion-strong,penalty-strong"]);
  assert.deepEqual(fig8.sceneFiles, [
    { scene: "fig8-dam-break-wall", scale: "small", material: "ice" },
  ]);
  // Fig. 11's four limits not yet run at medium, 4-8 first; whole runs (no --steps)
  const fig11 = stages[3];
  assert.deepEqual(fig11.args.slice(0, 2), [
    "--scene",
    "fig11-nlimit-4-8,fig11-nlimit-8-16,fig11-nlimit-16-32,fig11-nlimit-32-64",
  ]);
  assert.ok(fig11.args.join(" ").includes("--scale medium"));
  assert.ok(stages.every((s) => !s.args.includes("--steps")));
  // a quick run of the same plan: every scale, scene files' too, and the steps replaced
  const quick = planFidelityStages({ scale: "tiny", steps: 3 });
  for (const s of quick.slice(1)) {
    assert.ok(s.args.join(" ").endsWith("--steps 3"), s.id);
    assert.ok(!s.args.join(" ").includes("medium"), s.id);
    assert.ok((s.sceneFiles ?? []).every((f) => f.scale === "tiny"), s.id);
  }
});

Deno.test("a stage's scene files: written as deno task scene writes them, run as --scene", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-gpu-check-scenes-" });
  try {
    const args = writeSceneFiles({
      sceneFiles: [{ scene: "fig5-wall", scale: "tiny", material: "ice" }],
    }, dir);
    const path = `${dir}/fig5-wall-ice-tiny.json`;
    assert.deepEqual(args, ["--scene", path]);
    const built = getScene("fig5-wall", { scale: "tiny", material: "ice" });
    assert.equal(
      sceneToJson(loadSceneFile(path)),
      sceneToJson({ ...built, id: "fig5-wall-ice" }),
    );
    assert.deepEqual(writeSceneFiles({}, dir), [], "no scene files, no arguments");
    assert.throws(
      () =>
        writeSceneFiles({
          sceneFiles: [{ scene: "fig4-fluid-cloth", scale: "tiny", material: "ice" }],
        }, dir),
      /fig4-fluid-cloth/,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("complete record lines: a line cut short or not JSON is left out", () => {
  assert.deepEqual(completeRecordLines(""), []);
  assert.deepEqual(completeRecordLines('{"a":1}\n{"b":2}\n'), ['{"a":1}', '{"b":2}']);
  assert.deepEqual(completeRecordLines('{"a":1}\n{"b":'), ['{"a":1}'], "killed mid-line");
  assert.deepEqual(completeRecordLines('{"a":1}\n{"b":2}'), ['{"a":1}'], "no final newline");
  assert.deepEqual(completeRecordLines('garbage\n\n{"c":3}\n'), ['{"c":3}']);
});

Deno.test("an --out folder holding an earlier check's output is refused, nothing run", async () => {
  const out = Deno.makeTempDirSync({ prefix: "mergesplit-gpu-check-" });
  Deno.writeTextFileSync(`${out}/results.jsonl`, "{}\n");
  Deno.mkdirSync(`${out}/stages`);
  await assert.rejects(
    () => runGpuCheck({ budget: 60, out, stages: [], echo: false }),
    (e: Error) => {
      assert.ok(e instanceof GpuCheckUsageError);
      assert.match(e.message, /already holds results\.jsonl, stages of an earlier check/);
      return true;
    },
  );
  assert.equal(Deno.readTextFileSync(`${out}/results.jsonl`), "{}\n", "left as it was");
  assert.throws(() => Deno.statSync(`${out}/gpu-check.json`));
  Deno.removeSync(out, { recursive: true });
});

// End to end on the software adapter, at `tiny`: an adapters stage, a one-case stage that
// completes, a long stage the budget cuts, and a stage left no time to start.
Deno.test({
  name: "gpu-check end to end: ends inside its budget with the records of the stages it reached",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const out = Deno.makeTempDirSync({ prefix: "mergesplit-gpu-check-" });
    const stages: Stage[] = [
      { ...planStages()[0], minSeconds: 1 },
      {
        id: "one-case",
        // 20 steps (about 2 s here): the whole case (15 s alone) overran its window of about 20 s
        // when CI ran another llvmpipe test beside it
        title: "fig4 under merge-split at tiny, 20 steps",
        kind: "bench",
        args: [
          "--scene",
          "fig4-fluid-cloth",
          "--handler",
          "merge-split",
          "--scale",
          "tiny",
          "--steps",
          "20",
        ],
        minSeconds: 1,
      },
      {
        id: "every-case",
        title: "every scene and handler at tiny (more than the budget)",
        kind: "bench",
        args: ["--suite", "all", "--scale", "tiny", "--steps", "20"],
        minSeconds: 1,
      },
      {
        id: "late",
        title: "left no time",
        kind: "bench",
        args: ["--scene", "dam-break-sph", "--scale", "tiny"],
        minSeconds: 5,
      },
    ];
    const budget = 36;
    const t0 = performance.now();
    const summary = await runGpuCheck({
      budget,
      out,
      adapter: "software",
      stages,
      policy: { reportReserve: 10, grace: 3, margin: 1 },
      echo: false,
    });
    const seconds = (performance.now() - t0) / 1000;
    const text = summaryText(summary);
    assert.ok(seconds <= budget + 2, `ended after ${seconds.toFixed(1)} s:\n${text}`);
    // The long stage is cut by the budget, or skipped when the one-case stage used its window
    // (SwiftShader compiles for seconds; a loaded machine is slower): either way inside budget.
    const [adapters, one, every, late] = summary.stages;
    assert.deepEqual(
      summary.stages.map((s) => s.status),
      ["complete", "complete", every.status === "skipped" ? "skipped" : "cut", "skipped"],
      text,
    );
    // the adapters of this implementation's backend (DENO_WEBGPU_BACKEND, as testing/run_tests.ts pins
    // it): GL alone on a machine without Vulkan, where a pinned gl once listed nothing
    const listed = Deno.readTextFileSync(`${out}/adapters.txt`);
    const backend = Deno.env.get("DENO_WEBGPU_BACKEND") ?? "\\w+";
    assert.match(
      listed,
      new RegExp(`^\\s+\\d+\\s+\\S+\\s+${backend}\\s`, "m"),
      `adapters saved:\n${listed}`,
    );
    assert.equal(adapters.exitCode, 0);
    assert.equal(one.cases, 1, text);
    assert.equal(one.plannedCases, 1);
    assert.ok(one.args.join(" ").includes("--adapter software --timeout"), one.args.join(" "));
    if (every.status === "cut") assert.ok(every.plannedCases! > every.cases, text);
    else assert.equal(every.cases, 0, text);
    assert.match(late.reason!, /s left, the stage needs 5/);
    assert.equal(late.exitCode, null);

    const records = parseResults(Deno.readTextFileSync(`${out}/results.jsonl`));
    assert.equal(records.length, one.cases + every.cases);
    assert.equal(summary.cases, records.length);
    assert.equal(records[0].scene, "fig4-fluid-cloth");
    assert.ok(records.every((r) => r.scale === "tiny" && r.env !== null));

    const saved = JSON.parse(Deno.readTextFileSync(`${out}/gpu-check.json`)) as GpuCheckSummary;
    assert.deepEqual(saved.stages.map((s) => [s.id, s.status, s.cases]), [
      ["adapters", "complete", 0],
      ["one-case", "complete", 1],
      ["every-case", every.status, every.cases],
      ["late", "skipped", 0],
    ]);
    assert.equal(saved.exitCode, 0);
    assert.equal(summary.report.status, "written", text);
    assert.ok(Deno.statSync(`${out}/report.html`).size > 0);
    Deno.removeSync(out, { recursive: true });
  },
});

// End to end at `tiny`: a stage of the fidelity plan writes its ice scene file and the bench runs
// it, its record naming the file and run at the seed --seed gave.
Deno.test({
  name: "gpu-check end to end: a fidelity stage runs its scene file of ice",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const out = Deno.makeTempDirSync({ prefix: "mergesplit-gpu-check-fidelity-" });
    try {
      const fig5 = planFidelityStages({ scale: "tiny", steps: 3 })[1];
      const stage: Stage = {
        ...fig5,
        args: ["--handler", "merge-split", "--steps", "3"],
        minSeconds: 30, // the plan's is for a whole run at small on a GPU
      };
      const summary = await runGpuCheck({
        budget: 120,
        out,
        adapter: "software",
        seed: "7",
        stages: [stage],
        policy: { reportReserve: 10, grace: 3, margin: 1 },
        echo: false,
      });
      const text = summaryText(summary);
      assert.equal(summary.plan, null, "stages given directly");
      assert.equal(summary.seed, "7");
      assert.equal(summary.stages[0].status, "complete", text);
      const file = `${out}/stages/fig5-ice-small/fig5-wall-ice-tiny.json`;
      assert.ok(summary.stages[0].args.includes(file), summary.stages[0].args.join(" "));
      const [record] = parseResults(Deno.readTextFileSync(`${out}/results.jsonl`));
      assert.equal(record.scene, "fig5-wall-ice");
      assert.equal(record.sceneSource, file);
      assert.equal(record.status, "ok", record.error ?? "");
      // --seed reaches the bench: the record ran at seed 7, not the scene file's own (2021)
      assert.equal(record.seed, 7);
    } finally {
      Deno.removeSync(out, { recursive: true });
    }
  },
});

Deno.test({
  name: "gpu-check: an adapter this machine lacks is exit 2 before any stage, whatever the budget",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = Deno.makeTempDirSync({ prefix: "mergesplit-gpu-check-adapter-" });
    const errors: string[] = [];
    const error = console.error;
    console.error = (...a: unknown[]) => errors.push(a.join(" "));
    try {
      for (const budget of ["1", "900"]) {
        const out = `${dir}/check-${budget}`;
        const code = await main(["--adapter", "99", "--budget", budget, "--out", out]);
        assert.equal(code, 2, errors.join("\n"));
        assert.match(errors.at(-1)!, /^mergesplit gpu-check: --adapter "99" matches no adapter/);
        assert.throws(() => Deno.statSync(out), Deno.errors.NotFound, "no stage ran, no folder");
      }
    } finally {
      console.error = error;
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test("gpu-check: default folders to the millisecond, so checks started at once differ", () => {
  const at = (ms: number) => gpuCheckOutDir(new Date(Date.UTC(2026, 11, 2, 16, 44, 18, ms)));
  assert.equal(at(123), "reports/out/gpu-check-2026-12-02T16-44-18.123");
  assert.notEqual(at(123), at(124));
});
