/**
 * Runs one case (scene × handler × scale × adapter) end to end and summarises what it measured:
 * the metrics of DESIGN.md and the per-phase times of the paper's Table I.
 *
 * @module
 */
import type { Scale } from "../core/scene.ts";
import { getScene } from "../scenes/catalog.ts";
import { Engine, type Phase, type StepTimings } from "../gpu/engine.ts";
import type { MetricsSample } from "../gpu/metrics.ts";

/** Table I phases, each the sum of the engine phases it covers. */
export const TABLE_I_PHASES: Readonly<Record<string, readonly Phase[]>> = {
  neighborSearch: ["neighborSearch"],
  collisionDetection: ["collisionDetection"],
  merging: ["merging1", "merging2"],
  integrationStage1: ["integration1"],
  integrationStage2: ["integration2"],
  splitting: ["splitting1", "splitting2", "endOfStep"],
  metrics: ["metrics"],
};

/** A case's summary metrics (DESIGN.md "Metrics"). */
export interface CaseMetrics {
  /** Fluid particles on the other side of the cloth at the end, and the most at any sample. */
  passThrough: number;
  passThroughMax: number;
  deepOverlaps: number;
  /** Max penetration depth over the run, in radii. */
  maxPenetrationDepth: number;
  /** Max speed over the run / the scene's reference speed. */
  maxSpeedRatio: number;
  /** Max upward fluid speed over the run (m/s): fluid thrown back. */
  maxRebound: number;
  /** (kinetic + potential + elastic) at the end / at the first sample. */
  energyRatio: number;
  nanCount: number;
  exploded: boolean;
  /** Max cloth displacement from rest, in radii. */
  sheetDeflection: number;
  /** Worst relative momentum / energy error of any split. */
  momentumError: number;
  energyError: number;
}

/** What one case produced. */
export interface CaseResult {
  scene: string;
  handler: string;
  scale: Scale;
  particles: { solid: number; fluid: number };
  steps: number;
  dt: number;
  metrics: CaseMetrics;
  series: MetricsSample[];
  timings: StepTimings;
  /** Mean ms per step of each Table I phase (timestamp source) and of the total. */
  meanMs: Record<string, number>;
  stateHash: string;
  /** Host syncs (mapAsync / onSubmittedWorkDone) per step during the run: one per batch. */
  hostSyncsPerStep: number;
  wallSeconds: number;
}

const mean = (
  xs: readonly number[],
) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

/** Summarises a metrics time series (the definitions in gpu/metrics.ts). */
export function summarise(
  series: readonly MetricsSample[],
  options: { referenceSpeed: number },
): CaseMetrics {
  const max = (f: keyof MetricsSample) => series.reduce((m, r) => Math.max(m, r[f]), 0);
  const last = series.at(-1);
  const first = series[0];
  const energy = (r: MetricsSample) => r.kinetic + r.potential + r.elastic;
  const maxSpeedRatio = max("maxSpeed") / options.referenceSpeed;
  const nanCount = max("nanCount");
  return {
    passThrough: last?.passThrough ?? 0,
    passThroughMax: max("passThrough"),
    deepOverlaps: max("deepOverlaps"),
    maxPenetrationDepth: max("maxPenetrationDepth"),
    maxSpeedRatio,
    maxRebound: max("maxRebound"),
    energyRatio: first && last ? energy(last) / energy(first) : NaN,
    nanCount,
    exploded: nanCount > 0 || maxSpeedRatio > 10,
    sheetDeflection: max("sheetDeflection"),
    momentumError: last?.momentumError ?? 0,
    energyError: last?.energyError ?? 0,
  };
}

/** Runs one case for the scene's duration (or `steps`). */
export async function runCase(
  ids: { scene: string; handler: string; scale: Scale },
  options: {
    adapter?: "default" | "software";
    steps?: number;
    onProgress?: (done: number, total: number) => void;
  } = {},
): Promise<CaseResult> {
  const scene = getScene(ids.scene, { scale: ids.scale });
  const t0 = performance.now();
  const engine = await Engine.create(scene, {
    handler: ids.handler,
    adapter: options.adapter ?? "default",
  });
  try {
    const steps = options.steps ?? Math.round(scene.duration / scene.dt);
    await engine.run(steps, { onProgress: (d) => options.onProgress?.(d, steps) });
    const syncs = engine.hostSyncs;
    const series = await engine.readMetrics();
    const t = engine.timings;
    const meanMs: Record<string, number> = {};
    for (const [name, parts] of Object.entries(TABLE_I_PHASES)) {
      const per = parts.map((p) => mean(t.phases[p] ?? []));
      meanMs[name] = per.filter((x) => !Number.isNaN(x)).reduce((a, b) => a + b, 0);
    }
    meanMs.total = mean(t.total);
    const solid = engine.particles.bodies.filter((b) => b.kind !== "fluid").reduce(
      (a, b) => a + b.count,
      0,
    );
    return {
      scene: scene.id,
      handler: ids.handler,
      scale: ids.scale,
      particles: { solid, fluid: engine.count - solid },
      steps,
      dt: scene.dt,
      metrics: summarise(series, { referenceSpeed: scene.cfl.referenceSpeed }),
      series,
      timings: t,
      meanMs,
      stateHash: await engine.stateHash(),
      hostSyncsPerStep: syncs / steps,
      wallSeconds: (performance.now() - t0) / 1000,
    };
  } finally {
    engine.destroy();
  }
}
