/**
 * The springs of a single-layer cloth grid (structural, shear and bend; Provot 1995, Baraff &
 * Witkin 1998): what the scene builder gives a cloth body, and what the f64 cloth reference and
 * the GPU spring network both integrate.
 *
 * @module
 */
import type { Spring } from "./spring.ts";

/** Options of {@link buildClothSprings}. */
export interface ClothSpringOptions {
  /** Grid rows (≥ 1). Particle of row r, column c is `first + r * cols + c`. */
  rows: number;
  /** Grid columns (≥ 1). */
  cols: number;
  /** Rest distance between 4-neighbours (> 0). */
  spacing: number;
  /** Stiffness of the 4-neighbour springs; 0 omits them. */
  structural: number;
  /** Stiffness of the diagonal springs; 0 omits them. */
  shear: number;
  /** Stiffness of the springs two apart along rows and columns; 0 omits them. */
  bend: number;
  /** Damping kd of every spring (≥ 0). */
  damping: number;
  /** Index of the grid's first particle in the scene (default 0). */
  first?: number;
}

/**
 * Springs of a single-layer rows × cols cloth grid: structural (4-neighbours, rest = spacing),
 * shear (both diagonals of every cell, rest = spacing·√2) and bend (two apart along a row or a
 * column, rest = 2·spacing), in that order, each family in row-major order of its first end.
 * The mass-spring cloth of Provot 1995 / Baraff & Witkin 1998, as used by Truong et al. 2021 §5.
 */
export function buildClothSprings(options: ClothSpringOptions): Spring[] {
  const { rows, cols, spacing, structural, shear, bend, damping } = options;
  const first = options.first ?? 0;
  if (!Number.isInteger(rows) || rows < 1) {
    throw new RangeError(`buildClothSprings: rows must be an integer ≥ 1, got ${rows}`);
  }
  if (!Number.isInteger(cols) || cols < 1) {
    throw new RangeError(`buildClothSprings: cols must be an integer ≥ 1, got ${cols}`);
  }
  if (!(spacing > 0)) {
    throw new RangeError(`buildClothSprings: spacing must be > 0, got ${spacing}`);
  }
  for (
    const [name, v] of [["structural", structural], ["shear", shear], ["bend", bend], [
      "damping",
      damping,
    ]] as const
  ) {
    if (!(v >= 0) || !Number.isFinite(v)) {
      throw new RangeError(`buildClothSprings: ${name} must be finite and ≥ 0, got ${v}`);
    }
  }
  if (!Number.isInteger(first) || first < 0) {
    throw new RangeError(`buildClothSprings: first must be an integer ≥ 0, got ${first}`);
  }
  const id = (r: number, c: number) => first + r * cols + c;
  const out: Spring[] = [];
  const add = (i: number, j: number, restLength: number, ks: number) =>
    out.push({ i, j, restLength, ks, kd: damping });
  if (structural > 0) {
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        if (c + 1 < cols) add(id(r, c), id(r, c + 1), spacing, structural);
        if (r + 1 < rows) add(id(r, c), id(r + 1, c), spacing, structural);
      }
    }
  }
  if (shear > 0) {
    const diag = spacing * Math.SQRT2;
    for (let r = 0; r + 1 < rows; r++) {
      for (let c = 0; c + 1 < cols; c++) {
        add(id(r, c), id(r + 1, c + 1), diag, shear);
        add(id(r, c + 1), id(r + 1, c), diag, shear);
      }
    }
  }
  if (bend > 0) {
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        if (c + 2 < cols) add(id(r, c), id(r, c + 2), 2 * spacing, bend);
        if (r + 2 < rows) add(id(r, c), id(r + 2, c), 2 * spacing, bend);
      }
    }
  }
  return out;
}
