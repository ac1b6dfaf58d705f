/**
 * Every collision handler, by string id, in one place and in report order: `merge-split` (the
 * paper's method) and the baselines it is compared with (§6.1) — `penalty-*`, `kernel-repulsion-*` and
 * `impulse` — and `velocity-projection` (Gao et al. 2018, Eqs. 19–20). A new handler is a folder
 * under `gpu/handlers/` plus one line here, or a {@link registerHandler} call; it touches no
 * system and not `core/scene/scene.ts` (its parameters live in `scene.handlers[id]`, checked against
 * its schema; a schema the scenes use too, for its defaults or level factors, lives in
 * `core/handler_schemas/`, one file per handler family).
 *
 * @module
 */
import {
  AKINCI_VOLUME_LEVELS,
  type AkinciLevel,
} from "../../core/handler_schemas/akinci_schema.ts";
import {
  KERNEL_REPULSION_LEVELS,
  type KernelRepulsionLevel,
} from "../../core/handler_schemas/kernel_repulsion_schema.ts";
import { PENALTY_LEVELS, type PenaltyLevel } from "../../core/handler_schemas/penalty_schema.ts";
import { type ParamValues, resolveParams } from "../../core/params.ts";
import { Registry } from "../../core/registry.ts";
import { handlerApplies, type Scene } from "../../core/scene/scene.ts";
import type { HandlerEntry } from "./handler.ts";
import { akinciHandler } from "./akinci/akinci_handler.ts";
import { IMPULSE_HANDLER } from "./impulse/impulse_handler.ts";
import { MERGE_SPLIT_HANDLER } from "./merge-split/merge_split_handler.ts";
import { penaltyHandler } from "./penalty/penalty_handler.ts";
import { kernelRepulsionHandler } from "./kernel-repulsion/kernel_repulsion_handler.ts";
import { VELOCITY_PROJECTION_HANDLER } from "./velocity-projection/velocity_projection_handler.ts";

// the levels are the plug-ins' own (core/handler_schemas/), in their order
const penaltyLevels = Object.keys(PENALTY_LEVELS) as PenaltyLevel[];
const kernelRepulsionLevels = Object.keys(KERNEL_REPULSION_LEVELS) as KernelRepulsionLevel[];
const [akinciWeak, akinciStrong] = Object.keys(AKINCI_VOLUME_LEVELS) as AkinciLevel[];

const REGISTRY = new Registry<HandlerEntry>("handler", [
  MERGE_SPLIT_HANDLER,
  ...penaltyLevels.map((level) => penaltyHandler(level)),
  ...kernelRepulsionLevels.map((level) => kernelRepulsionHandler(level)),
  akinciHandler(akinciWeak),
  akinciHandler(),
  akinciHandler(akinciStrong),
  IMPULSE_HANDLER,
  VELOCITY_PROJECTION_HANDLER,
  // the families at explicit parameter values (`--handler penalty --sweep penalty.stiffness=…`)
  penaltyHandler(),
  kernelRepulsionHandler(),
]);

/** Every handler, by id, in report order (a live view: {@link registerHandler} adds to it). */
export const HANDLERS: ReadonlyMap<string, HandlerEntry> = REGISTRY.map;

/** Registers a handler (e.g. one defined in a test); returns a function that unregisters it. */
export function registerHandler(entry: HandlerEntry): () => void {
  return REGISTRY.register(entry);
}

/** Looks up a handler; throws a `RangeError` listing the valid ids. */
export function getHandler(id: string): HandlerEntry {
  return REGISTRY.get(id);
}

/**
 * Handler `id`'s entry when it applies to `scene` (listed in `scene.applicableHandlers`, and not
 * refused by its own `notApplicable`); otherwise a `RangeError` saying why and what the scene takes.
 */
export function applicableHandler(scene: Scene, id: string): HandlerEntry {
  const entry = getHandler(id);
  const why = entry.notApplicable?.(scene);
  if (!handlerApplies(scene, id) || why) {
    const takes = `it takes: ${scene.applicableHandlers.join(", ")}`;
    throw new RangeError(`handler "${id}" does not apply to scene "${scene.id}"; ${why ?? takes}`);
  }
  return entry;
}

/**
 * The parameters handler `id` runs with on `scene`: `scene.handlers[id]`, then `overrides` (from
 * `--param id.name=value`), checked against its schema. Throws a `ParamError` naming the field
 * and the valid names.
 */
export function handlerParams(
  scene: Scene,
  id: string,
  overrides: Readonly<Record<string, number>> = {},
): ParamValues {
  const entry = getHandler(id);
  const field = `scene.handlers[${JSON.stringify(id)}]`;
  const params = resolveParams(entry.params, { scene: scene.handlers[id], overrides, field });
  entry.checkParams?.(params, field);
  return params;
}
