/**
 * The domain's walls as a velocity condition, the f64 reference of the position update's boundary
 * in `gpu/coupling/coupling.wgsl` (`move_dof`): "we have entirely avoided position corrections in
 * all our tests in this paper" (§7), so a wall never moves a DOF; it changes the velocity the DOF
 * moves at. Per axis, a DOF that would cross a wall (its centre past the wall's plane, one radius
 * inside the domain) while moving out steps at the velocity that brings it onto the plane and
 * no farther out than it is, max(v, min(0, (lo − x)/Δt)) at the low wall (mirrored at the high
 * one), and keeps no outward velocity: the wall is inelastic, without friction. A DOF outside
 * already (put there by a scene, never by a step) is not pulled back: it stops moving out.
 *
 * @module
 */

/** One step of position `x` at velocity `v` between the planes `lo` and `hi` (per axis). */
export function wallStep(
  x: readonly number[],
  v: readonly number[],
  options: { lo: readonly number[]; hi: readonly number[]; dt: number },
): { x: number[]; v: number[] } {
  const { lo, hi, dt } = options;
  const xOut = [...x];
  const vOut = [...v];
  for (let a = 0; a < x.length; a++) {
    let step = v[a];
    if (x[a] + dt * v[a] < lo[a] && v[a] < 0) {
      step = Math.max(v[a], Math.min(0, (lo[a] - x[a]) / dt));
      vOut[a] = 0;
    } else if (x[a] + dt * v[a] > hi[a] && v[a] > 0) {
      step = Math.min(v[a], Math.max(0, (hi[a] - x[a]) / dt));
      vOut[a] = 0;
    }
    xOut[a] = x[a] + dt * step;
  }
  return { x: xOut, v: vOut };
}
