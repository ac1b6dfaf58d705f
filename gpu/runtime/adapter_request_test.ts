import assert from "node:assert/strict";
import {
  BACKENDS,
  parseAdapterChoice,
  pinnedBackend,
  requestAdapter,
  requestOptions,
} from "./adapter_request.ts";
import { acquireGpu } from "./device.ts";

/** `bench/main.ts --list-adapters` in a process with exactly `env`: its exit, stdout and stderr. */
async function listAdapters(env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../../bench/main.ts", import.meta.url).pathname,
      "--list-adapters",
    ],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { out, text: decode(out.stdout), err: decode(out.stderr) };
}

Deno.test("adapter choices: preference, backend, backend:preference", () => {
  assert.deepEqual(parseAdapterChoice("default"), { backend: undefined, preference: "default" });
  assert.deepEqual(parseAdapterChoice("software"), { backend: undefined, preference: "software" });
  assert.deepEqual(parseAdapterChoice("gl"), { backend: "gl", preference: "default" });
  assert.deepEqual(parseAdapterChoice("vulkan:software"), {
    backend: "vulkan",
    preference: "software",
  });
  for (const bad of ["", "opengl", "gl:fast", "vulkan:software:x", "software:gl"]) {
    assert.throws(() => parseAdapterChoice(bad), /is not one of: default, software/, bad);
  }
  assert.deepEqual(requestOptions("software"), { forceFallbackAdapter: true });
  assert.deepEqual(requestOptions("low-power"), { powerPreference: "low-power" });
});

Deno.test("quietMesa's XDG_RUNTIME_DIR is private and gone when the process exits", async () => {
  // a process of its own: this one may have the variable set (testing/run_tests.ts sets it for its files)
  const env = { ...Deno.env.toObject() };
  delete env.XDG_RUNTIME_DIR;
  const module = new URL("./adapter_request.ts", import.meta.url).href;
  for (const exit of ["", "Deno.exit(3);"]) {
    const script = `import { quietMesa } from "${module}";
      quietMesa();
      const dir = Deno.env.get("XDG_RUNTIME_DIR");
      console.log(dir, (Deno.statSync(dir).mode & 0o777).toString(8));
      ${exit}`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-check", script],
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "inherit",
    }).output();
    const [dir, mode] = new TextDecoder().decode(out.stdout).trim().split(" ");
    assert.match(dir, /mergesplit-xdg-/, "a folder of ours");
    assert.equal(mode, "700", "readable by its owner only");
    assert.throws(() => Deno.statSync(dir), Deno.errors.NotFound, `${dir} removed (${exit})`);
  }
});

Deno.test("the record names the backend the adapter was found on", async () => {
  const pinned = pinnedBackend();
  const found = await requestAdapter("software");
  assert.ok(found, "a software adapter");
  if (pinned) assert.equal(found.backend, pinned, "DENO_WEBGPU_BACKEND pins the backend");
  else assert.ok(BACKENDS.includes(found.backend));
  const gpu = await acquireGpu({ adapter: "software", label: "backend record test" });
  assert.equal(gpu.info.backend, found.backend);
  gpu.device.destroy();
});

Deno.test("one process lists lavapipe (Vulkan) and llvmpipe (GL) apart, with no Mesa noise", async (t) => {
  const lavapipe = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
  try {
    Deno.statSync(lavapipe);
  } catch {
    t.step("lavapipe is not installed (apt-get install libvulkan1 mesa-vulkan-drivers)", () => {});
    return;
  }
  const env: Record<string, string> = {
    ...Deno.env.toObject(),
    VK_ICD_FILENAMES: lavapipe,
    NO_COLOR: "1",
  };
  delete env.DENO_WEBGPU_BACKEND;
  delete env.XDG_RUNTIME_DIR;
  const { out, text, err } = await listAdapters(env);
  assert.equal(out.code, 0, err);
  assert.match(text, /vulkan:default\s+vulkan\s+llvmpipe/);
  assert.match(text, /gl:default\s+gl\s+llvmpipe/);
  assert.doesNotMatch(err, /XDG_RUNTIME_DIR/);
});

Deno.test("a pinned backend lists its own adapters, with or without Vulkan", async (t) => {
  const gl = "/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so";
  try {
    Deno.statSync(gl);
  } catch {
    t.step("Mesa's GL is not installed (apt-get install libgl1-mesa-dri libegl1)", () => {});
    return;
  }
  // Vulkan hidden as on a machine without its loader's drivers (issue 47: nothing was listed,
  // since the instance was made for Vulkan, the first backend asked for)
  for (const vulkan of ["/nonexistent.json", undefined]) {
    const env: Record<string, string> = {
      ...Deno.env.toObject(),
      DENO_WEBGPU_BACKEND: "gl",
      NO_COLOR: "1",
    };
    if (vulkan) env.VK_ICD_FILENAMES = vulkan;
    const { out, text, err } = await listAdapters(env);
    assert.equal(out.code, 0, err);
    assert.match(text, /gl:default\s+gl\s+llvmpipe/, `VK_ICD_FILENAMES=${vulkan}: ${text}`);
    assert.doesNotMatch(text, /vulkan/, "only the pinned backend");
  }
});
