/**
 * The adapters this machine offers to WebGPU, and the `--adapter` value that picks one.
 *
 * @module
 */
import type { AdapterChoice } from "../gpu/runtime/device.ts";
import { UsageError } from "./suite.ts";

/** An adapter as `--list-adapters` shows it. */
export interface AdapterListing {
  index: number;
  choice: AdapterChoice;
  description: string;
  vendor: string;
  isFallbackAdapter: boolean;
}

const CHOICES: AdapterChoice[] = ["default", "software", "high-performance", "low-power"];

/** Lists the distinct adapters reachable through each request option. */
export async function listAdapters(): Promise<AdapterListing[]> {
  const out: AdapterListing[] = [];
  for (const choice of CHOICES) {
    const a = await navigator.gpu.requestAdapter(
      choice === "software"
        ? { forceFallbackAdapter: true }
        : choice === "default"
        ? {}
        : { powerPreference: choice },
    );
    if (!a) continue;
    const info = a.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
    const key = `${info.description}|${info.isFallbackAdapter}`;
    if (out.some((x) => `${x.description}|${x.isFallbackAdapter}` === key)) continue;
    out.push({
      index: out.length,
      choice,
      description: info.description,
      vendor: info.vendor,
      isFallbackAdapter: Boolean(info.isFallbackAdapter),
    });
  }
  return out;
}

/**
 * Resolves an `--adapter` value: `default`, `software`, `high-performance`, `low-power`, an index
 * from `--list-adapters`, or a case-insensitive part of an adapter's description.
 */
export async function resolveAdapter(value: string): Promise<AdapterChoice> {
  if ((CHOICES as string[]).includes(value)) return value as AdapterChoice;
  const adapters = await listAdapters();
  const byIndex = /^\d+$/.test(value) ? adapters.find((a) => a.index === Number(value)) : undefined;
  const byName = adapters.filter((a) => a.description.toLowerCase().includes(value.toLowerCase()));
  const hit = byIndex ?? (byName.length === 1 ? byName[0] : undefined);
  if (!hit) {
    const known = adapters.map((a) => `${a.index} (${a.choice}): ${a.description}`).join("; ");
    throw new UsageError(
      `--adapter "${value}" matches ${byName.length > 1 ? "several" : "no"} adapter; valid: ${
        CHOICES.join(", ")
      }, or one of ${known || "none found"}`,
    );
  }
  return hit.choice;
}
