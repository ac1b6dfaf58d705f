/**
 * WebGPU adapter and device acquisition, with the adapter's identity captured for result files.
 *
 * Deno 2.9 ships `navigator.gpu` with no flag. On a machine without a GPU, Mesa's llvmpipe is
 * offered as a software ("fallback") adapter, on which every kernel of this harness must run.
 *
 * @module
 */
import type { AdapterRecord } from "../../core/result.ts";
import { type AdapterChoice, parseAdapterChoice, requestAdapter } from "./adapter_request.ts";
import { GpuTimeoutError } from "./gpu_deadline.ts";

export type { AdapterRecord } from "../../core/result.ts";
export type { AdapterChoice, Backend } from "./adapter_request.ts";

/** A device with its adapter and what was captured about both. */
export interface GpuContext {
  adapter: GPUAdapter;
  device: GPUDevice;
  info: AdapterRecord;
  /** True when the device has `timestamp-query`, so phases can be timed on the GPU. */
  timestamps: boolean;
}

/** Options for {@link acquireGpu}. */
export interface AcquireGpuOptions {
  /**
   * `software` forces the fallback adapter (`forceFallbackAdapter: true`); a backend (`vulkan`,
   * `gl`, …) or `backend:preference` picks the backend too (`adapter_request.ts`). Default
   * `default`: the first backend that offers an adapter, Vulkan before GL.
   */
  adapter?: AdapterChoice;
  /** Ask for `timestamp-query` where offered. Default true. */
  timestamps?: boolean;
  /** Label of the device (every GPU object is labelled). */
  label?: string;
  /**
   * Storage buffers per shader stage to ask for: at most what the adapter offers. Default: up to
   * {@link WANTED_STORAGE_BUFFERS} where offered (the faster paths that bind more turn on);
   * `8`, WebGPU's guaranteed limit, runs the default path of every kernel.
   */
  storageBuffers?: number;
  /**
   * Seconds the adapter request, and then the device request, may each take before a
   * `GpuTimeoutError` ends the wait (a broken driver can leave either pending for ever). Default
   * {@link ACQUIRE_DEADLINE_SECONDS}.
   */
  deadlineSeconds?: number;
}

/**
 * Default deadline of each of the adapter and device requests (s): creating a Vulkan instance and
 * device takes well under a second on the machines measured (an NVIDIA H100, Mesa, SwiftShader).
 */
export const ACQUIRE_DEADLINE_SECONDS = 120;

/** `work`, or a `GpuTimeoutError` naming `operation` when it is pending after `seconds`. */
async function withinSeconds<T>(work: Promise<T>, operation: string, seconds: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new GpuTimeoutError({ phase: "acquiring the GPU", operation }, {
            seconds,
            reason: "deadline",
            basis: "the acquisition deadline (acquireGpu deadlineSeconds)",
          }),
        ),
      seconds * 1000,
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The limits this harness relies on; requested explicitly, never assumed. */
export const REQUIRED_LIMITS: Readonly<Record<string, number>> = {
  maxStorageBuffersPerShaderStage: 8,
  maxComputeWorkgroupSizeX: 256,
  maxComputeInvocationsPerWorkgroup: 256,
  maxStorageBufferBindingSize: 128 * 1024 * 1024,
  maxBufferSize: 256 * 1024 * 1024,
};

/**
 * Storage buffers per stage asked for where the adapter offers them (above the required 8, which
 * every kernel's default path keeps to): faster paths that bind more (the pruned contact walk,
 * the spring solver's one-workgroup CG) turn on when the device has them, each tested bit for bit
 * against its default path.
 */
export const WANTED_STORAGE_BUFFERS = 16;

/**
 * Acquires an adapter and a device with the features and limits the harness needs.
 *
 * Throws an `Error` naming what is missing (no WebGPU, no adapter, a limit too low) and what to
 * do about it, and a `GpuTimeoutError` when the adapter or device request is still pending after
 * `deadlineSeconds`.
 */
