import assert from "node:assert/strict";
import { getScene } from "../scenes/catalog.ts";
import { buildParticles } from "../core/scene/scene_builder.ts";
import { releaseSoftwareGpu, seriesMax, simulate, softwareGpu } from "./engine_run_fixture.ts";
import { Engine, RunStopped } from "./engine.ts";
import { handlerParams } from "./handlers/registry.ts";
import { COUPLING_PARAMS, COUPLING_WGSL } from "./coupling/coupling.ts";
import { PARTICLE_STATE_WGSL, STATE_PARAMS } from "./state/particle_state.ts";
import { SPH_INTEGRATE_PARAMS, SPH_INTEGRATE_WGSL } from "./systems/sph/sph_system.ts";
import { METRICS_PARAMS, METRICS_WGSL, type MetricsSample } from "./metrics/metrics.ts";
import { checkWgslStruct } from "./runtime/struct_layout.ts";
import { GpuMemoryError } from "./runtime/buffer_memory.ts";
import { GpuTimeoutError } from "./runtime/gpu_deadline.ts";

// Engine tests run the tiny scenes end to end on the software adapter (each implementation
// `deno task test` runs: llvmpipe, lavapipe, SwiftShader). The long settling runs (a cloth under
// gravity, a fluid block at rest on it) are gpu/engine_rest_test.ts, on one implementation.
const device = softwareGpu;
const max = seriesMax;

