/**
 * The MAC grid of a FLIP fluid (Zhu & Bridson 2005; Bridson, "Fluid Simulation for Computer
 * Graphics", 2nd ed., ch. 2): its box and cells, the ids of cells and of the faces of each axis,
 * the positions they stand at, and the classes a cell or a face takes in the projection (with how
 * a cell of other systems' particles reads, Truong et al. 2021 §5). The f64 reference and the GPU
 * FLIP system lay out their buffers by these; `docs/flip.md` states the conventions.
 *
 * @module
 */

/** A MAC grid: lower corner, cubic cell edge and cell counts per axis. */
export interface FlipGrid {
  /** Lower corner of the box (m). */
  min: [number, number, number];
  /** Cell edge (m, > 0). */
  dx: number;
  /** Cells per axis (nx, ny, nz), each ≥ 1. */
  dims: [number, number, number];
}

/** Axis of a face lattice: 0 for u (x-faces), 1 for v (y-faces), 2 for w (z-faces). */
export type FlipAxis = 0 | 1 | 2;

/** One array per face lattice: `x` for u (x-faces), `y` for v, `z` for w. */
export interface FaceArrays<T> {
  /** u (x-faces), indexed by {@link uFaceId}. */
  x: T;
  /** v (y-faces), indexed by {@link vFaceId}. */
  y: T;
  /** w (z-faces), indexed by {@link wFaceId}. */
  z: T;
}

/** Keys of {@link FaceArrays} by axis. */
export const AXIS_KEYS: readonly ["x", "y", "z"] = ["x", "y", "z"];

/** Cell class: no particle (pressure 0). */
export const CELL_AIR = 0;
/** Cell class: holds at least one FLIP particle (pressure unknown). */
export const CELL_FLUID = 1;
/** Cell class: holds no FLIP particle but at least one OTHER particle (moving solid boundary). */
export const CELL_SOLID = 2;

/** Face class: between two non-FLUID, non-SOLID cells (air–air); not touched by the projection. */
export const FACE_INACTIVE = 0;
/** Face class: next to a FLUID cell and no SOLID cell, not on the boundary; pressure-updated. */
export const FACE_FLUID = 1;
/** Face class: next to a SOLID cell (not on the boundary); velocity us_f, not pressure-updated. */
export const FACE_SOLID = 2;
/** Face class: on the box boundary; velocity 0, not pressure-updated. */
export const FACE_WALL = 3;

/** Largest cell count {@link flipGrid} accepts (ids must stay well inside u32 on the GPU). */
export const FLIP_MAX_CELLS = 2 ** 30;

/** A point or vector: three numbers, as a tuple or any array-like. */
export type Vec3Like = readonly [number, number, number] | ArrayLike<number>;

/**
 * The three numbers of `a` as a tuple; a TypeError naming `fn` and `name` when `a` is not three
 * numbers long, a RangeError when one is not finite.
 */
export function checkVec3(fn: string, name: string, a: Vec3Like): [number, number, number] {
  if (!a || a.length !== 3) {
    throw new TypeError(`${fn}: ${name} must be an array of 3 numbers, got ${String(a)}`);
  }
  for (let k = 0; k < 3; k++) {
    if (typeof a[k] !== "number" || !Number.isFinite(a[k])) {
      throw new RangeError(`${fn}: ${name}[${k}] must be a finite number, got ${a[k]}`);
    }
  }
  return [a[0], a[1], a[2]];
}

/**
 * The MAC grid over the box [min, max] with cubic cells of edge dx: dims
 * n_a = max(1, ceil((max_a − min_a) / dx − 1e-9)), so that an extent that is a whole number of
 * cells up to rounding (0.9 / 0.075 = 12.000000000000002) gets exactly that many cells and the
 * walls are the box's; otherwise the grid reaches past max, to min + n dx, and the walls are there
 * (the FLIP system requires whole numbers of cells, gpu/systems/flip/flip_system.ts).
 * Throws a RangeError naming the bad argument when min or max is not finite, max_a < min_a,
 * dx is not finite and > 0, or the grid would exceed {@link FLIP_MAX_CELLS} cells.
 */
