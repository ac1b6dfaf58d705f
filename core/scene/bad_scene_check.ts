/**
 * A test helper for scene validation: checks that `validateScene` names the field a change breaks.
 *
 * @module
 */
import assert from "node:assert/strict";
import { SceneError, validateScene } from "./scene.ts";

/** A change to the JSON of a scene (a plain object, as `JSON.parse` returns it). */
// deno-lint-ignore no-explicit-any
export type SceneMutation = (scene: Record<string, any>) => void;

/**
 * Returns `bad(mutate, field)`: asserts that `validateScene` rejects a copy of the valid scene
 * JSON `good` changed by `mutate` with a `SceneError` whose message matches `field` (`good` is left
 * as it is).
 */
export function badSceneCheck(good: unknown): (mutate: SceneMutation, field: RegExp) => void {
  return (mutate, field) => {
    const s = structuredClone(good) as Record<string, unknown>;
    mutate(s);
    assert.throws(
      () => validateScene(s),
      (e: unknown) => e instanceof SceneError && field.test(e.message),
      `expected ${field}`,
    );
  };
}
