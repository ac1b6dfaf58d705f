/**
 * The WGSL prelude of the walls' mirror images (`gpu/state/wall_mirrors.wgsl`: `wallMirrors`, the
 * walls of a box within h of a point, and `mirrorFlips`, the axes an image set reflects), shared by
 * the fluid kernels whose neighbour sums see the domain's walls. WGSL has no include, so each kernel
 * that uses it puts it before its source with {@link withWallMirrors}. The f64 reference is
 * `forEachMirrorImage` (core/).
 *
 * @module
 */
import wallMirrorsWgsl from "./wall_mirrors.wgsl" with { type: "text" };

/** WGSL source of the mirror-image prelude (`gpu/state/wall_mirrors.wgsl`). */
export const WALL_MIRRORS_WGSL: string = wallMirrorsWgsl;

/** A kernel's WGSL `code` with the mirror-image prelude in front. */
export function withWallMirrors(code: string): string {
  return `${WALL_MIRRORS_WGSL}\n${code}`;
}
