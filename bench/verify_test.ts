// run_tests: one implementation (the --verify command)
import { sceneUnder, setupChoices } from "../core/setups.ts";
import assert from "node:assert/strict";
import { getScene } from "../scenes/catalog.ts";
import { HANDLERS } from "../gpu/handlers/registry.ts";
import { type CaseRecord, recordLine } from "../core/result.ts";
import { recordFixture } from "../core/result_fixture.ts";
import { runSuite } from "./runner.ts";
import { resolveCases } from "./cases/suite.ts";
import { expandSweeps, parseSweep, sweptScene } from "./cases/sweep.ts";
import { verifyCommand, verifyResults } from "./verify.ts";
import { captureEnvironment } from "./environment.ts";
import { caseConfigHash } from "./config_hash.ts";
import { sceneToJson } from "../core/scene/scene.ts";

/** {@link verifyCommand} on `file` with its output captured (no case reaches the GPU here). */
async function verify(file: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await verifyCommand(file, {
    adapter: "software",
    log: (l) => out.push(l),
    warn: (l) => err.push(l),
  });
  return { code, out, err };
}

/** A record of `status` (one that did not finish: nothing to re-run, no GPU needed). */
function unfinished(status: CaseRecord["status"]): string {
  const ran = status === "ok" || status === "unstable";
  return recordLine(recordFixture({
    handlerParams: {},
    status,
    error: "boom",
    ...(ran ? {} : { timings: null, metrics: null, stateHash: null, repeatable: null }),
  }));
}

