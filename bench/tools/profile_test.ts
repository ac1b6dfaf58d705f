// run_tests: one implementation (the profile command; the kernel profiler itself runs on each)
import assert from "node:assert/strict";
import { getScene } from "../../scenes/catalog.ts";
import { Engine } from "../../gpu/engine.ts";
import { acquireGpu } from "../../gpu/runtime/device.ts";
import { KernelProfiler } from "../../gpu/runtime/kernel_profiler.ts";
import { parseProfileArgs, profileCase, profileTable } from "./profile.ts";

Deno.test("deno task profile", async (t) => {
  await t.step("arguments: defaults, and errors that name the bad one", () => {
    const o = parseProfileArgs(["--scene", "fig4-fluid-cloth"]);
    assert.deepEqual(
      [o.handler, o.scale, o.steps, o.warmup, o.adapter, o.top],
      ["merge-split", "small", 30, 5, "default", 40],
    );
    assert.throws(() => parseProfileArgs([]), /--scene is required/);
    assert.throws(() => parseProfileArgs(["--scene", "nope"]), /--scene nope: not a catalogue/);
    assert.throws(
      () => parseProfileArgs(["--scene", "fig4-fluid-cloth", "--scale", "huge"]),
      /--scale huge/,
    );
    assert.throws(
      () => parseProfileArgs(["--scene", "fig4-fluid-cloth", "--steps", "0"]),
      /--steps 0: must be an integer ≥ 1/,
    );
    assert.throws(
      () => parseProfileArgs(["--scene", "fig4-fluid-cloth", "--steps", "0x10"]),
      /--steps 0x10: must be an integer ≥ 1/,
      "hex is not the options' grammar",
    );
  });

  await t.step("fig4 tiny under merge-split: every phase's kernels, a table", async () => {
    const profile = await profileCase({
      scene: "fig4-fluid-cloth",
      handler: "merge-split",
      scale: "tiny",
      steps: 3,
      warmup: 1,
      adapter: "software",
    });
    const phases = new Set(profile.rows.map((r) => r.phase));
    for (const p of ["neighborSearch", "collisionDetection", "merging1", "integration1"]) {
      assert.ok(phases.has(p), `phase ${p} in ${[...phases]}`);
    }
    assert.ok(profile.rows.some((r) => r.kernel.includes("collision detection contacts")));
    // every step dispatches the neighbour grid's count kernel once
    const count = profile.rows.find((r) => r.kernel === "neighbor grid count")!;
    assert.equal(count.dispatches, 3);
    const table = profileTable(profile, 5);
    assert.match(table, /fig4-fluid-cloth × merge-split at tiny/);
    assert.match(table, /per phase:/);
  });

  await t.step("profiling leaves the simulation bit for bit as it is", async () => {
    const scene = getScene("fig4-fluid-cloth", { scale: "tiny" });
    const hash = async (profiled: boolean) => {
      const gpu = await acquireGpu({ adapter: "software" });
      const profiler = profiled ? new KernelProfiler(gpu.device) : undefined;
      const engine = await Engine.create(scene, { handler: "merge-split", gpu, profiler });
      await engine.run(6);
      const h = await engine.stateHash();
      engine.destroy();
      profiler?.destroy();
      gpu.device.destroy();
      return h;
    };
    assert.equal(await hash(true), await hash(false));
  });
});
