/**
 * Every simulation system, by string id, in one place (the order is the coupling's order of
 * systems, Eq. 17's fold). A new system is a folder under `gpu/systems/` plus one line here, or
 * a {@link registerSystem} call (tests, user code).
 *
 * @module
 */
import { type ParamValues, resolveParams } from "../../core/params.ts";
import { Registry } from "../../core/registry.ts";
import type { Body, Scene } from "../../core/scene/scene.ts";
import { FLIP_SYSTEM } from "./flip/flip_system.ts";
import { MASS_SPRING_SYSTEM } from "./mass-spring/mass_spring_system.ts";
import { PERIDYNAMICS_SYSTEM } from "./peridynamics/peridynamics_system.ts";
import { SPH_SYSTEM } from "./sph/sph_system.ts";
import type { ParticleSet } from "../../core/scene/scene_builder.ts";
import type { PartSlice } from "../state/part_slice.ts";
import type { GpuSystem, SystemContext, SystemEntry } from "./system.ts";

const SYSTEMS = new Registry<SystemEntry>("system", [
  MASS_SPRING_SYSTEM,
  PERIDYNAMICS_SYSTEM,
  SPH_SYSTEM,
  FLIP_SYSTEM,
]);

/** The registered systems, in coupling order. */
export function systemEntries(): SystemEntry[] {
  return SYSTEMS.entries();
}

/** Registers a system (e.g. one defined in a test); returns a function that unregisters it. */
export function registerSystem(entry: SystemEntry): () => void {
  return SYSTEMS.register(entry);
}

/** Looks up a system; throws a `RangeError` listing the valid ids. */
export function getSystem(id: string): SystemEntry {
  return SYSTEMS.get(id);
}

/** The system that integrates `body`: the one it names, or the one that claims its kind. */
export function systemOfBody(body: Body, field = "bodies"): SystemEntry {
  if (body.system !== undefined) {
    try {
      return SYSTEMS.get(body.system);
    } catch (e) {
      throw new RangeError(`scene.${field}.system: ${(e as Error).message}`);
    }
  }
  const e = SYSTEMS.entries().find((s) => s.bodyKinds.includes(body.kind));
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

/** How a scene's bodies map onto its systems. */
export interface SystemPlan {
  /** The scene's systems in coupling order, with their parameters. */
  systems: { entry: SystemEntry; params: ParamValues }[];
  /** Per body: the index of its system in {@link SystemPlan.systems}. */
  bodySystem: number[];
  /** Per body: whether its particles collide with each other (its system's rule). */
  selfCollision: boolean[];
  /** The largest neighbour radius the systems need (m; 0 when none asks). */
  reach: number;
}

/**
 * Whether two particles of `scene` may ever collide: it has two bodies or more, or a body whose
 * system collides with itself. Where none may, no handler runs (`Engine.collisionsPossible`).
 */
export function collisionsPossible(scene: Scene): boolean {
  return scene.bodies.length > 1 ||
    scene.bodies.some((b, i) => systemOfBody(b, `bodies[${i}]`).selfCollision);
}

/** The systems of `scene` and which body each integrates (parameters checked; see {@link sceneSystems}). */
export function planSystems(scene: Scene): SystemPlan {
  const systems = sceneSystems(scene);
  const ids = systems.map((s) => s.entry.id);
  const bodySystem = scene.bodies.map((b, i) => ids.indexOf(systemOfBody(b, `bodies[${i}]`).id));
  return {
    systems,
    bodySystem,
    selfCollision: bodySystem.map((s) => systems[s].entry.selfCollision),
    reach: Math.max(0, ...systems.map((s) => s.entry.neighborRadius?.(s.params, scene) ?? 0)),
  };
}

/** Builds every system of a plan; system s gets `part(s)` and the particles of its bodies. */
export function createSystems(
  plan: SystemPlan,
  ctx: Omit<SystemContext, "params" | "index" | "owned" | "part"> & {
    particles: ParticleSet;
    part: (index: number) => PartSlice;
  },
): GpuSystem[] {
  return plan.systems.map(({ entry, params }, index) =>
    entry.create({
      ...ctx,
      params,
      index,
      owned: Uint32Array.from(ctx.particles.body, (b) => (plan.bodySystem[b] === index ? 1 : 0)),
      part: ctx.part(index),
    })
  );
}