export function flipGrid(min: Vec3Like, max: Vec3Like, dx: number): FlipGrid {
  const lo = checkVec3("flipGrid", "min", min);
  const hi = checkVec3("flipGrid", "max", max);
  if (typeof dx !== "number" || !Number.isFinite(dx) || !(dx > 0)) {
    throw new RangeError(`flipGrid: dx must be a finite number > 0, got ${dx}`);
  }
  const dims = [1, 1, 1] as [number, number, number];
  for (let a = 0; a < 3; a++) {
    if (!(hi[a] >= lo[a])) {
      throw new RangeError(
        `flipGrid: max[${a}] = ${hi[a]} must be ≥ min[${a}] = ${lo[a]}; swap min and max`,
      );
    }
    dims[a] = Math.max(1, Math.ceil((hi[a] - lo[a]) / dx - 1e-9));
  }
  const cells = dims[0] * dims[1] * dims[2];
  if (!(cells <= FLIP_MAX_CELLS)) {
    throw new RangeError(
      `flipGrid: dx = ${dx} gives ${
        dims.join(" × ")
      } = ${cells} cells, more than ${FLIP_MAX_CELLS}; ` +
        "use a larger dx or a smaller box",
    );
  }
  return { min: lo, dx, dims };
}

/** Number of cells nx·ny·nz. */
export function cellCount(grid: FlipGrid): number {
  return grid.dims[0] * grid.dims[1] * grid.dims[2];
}

/** Sizes of the face lattice of an axis: dims with one more along that axis. */
export function faceDims(grid: FlipGrid, axis: FlipAxis): [number, number, number] {
  const s = [...grid.dims] as [number, number, number];
  s[axis] += 1;
  return s;
}

/** Face counts per lattice: (nx+1)·ny·nz u-faces, nx·(ny+1)·nz v-faces, nx·ny·(nz+1) w-faces. */
export function faceCounts(grid: FlipGrid): FaceArrays<number> {
  const [nx, ny, nz] = grid.dims;
  return { x: (nx + 1) * ny * nz, y: nx * (ny + 1) * nz, z: nx * ny * (nz + 1) };
}

function checkCoords(
  fn: string,
  c: readonly [number, number, number],
  size: readonly [number, number, number],
): void {
  if (!c || c.length !== 3) throw new TypeError(`${fn}: coords must be [i, j, k]`);
  for (let a = 0; a < 3; a++) {
    if (!Number.isInteger(c[a]) || c[a] < 0 || c[a] >= size[a]) {
      throw new RangeError(
        `${fn}: coords[${a}] = ${c[a]} must be an integer in [0, ${size[a] - 1}]`,
      );
    }
  }
}

/** Throws a RangeError naming `fn` when `axis` is not 0 (u), 1 (v) or 2 (w). */
export function checkAxis(fn: string, axis: number): void {
  if (axis !== 0 && axis !== 1 && axis !== 2) {
    throw new RangeError(`${fn}: axis must be 0 (u), 1 (v) or 2 (w), got ${axis}`);
  }
}

/** Cell id i + nx (j + ny k) of cell (i, j, k); RangeError outside the grid. */
export function cellId(grid: FlipGrid, coords: readonly [number, number, number]): number {
  checkCoords("cellId", coords, grid.dims);
  return coords[0] + grid.dims[0] * (coords[1] + grid.dims[1] * coords[2]);
}

/** Inverse of {@link cellId}: (i, j, k) of a cell id; RangeError outside the grid. */
export function cellCoords(grid: FlipGrid, id: number): [number, number, number] {
  return idCoords("cellCoords", grid.dims, id);
}

