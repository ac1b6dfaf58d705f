/**
 * Test fixture: scenes run end to end by the engine on the software adapter (the implementation
 * `deno task test` runs the file on), one device per test process.
 *
 * @module
 */
import type { Scene } from "../core/scene/scene.ts";
import type { MetricsSample } from "./metrics/metrics.ts";
import { acquireGpu, type GpuContext } from "./runtime/device.ts";
import { Engine } from "./engine.ts";

let gpu: GpuContext | undefined;

/** The process's software-adapter device (acquired at the first call). */
export async function softwareGpu(): Promise<GpuContext> {
  return gpu ??= await acquireGpu({ adapter: "software" });
}

/** Destroys the process's device, if one was acquired (the end of a test file). */
export function releaseSoftwareGpu(): void {
  gpu?.device.destroy();
  gpu = undefined;
}

/**
 * Runs `scene` under `handler` for `options.steps` steps (default its whole duration) and reads
 * back its metrics series, handler statistics, state hash and state; the engine is destroyed.
 */
export async function simulate(
  scene: Scene,
  handler: string,
  options: { steps?: number; stageGates?: boolean; stepsPerSubmit?: number } = {},
) {
  const { steps, ...engineOptions } = options;
  const engine = await Engine.create(scene, {
    handler,
    gpu: await softwareGpu(),
    ...engineOptions,
  });
  try {
    await engine.run(steps ?? Math.round(scene.duration / scene.dt));
    return {
      series: await engine.readMetrics(),
      stats: await engine.readStats(),
      hash: await engine.stateHash(),
      state: await engine.readState(),
      engine,
    };
  } finally {
    engine.destroy();
  }
}

/** The largest value of field `f` over a metrics series. */
export const seriesMax = (s: readonly MetricsSample[], f: keyof MetricsSample): number =>
  Math.max(...s.map((r) => r[f]));
