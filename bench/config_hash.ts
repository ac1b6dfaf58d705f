/**
 * The identity of a resolved case configuration: SHA-256 of its canonical JSON. Platform-neutral
 * (Web Crypto), so a browser run hashes a case as `deno task bench` does.
 *
 * @module
 */
import type { ParamValues } from "../core/params.ts";
import type { Scene } from "../core/scene/scene.ts";
import { sceneSystems } from "../gpu/systems/registry.ts";

/** What a case runs: the inputs of {@link caseConfigHash}. */
export interface CaseConfig {
  scene: Scene;
  handler: string;
  /** The handler's parameters, resolved and checked. */
  handlerParams: ParamValues;
  coupling: string;
  steps: number;
  warmup: number;
  repeat: number;
}

/**
 * The configuration hash of a case (`CaseRecord.configHash`): {@link configHash} of the case with
 * the scene's `systems` replaced by every system's parameters as the system resolves them (its
 * schema's defaults filled in, `sceneSystems`). So the hash names what runs: a default that changes
 * in a system's schema changes it, and a scene that writes a default out hashes as one that leaves
 * it to the schema.
 */
export async function caseConfigHash(config: CaseConfig): Promise<string> {
  const systems = Object.fromEntries(
    sceneSystems(config.scene).map(({ entry, params }) => [entry.id, params]),
  );
  return await configHash({ ...config, scene: { ...config.scene, systems } });
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
