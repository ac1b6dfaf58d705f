/**
 * The walls of a fluid's box domain and the mirror images of a particle across them (the ghost
 * particles of Randles & Libersky 1996 and Colagrossi & Landrini 2003): a free-slip wall the SPH
 * forces and the FLIP density correction read as fluid on its other side.
 *
 * @module
 */

/**
 * The walls of an axis-aligned box (the scene's domain): the planes x_a = min[a] and
 * x_a = max[a]. The fluid lies inside; its particles are mirrored across every plane (see the
 * module doc).
 */
export interface SphWalls {
  /** Lower corner (m). */
  min: readonly number[];
  /** Upper corner (m). */
  max: readonly number[];
}

/**
 * The mirror images of a point y across the walls that lie within `h` of x (Randles & Libersky
 * 1996 ghost particles): for each non-empty set of axes, y reflected across one plane per axis
 * of the set (min or max), with the set as a bit mask (bit a: axis a reflected). Calls `visit`
 * with each image and mask whose distance to x is below h, by brute force over the 26
 * reflections: the reference of the kernels' choice of the nearer plane per axis.
 */
export function forEachMirrorImage(
  x: readonly number[],
  y: readonly number[],
  options: { walls: SphWalls; h: number; visit: (image: number[], mask: number) => void },
): void {
  const { walls, h, visit } = options;
  const image = [0, 0, 0];
  // choice per axis: 0 none, 1 across min, 2 across max
  for (let code = 1; code < 27; code++) {
    let mask = 0;
    let r2 = 0;
    for (let a = 0, c = code; a < 3; a++, c = Math.floor(c / 3)) {
      const choice = c % 3;
      image[a] = choice === 0 ? y[a] : 2 * (choice === 1 ? walls.min[a] : walls.max[a]) - y[a];
      if (choice !== 0) mask |= 1 << a;
      r2 += (x[a] - image[a]) ** 2;
    }
    if (r2 < h * h) visit([...image], mask);
  }
}
