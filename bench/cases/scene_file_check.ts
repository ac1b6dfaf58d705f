/**
 * The checks of a scene file that need the registered plug-ins or the machine, run when the file
 * is loaded (`loadSceneFile` of `bench/cases/suite.ts`), before any device is taken or any particle is
 * built: the systems it names and their parameters against each system's own schema and checks
 * (`gpu/systems/registry.ts`), and its estimated size (`core/scene/scene_size.ts`) against the harness's
 * limits and this machine's memory, and its steps (duration / dt) within the bench's
 * {@link MAX_STEPS}. Each failure is a `SceneError` naming the field.
 *
 * @module
 */
import { ParamError, type ParamSchema } from "../../core/params.ts";
import { type Scene, SceneError } from "../../core/scene/scene.ts";
import { checkSceneSize, type SceneSize } from "../../core/scene/scene_size.ts";
import { sceneSystems, systemEntries } from "../../gpu/systems/registry.ts";
import { MAX_STEPS } from "../limits.ts";

/** The registered systems' parameter schemas by id, for `validateScene`'s `knownSystems`. */
export function systemSchemas(): Record<string, ParamSchema> {
  return Object.fromEntries(systemEntries().map((e) => [e.id, e.params]));
}

/**
 * This machine's memory in bytes (`Deno.systemMemoryInfo().total`); Infinity when it cannot be
 * read (no `--allow-sys`), so that only the harness's own limits apply.
 */
export function machineMemoryBytes(): number {
  try {
    const total = Deno.systemMemoryInfo().total;
    return total > 0 ? total : Infinity;
  } catch {
    return Infinity;
  }
}

/**
 * A registry error (`ParamError`, or a `RangeError` reading `scene.<field>: …`) as a
 * {@link SceneError} on the same field; anything else as it is.
 */
function asSceneError(e: unknown): unknown {
  if (e instanceof ParamError) return new SceneError(e.field.replace(/^scene\./, ""), e.detail);
  const m = e instanceof RangeError ? /^scene\.([^:\s]+): (.*)$/s.exec(e.message) : null;
  return m ? new SceneError(m[1], m[2]) : e;
}

/**
 * Checks a validated scene before anything is built: every system its bodies use resolves its
 * parameters (required ones present, ranges as declared) and accepts the scene (the system's own
 * `checkScene`, e.g. SPH's h ≥ 2·radius, FLIP's dx dividing the domain); then its estimated size
 * passes {@link checkSceneSize} with this machine's memory (`options.memoryBytes` replaces it);
 * first of all its steps pass {@link checkSceneSteps}.
 * Throws a {@link SceneError} naming the field; returns the size estimate.
 */
export function checkSceneFile(scene: Scene, options: { memoryBytes?: number } = {}): SceneSize {
  checkSceneSteps(scene);
  try {
    sceneSystems(scene);
  } catch (e) {
    throw asSceneError(e);
  }
  return checkSceneSize(scene, { memoryBytes: options.memoryBytes ?? machineMemoryBytes() });
}

/**
 * Throws a {@link SceneError} on `duration` when the scene's own run (duration / dt steps) is
 * longer than {@link MAX_STEPS}: checked as the file is loaded, not when its first case starts.
 */
export function checkSceneSteps(scene: Scene): void {
  const steps = Math.round(scene.duration / scene.dt);
  if (steps <= MAX_STEPS) return;
  throw new SceneError(
    "duration",
    `${scene.duration} s at dt ${scene.dt} s is ${steps} steps, more than the bench's ${
      MAX_STEPS.toLocaleString("en")
    }; give a duration of at most ${MAX_STEPS * scene.dt} s`,
  );
}
