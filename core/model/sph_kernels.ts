/**
 * The SPH smoothing kernels of Müller, Charypar & Gross 2003 ("Particle-based fluid simulation for
 * interactive applications", paper ref. [3]), support radius h, all 0 for r ≥ h: poly6 for
 * densities (Eq. 20), the spiky gradient for pressure (Eq. 21), the viscosity Laplacian (Eq. 22).
 * The f64 references, the Akinci coupling, the FLIP density correction and the fluid metrics all
 * weigh neighbours with these.
 *
 * @module
 */

/** Poly6 normalisation 315 / (64 π h³) (the h⁻⁶ of (h² − r²)³ is folded into (1 − q²)³). */
export function poly6Coefficient(h: number): number {
  return 315 / (64 * Math.PI * h * h * h);
}

/**
 * Poly6 density kernel W(r, h) = 315 / (64 π h⁹) (h² − r²)³ for 0 ≤ r ≤ h, else 0
 * (Müller et al. 2003, Eq. 20). Takes r² to avoid a square root.
 */
export function poly6(r2: number, h: number): number {
  const h2 = h * h;
  if (r2 >= h2) return 0;
  const s = 1 - r2 / h2;
  return poly6Coefficient(h) * s * s * s;
}

/**
 * Magnitude factor of the spiky kernel gradient: ∇W(r⃗) = −spikyGradient(r, h) · r⃗ / r with
 * spikyGradient(r, h) = 45 / (π h⁶) (h − r)² for 0 ≤ r ≤ h, else 0 (Müller et al. 2003, Eq. 21).
 */
export function spikyGradient(r: number, h: number): number {
  if (r >= h) return 0;
  const s = 1 - r / h;
  return (45 / (Math.PI * h * h * h * h)) * s * s;
}

/**
 * Spiky kernel W(r, h) = 15 / (π h⁶) (h − r)³ (Müller et al. 2003, Eq. 21), of which
 * {@link spikyGradient} is the radial derivative; exported for the normalisation test.
 */
export function spiky(r: number, h: number): number {
  if (r >= h) return 0;
  const s = 1 - r / h;
  return (15 / (Math.PI * h * h * h)) * s * s * s;
}

/**
 * Viscosity kernel Laplacian ∇²W(r, h) = 45 / (π h⁶) (h − r) for 0 ≤ r ≤ h, else 0
 * (Müller et al. 2003, Eq. 22).
 */
export function viscosityLaplacian(r: number, h: number): number {
  if (r >= h) return 0;
  return (45 / (Math.PI * h * h * h * h * h)) * (1 - r / h);
}

/**
 * Viscosity kernel W(r, h) = 15 / (2 π h³) (−r³/(2h³) + r²/h² + h/(2r) − 1) (Müller et al. 2003,
 * Eq. 22), of which {@link viscosityLaplacian} is the Laplacian; exported for the normalisation
 * test.
 */
export function viscosityKernel(r: number, h: number): number {
  if (r >= h) return 0;
  const q = r / h;
  return (15 / (2 * Math.PI * h * h * h)) * (-q * q * q / 2 + q * q + 1 / (2 * q) - 1);
}
