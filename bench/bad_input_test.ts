// run_tests: one implementation (the bench's refusals of bad command-line input)
/**
 * Bad command-line input found by trying the bench as a new user would (issue 23): each is a
 * one-line usage error (exit status 2) before anything runs, never a run of the wrong thing.
 */
import assert from "node:assert/strict";
import { parseBenchArgs } from "./cli.ts";
import { checkRunPlan } from "./cases/run_plan_check.ts";
import { resolveCases, UsageError } from "./cases/suite.ts";
import { runBench } from "./main.ts";
import { suiteSweeps } from "./cases/sweep.ts";
import { getSuite } from "./cases/suites.ts";
import { HANDLERS } from "../gpu/handlers/registry.ts";

const usage = (re: RegExp) => (e: unknown) =>
  e instanceof UsageError && re.test(e.message) && !e.message.includes("\n");

Deno.test("empty values (an unset shell variable) are refused, not read as 'everything'", () => {
  for (const name of ["scene", "handler", "out", "verify", "adapter"]) {
    assert.throws(
      () => parseBenchArgs([`--${name}`, ""]),
      usage(new RegExp(`^--${name} was given an empty value \\(an unset shell variable\\?\\)`)),
      name,
    );
  }
  assert.throws(() => parseBenchArgs(["--scene", " , "]), usage(/--scene was given an empty/));
});

Deno.test("integer options take decimal integers only, within bounds", () => {
  for (
    const [name, v] of [
      ["seed", ""],
      ["seed", "0x10"],
      ["seed", "1e3"],
      ["seed", "4294967296"],
      ["warmup", ""],
      ["warmup", "2.5"],
      ["steps", "0"],
      ["steps", "10000001"],
      ["repeat", "101"],
    ]
  ) {
    assert.throws(
      () => parseBenchArgs([`--${name}`, v]),
      usage(new RegExp(`^--${name} must be a decimal integer from \\d+ to [\\d,]+, got "`)),
      `--${name} ${v}`,
    );
  }
  assert.deepEqual(parseBenchArgs(["--seed", "16"]).seeds, [16]);
  assert.deepEqual(parseBenchArgs(["--seed", "scene, 7,99"]).seeds, ["scene", 7, 99]);
  assert.equal(parseBenchArgs([]).seeds, undefined);
  assert.throws(() => parseBenchArgs(["--seed", "7,7"]), usage(/--seed lists a seed twice/));
  assert.throws(() => parseBenchArgs(["--seed", "7,x"]), usage(/--seed must be a decimal/));
  assert.throws(() => parseBenchArgs(["--duration", ""]), usage(/--duration must be a finite/));
  assert.throws(() => parseBenchArgs(["--duration", "Infinity"]), usage(/--duration/));
  assert.throws(() => parseBenchArgs(["--timeout", ""]), usage(/--timeout/));
});

