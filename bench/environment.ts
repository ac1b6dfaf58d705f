/**
 * Where and how a number was made: runtime versions, OS, CPU, memory, the adapter and the
 * features/limits used, the git commit and whether the tree was dirty.
 *
 * @module
 */
import os from "node:os";
import type { AdapterRecord, Environment } from "../core/result.ts";

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
    git: gitState(),
    webgpuBackend: Deno.env.get("DENO_WEBGPU_BACKEND") ?? null,
  };
}
