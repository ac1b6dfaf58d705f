/**
 * The `akinci` handler: two-way coupling of an SPH fluid with cloth and solids through boundary
 * particles (Akinci et al. 2012; {@link AkinciCoupling}), the SPH-based coupling of the literature.
 * It has no contact stiffness of its own: the fluid's state equation pushes the fluid off the
 * boundary once the boundary's volume Ψ_b raises its density, so the method runs as published
 * (Ψ from the sampling, friction σ from the scene) with no weak/strong levels.
 *
 * @module
 */
import { AKINCI_SCHEMA, type AkinciLevel } from "../../../core/handler_schemas/akinci_schema.ts";
import type { Scene } from "../../../core/scene/scene.ts";
import type { HandlerContext, HandlerEntry } from "../handler.ts";
import { AkinciCoupling } from "./akinci_coupling.ts";

/** Why Akinci's coupling cannot run on `scene` (no SPH fluid, or nothing for it to meet). */
function notApplicable(scene: Scene): string | undefined {
  const fluids = scene.bodies.filter((b) => b.kind === "fluid");
  if (fluids.length === 0) {
    return "Akinci's coupling acts between an SPH fluid and boundary particles; the scene has no fluid";
  }
  const other = fluids.find((b) => (b.system ?? "sph") !== "sph");
  if (other) {
    return `Akinci's coupling adds the boundary to the SPH density sum; a fluid body is integrated by ${
      JSON.stringify(other.system)
    }`;
  }
  if (fluids.length === scene.bodies.length) {
    return "Akinci's coupling needs boundary particles (cloth or solids); the scene has only fluid";
  }
  return undefined;
}

/**
 * The `akinci` handler entry (the method as published), or a stiffness level `akinci-weak` /
 * `akinci-strong`: the same coupling with the boundary volume Ψ_b scaled by the scene's
 * `volumeScale` for that id (`AKINCI_VOLUME_LEVELS`: 0.1 and 10, the decade apart of the other
 * families' levels).
 */
export function akinciHandler(level?: AkinciLevel): HandlerEntry {
  const id = level ? `akinci-${level}` : "akinci";
  return {
    ...AKINCI_HANDLER,
    id,
    description: level
      ? `${AKINCI_HANDLER.description}, ${level} (the scene's boundary-volume scale)`
      : AKINCI_HANDLER.description,
    create: (ctx) => ({ ...AKINCI_HANDLER.create(ctx), id }),
  };
}

/** The `akinci` handler entry, as published (volume scale 1 unless a scene or `--param` sets it). */
export const AKINCI_HANDLER: HandlerEntry = {
  id: "akinci",
  description: "Akinci et al. 2012 boundary-particle coupling of SPH fluid with cloth and solids",
  params: AKINCI_SCHEMA,
  neighborRadius: (params) => params.h,
  notApplicable,
  create(ctx: HandlerContext) {
    const b = ctx.state.buffers;
    const k = new AkinciCoupling(ctx.device, {
      capacity: ctx.state.count,
      h: ctx.params.h,
      rho0: ctx.params.rho0,
      soundSpeed: ctx.params.soundSpeed,
      friction: ctx.params.friction,
      volumeScale: ctx.params.volumeScale,
      grid: ctx.grid.geometry,
      label: "akinci",
    });
    const bind = k.bind({
      pos: b.pos,
      vel: b.vel,
      mass: b.mass,
      kind: b.kind,
      cellStart: ctx.grid.cellStart,
      sorted: ctx.grid.sorted,
      boundaryDensity: b.boundaryDensity,
      pressure: b.fluidPressure,
      force: b.handlerForce,
    });
    return {
      id: "akinci",
      stages: 1,
      encodeBeforeForces: (encoder) => k.encodeBoundary(encoder, bind),
      encodeForces: (encoder) => k.encodeForces(encoder, bind),
      destroy: () => k.destroy(),
    };
  },
};
