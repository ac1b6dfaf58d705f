/**
 * The adapters this machine offers to WebGPU, and the `--adapter` value that picks one.
 *
 * @module
 */
import {
  type AdapterChoice,
  BACKENDS,
  PREFERENCES,
  requestAdapterOn,
  requestOptions,
} from "../gpu/runtime/adapter_request.ts";
import type { Backend } from "../gpu/runtime/device.ts";
import { UsageError } from "./cases/suite.ts";
import { DeviceLease } from "./device_lease.ts";

/** An adapter as `--list-adapters` shows it. */
export interface AdapterListing {
  index: number;
  /** The `--adapter` value that picks it (`backend:preference`). */
  choice: AdapterChoice;
  backend: Backend;
  description: string;
  vendor: string;
  isFallbackAdapter: boolean;
}

/**
 * Lists the distinct adapters reachable on each backend (Vulkan, Metal, DX12, GL) through each
 * request option: lavapipe (Vulkan) and llvmpipe (GL) are listed apart though they share a name.
 */
export async function listAdapters(): Promise<AdapterListing[]> {
  const out: AdapterListing[] = [];
  for (const backend of BACKENDS) {
    for (const preference of PREFERENCES) {
      const a = await requestAdapterOn(backend, requestOptions(preference));
      if (!a) continue;
      const info = a.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
      const key = `${backend}|${info.description}|${info.isFallbackAdapter}`;
      if (out.some((x) => `${x.backend}|${x.description}|${x.isFallbackAdapter}` === key)) continue;
      out.push({
        index: out.length,
        choice: `${backend}:${preference}`,
        backend,
        description: info.description,
        vendor: info.vendor,
        isFallbackAdapter: Boolean(info.isFallbackAdapter),
      });
    }
  }
  return out;
}

/** One line of `--list-adapters`. */
export function formatAdapter(a: AdapterListing): string {
  return `  ${a.index}  ${a.choice.padEnd(24)} ${a.backend.padEnd(7)} ${a.description}${
    a.isFallbackAdapter ? " (software)" : ""
  }`;
}

/**
 * Resolves an `--adapter` value: `default`, `software`, `high-performance`, `low-power`, a
 * backend (`vulkan`, `gl`, `metal`, `dx12`) or `backend:preference`, an index from
 * `--list-adapters`, or a case-insensitive part of an adapter's description (with an optional
 * `backend:` before it, e.g. `gl:llvmpipe`); see {@link pickAdapter}.
 */
export async function resolveAdapter(value: string): Promise<AdapterChoice> {
  return namedChoice(value) ?? pickAdapter(value, await listAdapters());
}

/** `value` when it names a preference, a backend or `backend:preference` alone; else null. */
function namedChoice(value: string): AdapterChoice | null {
  const preferences = PREFERENCES as readonly string[];
  const backends = BACKENDS as readonly string[];
  const [head, tail] = value.includes(":") ? value.split(/:(.*)/s) : [undefined, value];
  if (head === undefined && (preferences.includes(value) || backends.includes(value))) {
    return value as AdapterChoice;
  }
  if (head !== undefined && backends.includes(head) && preferences.includes(tail)) {
    return value as AdapterChoice;
  }
  return null;
}

/**
 * The adapter of `listed` an `--adapter` value picks: a number is an index alone (`256` is never
 * read as part of a description such as "256 bits"), anything else a case-insensitive part of one
 * description (`backend:` before either narrows to that backend). Throws a {@link UsageError}
 * listing the valid values when none or several match.
 */
export function pickAdapter(value: string, listed: readonly AdapterListing[]): AdapterChoice {
  const preferences = PREFERENCES as readonly string[];
  const backends = BACKENDS as readonly string[];
  const [head, tail] = value.includes(":") ? value.split(/:(.*)/s) : [undefined, value];
  const adapters = listed.filter((a) => head === undefined || a.backend === head);
  const isIndex = /^\d+$/.test(tail);
  const byIndex = isIndex ? adapters.find((a) => a.index === Number(tail)) : undefined;
  const byName = isIndex
    ? []
    : adapters.filter((a) => a.description.toLowerCase().includes(tail.toLowerCase()));
  const hit = byIndex ?? (byName.length === 1 ? byName[0] : undefined);
  if (!hit) {
    const known = adapters.map((a) => `${a.index} (${a.choice}): ${a.description}`).join("; ");
    throw new UsageError(
      `--adapter "${value}" matches ${byName.length > 1 ? "several" : "no"} adapter; valid: ${
        preferences.join(", ")
      }, a backend (${backends.join(", ")}), backend:preference, or one of ${
        known || "none found"
      }${byName.length > 1 ? " (name the backend, e.g. gl:llvmpipe, or give the index)" : ""}`,
    );
  }
  return hit.choice;
}

/**
 * The device of a run on the adapter `choice`, acquired before its first case, so that a choice
 * this machine cannot serve (`--adapter metal` on Linux, an adapter whose limits are too low, a
 * `MERGESPLIT_STORAGE_BUFFERS` it does not offer) is a {@link UsageError} naming the adapters it
 * has (exit status 2) rather than a run of failed cases. The caller gives the lease back.
 */
export async function leaseAdapter(choice: AdapterChoice): Promise<DeviceLease> {
  const lease = new DeviceLease({ adapter: choice });
  try {
    await lease.get();
    return lease;
  } catch (e) {
    lease.release();
    const found = (await listAdapters()).map((a) => `${a.index} (${a.choice}): ${a.description}`);
    throw new UsageError(
      `--adapter ${choice}: ${
        (e as Error).message.replaceAll("\n", " ").replace(/[.\s]*$/, "")
      }. Adapters on this ` +
        `machine: ${found.join("; ") || "none"}; valid --adapter values: ${
          PREFERENCES.join(", ")
        }, a backend (${BACKENDS.join(", ")}), backend:preference, or one of those`,
    );
  }
}