export async function acquireGpu(options: AcquireGpuOptions = {}): Promise<GpuContext> {
  const choice = options.adapter ?? "default";
  if (typeof navigator === "undefined" || !("gpu" in navigator) || !navigator.gpu) {
    throw new Error(
      "WebGPU is not available: navigator.gpu is undefined. Run with Deno 2.9 or newer " +
        "(npx -y deno@2.9.6 ...), which ships WebGPU without a flag.",
    );
  }
  parseAdapterChoice(choice);
  const seconds = options.deadlineSeconds ?? ACQUIRE_DEADLINE_SECONDS;
  const found = await withinSeconds(
    requestAdapter(choice),
    `requestAdapter (adapter "${choice}")`,
    seconds,
  );
  if (!found) {
    throw new Error(
      `No WebGPU adapter was found (adapter option "${choice}"). On a machine without a GPU ` +
        "install Mesa for a software adapter, e.g. apt-get install libgl1-mesa-dri (llvmpipe, " +
        "GL) or libvulkan1 mesa-vulkan-drivers (lavapipe, Vulkan), or pick another adapter " +
        "with --adapter (--list-adapters lists them).",
    );
  }
  const { adapter, backend } = found;
  const limits: Record<string, number> = {};
  for (const [name, want] of Object.entries(REQUIRED_LIMITS)) {
    const have = (adapter.limits as unknown as Record<string, number>)[name];
    if (typeof have !== "number" || have < want) {
      // maxBufferSize / binding size: take what the adapter offers when it is at least 64 MiB.
      if (name.startsWith("maxStorageBufferBindingSize") || name === "maxBufferSize") {
        if (have >= 64 * 1024 * 1024) {
          limits[name] = have;
          continue;
        }
      }
      throw new Error(
        `The WebGPU adapter "${adapter.info.description}" offers ${name} = ${have}, ` +
          `but the harness needs at least ${want}. Use another adapter (--adapter).`,
      );
    }
    // Buffer sizes: ask for all the adapter offers (Table I's solids need large spring arrays);
    // storage buffers per stage: up to WANTED_STORAGE_BUFFERS where offered (kernels that fuse
    // several steps, e.g. the spring solver's one-workgroup CG, bind more and fall back without).
    const bufferLimit = name.startsWith("maxStorageBufferBindingSize") || name === "maxBufferSize";
    limits[name] = bufferLimit
      ? have
      : name === "maxStorageBuffersPerShaderStage"
      ? storageBuffersAsked(options.storageBuffers, have, want)
      : want;
  }
  const wantTimestamps = options.timestamps ?? true;
  const features: GPUFeatureName[] = [];
  if (wantTimestamps && adapter.features.has("timestamp-query")) features.push("timestamp-query");
  const device = await withinSeconds(
    adapter.requestDevice({
      label: options.label ?? "mergesplit device",
      requiredFeatures: features,
      requiredLimits: limits,
    }),
    `requestDevice on "${adapter.info.description}"`,
    seconds,
  );
  const i = adapter.info;
  return {
    adapter,
    device,
    timestamps: features.includes("timestamp-query"),
    info: {
      vendor: i.vendor,
      architecture: i.architecture,
      device: i.device,
      description: i.description,
      // outside Deno the browser chose the backend and does not say which
      ...(typeof Deno === "undefined" ? {} : { backend }),
      isFallbackAdapter: Boolean(
        (i as unknown as { isFallbackAdapter?: boolean }).isFallbackAdapter,
      ),
      features: [...features],
      limits,
    },
  };
}

/**
 * Whether `device` runs on a fallback (software, CPU) adapter, from its `adapterInfo` (false when
 * the runtime does not expose it): policies that trade dispatches for one-workgroup loops read it.
 */
export function onFallbackAdapter(device: GPUDevice): boolean {
  const info = (device as GPUDevice & { adapterInfo?: { isFallbackAdapter?: boolean } })
    .adapterInfo;
  return Boolean(info?.isFallbackAdapter);
}

/**
 * Environment variable that caps the storage buffers per stage a device asks for when the caller
 * names none (e.g. `8`: every kernel on its default path, as on an adapter that offers only
 * WebGPU's guarantee). `deno task test` sets it for the lavapipe run.
 */
export const STORAGE_BUFFERS_ENV = "MERGESPLIT_STORAGE_BUFFERS";

function storageBuffersAsked(asked: number | undefined, have: number, want: number): number {
  let source = "storageBuffers";
  if (asked === undefined && typeof Deno !== "undefined") {
    const env = Deno.env.get(STORAGE_BUFFERS_ENV);
    if (env !== undefined && env !== "") {
      asked = Number(env);
      source = STORAGE_BUFFERS_ENV;
    }
  }
  if (asked === undefined) return Math.max(want, Math.min(have, WANTED_STORAGE_BUFFERS));
  if (!Number.isInteger(asked) || asked < want || asked > have) {
    throw new RangeError(
      `acquireGpu: ${source} must be an integer in [${want}, ${have}] (the adapter offers ` +
        `${have}), got ${asked}`,
    );
  }
  return asked;
}
