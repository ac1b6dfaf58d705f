// run_tests: one implementation (the bench's command line as a subprocess)
import assert from "node:assert/strict";
import { getScene } from "../scenes/catalog.ts";
import { sceneToJson } from "../core/scene/scene.ts";
import { type CaseRecord, parseResults } from "../core/result.ts";
import { nsPerParticleStep, summaryTable } from "./main.ts";

// End-to-end runs of the bench as a subprocess, on the software adapter, with tiny scenes:
// `deno task bench` (cli.ts: the bench, then the report) and, once, bench/main.ts alone.
const CLI = new URL("../cli.ts", import.meta.url).pathname;
const BENCH_ONLY = new URL("./main.ts", import.meta.url).pathname;

async function bench(args: string[], options: { cwd?: string; entry?: string } = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", options.entry ?? CLI, ...args],
    cwd: options.cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test({
  name: "deno task bench end to end",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const dir = Deno.makeTempDirSync({ prefix: "mergesplit-bench-" });
    const common = ["--scale", "tiny", "--adapter", "software", "--warmup", "5"];

    await t.step("bad arguments exit 2 with the valid choices", async () => {
      const r = await bench(["--handler", "nope", "--out", `${dir}/bad`]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /valid handlers: merge-split/);
      assert.throws(() => Deno.statSync(`${dir}/bad`), "nothing written");
    });

    await t.step({
      name: "an --out folder that cannot be created: one line, exit 2, no case run",
      ignore: Deno.build.os !== "linux",
      fn: async () => {
        const r = await bench([
          "--scene",
          "fig4-fluid-cloth",
          "--handler",
          "merge-split",
          "--steps",
          "40",
          "--out",
          "/proc/mergesplit-test",
          ...common,
        ]);
        assert.equal(r.code, 2, r.stdout + r.stderr);
        // Deno's own "Download <url>" lines where its npm cache is still being filled are not
        // the bench's
        const lines = r.stderr.split("\n").filter((l) => l.trim() && !/^Download /.test(l));
        assert.equal(lines.length, 1, `one line, no stack trace: ${r.stderr}`);
        assert.match(
          lines[0],
          /^mergesplit bench: cannot create the output folder \/proc\/mergesplit-test: .*\(os error \d+\)/,
        );
        assert.ok(!/running \d+ cases/.test(r.stderr + r.stdout), "no case started");
        assert.equal(r.stdout, "", "no summary, no report");
      },
    });

    await t.step("a malformed scene file: clear message, exit 2, nothing written", async () => {
      const scene = JSON.parse(sceneToJson(getScene("fig4-fluid-cloth", { scale: "tiny" })));
      scene.bodies[1].spacing = -0.01;
      Deno.writeTextFileSync(`${dir}/broken.json`, JSON.stringify(scene));
      const r = await bench([
        "--scene",
        `${dir}/broken.json`,
        "--out",
        `${dir}/broken-out`,
        ...common,
      ]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /scene file .*broken\.json: scene\.bodies\[1\]\.spacing: must be > 0/);
      assert.throws(() => Deno.statSync(`${dir}/broken-out`), "nothing written");
    });

    await t.step("an unstable case is recorded and the run goes on", async () => {
      const scene = JSON.parse(sceneToJson(getScene("fig4-fluid-cloth", { scale: "tiny" })));
      scene.id = "fig4-explosive";
      scene.handlers["penalty-strong"].stiffness = 1e9; // explicit penalty far past its stability limit
      Deno.writeTextFileSync(`${dir}/explosive.json`, sceneToJson(scene));
      const r = await bench([
        "--scene",
        `${dir}/explosive.json`,
        "--handler",
        "penalty-strong,merge-split",
        "--steps",
        "150", // the column reaches the cloth after about 70 steps at tiny
        "--out",
        `${dir}/unstable`,
        ...common,
      ]);
      assert.equal(r.code, 0, r.stderr);
      const recs = parseResults(Deno.readTextFileSync(`${dir}/unstable/results.jsonl`));
      // the cases run in the order given: the unstable one first, and the run went on
      assert.deepEqual(recs.map((x) => [x.handler, x.status]), [["penalty-strong", "unstable"], [
        "merge-split",
        "ok",
      ]]);
      const bad = recs[0];
      assert.equal(bad.metrics?.summary.exploded, true);
      assert.ok(bad.timings?.phases.total.samples.length === 145);
      assert.equal(bad.sceneSource, `${dir}/explosive.json`);
      assert.match(r.stdout, /report: .*unstable\/report\.html/);
      // the claims in a few lines before it: a scene file's cases are user scenes, none judged
      assert.match(
        r.stdout,
        /\nclaims: 0 reproduced; 0 not reproduced; \d+ not run\nA claim not run needs [^\n]*\n2 case\(s\) of scene files \([^\n]*explosive\.json as fig4-explosive\) are user scenes[^\n]*\nreport: /,
      );
      assert.ok(Deno.statSync(`${dir}/unstable/report.html`).size > 0);
    });

    await t.step("a scale sweep runs the case at each scale, smallest first", async () => {
      const r = await bench([
        "--scene",
        "dam-break-sph",
        "--handler",
        "merge-split",
        "--scale",
        "small,tiny",
        "--steps",
        "10",
        "--out",
        `${dir}/sweep`,
        ...common.filter((a) => a !== "--scale" && a !== "tiny"),
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stderr,
        /running 2 cases \(20 steps\) at scales tiny, small \(each case at each\)/,
      );
      assert.match(r.stderr, /\[1\/2\] dam-break-sph × merge-split \(tiny\): ok/);
      assert.match(r.stderr, /\[2\/2\] dam-break-sph × merge-split \(small\): ok/);
      const recs = parseResults(Deno.readTextFileSync(`${dir}/sweep/results.jsonl`));
      assert.deepEqual(recs.map((x) => [x.scale, x.particles.fluid, x.status]), [
        ["tiny", 432, "ok"],
        ["small", 3456, "ok"],
      ]);
      assert.match(r.stdout, /scale\s+status .* ms\/step {2}ns\/p·step/);
      assert.match(r.stdout, /dam-break-sph\s+merge-split\s+small\s+ok /);
      const html = Deno.readTextFileSync(`${dir}/sweep/report.html`);
      assert.match(html, /<section id="scaling">/);
      assert.match(html, /"label":"merge-split \(k = -?\d+\.\d\d\)"/);
    });

    await t.step("a parameter sweep runs one case per value, each recorded", async () => {
      const r = await bench([
        "--scene",
        "fig4-fluid-cloth",
        "--handler",
        "merge-split,penalty",
        "--sweep",
        "penalty.stiffness=1e2..1e4:3",
        "--steps",
        "10",
        "--out",
        `${dir}/param-sweep`,
        ...common,
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /running 4 cases/);
      assert.match(r.stderr, /\[4\/4\] fig4-fluid-cloth × penalty penalty\.stiffness=10000: ok/);
      const recs = parseResults(Deno.readTextFileSync(`${dir}/param-sweep/results.jsonl`));
      assert.deepEqual(
        recs.map((x) => [x.handler, x.sweep?.["penalty.stiffness"], x.handlerParams.stiffness]),
        [["merge-split", undefined, undefined], ["penalty", 100, 100], ["penalty", 1000, 1000], [
          "penalty",
          10000,
          10000,
        ]],
      );
      assert.equal(new Set(recs.map((x) => x.configHash)).size, 4, "one configuration per value");
      assert.match(r.stdout, /penalty penalty\.stiffness=100 /);
      const bad = await bench([
        "--scene",
        "fig4-fluid-cloth",
        "--handler",
        "penalty",
        "--sweep",
        "penalty.stifness=1,2",
        ...common,
      ]);
      assert.equal(bad.code, 2);
      assert.match(
        bad.stderr,
        /--sweep or scene fig4-fluid-cloth: .*stifness.*\(parameters of penalty: stiffness\)/,
      );
    });

    await t.step(
      "two runs of a case on one adapter give the same state hash; --verify agrees",
      async () => {
        const args = [
          "--scene",
          "fig4-fluid-cloth",
          "--handler",
          "merge-split",
          "--steps",
          "40",
          ...common,
        ];
        await bench([...args, "--out", `${dir}/a`]);
        await bench([...args, "--out", `${dir}/b`], { entry: BENCH_ONLY });
        const a = parseResults(Deno.readTextFileSync(`${dir}/a/results.jsonl`))[0];
        const b = parseResults(Deno.readTextFileSync(`${dir}/b/results.jsonl`))[0];
        assert.equal(a.status, "ok");
        assert.match(a.stateHash!, /^[0-9a-f]{64}$/);
        assert.equal(a.stateHash, b.stateHash);
        assert.equal(a.configHash, b.configHash);
        assert.ok(Deno.statSync(`${dir}/a/report.html`).isFile, "cli.ts writes the report");
        assert.throws(() => Deno.statSync(`${dir}/b/report.html`), "bench/main.ts alone does not");
        assert.equal(a.schemaVersion, 1);
        assert.ok(a.env?.adapter.isFallbackAdapter);
        assert.ok(a.timings!.phases.total.ci95[0] <= a.timings!.phases.total.median);
        assert.equal(
          a.timings!.wall?.steps,
          a.steps - a.protocol.warmupSteps,
          "wall: measured steps",
        );
        assert.ok(a.timings!.wall!.msPerStep > 0);
        assert.equal(a.gpu?.contactsDropped, 0, "no contact slot overflowed");
        assert.equal(a.gpu?.stepsPerSubmit, 8, "the bench's steps per submit");
        assert.ok(
          a.gpu!.indirectPerStep! > 0 && a.gpu!.indirectPerStep! < a.gpu!.dispatchesPerStep,
          "stage 2's gated dispatches are indirect",
        );
        assert.deepEqual(a.systems, ["mass-spring", "sph"]);
        const v = await bench(["--verify", `${dir}/a/results.jsonl`, "--adapter", "software"]);
        assert.equal(v.code, 0, v.stdout + v.stderr);
        assert.match(v.stdout, /1 of 1 cases reproduced their state hash/);
      },
    );

    await t.step("--resume runs only the cases the results file does not hold", async () => {
      // b holds fig4 × merge-split (40 steps); with a variant, only the variant's case runs
      const args = ["--scene", "fig4-fluid-cloth", "--handler", "merge-split", "--steps", "40"];
      const r = await bench(
        [...args, ...common, "--variant", "compact-grouping", "--resume", "--out", `${dir}/b`],
        { entry: BENCH_ONLY },
      );
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stderr, /--resume: 1 of 2 cases already recorded/);
      const records = parseResults(Deno.readTextFileSync(`${dir}/b/results.jsonl`));
      assert.deepEqual(records.map((x) => x.setup), ["paper", "compact-grouping"]);
      // the new list's first case was the earlier run's: the record says so (case_coverage_test
      // counts such positions as present)
      assert.deepEqual(records[1].case?.held, [0]);
      const again = await bench(
        [...args, ...common, "--variant", "compact-grouping", "--resume", "--out", `${dir}/b`],
        { entry: BENCH_ONLY },
      );
      assert.match(again.stderr, /--resume: 2 of 2 cases already recorded/);
      assert.equal(parseResults(Deno.readTextFileSync(`${dir}/b/results.jsonl`)).length, 2);
      const bad = await bench([...args, ...common, "--resume"], { entry: BENCH_ONLY });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--resume goes on with a run in a folder: give it with --out/);
    });

    await t.step("Ctrl-C keeps every finished case intact", async () => {
      const child = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          CLI,
          "--scene",
          "fig4-fluid-cloth",
          "--handler",
          "penalty-weak,impulse,merge-split",
          "--steps",
          "300",
          "--out",
          `${dir}/int`,
          ...common,
        ],
        stdout: "null",
        stderr: "null",
        env: { NO_COLOR: "1" },
      }).spawn();
      const file = `${dir}/int/results.jsonl`;
      const lines = () => {
        try {
          return Deno.readTextFileSync(file).split("\n").filter((l) => l.trim()).length;
        } catch {
          return 0;
        }
      };
      const deadline = Date.now() + 300_000;
      while (lines() < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      child.kill("SIGINT");
      const status = await child.status;
      assert.equal(status.code, 130);
      const recs = parseResults(Deno.readTextFileSync(file));
      assert.ok(recs.length >= 1 && recs.length < 3, `${recs.length} finished cases`);
      for (const r of recs) assert.equal(r.status, "ok");
      assert.ok(Deno.statSync(`${dir}/int/report.html`).isFile, "the report of the finished cases");
    });
    Deno.removeSync(dir, { recursive: true });
  },
});

