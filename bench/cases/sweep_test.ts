import assert from "node:assert/strict";
import { PAPER_SETUP, sceneUnder } from "../../core/setups.ts";
import { getScene } from "../../scenes/catalog.ts";
import { HANDLERS } from "../../gpu/handlers/registry.ts";
import { resolveCases, UsageError } from "./suite.ts";
import {
  expandSweeps,
  MAX_CASES,
  parseSweep,
  suiteSweeps,
  sweepValues,
  sweptCaseCount,
} from "./sweep.ts";
import { getSuite } from "./suites.ts";

const known = { knownHandlers: [...HANDLERS.keys()] };

Deno.test("parameter sweeps", async (t) => {
  await t.step("a..b:n is log-spaced with exact ends; a list keeps its order", () => {
    assert.deepEqual(sweepValues("1e2..1e6:5"), [100, 1000, 10000, 100000, 1e6]);
    const v = sweepValues("1e-4..4e-3:3");
    assert.equal(v[0], 1e-4);
    assert.equal(v[2], 4e-3);
    assert.ok(Math.abs(v[1] - Math.sqrt(1e-4 * 4e-3)) < 1e-9);
    assert.deepEqual(sweepValues("3, 1,2"), [3, 1, 2]);
    assert.deepEqual(sweepValues("5..50:1"), [5]);
  });

  await t.step("bad values say what is wrong", () => {
    assert.throws(() => sweepValues("0..10:3"), /finite a, b > 0/);
    assert.throws(() => sweepValues("1..10:0"), /count n of a..b:n must be 1..1000/);
    assert.throws(() => sweepValues("1,x"), /a..b:n \(log-spaced\) or a comma list/);
    assert.throws(() => sweepValues("1,1"), /listed twice/);
  });

  await t.step("targets: a known handler's parameter or scene.dt", () => {
    assert.deepEqual(parseSweep("penalty.stiffness=1,2", known).target, {
      kind: "handler",
      handler: "penalty",
      param: "stiffness",
    });
    assert.equal(parseSweep("scene.dt=1e-4,2e-4", known).key, "scene.dt");
    assert.throws(() => parseSweep("nope.stiffness=1", known), /unknown handler "nope"; known: /);
    assert.throws(() => parseSweep("scene.gravity=1", known), /one of dt/);
    assert.throws(() => parseSweep("scene.dt=-1,1", known), /every value must be > 0/);
    assert.throws(() => parseSweep("stiffness", known), /<handler>.<param>=<values>/);
  });

  await t.step("the family id runs only when named; * and globs leave it out", () => {
    const all = resolveCases({ scenes: ["fig4-fluid-cloth"], handlers: [], scale: "tiny" });
    assert.ok(!all.some((c) => c.handler === "penalty" || c.handler === "kernel-repulsion"));
    const glob = resolveCases({
      scenes: ["fig4-fluid-cloth"],
      handlers: ["penalty*"],
      scale: "tiny",
    });
    assert.deepEqual(glob.map((c) => c.handler), [
      "penalty-weak",
      "penalty-medium",
      "penalty-strong",
    ]);
    const named = resolveCases({
      scenes: ["fig4-fluid-cloth"],
      handlers: ["penalty"],
      scale: "tiny",
    });
    assert.deepEqual(named.map((c) => c.handler), ["penalty"]);
  });

  await t.step("a handler sweep multiplies its handler's cases; scene.dt every case", () => {
    const base = resolveCases({
      scenes: ["fig4-fluid-cloth"],
      handlers: ["merge-split", "penalty"],
      scale: "tiny",
    });
    const cases = expandSweeps(base, [
      parseSweep("penalty.stiffness=10,100,1000", known),
      parseSweep("scene.dt=1e-4,2e-4", known),
    ]);
    // merge-split × 2 dt, penalty × 3 stiffness × 2 dt
    assert.equal(cases.length, 2 + 6);
    const ms = cases.filter((c) => c.handler === "merge-split");
    assert.deepEqual(ms.map((c) => [c.sweep, c.scene.dt]), [
      [{ "scene.dt": 1e-4 }, 1e-4],
      [{ "scene.dt": 2e-4 }, 2e-4],
    ]);
    const pen = cases.filter((c) => c.handler === "penalty");
    assert.deepEqual(pen.map((c) => c.params?.stiffness), [10, 10, 100, 100, 1000, 1000]);
    assert.deepEqual(pen[3].sweep, { "penalty.stiffness": 100, "scene.dt": 2e-4 });
    const tinyDt = getScene("fig4-fluid-cloth", { scale: "tiny" }).dt;
    assert.ok(base.every((c) => c.scene.dt === tinyDt), "the resolved cases are not changed");
  });

  await t.step("scene.speed rebuilds the catalogue scene at each impact speed, first", () => {
    const base = resolveCases({
      scenes: ["fig3-ball-cloth-low"],
      handlers: ["penalty"],
      scale: "tiny",
      seeds: [7],
    });
    // given after the dt sweep, the speed still applies first: every case keeps its dt value
    const cases = expandSweeps(base, [
      parseSweep("scene.dt=1e-3", known),
      parseSweep("scene.speed=1,2", known),
      parseSweep("penalty.stiffness=10,100", known),
    ]);
    assert.equal(cases.length, 4);
    assert.deepEqual(cases.map((c) => c.sweep), [
      { "scene.speed": 1, "scene.dt": 1e-3, "penalty.stiffness": 10 },
      { "scene.speed": 1, "scene.dt": 1e-3, "penalty.stiffness": 100 },
      { "scene.speed": 2, "scene.dt": 1e-3, "penalty.stiffness": 10 },
      { "scene.speed": 2, "scene.dt": 1e-3, "penalty.stiffness": 100 },
    ]);
    for (const c of cases) {
      assert.equal(c.scene.dt, 1e-3);
      assert.equal(c.scene.seed, 7, "the --seed override is kept");
      const want = getScene("fig3-ball-cloth-low", {
        scale: "tiny",
        speed: c.sweep!["scene.speed"],
      });
      assert.deepEqual(c.scene.bodies, want.bodies, "the ball dropped from v²/2g");
      assert.deepEqual(c.scene.cfl, want.cfl);
    }
    // the drop height that gives the speed: the ball's centre rises with v²
    const y = (v: number) => {
      const ball = getScene("fig3-ball-cloth-low", { scale: "tiny", speed: v }).bodies[1];
      return ball.kind === "solid" && ball.shape.type === "sphere" ? ball.shape.center[1] : NaN;
    };
    assert.ok(Math.abs(y(2) - y(1) - (4 - 1) / (2 * 9.81)) < 1e-12);
    // a scene without an impact speed, or a scene file, is a usage error naming it
    const wall = resolveCases({ scenes: ["fig5-wall"], handlers: ["merge-split"], scale: "tiny" });
    assert.throws(
      () => expandSweeps(wall, [parseSweep("scene.speed=1,2", known)]),
      (e) =>
        e instanceof UsageError && /"fig5-wall" \(catalog\) has no impact speed/.test(e.message),
    );
    const file = base.map((c) => ({ ...c, sceneSource: "my.json" }));
    assert.throws(() => expandSweeps(file, [parseSweep("scene.speed=1", known)]), /\(my\.json\)/);
  });

  await t.step("impact speeds of the fluid scenes: from the fluid's initial speed", () => {
    const at = (v: number) => getScene("fig4-fluid-cloth", { scale: "tiny", speed: v });
    const fluid = at(4).bodies.find((b) => b.kind === "fluid")!;
    // the column's top (0.35 m above the cloth) arrives at 4 m/s: v0² = 16 − 2 g 0.35
    assert.ok(Math.abs(fluid.velocity[1] + Math.sqrt(16 - 2 * 9.81 * 0.35)) < 1e-12);
    assert.ok(at(4).cfl.referenceSpeed > at(3).cfl.referenceSpeed);
    assert.throws(
      () => at(2),
      /impactSpeed: .* reaches the cloth at 2\.620 m\/s falling from rest/,
    );
    assert.throws(
      () => getScene("dam-break-sph", { scale: "tiny", speed: 1 }),
      /has no impact speed to set; scenes with one: fig3-ball-cloth-low/,
    );
    assert.throws(
      () => getScene("fig4-fluid-cloth", { scale: "tiny", speed: -1 }),
      /speed: must be/,
    );
  });

  await t.step(
    "scene.soundSpeedFactor rebuilds the SPH water with c = max(F·v_ref, √(F·g·H))",
    () => {
      const base = resolveCases({
        scenes: ["fig4-fluid-cloth", "dam-break-sph"],
        handlers: ["merge-split"],
        scale: "tiny",
        seeds: [7],
      });
      const cases = expandSweeps(base, [parseSweep("scene.soundSpeedFactor=10,33", known)]);
      assert.equal(cases.length, 4);
      const v = (id: string) => getScene(id, { scale: "tiny" }).cfl.referenceSpeed;
      for (const c of cases) {
        const f = c.sweep!["scene.soundSpeedFactor"];
        const sph = c.scene.systems.sph as { stiffness: number; rho0: number };
        // linear state equation: k = ρ0 c², and c = F·v_ref where the impact binds (these scenes)
        const cs = Math.sqrt(sph.stiffness / sph.rho0);
        assert.ok(Math.abs(cs / (f * v(c.scene.id)) - 1) < 1e-12, `${c.scene.id} at F = ${f}`);
        assert.equal(c.scene.seed, 7);
      }
      const [f10, f33] = cases.filter((c) => c.scene.id === "fig4-fluid-cloth");
      // the catalogue's F, under the paper's setup (its system parameters set again on the rebuild)
      assert.deepEqual(
        f10.scene,
        sceneUnder({ ...getScene("fig4-fluid-cloth", { scale: "tiny" }), seed: 7 }, PAPER_SETUP),
      );
      assert.ok(f33.scene.dt < f10.scene.dt / 2, "the SPH limit follows c");
      const akinci = (c: typeof f10) =>
        (c.scene.handlers.akinci as { soundSpeed: number }).soundSpeed;
      assert.ok(Math.abs(akinci(f33) / akinci(f10) - 3.3) < 1e-12, "Akinci's coupling takes c");
      // with a speed too: one rebuild at both, whatever the order given
      const fig4 = resolveCases({
        scenes: ["fig4-fluid-cloth"],
        handlers: ["merge-split"],
        scale: "tiny",
      });
      const both = expandSweeps(fig4, [
        parseSweep("scene.soundSpeedFactor=33", known),
        parseSweep("scene.speed=4", known),
      ]);
      assert.deepEqual(
        both[0].scene,
        sceneUnder(
          getScene("fig4-fluid-cloth", { scale: "tiny", speed: 4, soundSpeedFactor: 33 }),
          PAPER_SETUP,
        ),
      );
      // FLIP, a solid scene or a scene file: a usage error naming it; F ≤ 1 refused at parsing
      for (const id of ["fig9-flip-cloth", "fig3-ball-cloth-low", "dam-break-flip"]) {
        const other = resolveCases({ scenes: [id], handlers: ["merge-split"], scale: "tiny" });
        assert.throws(
          () => expandSweeps(other, [parseSweep("scene.soundSpeedFactor=20", known)]),
          (e) =>
            e instanceof UsageError &&
            new RegExp(`"${id}" \\(catalog\\) has no SPH water`).test(e.message),
        );
      }
      const file = fig4.map((c) => ({ ...c, sceneSource: "my.json" }));
      assert.throws(
        () => expandSweeps(file, [parseSweep("scene.soundSpeedFactor=20", known)]),
        /\(my\.json\)/,
      );
      assert.throws(() => parseSweep("scene.soundSpeedFactor=1,10", known), /must be > 1/);
      assert.throws(
        () => getScene("fig9-flip-cloth", { scale: "tiny", soundSpeedFactor: 20 }),
        /no SPH water/,
      );
      assert.throws(
        () => getScene("dam-break-sph", { scale: "tiny", soundSpeedFactor: 0.5 }),
        /soundSpeedFactor: must be a finite number > 1/,
      );
    },
  );

  await t.step("a sweep of a handler no case runs, or given twice, is a usage error", () => {
    const base = resolveCases({
      scenes: ["fig4-fluid-cloth"],
      handlers: ["merge-split"],
      scale: "tiny",
    });
    assert.throws(
      () => expandSweeps(base, [parseSweep("penalty.stiffness=1,2", known)]),
      (e) => e instanceof UsageError && /add --handler penalty/.test(e.message),
    );
    const dt = parseSweep("scene.dt=1e-4", known);
    assert.throws(() => expandSweeps(base, [dt, dt]), /given twice/);
  });
});

