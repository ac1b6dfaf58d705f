/**
 * The `kernel-repulsion-*` handlers: a constant contact pressure through the SPH spiky-kernel
 * gradient between particles of different bodies (a smooth penalty, independent of the fluid's
 * density; Akinci's SPH-based coupling is the `akinci` handler), at three contact pressures an order of
 * magnitude apart that the scene derives from the impact's dynamic pressure.
 *
 * @module
 */
import {
  KERNEL_REPULSION_SCHEMA,
  type KernelRepulsionLevel,
} from "../../../core/handler_schemas/kernel_repulsion_schema.ts";
import type { HandlerContext, HandlerEntry } from "../handler.ts";
import { KernelRepulsion } from "./kernel_repulsion.ts";

/**
 * The kernel-repulsion handler at one level (`KERNEL_REPULSION_LEVELS`: `weak`, `medium`,
 * `strong`), or without a level: the family `kernel-repulsion`, run only by its exact id at
 * explicit stiffnesses (`--param`, `--sweep`).
 */
export function kernelRepulsionHandler(level?: KernelRepulsionLevel): HandlerEntry {
  const id = level ? `kernel-repulsion-${level}` : "kernel-repulsion";
  return {
    id,
    description: `Kernel repulsion (contact pressure through the spiky gradient) between bodies, ${
      level ?? "at an explicit stiffness"
    }`,
    explicitOnly: !level,
    params: KERNEL_REPULSION_SCHEMA,
    neighborRadius: (params) => params.h,
    create(ctx: HandlerContext) {
      const k = new KernelRepulsion(ctx.device, {
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
