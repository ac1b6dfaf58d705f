/**
 * What the bench's diagnostics (`deno task leaks`, `deno task hotspots`) share: one case of a scene
 * under a handler, stepped on the GPU outside the timed bench, with the state read back as they go.
 *
 * @module
 */
import type { Scene } from "../../core/scene/scene.ts";
import { Engine } from "../../gpu/engine.ts";
import type { GpuContext } from "../../gpu/runtime/device.ts";

/** The case a diagnostic steps: the handler, its overrides, how many steps, and on which GPU. */
export interface DiagnosticRun {
  /** Handler id (as `--handler`). */
  handler: string;
  /** Overrides of the handler's parameters (as `--param`). */
  params?: Readonly<Record<string, number>>;
  /** Steps to run (default: the scene's duration / dt). */
  steps?: number;
  /** The device (default: the engine acquires one). */
  gpu?: GpuContext;
}

/** The engine of a diagnostic's case and the steps it runs; the caller destroys the engine. */
export async function startDiagnostic(
  scene: Scene,
  run: DiagnosticRun,
): Promise<{ engine: Engine; steps: number }> {
  const steps = run.steps ?? Math.round(scene.duration / scene.dt);
  const engine = await Engine.create(scene, {
    handler: run.handler,
    params: run.params,
    gpu: run.gpu,
  });
  return { engine, steps };
}
