import assert from "node:assert/strict";
import {
  findTestFiles,
  IMPLEMENTATIONS,
  ONE_IMPLEMENTATION,
  parseSummary,
  planJobs,
  runsOnce,
  usesGpu,
} from "./run_tests.ts";

Deno.test("run_tests: files, GPU classification, summaries", async (t) => {
  await t.step("finds the test files, none under node_modules or reports/out", () => {
    const files = findTestFiles();
    assert.ok(files.includes("gpu/runtime/phase_timer_test.ts"));
    assert.ok(files.includes("core/rng_test.ts"));
    assert.ok(files.every((f) => f.endsWith("_test.ts") && !f.includes("node_modules/")));
  });
  await t.step(
    "a file whose imports reach device.ts (directly or through a fixture) uses the GPU",
    () => {
      assert.equal(usesGpu("gpu/runtime/phase_timer_test.ts"), true);
      // through gpu/metrics/metrics_fixture.ts
      assert.equal(usesGpu("gpu/metrics/metrics_test.ts"), true);
      assert.equal(usesGpu("core/rng_test.ts"), false);
      assert.equal(usesGpu("reports/sections/scaling_fit_test.ts"), false);
    },
  );
  await t.step(
    "a GPU file marked `// run_tests: one implementation (why)` runs once, on lavapipe",
    () => {
      assert.equal(runsOnce("bench/main_test.ts"), true);
      assert.equal(runsOnce("gpu/engine_test.ts"), false);
      // the reason is required, and the line is a comment of its own
      assert.ok(ONE_IMPLEMENTATION.test("// run_tests: one implementation (tools)"));
      assert.ok(!ONE_IMPLEMENTATION.test("// run_tests: one implementation"));
      assert.ok(!ONE_IMPLEMENTATION.test("const s = '// run_tests: one implementation (x)'"));
      const files = ["bench/main_test.ts", "gpu/engine_test.ts", "core/rng_test.ts"];
      const plan = (ids: string[]) =>
        planJobs(files, IMPLEMENTATIONS.filter((i) => ids.includes(i.id)))
          .map(([f, i]) => `${f} ${i.id}`);
      assert.deepEqual(plan(["llvmpipe", "lavapipe", "swiftshader"]), [
        "bench/main_test.ts lavapipe",
        "gpu/engine_test.ts llvmpipe",
        "gpu/engine_test.ts lavapipe",
        "gpu/engine_test.ts swiftshader",
        "core/rng_test.ts llvmpipe",
      ]);
      // without lavapipe (or with --impl naming others): the first implementation found
      assert.deepEqual(plan(["swiftshader"]), [
        "bench/main_test.ts swiftshader",
        "gpu/engine_test.ts swiftshader",
        "core/rng_test.ts swiftshader",
      ]);
      // every marked file uses the GPU (a mark on a CPU test would mean nothing)
      for (const f of findTestFiles().filter(runsOnce)) assert.ok(usesGpu(f), f);
    },
  );
  await t.step("Deno's summary lines are read, colours or not", () => {
    assert.deepEqual(parseSummary("x\nok | 3 passed (12 steps) | 0 failed (1s)\n"), {
      passed: 3,
      failed: 0,
      steps: 12,
    });
    assert.deepEqual(
      parseSummary("\x1b[0m\x1b[31mFAILED\x1b[0m | 2 passed | 1 failed (3s)"),
      { passed: 2, failed: 1, steps: 0 },
    );
    assert.deepEqual(parseSummary("error: Module not found"), { passed: 0, failed: 0, steps: 0 });
  });
  await t.step("three independent implementations, each selected by its environment", () => {
    assert.deepEqual(IMPLEMENTATIONS.map((i) => i.id), ["llvmpipe", "lavapipe", "swiftshader"]);
    assert.equal(IMPLEMENTATIONS[0].env.DENO_WEBGPU_BACKEND, "gl");
    assert.ok(IMPLEMENTATIONS.slice(1).every((i) => i.env.VK_ICD_FILENAMES?.endsWith(".json")));
    assert.equal(IMPLEMENTATIONS[1].env.MERGESPLIT_STORAGE_BUFFERS, "8", "lavapipe: default paths");
  });
});
