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

/** Captures the environment for an adapter record (from `acquireGpu`). */
export function captureEnvironment(adapter: AdapterRecord): Environment {
  const commit = git(["rev-parse", "HEAD"]);
  const status = commit === null ? null : git(["status", "--porcelain", "--untracked-files=no"]);
  const cpus = os.cpus();
  return {
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    typescript: Deno.version.typescript,
    os: { platform: os.platform(), release: os.release(), arch: os.arch() },
    cpu: { model: cpus[0]?.model ?? "unknown", cores: cpus.length },
    memoryBytes: os.totalmem(),
    adapter,
    git: { commit, dirty: status === null ? null : status.length > 0 },
    webgpuBackend: Deno.env.get("DENO_WEBGPU_BACKEND") ?? null,
  };
}

/** SHA-256 (hex) of a JSON value with sorted keys: the identity of a resolved configuration. */
export async function configHash(value: unknown): Promise<string> {
  const text = stableStringify(value);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((x) => x.toString(16).padStart(2, "0")).join("");
}

/** JSON with object keys sorted, Infinity written as "Infinity" (a canonical form for hashing). */
export function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_k, v) => {
    if (v === Infinity) return "Infinity";
    if (v && typeof v === "object" && !Array.isArray(v)) {
      return Object.fromEntries(
        Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]),
      );
    }
    return v;
  });
}
