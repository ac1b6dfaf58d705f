/**
 * Random FLIP grids (fast-check arbitraries) for the tests of the grid and of the f64 reference.
 *
 * @module
 */
import fc from "fast-check";
import type { FlipGrid } from "./flip_grid.ts";

/** Cell counts per axis, each in [lo, hi]. */
export const dimsArb = (lo: number, hi: number): fc.Arbitrary<[number, number, number]> =>
  fc.tuple(
    fc.integer({ min: lo, max: hi }),
    fc.integer({ min: lo, max: hi }),
    fc.integer({
      min: lo,
      max: hi,
    }),
  );
/** A coordinate in [−5, 5] (m). */
export const coord: fc.Arbitrary<number> = fc.double({ min: -5, max: 5, noNaN: true });
/** A grid with corner coordinates {@link coord}, dx in [0.01, 2] and dims {@link dimsArb}(lo, hi). */
export const gridArb = (lo: number, hi: number): fc.Arbitrary<FlipGrid> =>
  fc.record({
    min: fc.tuple(coord, coord, coord),
    dx: fc.double({ min: 0.01, max: 2, noNaN: true }),
    dims: dimsArb(lo, hi),
  }).map(({ min, dx, dims }): FlipGrid => ({ min, dx, dims }));
