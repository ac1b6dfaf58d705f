/**
 * The parameters of the `kernel-repulsion-*` handlers, defined once: the contact pressure, the
 * kernel support h and the rest density, and the contact pressure's levels. A level is a multiple
 * of the impact's dynamic pressure p_dyn = ρ·v² (`scenes/baseline_handlers.ts` computes p_dyn from
 * the scene): weak/medium/strong = 0.1/1/10·p_dyn, decades apart, fixed before any run. The family
 * `kernel-repulsion` (explicit stiffnesses) defaults to the medium level.
 *
 * @module
 */
import type { ParamSchema } from "../params.ts";

/** The kernel-repulsion handlers' parameter schema (every level and the family share it). */
export const KERNEL_REPULSION_SCHEMA = {
  stiffness: { description: "contact pressure stiffness (Pa)", gt: 0 },
  h: { description: "kernel support radius h (m)", gt: 0 },
  rho0: { description: "rest density (kg/m³)", gt: 0 },
} as const satisfies ParamSchema;

/** The contact pressure of each level of `kernel-repulsion-<level>`, in units of p_dyn. */
export const KERNEL_REPULSION_LEVELS = { weak: 0.1, medium: 1, strong: 10 } as const;

/** A level of the kernel-repulsion handlers. */
export type KernelRepulsionLevel = keyof typeof KERNEL_REPULSION_LEVELS;

/** The level whose contact pressure the family `kernel-repulsion` runs at unless given. */
export const KERNEL_REPULSION_FAMILY_LEVEL: KernelRepulsionLevel = "medium";
