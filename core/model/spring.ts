/**
 * The spring: one Hookean spring with relative damping between two particles, the element of
 * mass-spring cloth and of peridynamic bonds (a PMB bond is such a spring, Levine et al. 2014). The
 * f64 references, the scene builder and the GPU upload all speak of springs in this one shape.
 *
 * @module
 */

/** One spring between particles `i` and `j` (Baraff & Witkin §4; background notes §2.3). */
export interface Spring {
  /** First end (particle index). */
  i: number;
  /** Second end (particle index, ≠ i). */
  j: number;
  /** Rest length L (> 0). */
  restLength: number;
  /** Stiffness ks (N/m, ≥ 0). */
  ks: number;
  /** Damping coefficient kd along the spring (N·s/m, ≥ 0). */
  kd: number;
  /**
   * Critical stretch s0 (> 0) of a breakable peridynamic bond: once (l − L)/L > s0 the bond breaks,
   * irreversibly (Silling & Askari 2005; `updateBroken` of `core/reference/peridynamics_reference.ts`).
   * Absent (cloth springs, bonds of unbreakable bodies): it never breaks.
   */
  breakStretch?: number;
}