Deno.test("a suite's sweeps: claims (r) and (s) in the claims suite", () => {
  const known = { knownHandlers: [...HANDLERS.keys()] };
  const suite = getSuite("claims");
  const resolved = resolveCases({
    scenes: [],
    handlers: [],
    scale: "small",
    suite: "claims",
    seeds: ["scene"],
    setups: ["paper"],
  });
  const cases = suiteSweeps(resolved, suite, known);
  const of = (scene: string, handler: string) =>
    cases.filter((c) => c.scene.id === scene && c.handler === handler);
  // the same absolute stiffnesses at both heights
  const low = of("fig3-ball-cloth-low", "penalty").map((c) => c.handlerParams.stiffness);
  const high = of("fig3-ball-cloth-high", "penalty").map((c) => c.handlerParams.stiffness);
  assert.equal(low.length, 7);
  assert.deepEqual(low, high);
  assert.equal(low[0], 1);
  assert.equal(low[6], 1e6);
  // merge-split on the high drop once plain (claims k, f, g…); on Fig. 5's wall once per swept
  // time step (s), a decade either side of its own 0.281 ms
  assert.equal(of("fig3-ball-cloth-high", "merge-split").filter((c) => !c.sweep).length, 1);
  const ms = of("fig5-wall", "merge-split");
  const dts = ms.map((c) => c.sweep?.["scene.dt"]);
  assert.equal(dts.length, 5);
  assert.ok(dts[0]! < 2.81e-4 / 9.9 && dts[4]! > 2.81e-4 * 9.9, `${dts}`);
  // the family ids run only where an entry names them: not on Fig. 4 (whose entry says "*")
  assert.equal(of("fig4-fluid-cloth", "penalty").length, 0);
  // a suite without sweeps is left as it is
  const plain = resolveCases({ scenes: [], handlers: [], scale: "small", suite: "default" });
  assert.deepEqual(suiteSweeps(plain, getSuite("default"), known), plain);
});

