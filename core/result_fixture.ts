/**
 * A complete case record for the tests of its readers (the results file, `--resume`, the docs'
 * reduction): every field the schema requires, of a case that finished `ok` with one timing phase
 * and a small summary; `fields` replace any of them.
 *
 * @module
 */
import { type CaseRecord, SCHEMA_VERSION } from "./result.ts";

/** A complete `ok` record of Fig. 4 × merge-split at tiny, with `fields` replacing its own. */
export function recordFixture(fields: Partial<CaseRecord> = {}): CaseRecord {
  const phase = {
    unit: "ms/step" as const,
    median: 1,
    mad: 0.1,
    ci95: [0.9, 1.1] as [number, number],
    min: 0.8,
    max: 1.2,
    n: 3,
    samples: [0.9, 1, 1.1],
  };
  return {
    schemaVersion: SCHEMA_VERSION,
    scene: "fig4-fluid-cloth",
    sceneSource: "catalog",
    handler: "merge-split",
    handlerParams: { alpha: 1 },
    scale: "tiny",
    seed: 1,
    steps: 10,
    dt: 1e-3,
    particles: { solid: 1, fluid: 2 },
    status: "ok",
    error: null,
    protocol: { warmupSteps: 1, repeats: 1, timeoutSeconds: 600 },
    timings: { source: "timestamp", phases: { total: phase }, transfer: { bytes: 0, ms: 0 } },
    metrics: {
      summary: { passThroughMax: 0, exploded: false },
      series: { every: 5, fields: ["time"], rows: [[0.005]] },
    },
    stateHash: "a".repeat(64),
    repeatable: true,
    hostSyncsPerStep: 0.1,
    env: null,
    configHash: "0".repeat(64),
    startedAt: new Date(0).toISOString(),
    wallSeconds: 1,
    ...fields,
  };
}
