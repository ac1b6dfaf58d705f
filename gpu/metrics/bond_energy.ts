/**
 * The elastic energy of a particle's bonds, Σ ½ ks (|x_j − x_i| − L)² over its intact bonds, as a
 * WGSL prelude shared by the metrics (`metrics.wgsl`) and the step budget (`step_budget.wgsl`):
 * one definition of the energy both measure. The including module declares the bindings the
 * function reads (see `bond_energy.wgsl`).
 *
 * @module
 */
import { SPRING_CSR_WGSL } from "../state/spring_csr.ts";
import bondEnergyWgsl from "./bond_energy.wgsl" with { type: "text" };

/** WGSL of `bond_energy(i) -> vec2f` (elastic energy of intact bonds, broken bonds), with `SpringClass`. */
export const BOND_ENERGY_WGSL: string = [
  SPRING_CSR_WGSL,
  bondEnergyWgsl,
].join("\n");