function idCoords(fn: string, s: readonly number[], id: number): [number, number, number] {
  const total = s[0] * s[1] * s[2];
  if (!Number.isInteger(id) || id < 0 || id >= total) {
    throw new RangeError(`${fn}: id must be an integer in [0, ${total - 1}], got ${id}`);
  }
  const i = id % s[0];
  const r = (id - i) / s[0];
  const j = r % s[1];
  return [i, j, (r - j) / s[1]];
}

/**
 * Face id of face (i, j, k) of an axis: i + s_x (j + s_y k) with s = {@link faceDims} (so
 * {@link uFaceId}, {@link vFaceId}, {@link wFaceId} for axes 0, 1, 2); RangeError outside.
 */
export function faceId(
  grid: FlipGrid,
  axis: FlipAxis,
  coords: readonly [number, number, number],
): number {
  checkAxis("faceId", axis);
  const s = faceDims(grid, axis);
  checkCoords("faceId", coords, s);
  return coords[0] + s[0] * (coords[1] + s[1] * coords[2]);
}

/** u-face id i + (nx+1)(j + ny k), 0 ≤ i ≤ nx. */
export function uFaceId(grid: FlipGrid, coords: readonly [number, number, number]): number {
  return faceId(grid, 0, coords);
}

/** v-face id i + nx (j + (ny+1) k), 0 ≤ j ≤ ny. */
export function vFaceId(grid: FlipGrid, coords: readonly [number, number, number]): number {
  return faceId(grid, 1, coords);
}

/** w-face id i + nx (j + ny k), 0 ≤ k ≤ nz. */
export function wFaceId(grid: FlipGrid, coords: readonly [number, number, number]): number {
  return faceId(grid, 2, coords);
}

/** Inverse of {@link faceId}: (i, j, k) of a face id of an axis. */
export function faceCoords(grid: FlipGrid, axis: FlipAxis, id: number): [number, number, number] {
  checkAxis("faceCoords", axis);
  return idCoords("faceCoords", faceDims(grid, axis), id);
}

/**
 * Position of a face: min + (i, j+½, k+½) dx for u, min + (i+½, j, k+½) dx for v,
 * min + (i+½, j+½, k) dx for w.
 */
export function facePosition(grid: FlipGrid, axis: FlipAxis, id: number): [number, number, number] {
  checkAxis("facePosition", axis);
  const c = idCoords("facePosition", faceDims(grid, axis), id);
  return [0, 1, 2].map((b) => grid.min[b] + (c[b] + (b === axis ? 0 : 0.5)) * grid.dx) as [
    number,
    number,
    number,
  ];
}

/** Centre min + (i+½, j+½, k+½) dx of a cell. */
export function cellCenter(grid: FlipGrid, id: number): [number, number, number] {
  const c = idCoords("cellCenter", grid.dims, id);
  return [0, 1, 2].map((b) => grid.min[b] + (c[b] + 0.5) * grid.dx) as [number, number, number];
}

/** Cell (i, j, k) of a point: floor((x − min) / dx) clamped to [0, n_a − 1] per axis. */
export function cellOfPoint(grid: FlipGrid, point: Vec3Like): [number, number, number] {
  const p = checkVec3("cellOfPoint", "point", point);
  return [0, 1, 2].map((a) => clampCell(grid, a, p[a])) as [number, number, number];
}

/** The cell index along axis `a` of coordinate `x`: floor((x − min_a) / dx) clamped to the grid. */
export function clampCell(grid: FlipGrid, a: number, x: number): number {
  const c = Math.floor((x - grid.min[a]) / grid.dx);
  return c < 0 ? 0 : c > grid.dims[a] - 1 ? grid.dims[a] - 1 : c;
}

/**
 * How a cell holding only particles of other systems enters the projection (`docs/flip.md`, step 1):
 * `fluid` (the paper's reading, default) or `solid` (a moving boundary).
 */
export type OccupiedReading = "fluid" | "solid";
