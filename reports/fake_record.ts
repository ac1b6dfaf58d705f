/**
 * Synthetic case records for the report's tests: a complete, schema-shaped record with plausible
 * timings, metrics and (optionally) snapshots of a fluid column falling onto a sagging cloth, with
 * (optionally) a brittle block beside it that breaks into more and more fragments.
 *
 * @module
 */
import {
  type CaseRecord,
  type PhaseTiming,
  SAMPLE_FIELDS,
  type SampleField,
} from "../core/result.ts";
import {
  encodeBodies,
  encodeFragments,
  encodeFrame,
  NO_FRAGMENT_LABEL,
  type Snapshots,
} from "../core/io/snapshot_codec.ts";
import { TABLE_I_PHASE_ORDER } from "./tables/table_one.ts";

/** Overrides of {@link fakeRecord}: any record field, plus summary metrics merged into defaults. */
export type FakeRecordOptions = Partial<CaseRecord> & {
  summary?: Record<string, number | boolean>;
  /** Multiplies every phase time (default 1). */
  timeScale?: number;
};

function phase(median: number): PhaseTiming {
  const samples = [0.9, 1, 1.1, 0.95, 1.05].map((f) => f * median);
  return {
    unit: "ms/step",
    median,
    mad: 0.05 * median,
    ci95: [0.95 * median, 1.05 * median],
    min: 0.9 * median,
    max: 1.1 * median,
    n: samples.length,
    samples,
  };
}

/** Values of the fake series by field (row k of 20, t = 0.01 (k + 1)); every other field 0. */
const SERIES_VALUES: Partial<Record<SampleField, (k: number, pass: number) => number>> = {
  time: (k) => 0.01 * (k + 1),
  passThrough: (k, pass) => Math.round(pass * Math.min(1, k / 10)),
  maxPenetrationDepth: (k) => 0.1 * Math.sin(k / 3) ** 2,
  maxSpeed: (k) => 2 + Math.sin(k / 4),
  kinetic: (k) => 20 * Math.exp(-k / 10),
  potential: (k) => 90 - k,
  elastic: (k) => 0.1 * k,
  sheetDeflection: (k) => 0.4 * k,
  maxRebound: (k) => 1 + 0.1 * k,
  momentumError: () => 1e-7,
  energyError: () => 2e-7,
  stage2Pairs: (k) => 10 * k,
  groups: (k) => 20 * k,
  largestGroup: () => 8,
  largestSheetGroup: (k) => 3 + k,
};

/** A complete record of a finished case; `options` override fields and summary metrics. */
export function fakeRecord(options: FakeRecordOptions = {}): CaseRecord {
  const { summary, timeScale = 1, ...fields } = options;
  const medians = [3.4, 0.8, 1.2, 2.5, 0.6, 0.9, 0.3];
  const phases: Record<string, PhaseTiming> = {};
  TABLE_I_PHASE_ORDER.forEach((p, k) => {
    phases[p] = phase(
      timeScale * (p === "total" ? medians.reduce((a, b) => a + b, 0) : medians[k]),
    );
  });
  const pass = Number(summary?.passThroughMax ?? 0);
  const rows = Array.from(
    { length: 20 },
    (_, k) => SAMPLE_FIELDS.map((f) => SERIES_VALUES[f]?.(k, pass) ?? 0),
  );
  return {
    schemaVersion: 1,
    scene: "fig4-fluid-cloth",
    sceneSource: "catalog",
    handler: "merge-split",
    handlerParams: { alpha: 1, beta: 0, nMin: 8, nMax: 64 },
    scale: "tiny",
    seed: 2021,
    steps: 200,
    dt: 0.001,
    particles: { solid: 256, fluid: 400 },
    status: "ok",
    error: null,
    protocol: { warmupSteps: 20, repeats: 1, timeoutSeconds: 600 },
    timings: { source: "timestamp", phases, transfer: { bytes: 1000, ms: 1 } },
    metrics: {
      summary: {
        passThrough: pass,
        passThroughMax: pass,
        passThroughFraction: pass / 400,
        deepOverlaps: 0,
        maxPenetrationDepth: 0.1,
        maxSpeedRatio: 1.05,
        flungSpeedRatio: 0.4,
        maxRebound: 2.5,
        fluidRebound: 0.3,
        referenceSpeed: 4,
        energyRatio: 0.75,
        nanCount: 0,
        exploded: false,
        sheetDeflection: 8,
        momentumError: 2e-7,
        energyError: 5e-7,
        stage2Pairs: 100,
        groups: 200,
        largestGroup: 30,
        ...summary,
      },
      series: { every: 10, fields: [...SAMPLE_FIELDS], rows },
    },
    stateHash: "a".repeat(64),
    repeatable: true,
    hostSyncsPerStep: 0.01,
    env: {
      deno: "2.9.6",
      v8: "15.0",
      typescript: "6.0",
      os: { platform: "linux", release: "6.1", arch: "x64" },
      cpu: { model: "Test CPU", cores: 2 },
      memoryBytes: 8 * 2 ** 30,
      adapter: {
        vendor: "test",
        architecture: "",
        device: "0",
        description: "llvmpipe (test)",
        isFallbackAdapter: true,
        features: ["timestamp-query"],
        limits: {},
      },
      git: { commit: "0123456789abcdef0123456789abcdef01234567", dirty: false },
      webgpuBackend: null,
    },
    configHash: "c".repeat(64),
    startedAt: "2026-01-02T03:04:05.000Z",
    wallSeconds: 12.5,
    ...fields,
  };
}

