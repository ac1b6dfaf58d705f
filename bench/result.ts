/**
 * The result schema: one JSON object per case, appended as a line to `results.jsonl` when the case
 * finishes. `schemaVersion` is bumped on any incompatible change; {@link parseResults} reads every
 * version it knows and upgrades it to the current shape. The JSON Schema is
 * `bench/result.schema.json`; the README's "Result files" section describes the fields.
 *
 * @module
 */
import type { Scale } from "../core/scene.ts";
import type { Environment } from "./environment.ts";
import type { SampleSummary } from "./statistics.ts";
import type { Snapshots } from "../core/snapshot_codec.ts";

/** Current result schema version. */
export const SCHEMA_VERSION = 1;

/** Outcome of a case. */
export type CaseStatus = "ok" | "unstable" | "failed" | "timeout";

/** Timing statistics of one phase, in ms per step. */
export interface PhaseTiming extends SampleSummary {
  unit: "ms/step";
  /** Every measured step's time. */
  samples: number[];
}

/** One case's record (schema version 1). */
export interface CaseRecord {
  schemaVersion: number;
  scene: string;
  /** Where the scene came from: `catalog` or the path of a scene file. */
  sceneSource: string;
  handler: string;
  handlerParams: Record<string, number>;
  scale: Scale;
  seed: number;
  /** Steps per repetition (warm-up included), and their time step (s). */
  steps: number;
  dt: number;
  particles: { solid: number; fluid: number };
  status: CaseStatus;
  error: string | null;
  protocol: { warmupSteps: number; repeats: number; timeoutSeconds: number };
  timings: {
    source: "timestamp" | "wall-clock";
    /** Table I phases plus `total`. */
    phases: Record<string, PhaseTiming>;
    transfer: { bytes: number; ms: number };
  } | null;
  /** Summary metrics and their time series (first repetition), sampled every `every` steps. */
  metrics: {
    summary: Record<string, number | boolean>;
    series: { every: number; fields: string[]; rows: number[][] };
  } | null;
  /** SHA-256 of the final positions and velocities (first repetition). */
  stateHash: string | null;
  /** Whether every repetition ended in the same state. */
  repeatable: boolean | null;
  hostSyncsPerStep: number | null;
  env: Environment | null;
  /** SHA-256 of the resolved case configuration (scene, handler, steps, protocol). */
  configHash: string;
  startedAt: string;
  wallSeconds: number;
  /** Particle snapshots at a few times (first repetition), for the report's 3D view (optional). */
  snapshots?: Snapshots;
}

/** Validates the fields every version has; throws naming the line and field. */
function check(o: Record<string, unknown>, line: number): void {
  const need: Array<[string, "number" | "string"]> = [
    ["schemaVersion", "number"],
    ["scene", "string"],
    ["handler", "string"],
    ["scale", "string"],
    ["status", "string"],
    ["configHash", "string"],
  ];
  for (const [k, t] of need) {
    const actual: string = typeof o[k];
    if (actual !== t) {
      throw new SyntaxError(`results line ${line}: field "${k}" must be a ${t}`);
    }
  }
  if (!["ok", "unstable", "failed", "timeout"].includes(o.status as string)) {
    throw new SyntaxError(
      `results line ${line}: status "${o.status}" is not ok, unstable, failed or timeout`,
    );
  }
}

/**
 * Parses a `results.jsonl` text: one record per non-empty line, upgraded to the current schema.
 * Throws a `SyntaxError` naming the line of a malformed record or an unknown schema version.
 */
export function parseResults(text: string): CaseRecord[] {
  const out: CaseRecord[] = [];
  text.split("\n").forEach((raw, k) => {
    const line = raw.trim();
    if (!line) return;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line, (_k, v) => (v === "Infinity" ? Infinity : v));
    } catch (e) {
      throw new SyntaxError(`results line ${k + 1} is not JSON: ${(e as Error).message}`);
    }
    check(o, k + 1);
    if (o.schemaVersion === 1) out.push(o as unknown as CaseRecord);
    else {
      throw new SyntaxError(
        `results line ${
          k + 1
        }: schemaVersion ${o.schemaVersion} is newer than this harness reads (${SCHEMA_VERSION}); update mergesplit`,
      );
    }
  });
  return out;
}

/** Serialises a record as one JSON line (Infinity written as "Infinity"). */
export function recordLine(record: CaseRecord): string {
  return JSON.stringify(record, (_k, v) => (v === Infinity ? "Infinity" : v)) + "\n";
}
