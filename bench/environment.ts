/**
 * Where and how a number was made: runtime versions, OS, CPU, memory, the adapter and the
 * features/limits used, the git commit and whether the tree was dirty.
 *
 * @module
 */
import os from "node:os";
import type { AdapterRecord, Environment } from "../core/result.ts";
import { BACKENDS } from "../gpu/runtime/adapter_request.ts";
import { STORAGE_BUFFERS_ENV } from "../gpu/runtime/device.ts";
import { UsageError } from "./cases/suite.ts";

export type { Environment } from "../core/result.ts";

/** Runs `git` in the repository of this file; null when git or the repository is absent. */
function git(args: string[]): string | null {
  try {
    const out = new Deno.Command("git", {
      args,
      cwd: new URL("..", import.meta.url),
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : null;
  } catch {
    return null;
  }
}

/** The commit of this tree and whether tracked files differ from it (null: no git or repository). */
export function gitState(): { commit: string | null; dirty: boolean | null } {
  const commit = git(["rev-parse", "HEAD"]);
  const status = commit === null ? null : git(["status", "--porcelain", "--untracked-files=no"]);
  return { commit, dirty: status === null ? null : status.length > 0 };
}

/**
 * The tree's git state as this process first read it: the code a run executes is the code it
 * loaded at its start, so a commit made while a long run goes on must not be named by its later
 * records (each case read it anew before).
 */
let startState: ReturnType<typeof gitState> | undefined;

/** {@link gitState} once per process, at its first call (the bench's first case). */
export function runGitState(): { commit: string | null; dirty: boolean | null } {
  return startState ??= gitState();
}

/** Captures the environment for an adapter record (from `acquireGpu`). */
export function captureEnvironment(adapter: AdapterRecord): Environment {
  const cpus = os.cpus();
  return {
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    typescript: Deno.version.typescript,
    os: { platform: os.platform(), release: os.release(), arch: os.arch() },
    cpu: { model: cpus[0]?.model ?? "unknown", cores: cpus.length },
    memoryBytes: os.totalmem(),
    adapter,
    git: runGitState(),
    webgpuBackend: Deno.env.get("DENO_WEBGPU_BACKEND") ?? null,
  };
}

/**
 * Checks the environment variables that steer WebGPU before a run starts (exit status 2 rather
 * than a run of failed cases): `DENO_WEBGPU_BACKEND` must be a backend or a comma list of them
 * (`vulkan`, `metal`, `dx12`, `gl`), {@link STORAGE_BUFFERS_ENV} a decimal integer ≥ 1 (the
 * adapter's own limit is checked when its device is acquired). Throws a {@link UsageError} naming
 * the variable, its value and the valid ones.
 */
export function checkWebgpuEnvironment(
  env: Readonly<Record<string, string>> = Deno.env.toObject(),
) {
  const backend = env.DENO_WEBGPU_BACKEND;
  if (backend !== undefined) {
    const names = backend.split(",").map((b) => b.trim().toLowerCase());
    if (names.some((b) => !(BACKENDS as readonly string[]).includes(b))) {
      throw new UsageError(
        `DENO_WEBGPU_BACKEND="${backend}" is not a WebGPU backend; valid: ${
          BACKENDS.join(", ")
        } (or a comma list of them); unset it to let the harness try each`,
      );
    }
  }
  const buffers = env[STORAGE_BUFFERS_ENV];
  if (buffers !== undefined && buffers !== "" && !/^\s*[1-9]\d{0,5}\s*$/.test(buffers)) {
    throw new UsageError(
      `${STORAGE_BUFFERS_ENV}="${buffers}" must be a decimal integer, the storage buffers per ` +
        "shader stage to ask for (8 to the adapter's limit, e.g. 8); unset it for the default",
    );
  }
}
