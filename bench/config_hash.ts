/**
 * The identity of a resolved case configuration: SHA-256 of its canonical JSON. Platform-neutral
 * (Web Crypto), so a browser run hashes a case as `deno task bench` does.
 *
 * @module
 */

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