Deno.test("the summary table at the end of a run", async (t) => {
  const record = (scale: string, fluid: number, ms: number | null, status = "ok") =>
    ({
      scene: "dam-break-sph",
      handler: "merge-split",
      scale,
      status,
      particles: { solid: 0, fluid },
      metrics: { summary: { passThroughMax: 0, fluidRebound: 0.5, energyRatio: 1 }, series: null },
      timings: ms === null ? null : { phases: { total: { median: ms } } },
    }) as unknown as CaseRecord;

  await t.step("ns per particle-step: median ms × 10⁶ / particles", () => {
    assert.equal(nsPerParticleStep(record("tiny", 432, 3.9)), (3.9 * 1e6) / 432);
    assert.equal(nsPerParticleStep(record("tiny", 0, 3.9)), null);
    assert.equal(nsPerParticleStep(record("tiny", 432, null, "failed")), null);
  });

  await t.step("one scale: no scale column; a sweep: a scale column", () => {
    const one = summaryTable([record("small", 3456, 19.6), record("small", 3456, null, "failed")])
      .split("\n");
    assert.match(
      one[0],
      /^scene\s+handler\s+status\s+pass-thru {2}rebound {2}E\/E0 {3}ms\/step {2}ns\/p·step {2}wall ms$/,
    );
    assert.match(
      one[1],
      /^dam-break-sph\s+merge-split\s+ok\s+0\s+0\.50\s+1\.00\s+19\.6\s+5671\s+-$/,
      "no wall clock in the record: a dash",
    );
    assert.match(one[2], /failed .*-\s+-\s+-$/);
    assert.equal(one[1].length, one[0].length, "columns line up");
    const sweep = summaryTable([record("tiny", 432, 3.9), record("medium", 1e6, 2)]).split("\n");
    assert.match(sweep[0], /^scene\s+handler\s+scale\s+status /);
    assert.match(sweep[1], /merge-split\s+tiny\s+ok /);
    assert.match(sweep[2], /merge-split\s+medium\s+ok .*\s2\.00\s+-$/);
    const seeds = summaryTable([
      { ...record("small", 3456, 19.6), seed: 2021 },
      { ...record("small", 3456, 19.6), seed: 7 },
    ]).split("\n");
    assert.match(seeds[0], /^scene\s+handler\s+seed\s+status /);
    assert.match(seeds[1], /merge-split\s+2021\s+ok /);
    assert.match(seeds[2], /merge-split\s+7\s+ok /);
    assert.equal(seeds[2].length, seeds[0].length, "columns line up");
  });
});
