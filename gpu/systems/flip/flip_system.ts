/**
 * The `flip` system: a FLIP fluid (Zhu & Bridson 2005), semi-implicit as in the paper (§4, Fig. 9):
 * explicit advection (the engine's position update), particle-to-grid transfer on a MAC grid of
 * cell dx, gravity, pressure projection by an implicit CG solve on the GPU, grid-to-particle with a
 * PIC/FLIP blend ({@link FlipSolver}, `flip.wgsl`). FLIP particles carry mass, so merging-and-
 * splitting treats them as regular particles; cells occupied by other systems' particles count as
 * occupied in the projection, as the paper requires (by default as fluid cells with no velocity of
 * their own, so the systems exchange momentum through the collision handler alone; parameter
 * `occupiedAsSolid` = 1 makes them moving solid boundaries instead; `flip.wgsl` header). A fluid body names it with
 * `"system": "flip"`.
 *
 * @module
 */
import { paperDefault } from "../../../core/setups.ts";
import { latticeRestDensity } from "../../../core/model/sph_params.ts";
import { ParamError } from "../../../core/params.ts";
import type { Scene } from "../../../core/scene/scene.ts";
import { storageBuffer } from "../../runtime/kernel.ts";
import type { SystemContext, SystemEntry } from "../system.ts";
import { FlipDensityCorrection } from "./flip_density_correction.ts";
import { FlipSolver } from "./flip_solver.ts";

/**
 * Rest density ρ0_i of every particle for the density correction: for a particle of this system,
 * `latticeRestDensity(m_i, spacing of its body, h)` (what the density estimate of support h reads
 * inside the lattice the body was built on, at rest); 0 for the others.
 */
export function flipRestDensities(
  scene: Pick<Scene, "bodies">,
  particles: { mass: ArrayLike<number>; body: ArrayLike<number> },
  owned: ArrayLike<number>,
  h: number,
): Float32Array {
  const out = new Float32Array(owned.length);
  for (let i = 0; i < owned.length; i++) {
    if (!owned[i]) continue;
    const body = scene.bodies[particles.body[i]] as { spacing?: number; name?: string };
    if (!(body.spacing! > 0)) {
      throw new ParamError(
        `bodies[${particles.body[i]}].spacing`,
        `a FLIP body needs its lattice spacing (> 0) for the density correction, got ${body.spacing}; ` +
          "give the body a spacing, or set systems.flip.densityIterations = 0",
      );
    }
    out[i] = latticeRestDensity(particles.mass[i], body.spacing!, h);
  }
  return out;
}

/**
 * Default of `densityIterations` (see its description): the paper's, 0 ("we have entirely avoided
 * position corrections in all our tests", §7; `core/setups.ts`).
 */
export const DENSITY_ITERATIONS_DEFAULT = paperDefault("system", "flip", "densityIterations");

