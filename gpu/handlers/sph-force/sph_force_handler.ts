/**
 * The `sph-force-*` handlers: an SPH-based coupling pressure between particles of different
 * bodies (boundary-particle style, Akinci et al. 2012), at three contact pressures an order of
 * magnitude apart that the scene derives from the impact's dynamic pressure.
 *
 * @module
 */
import type { HandlerContext, HandlerEntry } from "../handler.ts";
import { SphCouplingForce } from "./sph_coupling_force.ts";

/**
 * The SPH-based force handler at one level (`weak`, `medium`, `strong`), or without a level: the
 * family `sph-force`, run only by its exact id at explicit stiffnesses (`--param`, `--sweep`).
 */
export function sphForceHandler(level?: "weak" | "medium" | "strong"): HandlerEntry {
  const id = level ? `sph-force-${level}` : "sph-force";
  return {
    id,
    description: `SPH-based coupling pressure between bodies, ${
      level ?? "at an explicit stiffness"
    }`,
    explicitOnly: !level,
    params: {
      stiffness: { description: "contact pressure stiffness (Pa)", gt: 0 },
      h: { description: "kernel support radius h (m)", gt: 0 },
      rho0: { description: "rest density (kg/m³)", gt: 0 },
    },
    neighborRadius: (params) => params.h,
    create(ctx: HandlerContext) {
      const k = new SphCouplingForce(ctx.device, {
        capacity: ctx.state.count,
        h: ctx.params.h,
        rho0: ctx.params.rho0,
        stiffness: ctx.params.stiffness,
        grid: ctx.grid.geometry,
        label: id,
      });
      const b = ctx.state.buffers;
      const bind = k.bind({
        pos: b.pos,
        mass: b.mass,
        body: b.body,
        cellStart: ctx.grid.cellStart,
        sorted: ctx.grid.sorted,
        force: b.handlerForce,
      });
      return {
        id,
        stages: 1,
        encodeForces: (encoder) => k.encode(encoder, bind),
        destroy: () => k.destroy(),
      };
    },
  };
}
