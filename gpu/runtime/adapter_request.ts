/**
 * Which WebGPU adapter to ask for, and on which backend (Vulkan, GL, Metal, DX12).
 *
 * Deno's WebGPU (wgpu) reads `DENO_WEBGPU_BACKEND` at every `requestAdapter` call, so one
 * process can ask each backend in turn: on a machine without a GPU, Mesa's lavapipe (Vulkan) and
 * llvmpipe (GL) are two independent implementations that both describe themselves as
 * "llvmpipe (LLVM …)"; only the backend tells them apart. Which Vulkan driver answers (a GPU's,
 * lavapipe, SwiftShader) is chosen by the Vulkan loader's `VK_ICD_FILENAMES` /
 * `VK_DRIVER_FILES` when the process starts.
 *
 * @module
 */

/** A WebGPU backend of wgpu, as `DENO_WEBGPU_BACKEND` names it. */
export type Backend = "vulkan" | "gl" | "metal" | "dx12";

/** Backends in the order a choice without one tries them: native APIs first, GL last. */
export const BACKENDS: readonly Backend[] = ["vulkan", "metal", "dx12", "gl"];

/** Which adapter of a backend: WebGPU's request options. */
export type AdapterPreference = "default" | "software" | "high-performance" | "low-power";

/** The preferences, in the order `--list-adapters` asks them. */
export const PREFERENCES: readonly AdapterPreference[] = [
  "default",
  "software",
  "high-performance",
  "low-power",
];

/**
 * Which adapter to ask for: a preference (on the first backend that offers an adapter), a
 * backend (its default adapter), or both (`vulkan:software`).
 */
export type AdapterChoice = AdapterPreference | Backend | `${Backend}:${AdapterPreference}`;

/** An adapter choice taken apart. */
export interface ParsedChoice {
  /** The backend asked for; undefined: try {@link BACKENDS} in order. */
  backend: Backend | undefined;
  preference: AdapterPreference;
}

/**
 * Takes an adapter choice apart; throws a `RangeError` listing the valid forms for anything else.
 */
export function parseAdapterChoice(choice: string): ParsedChoice {
  const [a, b, ...rest] = choice.split(":");
  const isBackend = (s: string): s is Backend => (BACKENDS as string[]).includes(s);
  const isPreference = (s: string): s is AdapterPreference => (PREFERENCES as string[]).includes(s);
  if (rest.length === 0) {
    if (b === undefined && isPreference(a)) return { backend: undefined, preference: a };
    if (b === undefined && isBackend(a)) return { backend: a, preference: "default" };
    if (b !== undefined && isBackend(a) && isPreference(b)) return { backend: a, preference: b };
  }
  throw new RangeError(
    `adapter choice "${choice}" is not one of: ${PREFERENCES.join(", ")}; a backend (${
      BACKENDS.join(", ")
    }); or backend:preference (e.g. vulkan:software)`,
  );
}

/** WebGPU's request options for a preference. */
export function requestOptions(preference: AdapterPreference): GPURequestAdapterOptions {
  if (preference === "software") return { forceFallbackAdapter: true };
  if (preference === "high-performance" || preference === "low-power") {
    return { powerPreference: preference };
  }
  return {};
}

/**
 * Gives Mesa a private `XDG_RUNTIME_DIR` when the environment has none, so its GL driver does
 * not print "XDG_RUNTIME_DIR is invalid or not set" at every adapter request (it needs none to
 * compute). The folder is removed when the process exits (`unload`), and the processes it starts
 * inherit it. Does nothing outside Deno or when the variable is set.
 */
export function quietMesa(): void {
  if (typeof Deno === "undefined" || Deno.env.get("XDG_RUNTIME_DIR")) return;
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-xdg-" });
  Deno.chmodSync(dir, 0o700);
  Deno.env.set("XDG_RUNTIME_DIR", dir);
  globalThis.addEventListener("unload", () => {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // already gone: nothing to tidy
    }
  });
}

let instanceMade = false;

/** The backend `DENO_WEBGPU_BACKEND` pins the process to, when it names exactly one. */
export function pinnedBackend(): Backend | undefined {
  if (typeof Deno === "undefined") return undefined;
  const v = Deno.env.get("DENO_WEBGPU_BACKEND")?.trim().toLowerCase();
  return v && (BACKENDS as string[]).includes(v) ? v as Backend : undefined;
}

/**
 * Requests an adapter on one backend (sets `DENO_WEBGPU_BACKEND` for the call and restores it).
 * Outside Deno the backend is the browser's and `backend` is ignored.
 */
export async function requestAdapterOn(
  backend: Backend,
  options: GPURequestAdapterOptions = {},
): Promise<GPUAdapter | null> {
  if (typeof Deno === "undefined") return await navigator.gpu.requestAdapter(options);
  quietMesa();
  const previous = Deno.env.get("DENO_WEBGPU_BACKEND");
  if (!instanceMade) {
    // wgpu's instance is made at the first request with the backends named then, and later
    // requests only filter them: make it with every backend, or with those the user pinned (made
    // with the first backend asked for instead, a pinned `gl` listed Vulkan's adapters where
    // Vulkan is installed and nothing where it is not)
    instanceMade = true;
    Deno.env.set("DENO_WEBGPU_BACKEND", previous ?? BACKENDS.join(","));
    await navigator.gpu.requestAdapter();
  }
  Deno.env.set("DENO_WEBGPU_BACKEND", backend);
  try {
    return await navigator.gpu.requestAdapter(options);
  } finally {
    if (previous === undefined) Deno.env.delete("DENO_WEBGPU_BACKEND");
    else Deno.env.set("DENO_WEBGPU_BACKEND", previous);
  }
}

/**
 * Requests the adapter of `choice`: on its backend, or else on the backend `DENO_WEBGPU_BACKEND`
 * pins, or else on the first of {@link BACKENDS} that offers one. Returns null when none does.
 */
export async function requestAdapter(
  choice: AdapterChoice,
): Promise<{ adapter: GPUAdapter; backend: Backend } | null> {
  const { backend, preference } = parseAdapterChoice(choice);
  const order = backend ? [backend] : pinnedBackend() ? [pinnedBackend()!] : BACKENDS;
  for (const b of order) {
    const adapter = await requestAdapterOn(b, requestOptions(preference));
    if (adapter) return { adapter, backend: b };
  }
  return null;
}