/** The `flip` system entry. */
export const FLIP_SYSTEM: SystemEntry = {
  id: "flip",
  description:
    "FLIP fluid (Zhu & Bridson 2005), semi-implicit: explicit advection, MAC-grid pressure projection by CG",
  integrator: "semi-implicit",
  bodyKinds: [],
  selfCollision: false,
  params: {
    dx: { description: "MAC grid cell edge dx (m)", gt: 0 },
    flipRatio: {
      description: "PIC/FLIP blend φ (1: pure FLIP)",
      min: 0,
      max: 1,
      default: 0.97,
    },
    cgIterations: {
      description: "CG iterations encoded per projection",
      min: 1,
      integer: true,
      default: 100,
    },
    cgTolerance: {
      description: "relative residual |r|/|b| at which CG stops",
      gt: 0,
      max: 1,
      default: 1e-4,
    },
    volumeCorrection: {
      description: "volume correction γ: over-dense cells get a target divergence " +
        "γ·max(0, ρ_cell/ρ0 − 1)·dx/dt (0: classic FLIP)",
      min: 0,
      max: 1,
      default: 0,
    },
    rho0: { description: "rest density ρ0 of the volume correction (kg/m³)", gt: 0, default: 1000 },
    separationStrength: {
      description: "particle separation σ: FLIP pairs closer than the separation distance get " +
        "σ × half their overlap per step as velocity (0, the default: off, the paper's setup, " +
        "which avoided position corrections (§7); 0.1, the variant flip-particle-separation: " +
        "the fluid's volume within 4 % at tiny, 8 % at small on the dam break, against 18 % " +
        "and 28 % without)",
      min: 0,
      max: 1,
      default: paperDefault("system", "flip", "separationStrength"),
    },
    separationDistance: {
      description: "separation distance as a fraction of the particle diameter 2r",
      gt: 0,
      max: 1,
      default: 0.9,
    },
    densityIterations: {
      description: "Jacobi iterations per step of the density correction after the position " +
        "update: FLIP particles denser than their rest density are moved apart (unilateral " +
        "position-based density constraint, Macklin & Müller 2013; support h = dx; " +
        "core/flip_density_correction.ts); 0: off",
      min: 0,
      max: 16,
      integer: true,
      default: DENSITY_ITERATIONS_DEFAULT,
    },
    occupiedAsSolid: {
      description: "cells holding only other systems' particles: 0 = occupied fluid cells " +
        "(the paper's reading), 1 = moving solid boundaries",
      min: 0,
      max: 1,
      integer: true,
      default: 0,
    },
  },
  neighborRadius: (params) => params.dx,
  checkScene(params, scene) {
    if (params.dx < 2 * scene.radius) {
      throw new ParamError(
        "systems.flip.dx",
        `${params.dx} must be at least 2·radius = ${
          2 * scene.radius
        } (a particle per cell or fewer)`,
      );
    }
    // The MAC grid's walls are the domain's (the engine's walls): whole numbers of cells.
    for (let a = 0; a < 3; a++) {
      const cells = (scene.domain.max[a] - scene.domain.min[a]) / params.dx;
      if (Math.abs(cells - Math.round(cells)) > 1e-6 * Math.max(1, cells)) {
        throw new ParamError(
          "systems.flip.dx",
          `${params.dx} must divide the domain's extent along axis ${a} ` +
            `(${scene.domain.max[a] - scene.domain.min[a]} m = ${cells.toFixed(3)} cells): ` +
            "choose dx = extent / a whole number, for every axis",
        );
      }
      // The density correction's walls: one mirror plane per axis within h = dx of a particle.
      if (params.densityIterations > 0 && !(cells >= 2 - 1e-6)) {
        throw new ParamError(
          "domain",
          `is ${scene.domain.max[a] - scene.domain.min[a]} m wide along axis ${a}; the FLIP ` +
            `density correction's walls (mirror images within h = dx) need at least 2·dx = ${
              2 * params.dx
            } m: widen the domain, lower systems.flip.dx or set systems.flip.densityIterations = 0`,
        );
      }
    }
  },
  create(ctx: SystemContext) {
    const { device, state, scene } = ctx;
    const b = state.buffers;
    const owned = storageBuffer(device, {
      label: `flip ${ctx.index} owned`,
      size: 4 * state.count,
      data: ctx.owned,
    });
    const solver = new FlipSolver(device, {
      particleCount: state.count,
      domain: scene.domain,
      dx: ctx.params.dx,
      neighborGrid: ctx.grid.geometry,
      dt: scene.dt,
      gravity: scene.gravity,
      flipRatio: ctx.params.flipRatio,
      tolerance: ctx.params.cgTolerance,
      maxIterations: ctx.params.cgIterations,
      localBudget: ctx.localBudget,
      occupied: ctx.params.occupiedAsSolid ? "solid" : "fluid",
      volumeCorrection: ctx.params.volumeCorrection,
      rho0: ctx.params.rho0,
      separation: {
        distance: ctx.params.separationDistance * 2 * scene.radius,
        strength: ctx.params.separationStrength,
      },
      label: `flip ${ctx.index}`,
    });
    const density = new FlipDensityCorrection(device, {
      particleCount: state.count,
      domain: scene.domain,
      h: ctx.params.dx,
      iterations: ctx.params.densityIterations,
      restDensity: ctx.params.densityIterations > 0
        ? flipRestDensities(scene, ctx.particles, ctx.owned, ctx.params.dx)
        : new Float32Array(state.count),
      label: `flip ${ctx.index}`,
    });
    const bindings = solver.bind({
      pos: b.pos,
      mass: b.mass,
      dof: b.dof,
      dofV: b.dofV,
      owned,
      cellStart: ctx.grid.cellStart,
      sorted: ctx.grid.sorted,
      memberStart: b.memberStart,
      memberList: b.memberList,
      partMass: ctx.part.mass,
      partForce: ctx.part.force,
      partVel: ctx.part.vel,
    });
    return {
      id: "flip",
      encodeForces() {},
      encodeIntegrate: (encoder) => solver.encodeStep(encoder, bindings),
      encodeEndOfStep: (encoder) => density.encode(encoder, { pos: b.pos, mass: b.mass }),
      readSolverStats: async () => ({
        ...await solver.readSolverStats(),
        method: "Jacobi-PCG pressure projection (|r| ≤ tol·|b|)",
        tolerance: solver.tolerance,
        maxIterations: solver.maxIterations,
      }),
      destroy() {
        solver.destroy();
        density.destroy();
        owned.destroy();
      },
    };
  },
};