Deno.test("the run plan: warm-up, step count and --param are checked against the cases", () => {
  const cases = resolveCases({
    scenes: ["fig4-fluid-cloth"],
    handlers: ["merge-split"],
    scale: "tiny",
  });
  assert.throws(
    () => checkRunPlan(cases, { steps: 10, warmup: 10 }),
    usage(/^--warmup 10 leaves no measured step: fig4-fluid-cloth × merge-split runs 10 steps/),
  );
  checkRunPlan(cases, { steps: 10, warmup: 9 });
  assert.throws(
    () => checkRunPlan(cases, { duration: 1e9 }),
    usage(
      /fig4-fluid-cloth × merge-split would run \d+ steps \(1000000000 s at dt .*more than 10,000,000/,
    ),
  );
  assert.throws(
    () => checkRunPlan(cases, { params: { penalty: { stiffness: 10 } } }),
    usage(/^--param penalty\.…: handler penalty is not in this run \(its handlers: merge-split\)/),
  );
  checkRunPlan(cases, { params: { "merge-split": { alpha: 0.5 } } });
});

Deno.test("shards: disjoint parts whose union is the case list", async () => {
  const { selectShard } = await import("./cases/shard.ts");
  const cases = resolveCases({ scenes: [], handlers: [], scale: ["tiny", "small"] });
  const whole = await selectShard(cases, null);
  const parts = await Promise.all(
    [1, 2, 3].map((index) => selectShard(cases, { index, count: 3 })),
  );
  const seen = parts.flat().map((p) => p.place.index).sort((a, b) => a - b);
  assert.deepEqual(seen, whole.map((p) => p.place.index), "disjoint, and together the whole");
  for (const [k, part] of parts.entries()) {
    assert.ok(part.length >= Math.floor(cases.length / 3));
    for (const p of part) {
      assert.equal(p.place.shard, `${k + 1}/3`);
      assert.equal(p.place.list, whole[0].place.list, "one list hash for every part");
      assert.equal(p.place.of, cases.length);
      assert.equal(p.spec, cases[p.place.index]);
    }
  }
  assert.throws(() => parseBenchArgs(["--shard", "4/3"]), usage(/--shard must be i\/n/));
  assert.throws(() => parseBenchArgs(["--shard", "0/3"]), usage(/--shard must be i\/n/));
  assert.deepEqual(parseBenchArgs(["--shard", "2/3"]).shard, { index: 2, count: 3 });
});

Deno.test("runBench: bad input is exit status 2 and writes nothing", async () => {
  const dir = Deno.makeTempDirSync();
  const errors: string[] = [];
  const error = console.error;
  console.error = (...a: unknown[]) => errors.push(a.join(" "));
  try {
    for (
      const args of [
        ["--out", ""],
        ["--scene", "", "--out", `${dir}/a`],
        [
          "--scene",
          "fig4-fluid-cloth",
          "--handler",
          "merge-split",
          "--param",
          "penalty.stiffness=5",
        ],
        ["--scene", "fig4-fluid-cloth", "--steps", "5", "--warmup", "5", "--out", `${dir}/b`],
      ]
    ) {
      errors.length = 0;
      const outcome = await runBench([...args, "--scale", "tiny"]);
      assert.equal(outcome.exitCode, 2, args.join(" "));
      assert.equal(errors.length, 1, errors.join("\n"));
      assert.match(errors[0], /^mergesplit bench: /);
    }
    assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing written");
  } finally {
    console.error = error;
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the run header names the scale a scene file runs at, not --scale's default", async () => {
  const { getScene } = await import("../scenes/catalog.ts");
  const { sceneToJson } = await import("../core/scene/scene.ts");
  const dir = Deno.makeTempDirSync();
  const lines: string[] = [];
  const [error, log] = [console.error, console.log];
  console.error = (...a: unknown[]) => lines.push(a.join(" "));
  console.log = () => {};
  try {
    const file = `${dir}/scene.json`;
    Deno.writeTextFileSync(file, sceneToJson(getScene("fig4-fluid-cloth", { scale: "tiny" })));
    const outcome = await runBench([
      "--scene",
      file,
      "--handler",
      "merge-split",
      "--steps",
      "2",
      "--adapter",
      "software",
      "--out",
      `${dir}/out`,
    ]);
    assert.equal(outcome.exitCode, 0, lines.join("\n"));
    assert.match(lines.find((l) => l.startsWith("running ")) ?? "", / at scale tiny on adapter/);
  } finally {
    [console.error, console.log] = [error, log];
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a --param that a sweep also sets is refused naming both, never silently ignored", () => {
  assert.throws(
    () =>
      parseBenchArgs([
        ...["--handler", "penalty", "--param", "penalty.stiffness=5"],
        ...["--sweep", "penalty.stiffness=1e2..1e6:3"],
      ]),
    usage(
      /^--param penalty\.stiffness=5 and --sweep penalty\.stiffness=… both set penalty\.stiffness; drop the --param/,
    ),
  );
  // another parameter of the swept handler, or the same name of another handler, is fine
  const ok = parseBenchArgs([
    ...["--param", "penalty.stiffness=5", "--sweep", "penalty-weak.stiffness=1,2"],
  ]);
  assert.deepEqual(ok.params, { penalty: { stiffness: 5 } });
  // a suite's own sweep (claims: merge-split at swept time steps, penalty at swept stiffness)
  const cases = resolveCases({
    scenes: ["fig3-ball-cloth-high"],
    handlers: ["penalty"],
    scale: "small",
    suite: "claims",
    seeds: ["scene"],
  });
  const swept = suiteSweeps(cases, getSuite("claims"), { knownHandlers: [...HANDLERS.keys()] });
  assert.ok(swept.some((c) => c.sweep?.["penalty.stiffness"] !== undefined));
  assert.throws(
    () => checkRunPlan(swept, { params: { penalty: { stiffness: 5 } } }),
    usage(/^--param penalty\.stiffness=5 and the suite's sweep of penalty\.stiffness both set it/),
  );
});

Deno.test("--timeout: a finite number of seconds a timer can wait (at most 10 days)", () => {
  for (const v of ["1e400", "Infinity", "3e6", "864001"]) {
    assert.throws(
      () => parseBenchArgs(["--timeout", v]),
      usage(new RegExp(`^--timeout must be .* at most 864000 \\(10 days; .*got "${v}"$`)),
      v,
    );
  }
  assert.equal(parseBenchArgs(["--timeout", "864000"]).timeout, 864000);
});

Deno.test("--param given twice for one parameter is refused, not resolved by the last", () => {
  assert.throws(
    () =>
      parseBenchArgs([
        ...["--param", "merge-split.alpha=0.5", "--param", " merge-split.alpha =0.7"],
      ]),
    usage(/^--param merge-split\.alpha is given twice \(only one value would be used\)/),
  );
  const two = parseBenchArgs(["--param", "merge-split.alpha=0.5", "--param", "merge-split.beta=1"]);
  assert.deepEqual(two.params, { "merge-split": { alpha: 0.5, beta: 1 } });
});
