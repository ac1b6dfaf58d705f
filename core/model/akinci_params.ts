/**
 * The parameters of Akinci et al.'s 2012 boundary coupling ("Versatile rigid-fluid coupling for
 * incompressible SPH", ACM TOG 31(4)): the fluid's material and the boundary friction σ it reads,
 * and the ε of the friction term's denominator. The f64 reference and the GPU handler share them.
 *
 * @module
 */

/** ε of Π_ib's denominator |x_ib|² + ε h² (Akinci et al. 2012, Eq. 12). */
export const AKINCI_EPSILON = 0.01;

/** Material parameters of the coupling: the fluid's, and the boundary friction σ. */
export interface AkinciParams {
  /** The fluid's kernel support h (m, > 0). */
  h: number;
  /** The fluid's rest density ρ0 (kg/m³, > 0). */
  rho0: number;
  /** The fluid's speed of sound c_s (m/s, ≥ 0). */
  soundSpeed: number;
  /** Boundary friction (viscosity) coefficient σ of Eq. 13 (≥ 0). */
  friction: number;
}
