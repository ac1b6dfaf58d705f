/**
 * The `sph` system: weakly compressible SPH fluid (Müller et al. 2003; {@link SphForces}),
 * integrated explicitly (symplectic Euler) on its part of every DOF (`sph_integrate.wgsl`).
 * Fluid particles of one body do not collide with each other: SPH pressure keeps them apart.
 * The domain's walls enter the density and the forces as mirror images (free-slip ghost
 * particles, Randles & Libersky 1996), beside the coupling's position clamp.
 *
 * @module
 */
import { ParamError } from "../../../core/params.ts";
import { bindKernel, createKernel, dispatch, storageBuffer } from "../../runtime/kernel.ts";
import { defineStruct, type StructLayout } from "../../runtime/struct_layout.ts";
import type { SystemContext, SystemEntry } from "../system.ts";
import { SphForces } from "./sph_forces.ts";
import sphIntegrateWgsl from "./sph_integrate.wgsl" with { type: "text" };

/** WGSL of the explicit update. */
export const SPH_INTEGRATE_WGSL: string = sphIntegrateWgsl;

/** Layout of `SphIntegrateParams` in `sph_integrate.wgsl`. */
export const SPH_INTEGRATE_PARAMS: StructLayout = defineStruct("SphIntegrateParams", [
  ["count", "u32"],
  ["dt", "f32"],
  ["pad0", "u32"],
  ["pad1", "u32"],
  ["gravity", "vec3f"],
  ["pad2", "u32"],
]);

/** The `sph` system entry. */
export const SPH_SYSTEM: SystemEntry = {
  id: "sph",
  description: "SPH fluid (Müller et al. 2003, weakly compressible), explicit (symplectic Euler)",
  integrator: "explicit",
  bodyKinds: ["fluid"],
  selfCollision: false,
  params: {
    h: { description: "kernel support radius h (m)", gt: 0 },
    rho0: { description: "rest density (kg/m³)", gt: 0 },
    stiffness: { description: "equation-of-state stiffness k (Pa)", gt: 0 },
    viscosity: { description: "dynamic viscosity μ (Pa·s)", min: 0 },
  },
  neighborRadius: (params) => params.h,
  checkScene(params, scene) {
    if (params.h < 2 * scene.radius) {
      throw new ParamError(
        `systems.sph.h`,
        `${params.h} must be at least 2·radius = ${2 * scene.radius}`,
      );
    }
    const { min, max } = scene.domain;
    for (let a = 0; a < 3; a++) {
      if (!(max[a] - min[a] >= 2 * params.h)) {
        throw new ParamError(
          `domain`,
          `is ${max[a] - min[a]} m wide along axis ${a}; the SPH fluid's walls (mirror images ` +
            `within h) need at least 2h = ${
              2 * params.h
            } m: widen the domain or lower systems.sph.h`,
        );
      }
    }
  },
  create(ctx: SystemContext) {
    const { device, state } = ctx;
    const n = state.count;
    const b = state.buffers;
    const sph = new SphForces(device, {
      capacity: n,
      h: ctx.params.h,
      rho0: ctx.params.rho0,
      stiffness: ctx.params.stiffness,
      viscosity: ctx.params.viscosity,
      grid: ctx.grid.geometry,
      walls: ctx.scene.domain,
      count: n,
      label: `sph ${ctx.index}`,
    });
    const owned = storageBuffer(device, { label: "sph owned", size: 4 * n, data: ctx.owned });
    const density = storageBuffer(device, { label: "sph density", size: 4 * n });
    const force = storageBuffer(device, { label: "sph force", size: 16 * n });
    const bindings = sph.bind({
      cellStart: ctx.grid.cellStart,
      sorted: ctx.grid.sorted,
      mass: b.mass,
      dof: b.dof,
      offset: b.offset,
      dofX: b.dofX,
      dofV: b.dofV,
      fluid: owned,
      density,
      force,
      boundaryDensity: b.boundaryDensity,
      pressure: b.fluidPressure,
    });
    const params = device.createBuffer({
      label: "sph integrate params",
      size: SPH_INTEGRATE_PARAMS.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(
      params,
      0,
      SPH_INTEGRATE_PARAMS.pack({
        count: n,
        dt: ctx.scene.dt,
        pad0: 0,
        pad1: 0,
        gravity: [...ctx.scene.gravity],
        pad2: 0,
      }),
    );
    const R = "read-only-storage" as const;
    const kernel = createKernel(device, {
      label: "sph integrate",
      code: SPH_INTEGRATE_WGSL,
      entryPoint: "sph_integrate",
      bindings: ["uniform", R, R, R, R, R, R, R, "storage"],
    });
    const bind = bindKernel(device, kernel, [
      params,
      b.memberStart,
      b.memberList,
      owned,
      force,
      b.dofV,
      ctx.part.mass,
      ctx.part.force,
      ctx.part.vel,
    ]);
    return {
      id: "sph",
      encodeForces: (encoder) => sph.encode(encoder, bindings),
      encodeIntegrate(encoder) {
        const pass = encoder.beginComputePass({ label: "sph integrate" });
        dispatch(pass, kernel, { bindGroup: bind, invocations: n, workgroupSize: 64 });
        pass.end();
      },
      destroy() {
        sph.destroy();
        for (const x of [owned, density, force, params]) x.destroy();
      },
    };
  },
};
