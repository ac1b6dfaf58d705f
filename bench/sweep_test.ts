import assert from "node:assert/strict";
import { getScene } from "../scenes/catalog.ts";
import { HANDLERS } from "../gpu/handlers/registry.ts";
import { resolveCases, UsageError } from "./suite.ts";
import { expandSweeps, parseSweep, sweepValues } from "./sweep.ts";

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