Deno.test({
  name: "engine (tiny scenes, software adapter)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await t.step("WGSL structs match their TypeScript layouts", () => {
      checkWgslStruct(COUPLING_WGSL, COUPLING_PARAMS);
      checkWgslStruct(PARTICLE_STATE_WGSL, STATE_PARAMS);
      checkWgslStruct(SPH_INTEGRATE_WGSL, SPH_INTEGRATE_PARAMS);
      checkWgslStruct(METRICS_WGSL, METRICS_PARAMS);
    });

    await t.step("unknown or inapplicable handlers fail before anything runs", async () => {
      const gpu = await device();
      const scene = getScene("fig10-alpha-beta-10", { scale: "tiny" });
      await assert.rejects(
        () => Engine.create(scene, { handler: "nope", gpu }),
        /known handlers: merge-split/,
      );
      await assert.rejects(
        () => Engine.create(scene, { handler: "penalty-weak", gpu }),
        /does not apply to scene "fig10-alpha-beta-10"/,
      );
      for (const stepsPerSubmit of [0, 65, 2.5]) {
        await assert.rejects(
          () => Engine.create(scene, { handler: "merge-split", gpu, stepsPerSubmit }),
          /options\.stepsPerSubmit must be an integer in \[1, 64\]/,
        );
      }
      // parameters come resolved (the bench's case) or as overrides to resolve, never both
      await assert.rejects(
        () =>
          Engine.create(scene, {
            handler: "merge-split",
            gpu,
            params: { alpha: 0.5 },
            handlerParams: handlerParams(scene, "merge-split"),
          }),
        /options\.params: give the overrides or options\.handlerParams/,
      );
    });

    await t.step(
      "a scene past the memory budget fails before any step, saying what it needs",
      async () => {
        const gpu = await device();
        const scene = getScene("fig4-fluid-cloth", { scale: "tiny" });
        await assert.rejects(
          () =>
            Engine.create(scene, {
              handler: "merge-split",
              gpu,
              memoryBudget: { bytes: 2 ** 18, what: "a 256 KiB test budget" },
            }),
          (e: unknown) =>
            e instanceof GpuMemoryError && e.needed > 2 ** 18 &&
            /^fig4-fluid-cloth at scale tiny under merge-split needs more than [\d.]+ KiB of GPU buffers, over 256\.0 KiB \(a 256 KiB test budget\): buffer "/
              .test(e.message),
        );
        // the budget went with the failed engine: the device builds the scene again
        const engine = await Engine.create(scene, { handler: "merge-split", gpu });
        assert.ok(engine.peakBufferBytes > 2 ** 18);
        engine.destroy();
      },
    );

    const fig4 = getScene("fig4-fluid-cloth", { scale: "tiny" });
    // fig4 under merge-split, run once for every step below that needs it (the first to ask runs
    // it): its state hash after 13 and 60 steps (the stop and seed steps), its state and handler
    // statistics after 200 (the stage 2 gate), the metrics of its whole run (fig4 mechanics). The
    // run is one engine whose `run` is called for 13, 47, 140 and the remaining steps: where a
    // call ends changes nothing (the stop step asserts it; the seed step compares the hash after
    // 60 steps with that of a fresh engine's single call), and the hash after 13 is a fresh
    // engine's first `run(13)`, what the stop step ran on its own before.
    let fig4MergeSplitRun: ReturnType<typeof runFig4MergeSplit> | undefined;
    async function runFig4MergeSplit() {
      const engine = await Engine.create(fig4, { handler: "merge-split", gpu: await device() });
      try {
        await engine.run(13);
        const hashAt13 = await engine.stateHash();
        await engine.run(60 - 13);
        const hashAt60 = await engine.stateHash();
        await engine.run(200 - 60);
        const at200 = { stats: await engine.readStats(), state: await engine.readState() };
        await engine.run(Math.round(fig4.duration / fig4.dt) - 200);
        return { hashAt13, hashAt60, at200, series: await engine.readMetrics() };
      } finally {
        engine.destroy();
      }
    }
    const fig4MergeSplit = () => fig4MergeSplitRun ??= runFig4MergeSplit();

    const runs = new Map<string, MetricsSample[]>();
    for (const h of ["merge-split", "penalty-weak", "penalty-strong", "impulse", "akinci"]) {
      await t.step(`fig4-fluid-cloth under ${h}`, async () => {
        const { series } = h === "merge-split" ? await fig4MergeSplit() : await simulate(fig4, h);
        runs.set(h, series);
        assert.equal(max(series, "nanCount"), 0);
      });
    }
    await t.step(
      "fig4 mechanics: merge-split stops the fluid, weak forces and impulses leak",
      () => {
        // Whether strong forces fling the fluid back is a paper finding, claim (e), evaluated by
        // the bench on finished runs with its stated threshold (reports/claims/claims.ts); asserting it
        // here would build it into the stiffness levels (it held at 300·k_ref, not at 100·k_ref).
        assert.equal(max(runs.get("merge-split")!, "passThrough"), 0);
        assert.ok(
          max(runs.get("penalty-weak")!, "passThrough") > 0,
          "penalty-weak lets fluid through",
        );
        assert.ok(max(runs.get("impulse")!, "passThrough") > 0, "impulse lets fluid through");
        // Akinci's coupling acts through the engine's channel (boundary density into the SPH
        // density, pressure back to the handler): without it the whole column would fall through
        // (as with no handler); whether it leaks a little is claim (e2)'s question, not this test's
        const fluid = buildParticles(fig4).bodies.filter((b) => b.kind === "fluid")
          .reduce((sum, b) => sum + b.count, 0);
        assert.ok(
          max(runs.get("akinci")!, "passThrough") < 0.5 * fluid,
          "akinci holds most of the fluid",
        );
      },
    );

    await t.step("stage 2 skipped on the GPU when no marked pair approaches", async () => {
      // The fluid reaches the cloth near step 100: by then stage 2 ran once on llvmpipe and not
      // at all on lavapipe (their roundings differ); by step 160 three or four times on each of
      // llvmpipe, lavapipe and SwiftShader. 200 steps exercise both branches of the gate on all.
      // The gated run is the shared fig4 merge-split run after its step 200.
      const steps = 200;
      const gated = (await fig4MergeSplit()).at200;
      const always = await simulate(fig4, "merge-split", { steps, stageGates: false });
      assert.ok(
        gated.stats.stage2Runs > 0 && gated.stats.stage2Runs < steps,
        `gated: stage 2 ran ${gated.stats.stage2Runs} of ${steps} steps`,
      );
      // a skipped stage 2 would have repeated stage 1 (up to its warm-started solve's tolerance)
      let worst = 0;
      for (let k = 0; k < gated.state.pos.length; k++) {
        if (k % 4 === 3) continue;
        worst = Math.max(worst, Math.abs(gated.state.pos[k] - always.state.pos[k]));
      }
      assert.ok(worst < 0.05 * fig4.radius, `positions differ by ${worst} m`);
    });

    await t.step("same seed, same adapter: identical final state", async () => {
      // two engines: the shared run's after its step 60 and a fresh one's 60 steps
      const a = (await fig4MergeSplit()).hashAt60;
      const b = await simulate(fig4, "merge-split", { steps: 60 });
      assert.equal(a, b.hash);
      const c = await simulate({ ...fig4, seed: fig4.seed + 1 }, "merge-split", { steps: 60 });
      assert.notEqual(a, c.hash);
      // several steps to a submit: each step's grouping draws with its own step index (the
      // parameter rings), so the state and every metrics sample are those of one per submit
      const k = await simulate(fig4, "merge-split", { steps: 60, stepsPerSubmit: 8 });
      assert.equal(k.hash, a);
      assert.deepEqual(k.series, b.series);
      assert.ok(k.series.length >= 2, "samples inside the run");
    });

    await t.step(
      "a stop asked inside a batch ends the run at the next step; the engine goes on",
      async () => {
        // the shared run's first call: a fresh engine's 13 steps in one batch
        const whole = { hash: (await fig4MergeSplit()).hashAt13 };
        const engine = await Engine.create(fig4, { handler: "merge-split", gpu: await device() });
        try {
          let asked = 0;
          const shouldStop = () => (++asked, engine.step >= 7 ? "test stop" : null);
          // one batch of 100 steps would have held the stop back to step 50
          await assert.rejects(
            () => engine.run(50, { shouldStop }),
            (e: unknown) =>
              e instanceof RunStopped && e.reason === "test stop" && e.completed === 8,
          );
          assert.equal(engine.step, 8);
          assert.equal(asked, 7, "asked after each step's submit, until it said stop");
          assert.equal(engine.timings.wall.steps, 8, "the cut batch's timings were read back");
          await engine.run(5);
          assert.equal(engine.timings.wall.steps, 13);
          assert.equal(await engine.stateHash(), whole.hash, "8 + 5 steps: the state of 13");
        } finally {
          engine.destroy();
        }
      },
    );

    await t.step(
      "a GPU wait that never completes throws, naming its phase and operation",
      async () => {
        const engine = await Engine.create(fig4, {
          handler: "merge-split",
          gpu: await device(),
          deadline: { floorSeconds: 0.5, factor: 1 },
        });
        const mapAsync = GPUBuffer.prototype.mapAsync;
        const done = GPUQueue.prototype.onSubmittedWorkDone;
        try {
          await engine.run(3);
          GPUBuffer.prototype.mapAsync = () => new Promise<undefined>(() => {});
          GPUQueue.prototype.onSubmittedWorkDone = () => new Promise<undefined>(() => {});
          const t0 = performance.now();
          await assert.rejects(
            () => engine.run(4),
            (e: unknown) =>
              e instanceof GpuTimeoutError &&
              /^GPU work did not complete: (mapAsync of the phase timer readback|onSubmittedWorkDone) in step batch 2 \(steps 3–6\) was still pending after /
                .test(e.message),
          );
          await assert.rejects(
            () => engine.readStats(),
            /handler statistics in the handler statistics readback was still pending/,
          );
          await assert.rejects(() => engine.stateHash(), /GpuTimeoutError: .* in the state hash/);
          assert.ok(performance.now() - t0 < 20_000, "a wait ends at its deadline");
        } finally {
          GPUBuffer.prototype.mapAsync = mapAsync;
          GPUQueue.prototype.onSubmittedWorkDone = done;
          engine.destroy();
        }
      },
    );
    releaseSoftwareGpu();
  },
});
