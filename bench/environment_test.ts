import assert from "node:assert/strict";
import { checkWebgpuEnvironment, gitState, runGitState } from "./environment.ts";
import { UsageError } from "./cases/suite.ts";

Deno.test("checkWebgpuEnvironment: a backend or storage-buffer override that cannot work is refused", () => {
  for (
    const env of [
      { DENO_WEBGPU_BACKEND: "vulkn" },
      { DENO_WEBGPU_BACKEND: "gl,directx" },
      { DENO_WEBGPU_BACKEND: "" },
    ]
  ) {
    assert.throws(
      () => checkWebgpuEnvironment(env),
      (e: unknown) =>
        e instanceof UsageError &&
        e.message.startsWith(`DENO_WEBGPU_BACKEND="${env.DENO_WEBGPU_BACKEND}" is not a WebGPU`) &&
        e.message.includes("valid: vulkan, metal, dx12, gl"),
      JSON.stringify(env),
    );
  }
  for (const v of ["abc", "0", "8.5", "-8", "0x10"]) {
    assert.throws(
      () => checkWebgpuEnvironment({ MERGESPLIT_STORAGE_BUFFERS: v }),
      (e: unknown) =>
        e instanceof UsageError &&
        e.message.startsWith(`MERGESPLIT_STORAGE_BUFFERS="${v}" must be a decimal integer`),
      v,
    );
  }
  checkWebgpuEnvironment({});
  checkWebgpuEnvironment({ DENO_WEBGPU_BACKEND: "Vulkan, gl", MERGESPLIT_STORAGE_BUFFERS: "8" });
  checkWebgpuEnvironment({ MERGESPLIT_STORAGE_BUFFERS: "" });
});

Deno.test("the git state is read once per process: a record names the code the run loaded", () => {
  const first = runGitState();
  assert.equal(runGitState(), first, "the same object: not read again");
  assert.deepEqual(first, gitState(), "what the tree says now, in this test");
});
