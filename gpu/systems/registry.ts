/**
 * Every simulation system, by string id, in one place (the order is the coupling's order of
 * systems, Eq. 17's fold). A new system is a folder under `gpu/systems/` plus one line here, or
 * a {@link registerSystem} call (tests, user code).
 *
 * @module
 */
import { type ParamValues, resolveParams } from "../../core/params.ts";
import type { Body, Scene } from "../../core/scene.ts";
import { MASS_SPRING_SYSTEM } from "./mass-spring/mass_spring_system.ts";
import { SPH_SYSTEM } from "./sph/sph_system.ts";
import type { SystemEntry } from "./system.ts";

const SYSTEMS = new Map<string, SystemEntry>(
  [MASS_SPRING_SYSTEM, SPH_SYSTEM].map((e) => [e.id, e]),
);

/** The registered systems, in coupling order. */
export function systemEntries(): SystemEntry[] {
  return [...SYSTEMS.values()];
}

/**
 * Registers a system (e.g. one defined in a test); returns a function that unregisters it.
 * Throws a `RangeError` when the id is taken.
 */
export function registerSystem(entry: SystemEntry): () => void {
  if (SYSTEMS.has(entry.id)) throw new RangeError(`a system "${entry.id}" is already registered`);
  SYSTEMS.set(entry.id, entry);
  return () => SYSTEMS.delete(entry.id);
}

/** Looks up a system; throws a `RangeError` listing the valid ids. */
export function getSystem(id: string): SystemEntry {
  const e = SYSTEMS.get(id);
  if (!e) {
    throw new RangeError(
      `unknown system "${id}"; known systems: ${[...SYSTEMS.keys()].join(", ")}`,
    );
  }
  return e;
}

/** The system that integrates `body`: the one it names, or the one that claims its kind. */
export function systemOfBody(body: Body, field = "bodies"): SystemEntry {
  if (body.system !== undefined) {
    if (!SYSTEMS.has(body.system)) {
      throw new RangeError(
        `scene.${field}.system: unknown system "${body.system}"; known systems: ${
          [...SYSTEMS.keys()].join(", ")
        }`,
      );
    }
    return SYSTEMS.get(body.system)!;
  }
  const e = [...SYSTEMS.values()].find((s) => s.bodyKinds.includes(body.kind));
  if (!e) {
    throw new RangeError(`scene.${field}.kind: no system integrates bodies of kind "${body.kind}"`);
  }
  return e;
}

/** The systems of a scene, in registry order, with their resolved and checked parameters. */
export function sceneSystems(scene: Scene): { entry: SystemEntry; params: ParamValues }[] {
  const used = new Set(scene.bodies.map((b, i) => systemOfBody(b, `bodies[${i}]`).id));
  return systemEntries().filter((e) => used.has(e.id)).map((entry) => {
    const params = resolveParams(entry.params, {
      scene: scene.systems[entry.id],
      field: `scene.systems[${JSON.stringify(entry.id)}]`,
    });
    entry.checkScene?.(params, scene);
    return { entry, params };
  });
}