Deno.test("the sweeps' product is capped before a case is made (three sweeps of 1,000 values)", () => {
  const known = { knownHandlers: [...HANDLERS.keys()] };
  const cases = resolveCases({
    scenes: ["fig4-fluid-cloth"],
    handlers: ["penalty"],
    scale: "tiny",
  });
  const sweeps = [
    parseSweep("penalty.stiffness=1..1e6:1000", known),
    parseSweep("scene.dt=1e-5..1e-3:1000", known),
    parseSweep("scene.speed=1..10:1000", known),
  ];
  assert.equal(sweptCaseCount(cases, sweeps), 1e9);
  const t0 = performance.now();
  assert.throws(
    () => expandSweeps(cases, sweeps),
    (e: unknown) =>
      e instanceof UsageError && !e.message.includes("\n") &&
      e.message.startsWith(
        "the sweeps (penalty.stiffness: 1000 values, scene.dt: 1000 values, scene.speed: 1000 " +
          "values) over 1 cases make 1,000,000,000 cases, more than 10,000 per run;",
      ),
  );
  assert.ok(performance.now() - t0 < 1000, "refused at once, nothing expanded");
  // below the cap the cases are made
  const two = [parseSweep("penalty.stiffness=1..1e6:100", known)];
  assert.equal(expandSweeps(cases, two).length, 100);
  assert.equal(MAX_CASES, 10_000);
});
