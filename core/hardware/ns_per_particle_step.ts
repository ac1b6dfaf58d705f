/**
 * The throughput figure other particle codes quote: a step's time per particle, in ns. One
 * definition for the report's scaling fit and tables and the hardware table's particle-steps per
 * second (its inverse).
 *
 * @module
 */

/**
 * Step time per particle in ns (median ms/step × 10⁶ / particles): the figure other particle codes
 * quote as ns per particle-step. Null when the time or the count is not a number > 0.
 */
export function nsPerParticleStep(ms: unknown, particles: unknown): number | null {
  return typeof ms === "number" && Number.isFinite(ms) && ms > 0 &&
      typeof particles === "number" && Number.isFinite(particles) && particles > 0
    ? (ms * 1e6) / particles
    : null;
}
