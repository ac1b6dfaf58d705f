/**
 * The result schema: one JSON object per case, appended as a line to `results.jsonl` when the case
 * finishes. `schemaVersion` is bumped on any incompatible change; {@link parseResults} reads every
 * version it knows and upgrades it to the current shape. The JSON Schema is
 * `core/result.schema.json`; the README's "Result files" section describes the fields.
 *
 * The types a record embeds (the {@link Environment} with its {@link AdapterRecord}, the
 * {@link SampleSummary} of a timing) are defined here, so that readers of result files (`reports/`)
 * depend on `core/` only; `bench/` and `gpu/runtime/` re-export them.
 *
 * @module
 */
import type { Scale } from "./scene.ts";
import type { Snapshots } from "./snapshot_codec.ts";

/** Current result schema version. */
export const SCHEMA_VERSION = 1;

/**
 * Outcome of a case: `gpu-timeout` when its GPU work did not complete by its deadline (the error
 * names the phase and the pending operation; the device was replaced).
 */
export type CaseStatus = "ok" | "unstable" | "failed" | "timeout" | "gpu-timeout";

/** Every {@link CaseStatus}, in the order messages list them. */
export const CASE_STATUSES: readonly CaseStatus[] = [
  "ok",
  "unstable",
  "failed",
  "timeout",
  "gpu-timeout",
];

/** What the harness records about the adapter a case ran on. */
export interface AdapterRecord {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /**
   * The WebGPU backend the adapter was found on (`vulkan`, `gl`, `metal`, `dx12`): lavapipe
   * (Vulkan) and llvmpipe (GL) share a description. Absent in records made before it was kept.
   */
  backend?: string;
  isFallbackAdapter: boolean;
  /** Features requested and granted on the device. */
  features: string[];
  /** Limits requested explicitly (name → value granted). */
  limits: Record<string, number>;
}

/** The environment of a run (recorded with every case). */
export interface Environment {
  deno: string;
  v8: string;
  typescript: string;
  os: { platform: string; release: string; arch: string };
  cpu: { model: string; cores: number };
  memoryBytes: number;
  adapter: AdapterRecord;
  git: { commit: string | null; dirty: boolean | null };
  /** Environment variables that change WebGPU's choice of backend, when set. */
  webgpuBackend: string | null;
}

/** Summary of a sample, in the samples' unit. */
export interface SampleSummary {
  median: number;
  /** Median absolute deviation from the median (unscaled). */
  mad: number;
  /** 95% percentile-bootstrap confidence interval of the median: [low, high]. */
  ci95: [number, number];
  min: number;
  max: number;
  /** Number of samples. */
  n: number;
}

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
  /**
   * How systems saw a meta-particle they share (`own-part` or `whole`, gpu/coupling/coupling.ts);
   * absent in records written before it existed (then `own-part`).
   */
  coupling?: string;
  /**
   * The values of a parameter sweep (`--sweep`) this case ran at, by target: `<handler>.<param>`
   * (e.g. `penalty.stiffness`, also in `handlerParams`) or `scene.dt` (also in `dt`); absent for a
   * case outside a sweep.
   */
  sweep?: Record<string, number>;
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
    /**
     * The host's wall clock per measured step, over whole batches (encoding, submission and each
     * batch's one readback wait included): a cross-check of the GPU timestamps, which it bounds
     * from above when batches are long. Absent in records written before it was measured.
     */
    wall?: { steps: number; msPerStep: number };
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
  /** SHA-256 of the resolved case configuration (scene, handler and its parameters, coupling, steps, protocol). */
  configHash: string;
  startedAt: string;
  wallSeconds: number;
  /**
   * Seconds the case spent creating compute pipelines and their shader modules, all repetitions
   * (apart from the step times; near 0 where a device shared with earlier cases of the run had
   * them cached). A driver that compiles lazily (llvmpipe) does so in the first, untimed steps
   * instead. Absent in records made before it was kept.
   */
  compileSeconds?: number;
  /** Pipelines the case created, and those it took from its device's cache (optional). */
  pipelines?: { created: number; reused: number };
  /** Particle snapshots at a few times (first repetition), for the report's 3D view (optional). */
  snapshots?: Snapshots;
  /**
   * The implicit solves' statistics at the last step of the first repetition, by system id: the
   * solver, its tolerance and iteration cap, the iterations it ran and where it stopped (optional).
   */
  /**
   * What one step costs the GPU and the host (optional; first repetition): dispatches encoded per
   * step (a metrics sample's excluded) and per engine phase (`metrics`: one sample's), the peak
   * bytes of GPU buffers, and the handler's statistics that describe its work (merge-split: the
   * most rounds of grouping one stage needed).
   */
  gpu?: {
    dispatchesPerStep: number;
    dispatchesByPhase: Record<string, number>;
    peakBufferBytes: number;
    /** Workgroup size of each kernel set by an `override` constant, by kernel label. */
    workgroupSizes?: Record<string, number>;
    groupingRounds?: number;
    /** Steps whose stage 2 ran (merge-split; of `steps`, warm-up included). */
    stage2Runs?: number;
    /** Steps the first repetition ran (warm-up included). */
    steps?: number;
    /**
     * Contact partners dropped because a particle's slot of K (`maxPerParticle`) was full, summed
     * over the first repetition's steps (warm-up included); absent where nothing can collide. A
     * nonzero count means collisions were missed: raise K.
     */
    contactsDropped?: number;
    /** K, the contact slots per particle (16 unless the scene is too large for one binding). */
    contactSlots?: number;
  };
  solvers?: Record<string, {
    iterations: number;
    relativeResidual: number;
    converged: boolean;
    method?: string;
    tolerance?: number;
    maxIterations?: number;
    /** Whether stage 2's solve starts from stage 1's solution. */
    warmStart?: boolean;
    /** Per stage (1, 2): solves run and their iterations summed over the whole run. */
    stages?: { solves: number; iterations: number }[];
  }>;
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
  if (!(CASE_STATUSES as readonly unknown[]).includes(o.status)) {
    const valid = `${CASE_STATUSES.slice(0, -1).join(", ")} or ${CASE_STATUSES.at(-1)}`;
    throw new SyntaxError(`results line ${line}: status "${o.status}" is not ${valid}`);
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
