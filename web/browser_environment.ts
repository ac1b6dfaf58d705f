/**
 * The record environment of a browser run: the adapter as `acquireGpu` saw it, the page's user
 * agent and origin, what `navigator` tells of the machine, and the commit the page was built from
 * (`build.json`, written by `deno task web`).
 *
 * @module
 */
import type { AdapterRecord, Environment } from "../core/result.ts";

/** What `deno task web` records of the tree it built the page from (`build.json`). */
export interface BuildInfo {
  commit: string | null;
  dirty: boolean | null;
  builtAt: string;
}

/** `navigator`'s fields this reads (Chromium has `deviceMemory` and `userAgentData`). */
interface NavigatorInfo {
  userAgent: string;
  hardwareConcurrency?: number;
  deviceMemory?: number;
  platform?: string;
  userAgentData?: { platform?: string };
}

/**
 * The environment of a case run on `adapter` in this page. `memoryBytes` is the browser's coarse
 * `deviceMemory` (GiB, capped at 8 by Chromium) or 0 when it gives none.
 */
export function browserEnvironment(
  adapter: AdapterRecord,
  options: { build: BuildInfo; navigator?: NavigatorInfo; origin?: string },
): Environment {
  const nav = options.navigator ?? (globalThis.navigator as unknown as NavigatorInfo);
  const platform = nav.userAgentData?.platform || nav.platform || "unknown";
  return {
    browser: {
      userAgent: nav.userAgent,
      origin: options.origin ?? globalThis.location?.origin ?? "unknown",
    },
    os: { platform, release: "", arch: "" },
    cpu: { model: "unknown", cores: nav.hardwareConcurrency ?? 0 },
    memoryBytes: (nav.deviceMemory ?? 0) * 2 ** 30,
    adapter,
    git: { commit: options.build.commit, dirty: options.build.dirty },
    webgpuBackend: null,
  };
}
