/**
 * A cloth's side test on the host, the rule of the pass-through metric
 * (`gpu/metrics/sheet_crossing.wgsl`) on one set of positions, for `deno task leaks`
 * (`leak_trace.ts`): the nearest sheet particle within a reach, the side by the local normal there,
 * the sheet's outline.
 *
 * @module
 */
import { cross, dot, sub, type Vec3 } from "../../core/vec3.ts";
import { PointGrid } from "./point_grid.ts";

/** A cloth measured for crossings: a rows × cols lattice of particles from `start`. */
export interface TracedSheet {
  name: string;
  start: number;
  rows: number;
  cols: number;
  /** Rest spacing (m): the lateral threshold of an observation and the strain's rest length. */
  spacing: number;
}

/** What one observation of a particle's side of a sheet saw. */
export interface SideObservation {
  /** +1 or −1: the sign of the offset along the sheet normal. */
  side: 1 | -1;
  /** Lattice row and column of the nearest sheet particle. */
  row: number;
  col: number;
  /** Distance to it (m). */
  distance: number;
  /** |cos| of the angle between the offset and the sheet normal there. */
  normalCosine: number;
  /** Largest strain of the four lattice springs at that sheet particle. */
  strain: number;
}

/** Particle `i` of positions in the `array<vec4f>` layout (4 numbers a particle). */
export function particleAt(pos: ArrayLike<number>, i: number): [number, number, number] {
  return [pos[4 * i], pos[4 * i + 1], pos[4 * i + 2]];
}

/**
 * A sheet's side test on one set of positions (`array<vec4f>` layout, 4 numbers a particle): the
 * rule of `sheet_crossing.wgsl`, on the host, with a hash grid of cell `reach` over the sheet.
 */
export class SheetSides {
  readonly sheet: TracedSheet;
  readonly reach: number;
  readonly #pos: ArrayLike<number>;
  readonly #grid: PointGrid;
  #outline: { corners: Vec3[]; normal: Vec3 } | undefined;
  /** The sheet's bounding box grown by the reach: nothing outside it is observed. */
  readonly #lo: [number, number, number] = [Infinity, Infinity, Infinity];
  readonly #hi: [number, number, number] = [-Infinity, -Infinity, -Infinity];

  /** Hashes the sheet's particles of `pos`; `reach` (m) is the largest distance observed. */
  constructor(sheet: TracedSheet, pos: ArrayLike<number>, options: { reach: number }) {
    if (!(options.reach > 0)) {
      throw new RangeError(`SheetSides: options.reach must be > 0 m, got ${options.reach}`);
    }
    this.sheet = sheet;
    this.reach = options.reach;
    this.#pos = pos;
    const n = sheet.rows * sheet.cols;
    for (let k = 0; k < n; k++) {
      const x = particleAt(pos, sheet.start + k);
      for (let a = 0; a < 3; a++) {
        this.#lo[a] = Math.min(this.#lo[a], x[a] - this.reach);
        this.#hi[a] = Math.max(this.#hi[a], x[a] + this.reach);
      }
    }
    const particles = Array.from({ length: n }, (_, k) => sheet.start + k);
    this.#grid = new PointGrid(pos, { cell: this.reach, particles });
  }

  #sheetPos(row: number, col: number): Vec3 {
    return particleAt(this.#pos, this.sheet.start + row * this.sheet.cols + col);
  }

  /** The unit normal at an interior sheet particle (central differences, as the metric). */
  normal(row: number, col: number): Vec3 {
    const u = sub(this.#sheetPos(row, col + 1), this.#sheetPos(row, col - 1));
    const v = sub(this.#sheetPos(row + 1, col), this.#sheetPos(row - 1, col));
    const n = cross(u, v);
    const len = Math.hypot(...n);
    return len > 0 ? [n[0] / len, n[1] / len, n[2] / len] : [0, 1, 0];
  }

  /** Largest strain of the lattice springs at sheet particle (row, col). */
  strain(row: number, col: number): number {
    const x = this.#sheetPos(row, col);
    let most = -1;
    for (const [dr, dc] of [[0, 1], [1, 0], [0, -1], [-1, 0]]) {
      const r = row + dr, c = col + dc;
      if (r < 0 || c < 0 || r >= this.sheet.rows || c >= this.sheet.cols) continue;
      most = Math.max(most, Math.hypot(...sub(x, this.#sheetPos(r, c))) / this.sheet.spacing - 1);
    }
    return most;
  }

  /**
   * The side of point `x`, or null when it is not observed: no sheet particle closer than the
   * reach, the nearest one on the lattice's border, or `x` farther than the spacing from it
   * laterally.
   */
  observe(x: Vec3): SideObservation | null {
    const near = this.nearest(x);
    if (!near) return null;
    const { row, col, distance: best } = near;
    const { rows, cols } = this.sheet;
    if (row < 1 || col < 1 || row > rows - 2 || col > cols - 2) return null;
    const n = this.normal(row, col);
    const rel = sub(x, this.#sheetPos(row, col));
    const h = dot(rel, n);
    const lateral = Math.hypot(rel[0] - h * n[0], rel[1] - h * n[1], rel[2] - h * n[2]);
    if (!(lateral < this.sheet.spacing)) return null;
    return {
      side: h < 0 ? -1 : 1,
      row,
      col,
      distance: best,
      normalCosine: best > 0 ? Math.abs(h) / best : 1,
      strain: this.strain(row, col),
    };
  }

  /** The sheet particle nearest to `x` closer than the reach (border ones too), or null. */
  nearest(x: Vec3): { row: number; col: number; distance: number } | null {
    for (let a = 0; a < 3; a++) if (!(x[a] >= this.#lo[a] && x[a] <= this.#hi[a])) return null;
    const near = this.#grid.nearest(x);
    if (!near) return null;
    const k = near.particle - this.sheet.start;
    return {
      row: Math.floor(k / this.sheet.cols),
      col: k % this.sheet.cols,
      distance: near.distance,
    };
  }

  /**
   * Whether `x` lies outside the sheet's outline: the quadrilateral of its four corner particles,
   * projected along the cross product of its diagonals (`outside_outline` of the metric's kernel).
   */
  outsideOutline(x: Vec3): boolean {
    const { corners: q, normal: n } = this.#outline ??= this.#outlineOf();
    const e = q.map((a, k) => dot(cross(sub(q[(k + 1) % 4], a), sub(x, a)), n));
    return !(e.every((v) => v >= 0) || e.every((v) => v <= 0));
  }

  /** The outline's corners (in order round it) and normal, once per set of positions. */
  #outlineOf(): { corners: Vec3[]; normal: Vec3 } {
    const { rows, cols } = this.sheet;
    const corners = [
      this.#sheetPos(0, 0),
      this.#sheetPos(0, cols - 1),
      this.#sheetPos(rows - 1, cols - 1),
      this.#sheetPos(rows - 1, 0),
    ];
    return { corners, normal: cross(sub(corners[2], corners[0]), sub(corners[3], corners[1])) };
  }

  /** The side of `x` at the start: observed, or by the plane at the sheet's centre particle. */
  initialSide(x: Vec3): 1 | -1 {
    const seen = this.observe(x);
    if (seen) return seen.side;
    const row = Math.floor(this.sheet.rows / 2), col = Math.floor(this.sheet.cols / 2);
    return dot(sub(x, this.#sheetPos(row, col)), this.normal(row, col)) < 0 ? -1 : 1;
  }
}