Deno.test("--verify: nothing verified is exit 2 with one line saying why", async (t) => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-verify-" });
  try {
    await t.step("a missing file: its name and the system's error, no stack trace", async () => {
      const r = await verify(`${dir}/missing.jsonl`);
      assert.equal(r.code, 2);
      assert.deepEqual(r.out, []);
      assert.equal(r.err.length, 1, r.err.join("\n"));
      assert.match(
        r.err[0],
        /^mergesplit bench: --verify .*\/missing\.jsonl: cannot read it: No such file or directory \(os error 2\).*; pass the path of a results\.jsonl written by deno task bench$/,
      );
    });

    await t.step("an empty file does not pass as 0 of 0 reproduced", async () => {
      Deno.writeTextFileSync(`${dir}/empty.jsonl`, "\n");
      const r = await verify(`${dir}/empty.jsonl`);
      assert.equal(r.code, 2);
      assert.deepEqual(r.out, []);
      assert.deepEqual(r.err, [
        `mergesplit bench: --verify ${dir}/empty.jsonl: nothing to verify: the file holds no record; pass a results.jsonl with cases that finished ok or unstable`,
      ]);
    });

    await t.step(
      "only failed and timed-out cases: nothing to verify, with the counts",
      async () => {
        const file = `${dir}/failed.jsonl`;
        Deno.writeTextFileSync(
          file,
          unfinished("failed") + unfinished("timeout") + unfinished("failed") + '{"torn',
        );
        const r = await verify(file);
        assert.equal(r.code, 2);
        assert.deepEqual(r.err, [
          `${file} line 4 skipped: not JSON (a torn write?)`,
          `mergesplit bench: --verify ${file}: nothing to verify: no case finished ok or unstable (2 failed, 1 timeout, 1 line(s) skipped); pass a results.jsonl with cases that finished ok or unstable`,
        ]);
      },
    );

    await t.step("every line skipped: a warning per line, then why nothing ran", async () => {
      const file = `${dir}/garbage.jsonl`;
      Deno.writeTextFileSync(
        file,
        'not json\n{"schemaVersion":1,"scene":"s","handler":"h","scale":"tiny","status":"ok","configHash":"x","timings":"garbage"}\n',
      );
      const r = await verify(file);
      assert.equal(r.code, 2);
      assert.deepEqual(r.err, [
        `${file} line 1 skipped: not JSON (a torn write?)`,
        `${file} line 2 skipped: field "sceneSource" must be a string, got nothing (the field is missing)`,
        `mergesplit bench: --verify ${file}: nothing to verify: every line of it was skipped (2); pass a results.jsonl with cases that finished ok or unstable`,
      ]);
    });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("sweptScene rebuilds the scene of each case of a sweep from its record", () => {
  const known = { knownHandlers: [...HANDLERS.keys()] };
  const base = resolveCases({
    scenes: ["fig3-ball-cloth-low"],
    handlers: ["penalty"],
    scale: "tiny",
    seeds: [7],
  });
  const cases = expandSweeps(base, [
    parseSweep("scene.dt=1e-3,2e-3", known),
    parseSweep("scene.speed=1,2", known),
    parseSweep("penalty.stiffness=10", known),
  ]);
  assert.equal(cases.length, 4);
  const catalogue = getScene("fig3-ball-cloth-low", { scale: "tiny" });
  for (const c of cases) {
    // what --verify has: the catalogue scene at the record's scale, its seed, its sweep and the
    // system parameters of its setup
    const rebuilt = sceneUnder(
      { ...sweptScene(catalogue, c.sweep), seed: 7 },
      setupChoices(c.setup!),
    );
    assert.deepEqual(rebuilt, c.scene, JSON.stringify(c.sweep));
  }
  // a speed of sound and a speed together, with a dt on top: one rebuild, then the dt
  const fig4 = getScene("fig4-fluid-cloth", { scale: "tiny" });
  const swept = { "scene.soundSpeedFactor": 20, "scene.speed": 4, "scene.dt": 1e-4 };
  assert.deepEqual(sweptScene(fig4, swept), {
    ...getScene("fig4-fluid-cloth", { scale: "tiny", speed: 4, soundSpeedFactor: 20 }),
    dt: 1e-4,
  });
  assert.deepEqual(sweptScene(catalogue), catalogue, "no sweep: the scene as it is");
  assert.deepEqual(sweptScene(catalogue, { "penalty.stiffness": 5 }), catalogue);
  assert.throws(
    () => sweptScene(catalogue, { "scene.gravity": 1 }),
    /sweep key "scene\.gravity": a scene sweep varies one of scene\.dt, scene\.speed/,
  );
});

Deno.test({
  name: "--verify re-runs a scene.dt sweep at its recorded dt, past a torn line (software GPU)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = Deno.makeTempDirSync({ prefix: "mergesplit-verify-gpu-" });
    try {
      const file = `${dir}/results.jsonl`;
      const cases = expandSweeps(
        resolveCases({ scenes: ["fig4-fluid-cloth"], handlers: ["merge-split"], scale: "tiny" }),
        [parseSweep("scene.dt=4e-4", { knownHandlers: [...HANDLERS.keys()] })],
      );
      assert.notEqual(getScene("fig4-fluid-cloth", { scale: "tiny" }).dt, 4e-4);
      const { records } = await runSuite(
        cases,
        { adapter: "software", steps: 6, warmup: 1, repeat: 1, timeout: 600 },
        { resultsFile: file, environment: captureEnvironment },
      );
      assert.equal(records[0].status, "ok", records[0].error ?? "");
      assert.equal(records[0].dt, 4e-4);
      // a run killed while it wrote its next case
      Deno.writeTextFileSync(file, recordLine(records[0]).slice(0, 80), { append: true });

      const outcomes = await verifyResults(file, { adapter: "software", onSkipped: () => {} });
      assert.equal(outcomes.length, 1);
      assert.ok(outcomes[0].match, "the re-run at the recorded dt ends in the recorded state");
      assert.equal(outcomes[0].warning, null);

      const r = await verify(file);
      assert.equal(r.code, 0, [...r.out, ...r.err].join("\n"));
      assert.deepEqual(r.err, [`${file} line 2 skipped: not JSON (a torn write?)`]);
      assert.deepEqual(r.out, [
        "match    fig4-fluid-cloth × merge-split scene.dt=0.0004",
        "1 of 1 cases reproduced their state hash; 1 line(s) of the file skipped",
      ]);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test("--verify: an edited scene file is 'the configuration changed', not a mismatch", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-verify-changed-" });
  try {
    const sceneFile = `${dir}/fig4.json`;
    const scene = getScene("fig4-fluid-cloth", { scale: "tiny" });
    Deno.writeTextFileSync(sceneFile, sceneToJson(scene));
    const [spec] = resolveCases({
      scenes: [sceneFile],
      handlers: ["merge-split"],
      scale: "tiny",
    });
    const configHash = await caseConfigHash({
      scene: spec.scene,
      handler: "merge-split",
      handlerParams: spec.handlerParams,
      coupling: "own-part",
      steps: 10,
      warmup: 2,
      repeat: 3,
    });
    const record = JSON.parse(unfinished("ok")) as CaseRecord;
    Object.assign(record, {
      sceneSource: sceneFile,
      stateHash: "f".repeat(64),
      configHash,
      protocol: { warmupSteps: 2, repeats: 3, timeoutSeconds: 60 },
    });
    const file = `${dir}/results.jsonl`;
    Deno.writeTextFileSync(file, recordLine(record));
    // the scene file edited after the run: gravity doubled
    Deno.writeTextFileSync(sceneFile, sceneToJson({ ...scene, gravity: [0, -19.62, 0] }));
    const r = await verify(file);
    assert.equal(r.code, 1);
    assert.deepEqual(r.err, []);
    assert.match(
      r.out[0],
      /^CHANGED {2}fig4-fluid-cloth × merge-split: the configuration changed since it was recorded \(config hash [0-9a-f]{12} then, [0-9a-f]{12} now: its scene file .*fig4\.json was edited, or a default of the harness changed\), so its state cannot be compared; not re-run/,
    );
    assert.equal(
      r.out[1],
      "0 of 0 cases reproduced their state hash; 1 case(s) not compared: the configuration changed",
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("--verify: /dev/zero and a directory are refused at once, in one line", async () => {
  for (const path of ["/dev/zero", "/"]) {
    const r = await verify(path);
    assert.equal(r.code, 2);
    assert.deepEqual(r.err, [
      `mergesplit bench: --verify ${path}: cannot read it: is ${
        path === "/" ? "a directory" : "a character device"
      }, not a regular file; pass the path of a results.jsonl written by deno task bench`,
    ]);
  }
});

Deno.test("--verify: a record that cannot be rebuilt is an ERROR line, the others go on", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-verify-rebuild-" });
  try {
    const base = JSON.parse(unfinished("ok")) as CaseRecord;
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ handler: "nope" }, /: cannot rebuild it: its handler "nope" is not one of merge-split, /],
      [
        { handlerParams: { alpha: "x" } },
        /: cannot rebuild it: the record's handlerParams or scene fig4-fluid-cloth: .*alpha: must be a number/,
      ],
    ];
    const file = `${dir}/results.jsonl`;
    // a scale the schema does not know never reaches the rebuild: the reader skips it
    const lines = [...bad.map(([change]) => change), { scale: "gigantic" }];
    Deno.writeTextFileSync(
      file,
      lines.map((change) => recordLine({ ...base, ...change } as CaseRecord)).join(""),
    );
    const r = await verify(file);
    assert.equal(r.code, 1);
    assert.deepEqual(r.err, [
      `${file} line 3 skipped: field "scale" must be one of tiny, small, medium or paper, got the string "gigantic"`,
    ]);
    bad.forEach(([, message], k) => assert.match(r.out[k], message));
    assert.ok(r.out.slice(0, 2).every((l) => l.startsWith("ERROR    ")), r.out.join("\n"));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