/** Metrics sampling period of {@link fakeSnapshots} (steps): fragments are as of its last sample. */
const FAKE_METRICS_EVERY = 15;

/**
 * Snapshots of a synthetic scene: an `n`×`n` cloth at y = 0 sagging over time and a fluid block of
 * `fluid` particles falling onto it, `frames` frames over 0.2 s (40 steps apart). With `solid` > 0,
 * a third body, a solid block of `solid` particles beside the cloth, cracks into 1 + 2f slabs
 * (at most its side) at frame f that drift apart; every frame then records its fragments, as of
 * the last metrics sample (every 15 steps).
 */
export function fakeSnapshots(
  options: { n?: number; fluid?: number; frames?: number; solid?: number } = {},
): Snapshots {
  const n = options.n ?? 24;
  const fluid = options.fluid ?? 600;
  const frameCount = options.frames ?? 6;
  const solid = options.solid ?? 0;
  const domain: Snapshots["domain"] = { min: [-0.45, -0.45, -0.45], max: [0.45, 0.75, 0.45] };
  const count = n * n + fluid + solid;
  const body = new Uint32Array(count);
  body.fill(1, n * n);
  body.fill(2, n * n + fluid);
  const solidSide = Math.max(1, Math.ceil(Math.cbrt(solid)));
  const side = Math.ceil(Math.cbrt(fluid));
  const frames: Snapshots["frames"] = [];
  for (let f = 0; f < frameCount; f++) {
    const t = (0.2 * f) / Math.max(1, frameCount - 1);
    const pos = new Float32Array(4 * count);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const x = -0.3 + (0.6 * i) / (n - 1), z = -0.3 + (0.6 * j) / (n - 1);
        const sag = -0.5 * t * Math.cos((Math.PI * x) / 0.6) * Math.cos((Math.PI * z) / 0.6);
        pos.set([x, sag, z, 0], 4 * (i * n + j));
      }
    }
    for (let k = 0; k < fluid; k++) {
      const a = k % side, b = Math.floor(k / side) % side, c = Math.floor(k / (side * side));
      const y = Math.max(0.02, 0.3 + 0.02 * c - 4.9 * t * t * 4);
      pos.set([-0.1 + 0.02 * a, y, -0.1 + 0.02 * b, 0], 4 * (n * n + k));
    }
    const step = 40 * f;
    let fragments: Partial<Snapshots["frames"][number]> = {};
    if (solid > 0) {
      const slabs = Math.min(solidSide, 1 + 2 * f);
      const labels = new Uint32Array(count).fill(NO_FRAGMENT_LABEL);
      const first = new Map<number, number>();
      for (let k = 0; k < solid; k++) {
        const i = n * n + fluid + k;
        const a = k % solidSide, b = Math.floor(k / solidSide) % solidSide;
        const c = Math.floor(k / (solidSide * solidSide));
        const slab = Math.floor((a * slabs) / solidSide);
        if (!first.has(slab)) first.set(slab, i);
        labels[i] = first.get(slab)!;
        pos.set([0.2 + 0.02 * a + 0.15 * t * slab, 0.05 + 0.02 * c, -0.1 + 0.02 * b, 0], 4 * i);
      }
      fragments = {
        ...encodeFragments(labels, { stride: 1 }),
        fragmentsStep: Math.floor(step / FAKE_METRICS_EVERY) * FAKE_METRICS_EVERY,
      };
    }
    const frame = {
      step,
      time: t,
      positions: encodeFrame(pos, { domain, stride: 1 }),
      ...fragments,
    };
    frames.push(frame);
  }
  return {
    bodies: [
      { name: "cloth", kind: "cloth" },
      { name: "fluid", kind: "fluid" },
      ...(solid > 0 ? [{ name: "block", kind: "solid" as const }] : []),
    ],
    body: encodeBodies(body, 1),
    count,
    stride: 1,
    radius: 0.01,
    domain,
    frames,
  };
}
