/**
 * A hash grid over some particles of a positions array (`array<vec4f>` layout, 4 numbers a
 * particle), on the host: the particles near a point, for the bench's diagnostics
 * (`sheet_sides.ts`, `fluid_hotspots.ts`). Cells are keyed by one number (no string keys), so a
 * query over tens of thousands of particles costs microseconds.
 *
 * @module
 */

const CELL_OFFSET = 2 ** 16;
const CELL_SPAN = 2 * CELL_OFFSET;

/**
 * A hash-grid cell (integer coordinates) as one number; cells 2¹⁶ or more apart on an axis alias,
 * which only adds candidates: distances are measured, not assumed.
 */
function cellKey(cx: number, cy: number, cz: number): number {
  return ((cx + CELL_OFFSET) * CELL_SPAN + cy + CELL_OFFSET) * CELL_SPAN + cz + CELL_OFFSET;
}

/** A point as three numbers. */
export type Point = readonly [number, number, number];

/** A hash grid of cell size `cell` over the given particles of `pos`. */
export class PointGrid {
  /** The cell size (m): every particle closer than it to a point is among that point's near ones. */
  readonly cell: number;
  readonly #pos: ArrayLike<number>;
  readonly #cells = new Map<number, number[]>();

  /**
   * Hashes `particles` (indices into `pos`, in the order given) by their positions in `pos`.
   * Throws a RangeError when `cell` is not finite and > 0.
   */
  constructor(pos: ArrayLike<number>, options: { cell: number; particles: Iterable<number> }) {
    const c = options.cell;
    if (!(c > 0) || !Number.isFinite(c)) {
      throw new RangeError(`PointGrid: options.cell must be finite and > 0 m, got ${c}`);
    }
    this.cell = c;
    this.#pos = pos;
    for (const i of options.particles) {
      const key = cellKey(
        Math.floor(pos[4 * i] / c),
        Math.floor(pos[4 * i + 1] / c),
        Math.floor(pos[4 * i + 2] / c),
      );
      const list = this.#cells.get(key);
      if (list) list.push(i);
      else this.#cells.set(key, [i]);
    }
  }

  /**
   * Calls `fn(j, d2)` for every particle j in the 27 cells around the cell of `x` (so every one
   * closer than {@link cell}, and some farther), with its squared distance to `x`: cells in z
   * fastest, then y, then x order, the particles of a cell in the order they were given.
   */
  forEachNear(x: Point, fn: (j: number, d2: number) => void): void {
    const c = this.cell, pos = this.#pos;
    const cx = Math.floor(x[0] / c), cy = Math.floor(x[1] / c), cz = Math.floor(x[2] / c);
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (let dz = -1; dz <= 1; dz++) {
          const cell = this.#cells.get(cellKey(cx + dx, cy + dy, cz + dz));
          if (!cell) continue;
          for (const j of cell) {
            const ex = x[0] - pos[4 * j], ey = x[1] - pos[4 * j + 1], ez = x[2] - pos[4 * j + 2];
            fn(j, ex * ex + ey * ey + ez * ez);
          }
        }
      }
    }
  }

  /** The particle nearest to `x` closer than {@link cell} (the lower index on a tie), or null. */
  nearest(x: Point): { particle: number; distance: number } | null {
    let best = this.cell * this.cell, bestJ = -1;
    this.forEachNear(x, (j, d2) => {
      if (d2 < best || (d2 === best && j < bestJ)) [best, bestJ] = [d2, j];
    });
    return bestJ < 0 ? null : { particle: bestJ, distance: Math.sqrt(best) };
  }
}
