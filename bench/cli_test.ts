import assert from "node:assert/strict";
import { VARIANTS } from "../core/setups.ts";
import { checkShardFits, parseBenchArgs, parseScales, parseVariants } from "./cli.ts";
import { expandSweeps } from "./cases/sweep.ts";
import { getScene } from "../scenes/catalog.ts";
import { sceneToJson } from "../core/scene/scene.ts";
import { expand, globMatch, resolveCases, UsageError } from "./cases/suite.ts";
import { HANDLERS } from "../gpu/handlers/registry.ts";

Deno.test("bench arguments", async (t) => {
  await t.step("defaults: the whole suite at scale small", () => {
    const o = parseBenchArgs([]);
    assert.deepEqual(o.scenes, []);
    assert.deepEqual(o.scales, ["small"]);
    assert.equal(o.adapter, "default");
    assert.equal(o.warmup, undefined, "the runner's default (defaultWarmup)");
    assert.equal(o.repeat, 1);
    assert.equal(o.stepsPerSubmit, undefined, "the runner's default (BENCH_STEPS_PER_SUBMIT)");
    assert.equal(parseBenchArgs(["--steps-per-submit", "1"]).stepsPerSubmit, 1);
    const cases = resolveCases({ scenes: o.scenes, handlers: o.handlers, scale: "tiny" });
    // the default suite (bench/cases/suites.ts): fig4 × 7 (one level of each of the six families, and
    // penalty-strong), fig3-high × 2, fig9-flip-cloth, dam-break-sph and -flip
    assert.deepEqual(
      cases.map((c) => `${c.scene.id} ${c.handler}`).sort(),
      [
        "dam-break-flip merge-split",
        "dam-break-sph merge-split",
        "fig3-ball-cloth-high merge-split",
        "fig3-ball-cloth-high penalty-weak",
        "fig4-fluid-cloth akinci",
        "fig4-fluid-cloth impulse",
        "fig4-fluid-cloth kernel-repulsion-weak",
        "fig4-fluid-cloth merge-split",
        "fig4-fluid-cloth penalty-strong",
        "fig4-fluid-cloth penalty-weak",
        "fig4-fluid-cloth velocity-projection",
        "fig9-flip-cloth merge-split",
      ],
    );
    // every handler family the catalogue registers has a case in it (a new family joins it)
    const families = new Set(cases.map((c) => c.handler.replace(/-(weak|medium|strong)$/, "")));
    for (const h of HANDLERS.keys()) {
      if (/^(penalty|kernel-repulsion)$/.test(h)) continue; // the explicit-stiffness members
      assert.ok(families.has(h.replace(/-(weak|medium|strong)$/, "")), `family of ${h}`);
    }
    // claims: fig4 × 12 (akinci's three levels need its SPH fluid), fig10 × 3, fig3 at both
    // heights × 8 (merge-split and the figure's seven columns: claim k2), fig7-100,
    // fig9-flip-cloth and -peridynamics, dam-break-sph and -flip, fig5-wall's three of claim s;
    // Fig. 11 has its own; then the cases its sweeps expand (claims r, s): the penalty and
    // kernel-repulsion families at both heights of Fig. 3, Fig. 5's time steps; at three
    // seeds, the scene's, 7 and 99, as every suite that judges claims; then each variant on the
    // cases it changes (the ablation)
    const all = resolveCases({ scenes: [], handlers: [], scale: "tiny", suite: "claims" });
    const claims = all.filter((c) => c.setup === "paper");
    assert.equal(claims.filter((c) => c.scene.id === "fig4-fluid-cloth").length, 3 * 12);
    assert.equal(claims.length, 3 * (12 + 3 + 16 + 1 + 2 + 2 + 4 + 3));
    assert.ok(
      all.length > claims.length && all.every((c) =>
        c.handler === "merge-split" ||
        c.setup === "paper" || c.setup?.startsWith("flip-") === true ||
        (c.setup === "per-scene-levels" && c.scene.id.startsWith("fig3-") &&
          /^(penalty|kernel-repulsion)/.test(c.handler))
      ),
    );
    assert.deepEqual([...new Set(claims.map((c) => c.scene.seed))], [2021, 7, 99]);
    assert.ok(
      cases.every((c) => claims.some((d) => d.scene.id === c.scene.id && d.handler === c.handler)),
    );
    // fig11 and all run every case at three seeds (the scene's, 7, 99)
    const fig11 = resolveCases({ scenes: [], handlers: [], scale: "tiny", suite: "fig11" });
    assert.deepEqual(
      fig11.map((c) => [c.scene.id, c.handler, c.scene.duration, c.scene.seed]),
      [2021, 7, 99].flatMap((seed) =>
        ["inf", "32-64", "16-32", "8-16", "4-8"].map((t) => [
          `fig11-nlimit-${t}`,
          "merge-split",
          2,
          seed,
        ])
      ),
    );
    assert.equal(
      resolveCases({ scenes: [], handlers: [], scale: "tiny", suite: "all" }).length,
      // fig3 × 2, fig4 (and akinci's three levels), fig5, fig6, fig7 × 3, fig9 × 2 (FLIP: no akinci), fig10 and
      // fig11 (merge-split, velocity-projection), dam-break-sph and dam-break-flip (merge-split),
      // fig8 × 3 (SPH water meets cloth or solids: every handler, akinci's levels too)
      3 * (2 * 9 + 12 + 9 + 1 + 3 + 2 * 9 + 3 * 2 + 5 * 2 + 2 + 3 * 12),
    );
    assert.deepEqual(
      resolveCases({ scenes: [], handlers: [], scale: "tiny", suite: "table1" }).map((c) => [
        c.scene.id,
        c.handler,
      ]).sort(),
      [
        "fig6-wall",
        "fig8-cloth-tori",
        "fig8-dam-break-wall",
        "fig8-bowl",
        "fig9-flip-cloth",
        "fig9-flip-peridynamics",
      ].map((id) => [id, "merge-split"]).sort(),
    );
    assert.throws(
      () => resolveCases({ scenes: [], handlers: [], scale: "tiny", suite: "nope" }),
      /unknown suite "nope"; suites: default, claims, claims-medium, all, fig11, fractures, table1/,
    );
  });
  await t.step("comma lists, repeats and globs", () => {
    const o = parseBenchArgs([
      "--scene",
      "fig11-*",
      "--scene",
      "fig4-fluid-cloth",
      "--handler",
      "merge-split,penalty-*",
    ]);
    assert.deepEqual(o.scenes, ["fig11-*", "fig4-fluid-cloth"]);
    const cases = resolveCases({ scenes: o.scenes, handlers: o.handlers, scale: "tiny" });
    assert.equal(cases.length, 5 + 4);
    assert.ok(globMatch("fig1?-*", "fig10-alpha-beta-00"));
    assert.deepEqual(
      expand(["kernel-repulsion-*"], [
        "kernel-repulsion-weak",
        "impulse",
        "kernel-repulsion-strong",
      ], "handler"),
      [
        "kernel-repulsion-weak",
        "kernel-repulsion-strong",
      ],
    );
  });
  await t.step("--scale: a comma list or repeated flags make a sweep, smallest first", () => {
    assert.deepEqual(parseBenchArgs(["--scale", "tiny"]).scales, ["tiny"]);
    assert.deepEqual(parseBenchArgs(["--scale", "medium,tiny, small"]).scales, [
      "tiny",
      "small",
      "medium",
    ]);
    assert.deepEqual(
      parseBenchArgs(["--scale", "paper", "--scale", "small,tiny", "--scale", "small"]).scales,
      ["tiny", "small", "paper"],
      "repeated flags join, duplicates dropped",
    );
    assert.deepEqual(parseScales(undefined), ["small"]);
    assert.deepEqual(parseScales([]), ["small"]);
    assert.throws(
      () => parseBenchArgs(["--scale", "tiny,huge"]),
      (e) =>
        e instanceof UsageError &&
        e.message === '--scale must be one of tiny, small, medium, paper, got "huge"',
    );
    assert.throws(() => parseBenchArgs(["--scale", ","]), /--scale must be one of .*got ""/);
  });
  await t.step("a sweep runs every case at each scale, one scale after the other", () => {
    const one = resolveCases({ scenes: ["fig10-*"], handlers: [], scale: "tiny" });
    const cases = resolveCases({
      scenes: ["fig10-*"],
      handlers: [],
      scale: parseBenchArgs(["--scale", "small,tiny"]).scales,
    });
    assert.equal(cases.length, 2 * one.length);
    assert.deepEqual(
      cases.map((c) => c.scene.scale),
      [...one.map(() => "tiny"), ...one.map(() => "small")],
    );
    const label = (c: (typeof cases)[number]) => `${c.scene.id} × ${c.handler}`;
    assert.deepEqual(cases.slice(one.length).map(label), one.map(label), "the same cases");
    assert.ok(
      cases[one.length].scene.radius < cases[0].scene.radius,
      "small is finer than tiny",
    );
    assert.deepEqual(
      resolveCases({ scenes: ["fig10-*"], handlers: [], scale: ["tiny"] }).map(label),
      one.map(label),
      "a list of one scale is the single-scale matrix",
    );
    assert.throws(
      () => resolveCases({ scenes: ["fig10-*"], handlers: [], scale: [] }),
      /no scale given; scales: tiny, small, medium, paper/,
    );
  });
  await t.step("a scene file has its own scale: once in a sweep", () => {
    const dir = Deno.makeTempDirSync({ prefix: "mergesplit-cli-" });
    try {
      const file = `${dir}/dam.json`;
      Deno.writeTextFileSync(file, sceneToJson(getScene("dam-break-sph", { scale: "tiny" })));
      const cases = resolveCases({
        scenes: [file, "dam-break-sph"],
        handlers: [],
        scale: ["tiny", "small"],
      });
      assert.deepEqual(cases.map((c) => [c.sceneSource === file, c.scene.scale]), [
        [true, "tiny"],
        [false, "tiny"],
        [false, "small"],
      ]);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  });
  await t.step("unknown options, ids and bad values fail with the valid choices", () => {
    assert.throws(
      () => parseBenchArgs(["--sceen", "x"]),
      (e) => e instanceof UsageError && /sceen/.test(e.message),
    );
    assert.throws(
      () => parseBenchArgs(["--scale", "huge"]),
      /--scale must be one of tiny, small, medium, paper/,
    );
    assert.throws(
      () => parseBenchArgs(["--repeat", "0"]),
      /--repeat must be a decimal integer from 1 to 100, got "0"/,
    );
    assert.throws(
      () => parseBenchArgs(["--steps-per-submit", "65"]),
      /--steps-per-submit must be a decimal integer from 1 to 64, got "65"/,
    );
    assert.throws(() => parseBenchArgs(["--steps", "10", "--duration", "1"]), /not both/);
    assert.throws(() => parseBenchArgs(["--timeout", "-3"]), /--timeout/);
    assert.throws(
      () => resolveCases({ scenes: ["fig99"], handlers: [], scale: "tiny" }),
      /no scene matches "fig99"; valid scenes: .*fig4-fluid-cloth/,
    );
    assert.throws(
      () => resolveCases({ scenes: [], handlers: ["nope"], scale: "tiny" }),
      /valid handlers: merge-split, penalty-weak/,
    );
    assert.throws(
      () => resolveCases({ scenes: ["fig10-*"], handlers: ["impulse"], scale: "tiny" }),
      /no case to run/,
    );
    // a handler the scene lists but cannot run says why
    assert.throws(
      () => resolveCases({ scenes: ["fig9-flip-cloth"], handlers: ["akinci"], scale: "tiny" }),
      /no case to run: .*\(akinci on fig9-flip-cloth: .*integrated by "flip"\)/,
    );
  });
});

Deno.test("handler parameters and the coupling reading from the command line", async (t) => {
  const resolve = (args: string[]) => {
    const o = parseBenchArgs(args);
    return resolveCases({
      scenes: o.scenes,
      handlers: o.handlers,
      scale: "tiny",
      params: o.params,
      coupling: o.coupling,
    });
  };
  await t.step("--param overrides reach the case; --coupling too", () => {
    const o = parseBenchArgs([
      "--param",
      "merge-split.alpha=0.5",
      "--param",
      "merge-split.nMax=inf",
      "--coupling",
      "whole",
    ]);
    assert.deepEqual(o.params, { "merge-split": { alpha: 0.5, nMax: Infinity } });
    assert.equal(o.coupling, "whole");
    const cases = resolve([
      "--scene",
      "fig4-fluid-cloth",
      "--handler",
      "merge-split,impulse",
      "--param",
      "merge-split.alpha=0.5",
      "--coupling",
      "own-part",
    ]);
    // the paper's setup gives merge-split its index-order grouping and its merge order along the
    // colliding pairs, below --param
    assert.deepEqual(cases.map((c) => [c.handler, c.params, c.coupling]), [
      ["merge-split", { grouping: 0, mergeOrder: 0, alpha: 0.5 }, "own-part"],
      ["impulse", undefined, "own-part"],
    ]);
    // without --coupling, the setup's (the paper's: whole)
    assert.equal(parseBenchArgs([]).coupling, undefined);
  });
  await t.step("bad names and values name the valid ones (exit 2)", () => {
    assert.throws(() => parseBenchArgs(["--param", "alpha=1"]), UsageError);
    assert.throws(
      () => parseBenchArgs(["--param", "merge-split.alpha=x"]),
      /is not a decimal number/,
    );
    assert.throws(() => parseBenchArgs(["--coupling", "both"]), /own-part, whole/);
    assert.throws(
      () => resolve(["--param", "nope.alpha=1"]),
      (e: unknown) => e instanceof UsageError && /known: merge-split, penalty-weak/.test(e.message),
    );
    assert.throws(
      () => resolve(["--scene", "fig4-fluid-cloth", "--param", "merge-split.gamma=1"]),
      (e: unknown) =>
        e instanceof UsageError && /valid names: alpha, beta, nMin, nMax/.test(e.message),
    );
    assert.throws(
      () => resolve(["--scene", "fig4-fluid-cloth", "--param", "merge-split.alpha=2"]),
      (e: unknown) => e instanceof UsageError && /alpha: must be <= 1, got 2/.test(e.message),
    );
  });
});

Deno.test("--variant: the paper's setup, then each variant once", () => {
  assert.deepEqual(parseVariants([]), ["paper"]);
  assert.deepEqual(parseVariants(["warm-stage-2,compact-grouping", "warm-stage-2"]), [
    "paper",
    "warm-stage-2",
    "compact-grouping",
  ]);
  assert.deepEqual(parseVariants(["all"]), ["paper", ...VARIANTS.map((v) => v.id)]);
  assert.throws(
    () => parseVariants(["nope"]),
    /unknown variant "nope"; variants: compact-grouping/,
  );
  assert.deepEqual(parseBenchArgs(["--variant", "all"]).setups?.length, 1 + VARIANTS.length);
  assert.deepEqual(parseVariants(["none"]), ["paper"]);
  assert.equal(parseBenchArgs([]).setups, undefined, "the suite's");
  assert.equal(parseBenchArgs([]).coupling, undefined);
});

Deno.test("a suite's own scale without --scale (claims-medium)", () => {
  assert.deepEqual(parseBenchArgs(["--suite", "claims-medium"]).scales, ["medium"]);
  assert.deepEqual(parseBenchArgs(["--suite", "claims-medium", "--scale", "small"]).scales, [
    "small",
  ]);
  assert.deepEqual(parseBenchArgs(["--suite", "claims"]).scales, ["small"]);
});

/** A one-line usage error whose message matches `re`. */
const usageLine = (re: RegExp) => (e: unknown) =>
  e instanceof UsageError && re.test(e.message) && !e.message.includes("\n");

Deno.test("one number grammar: decimal, inf and -inf alike, no hex, in every option", () => {
  const hex: [string, string][] = [
    ["--param", "merge-split.alpha=0x1"],
    ["--timeout", "0x10"],
    ["--duration", "0x1"],
    ["--sweep", "scene.dt=0x1"],
    ["--sweep", "scene.dt=0x1..0x10:2"],
    ["--steps", "0x10"],
    ["--param", "merge-split.alpha=1_0"],
  ];
  for (const args of hex) assert.throws(() => parseBenchArgs(args), UsageError, args.join(" "));
  const inf = parseBenchArgs(["--param", "merge-split.nMax=inf"]).params["merge-split"].nMax;
  const minus = parseBenchArgs(["--param", "merge-split.nMax=-inf"]).params["merge-split"].nMax;
  assert.deepEqual([inf, minus], [Infinity, -Infinity], "-inf reads as inf does");
  assert.equal(parseBenchArgs(["--timeout", "1.5e2"]).timeout, 150);
  assert.equal(
    parseBenchArgs(["--param", "merge-split.alpha=.5"]).params["merge-split"].alpha,
    0.5,
  );
});

Deno.test("control characters in ids and other values are refused, shown escaped", () => {
  for (
    const [option, value] of [["--scene", "fig4\u202e"], ["--handler", "x\nok"], [
      "--out",
      "a\x1bb",
    ]]
  ) {
    assert.throws(
      () => parseBenchArgs([option, value]),
      usageLine(new RegExp(`^${option} value ".*\\\\(u\\{202e\\}|n|u\\{1b\\})`)),
      option,
    );
  }
  assert.throws(
    () => parseBenchArgs(["--scene=\u2066x"]),
    usageLine(/^argument "--scene=\\u\{2066\}x"/),
  );
});

Deno.test("--verify re-runs cases as recorded: options it would ignore are refused", () => {
  for (
    const extra of [["--scene", "fig4-fluid-cloth"], ["--steps", "10"], ["--out", "x"], [
      "--repeat",
      "2",
    ]]
  ) {
    assert.throws(
      () => parseBenchArgs(["--verify", "r.jsonl", ...extra]),
      usageLine(new RegExp(`^${extra[0]} cannot be given with --verify`)),
      extra[0],
    );
  }
  assert.equal(parseBenchArgs(["--verify", "r.jsonl", "--adapter", "gl"]).adapter, "gl");
});

Deno.test("a shard with no case (more shards than cases) is refused, not an empty run", () => {
  checkShardFits(null, 0);
  checkShardFits({ index: 3, count: 4 }, 3);
  assert.throws(
    () => checkShardFits({ index: 4, count: 4 }, 3),
    usageLine(
      /^--shard 4\/4: this shard is empty: the run has 3 case\(s\), fewer than its 4 shards/,
    ),
  );
});

Deno.test("--sweep scene.dt: a swept scene passes the checks a scene file passes", () => {
  const cases = resolveCases({
    scenes: ["fig4-fluid-cloth"],
    handlers: ["merge-split"],
    scale: "small",
  });
  const dt = (v: string) => parseBenchArgs(["--sweep", `scene.dt=${v}`]).sweeps;
  assert.throws(
    () => expandSweeps(cases, dt("1")),
    usageLine(/^--sweep scene\.dt=1: fig4-fluid-cloth at scale small fails .*scene\.dt: 1 s moves/),
  );
  assert.throws(() => expandSweeps(cases, dt("1e-9")), usageLine(/scene\.duration: .* steps/));
  const ok = cases[0].scene.dt;
  assert.deepEqual(expandSweeps(cases, dt(`${ok},${ok * 4}`)).map((c) => c.scene.dt), [ok, ok * 4]);
});

Deno.test("names of an object's prototype are no suite, parameter or value (the fuzz's finds)", () => {
  const plan = (...args: string[]) => () =>
    expandSweeps(
      resolveCases({ scenes: ["fig4-fluid-cloth"], handlers: ["merge-split"], scale: "tiny" }),
      parseBenchArgs(args).sweeps,
    );
  assert.throws(
    () => resolveCases({ scenes: [], handlers: [], scale: "tiny", suite: "constructor" }),
    /unknown suite "constructor"; suites: default/,
  );
  for (const name of ["__proto__", "constructor", "toString"]) {
    assert.throws(
      () =>
        resolveCases({
          scenes: ["fig4-fluid-cloth"],
          handlers: ["merge-split"],
          scale: "tiny",
          params: parseBenchArgs(["--param", `merge-split.${name}=1`]).params,
        }),
      usageLine(new RegExp(`${name}: unknown override parameter; valid names: alpha`)),
      name,
    );
  }
  assert.throws(
    plan("--sweep", "scene.speed=1e-300"),
    usageLine(/cannot be built so: impactSpeed/),
  );
  assert.throws(plan("--sweep", "scene.dt=1e-3..1e-3:5"), usageLine(/a value is listed twice/));
});
