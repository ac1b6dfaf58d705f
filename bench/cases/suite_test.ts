import assert from "node:assert/strict";
import { VARIANTS } from "../../core/setups.ts";
import { getScene } from "../../scenes/catalog.ts";
import { sceneToJson } from "../../core/scene/scene.ts";
import { loadSceneFile, resolveCases, SceneFileError, UsageError } from "./suite.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** The bad scene files of issue 23: a change to the tiny fig4-fluid-cloth, the field it breaks. */
// deno-lint-ignore no-explicit-any
const BAD: ReadonlyArray<readonly [string, (s: Record<string, any>) => void, RegExp]> = [
  [
    "unknown body system",
    (s) => (s.bodies[1].system = "nope"),
    /: scene\.bodies\[1\]\.system: unknown system "nope"; known systems: mass-spring, peridynamics, sph, flip/,
  ],
  [
    "unknown systems name",
    (s) => (s.systems.nope = { x: 1 }),
    /: scene\.systems\["nope"\]: unknown system "nope"; known systems: mass-spring, /,
  ],
  [
    "unknown system parameter",
    (s) => (s.systems.sph.rh0 = 1000),
    /: scene\.systems\["sph"\]\.rh0: unknown parameter of system "sph"; did you mean "rho0"\?; its parameters: h, rho0, /,
  ],
  [
    "rho0: 0",
    (s) => (s.systems.sph.rho0 = 0),
    /: scene\.systems\["sph"\]\.rho0: must be > 0, got 0 \(sph: rest density/,
  ],
  ["h: -1", (s) => (s.systems.sph.h = -1), /: scene\.systems\["sph"\]\.h: must be > 0, got -1 /],
  [
    "negative stiffness",
    (s) => (s.systems.sph.stiffness = -1e5),
    /: scene\.systems\["sph"\]\.stiffness: must be > 0, got -100000 /,
  ],
  [
    "NaN (a string in JSON)",
    (s) => (s.systems["mass-spring"].drag = "NaN"),
    /: scene\.systems\["mass-spring"\]\.drag: must be a number, got "NaN"/,
  ],
  [
    "fluid spacing 1e-5",
    (s) => (s.bodies[1].spacing = 1e-5),
    /: scene\.bodies\[1\]\.spacing: scene fig4-fluid-cloth: about 9\.42e\+12 particles .*, more than this machine's [\d.]+ GiB and the harness's limit of 44,739,242 particles; raise bodies\[1\]\.spacing or shrink the body$/,
  ],
  [
    "domain 1e308",
    (s) => (s.domain.max = [1e308, 1e308, 1e308]),
    /: scene\.domain\.max: \[1e\+308, 1e\+308, 1e\+308\] lies beyond ±3\.40e\+38 m, the range of the f32 positions the GPU keeps; /,
  ],
];

/** Writes the tiny fig4-fluid-cloth changed by `mutate` to a file in `dir`; returns its path. */
function sceneFile(
  dir: string,
  // deno-lint-ignore no-explicit-any
  options: { name: string; mutate?: (s: Record<string, any>) => void },
): string {
  const { name, mutate = () => {} } = options;
  const scene = JSON.parse(sceneToJson(getScene("fig4-fluid-cloth", { scale: "tiny" })));
  mutate(scene);
  const path = `${dir}/${name.replace(/\W+/g, "-")}.json`;
  Deno.writeTextFileSync(path, JSON.stringify(scene));
  return path;
}

Deno.test("loadSceneFile and resolveCases reject bad systems and oversized scenes", async (t) => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-suite-" });
  try {
    const good = sceneFile(dir, { name: "good" });
    assert.equal(loadSceneFile(good).id, "fig4-fluid-cloth");
    assert.ok(resolveCases({ scenes: [good], handlers: ["merge-split"], scale: "tiny" }).length);
    for (const [name, mutate, message] of BAD) {
      await t.step(name, () => check(sceneFile(dir, { name, mutate }), { name, message }));
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** Asserts that the scene file at `path` is rejected, by both loaders, with `message`. */
function check(path: string, expected: { name: string; message: RegExp }): void {
  const { name, message } = expected;
  const t0 = performance.now();
  const loaders = [
    () => loadSceneFile(path),
    () => resolveCases({ scenes: [path], handlers: [], scale: "tiny" }),
  ];
  for (const load of loaders) {
    assert.throws(
      load,
      (e: unknown) =>
        e instanceof SceneFileError && e.message.startsWith(`scene file ${path}: scene.`) &&
        message.test(e.message),
      `${name}: expected ${message}`,
    );
  }
  assert.ok(performance.now() - t0 < 2000, `${name}: rejected before anything is built`);
}

Deno.test("loadSceneFile: the machine's memory can be given", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-suite-" });
  try {
    const path = sceneFile(dir, { name: "good" });
    assert.throws(
      () => loadSceneFile(path, { memoryBytes: 2 ** 20 }),
      /^SceneFileError: scene file .*: scene\.bodies\[\d\]\.\w+: scene fig4-fluid-cloth: about \d+ particles.* more than this machine's 0\.000977 GiB; /,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "bench/main.ts: a scene file too big to build exits 2 at once, one line, nothing written",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = Deno.makeTempDirSync({ prefix: "mergesplit-suite-" });
    try {
      const path = sceneFile(dir, {
        name: "spacing",
        mutate: (s) => (s.bodies[1].spacing = 1e-5),
      });
      const t0 = performance.now();
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", MAIN, "--scene", path, "--out", `${dir}/out`],
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).output();
      const seconds = (performance.now() - t0) / 1000;
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 2, stderr);
      const lines = stderr.split("\n").filter((l) => l.trim());
      assert.equal(lines.length, 1, stderr);
      assert.match(
        lines[0],
        /^mergesplit bench: scene file .*spacing\.json: scene\.bodies\[1\]\.spacing: scene fig4-fluid-cloth: about 9\.42e\+12 particles/,
      );
      assert.equal(new TextDecoder().decode(out.stdout), "");
      assert.throws(() => Deno.statSync(`${dir}/out`), "nothing written");
      assert.ok(seconds < 20, `${seconds} s`);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test("a catalogue scene too big for the machine is a usage error before anything is built", () => {
  const cases = () =>
    resolveCases({
      scenes: ["fig8-bowl"],
      handlers: ["merge-split"],
      scale: "paper",
      memoryBytes: 4 * 2 ** 30,
    });
  assert.throws(cases, (e: unknown) => {
    assert.ok(e instanceof UsageError);
    assert.match(
      e.message,
      /^fig8-bowl at scale paper: about 6\.5\de\+6 particles.*more than this machine's 4 GiB; run a smaller --scale$/,
    );
    return true;
  });
  // the same scene at small, and at paper on a machine with the memory
  resolveCases({ scenes: ["fig8-bowl"], handlers: [], scale: "small", memoryBytes: 4 * 2 ** 30 });
  resolveCases({ scenes: ["fig8-bowl"], handlers: [], scale: "paper", memoryBytes: 64 * 2 ** 30 });
});

Deno.test("seeds: the suites that judge claims run every case at three seeds", () => {
  const key = (c: { scene: { id: string; seed: number }; handler: string }) =>
    `${c.scene.id} ${c.handler} ${c.scene.seed}`;
  const fig11 = resolveCases({ scenes: [], handlers: [], scale: "tiny", suite: "fig11" });
  const once = resolveCases({ scenes: ["fig11-*"], handlers: ["merge-split"], scale: "tiny" });
  assert.equal(fig11.length, 3 * once.length);
  // whole seeds in order: the scene's own, then 7, then 99
  assert.deepEqual(fig11.map(key), [
    ...once.map(key),
    ...once.map((c) => key({ ...c, scene: { ...c.scene, seed: 7 } })),
    ...once.map((c) => key({ ...c, scene: { ...c.scene, seed: 99 } })),
  ]);
  assert.ok(once.every((c) => c.scene.seed === 2021));
  // --seed overrides the suite's; the default suite runs the scene's seed alone
  const one = resolveCases({ scenes: [], handlers: [], scale: "tiny", suite: "fig11", seeds: [5] });
  assert.deepEqual(one.map(key), once.map((c) => key({ ...c, scene: { ...c.scene, seed: 5 } })));
  const first = resolveCases({ scenes: [], handlers: [], scale: "tiny" });
  assert.ok(first.every((c) => c.scene.seed === 2021));
  // the claims suite too runs three, and --seed scene one
  const claims = resolveCases({ scenes: [], handlers: [], scale: "tiny", suite: "claims" });
  const claimsOnce = resolveCases({
    scenes: [],
    handlers: [],
    scale: "tiny",
    suite: "claims",
    seeds: ["scene"],
  });
  assert.equal(claims.length, 3 * claimsOnce.length);
  assert.ok(claimsOnce.every((c) => c.scene.seed === 2021));
  assert.throws(
    () => resolveCases({ scenes: [], handlers: [], scale: "tiny", seeds: [] }),
    UsageError,
  );
});

Deno.test("resolveCases: every case under the paper's setup, variants on request", async (t) => {
  const fig9 = (setups?: string[], params?: Record<string, Record<string, number>>) =>
    resolveCases({
      scenes: ["fig9-flip-cloth"],
      handlers: ["merge-split"],
      scale: "tiny",
      ...(setups ? { setups } : {}),
      ...(params ? { params } : {}),
    });
  await t.step("by default the paper's choices", () => {
    const [c] = fig9();
    assert.equal(c.setup, "paper");
    assert.equal(c.coupling, "whole");
    assert.equal(c.handlerParams.grouping, 0); // index-order
    assert.equal(c.scene.systems["mass-spring"].warmStart, 0);
    assert.equal(c.scene.systems.flip.densityIterations, 0);
  });
  await t.step("a variant runs each case again with its one change", () => {
    const cases = fig9(["paper", "flip-density-correction", "compact-grouping"]);
    assert.deepEqual(cases.map((c) => c.setup), [
      "paper",
      "flip-density-correction",
      "compact-grouping",
    ]);
    assert.equal(cases[1].scene.systems.flip.densityIterations, 1);
    assert.equal(cases[1].handlerParams.grouping, 0);
    assert.equal(cases[2].handlerParams.grouping, 1);
    assert.equal(cases[2].scene.systems.flip.densityIterations, 0);
  });
  await t.step("the claims suites run every variant on the cases it changes", () => {
    const claims = (setups?: string[]) =>
      resolveCases({
        scenes: [],
        handlers: [],
        scale: "small",
        suite: "claims",
        seeds: ["scene"],
        ...(setups ? { setups } : {}),
      });
    const all = claims();
    const paper = all.filter((c) => c.setup === "paper");
    assert.deepEqual(claims(["paper"]).map((c) => `${c.scene.id} ${c.handler}`), [
      ...paper.map((c) => `${c.scene.id} ${c.handler}`),
    ]);
    for (const v of VARIANTS) {
      const cases = all.filter((c) => c.setup === v.id);
      assert.ok(cases.length > 0, `${v.id} runs`);
      assert.ok(cases.length < paper.length, `${v.id} skips the cases it does not change`);
    }
    assert.ok(
      all.filter((c) => c.setup === "compact-grouping").every((c) => c.handler === "merge-split"),
    );
  });
  await t.step("--param wins over the setup", () => {
    const [c] = fig9(undefined, { "merge-split": { grouping: 1 } });
    assert.equal(c.handlerParams.grouping, 1);
  });
  await t.step("an unknown variant is a usage error naming the valid ones", () => {
    assert.throws(() => fig9(["paper", "warm"]), /unknown setup "warm"; setups: paper, /);
  });
});

Deno.test("loadSceneFile: only a regular file within 16 MiB is read", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-suite-" });
  try {
    const refused = (path: string, why: RegExp) => {
      const t0 = performance.now();
      assert.throws(
        () => loadSceneFile(path),
        (e: unknown) => e instanceof SceneFileError && why.test(e.message),
        `${path}: expected ${why}`,
      );
      assert.ok(performance.now() - t0 < 2000, `${path}: refused at once`);
    };
    refused(
      "/dev/zero",
      /^scene file \/dev\/zero: is a character device, not a regular file; pass the path of a scene file \(`deno task scene` writes one\)$/,
    );
    refused(dir, /^scene file .*: is a directory, not a regular file/);
    const big = `${dir}/big.json`;
    Deno.writeTextFileSync(big, " ".repeat(16 * 2 ** 20) + "{}");
    refused(
      big,
      /^scene file .*big\.json: is longer than the limit of 16 MiB \(16 MiB\); pass the path of a scene file/,
    );
    refused(`${dir}/missing.json`, /^scene file .*: cannot be read \(No such file/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("loadSceneFile: a misspelt key is an error naming the nearest valid key", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-suite-" });
  try {
    check(sceneFile(dir, { name: "durationn", mutate: (s) => (s.durationn = 9) }), {
      name: "durationn",
      message: /scene\.durationn: unknown key; did you mean "duration"\?/,
    });
    check(sceneFile(dir, { name: "velocty", mutate: (s) => (s.bodies[1].velocty = [0, 9, 0]) }), {
      name: "velocty",
      message: /scene\.bodies\[1\]\.velocty: unknown key; did you mean "velocity"\?/,
    });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
