// run_tests: one implementation (the bench's choice of adapter, refused before any case)
import assert from "node:assert/strict";
import { runBench } from "./main.ts";

const CASE = ["--scene", "fig4-fluid-cloth", "--handler", "merge-split", "--scale", "tiny"];

/** Runs the bench in this process with `env` set, its error lines collected. */
async function benchWith(args: string[], env: Record<string, string> = {}) {
  const errors: string[] = [];
  const error = console.error;
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, Deno.env.get(k)]));
  console.error = (...a: unknown[]) => errors.push(a.join(" "));
  for (const [k, v] of Object.entries(env)) Deno.env.set(k, v);
  try {
    return { ...(await runBench(args)), errors };
  } finally {
    console.error = error;
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) Deno.env.delete(k);
      else Deno.env.set(k, v);
    }
  }
}

Deno.test({
  name: "bench: an adapter or environment this machine cannot serve is exit 2 before any record",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = Deno.makeTempDirSync({ prefix: "mergesplit-adapter-" });
    try {
      const tries: [string[], Record<string, string>, RegExp][] = [
        [
          Deno.build.os === "darwin" ? ["--adapter", "dx12"] : ["--adapter", "metal"],
          {},
          /^mergesplit bench: --adapter (metal|dx12): No WebGPU adapter was found .* Adapters on this machine: .*; valid --adapter values: default, software/,
        ],
        [
          [],
          { DENO_WEBGPU_BACKEND: "vulkn" },
          /DENO_WEBGPU_BACKEND="vulkn" is not a WebGPU backend; valid: vulkan, metal, dx12, gl/,
        ],
        [
          [],
          { MERGESPLIT_STORAGE_BUFFERS: "abc" },
          /MERGESPLIT_STORAGE_BUFFERS="abc" must be a decimal integer/,
        ],
        [
          [],
          { MERGESPLIT_STORAGE_BUFFERS: "100000" },
          /--adapter software: acquireGpu: MERGESPLIT_STORAGE_BUFFERS must be an integer in \[8, \d+\]/,
        ],
      ];
      for (const [k, [args, env, message]] of tries.entries()) {
        const out = `${dir}/${k}`;
        const r = await benchWith(
          [...CASE, "--steps", "10", "--adapter", "software", ...args, "--out", out],
          env,
        );
        assert.equal(r.exitCode, 2, `${args} ${JSON.stringify(env)}: ${r.errors.join("\n")}`);
        assert.equal(r.errors.length, 1, r.errors.join("\n"));
        assert.match(r.errors[0], message);
        assert.ok(!r.errors[0].includes("\n"), "one line");
        assert.throws(() => Deno.statSync(out), "no folder, no record");
      }
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
