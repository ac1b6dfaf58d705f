/**
 * How big a scene is, from its description alone: the particles and springs its bodies will have
 * and an upper bound of the host memory a run of it takes, in closed form per body shape (lattice
 * samples of the bounding box × the shape's share of that box; cloth rows × cols; bonds from the
 * horizon's family size; the FLIP MAC grid's cells over the domain), so that a scene with a spacing
 * of 1e-5 m or a FLIP grid over a huge domain is measured in microseconds instead of being built
 * until the heap runs out; an estimate that overflows is Infinity. {@link checkSceneSize} turns an
 * estimate past a limit into a {@link SceneError} with the numbers.
 *
 * The estimates follow `scene_builder.ts`: a fluid or solid body samples the simple cubic lattice
 * of its spacing over its bounding box (⌊extent/spacing⌋ samples per axis, at least 1) and keeps
 * the samples inside its shape; a solid bonds every pair of its particles closer than horizon +
 * spacing/2; a cloth has rows × cols particles and its structural, shear and bend springs.
 *
 * @module
 */
import { type Body, type FluidBody, type Scene, SceneError, type SolidBody } from "./scene.ts";
import { solidShapeBounds } from "./solid_shape.ts";
import type { Vec3 } from "../vec3.ts";

/**
 * Longest array the builder may grow (V8's limit on a fast array's length, 2²⁷ elements: one
 * more `push` throws "Invalid array length"). The builder keeps xyz interleaved in one array, so a
 * scene may have at most a third of it as particles, and its springs in one array.
 */
export const MAX_ARRAY_LENGTH = 2 ** 27;

/** Most particles the harness can build: {@link MAX_ARRAY_LENGTH} / 3 (xyz in one array). */
export const MAX_PARTICLES: number = Math.floor(MAX_ARRAY_LENGTH / 3);

/** Most springs (cloth springs and solid bonds) the harness can build: {@link MAX_ARRAY_LENGTH}. */
export const MAX_SPRINGS: number = MAX_ARRAY_LENGTH;

/**
 * Host bytes per particle, an upper bound: the builder's arrays (about 0.3 KiB, measured on a 1M
 * particle dam break) and the engine's host copies and buffers (a whole 1M-particle run on a
 * software adapter, whose GPU memory is host memory, peaked at 0.8 KiB per particle).
 */
export const BYTES_PER_PARTICLE = 1024;

/** Host bytes per spring or bond, an upper bound (a 2.4M-bond wall's whole run: 0.37 KiB each). */
export const BYTES_PER_SPRING = 512;

/** Host bytes per cell of a FLIP MAC grid, an upper bound (a dozen 4-byte fields per cell). */
export const BYTES_PER_GRID_CELL = 256;

/** Host bytes of a run whatever its size: the runtime, the compiled kernels (measured: 185 MB). */
export const BASE_BYTES: number = 256 * 2 ** 20;

/** The estimated size of one body. */
export interface BodySize {
  /** The body's index in `scene.bodies`. */
  index: number;
  /** The body's name. */
  name: string;
  /** The path of the field that sets its size, e.g. `bodies[1].spacing` (`rows` for a cloth). */
  field: string;
  /** Estimated particles (Infinity when the estimate overflows). */
  particles: number;
  /** Estimated springs: a cloth's springs, a solid's bonds (an upper bound), 0 for a fluid. */
  springs: number;
}

/** The estimated size of a scene ({@link estimateSceneSize}). */
export interface SceneSize {
  /** Estimated particles, all bodies (Infinity when the estimate overflows). */
  particles: number;
  /** Estimated springs and bonds, all bodies (an upper bound). */
  springs: number;
  /** Cells of the FLIP MAC grid over the domain (0 when no body names the `flip` system). */
  gridCells: number;
  /** Upper bound of the host memory a run takes (bytes; Infinity when it overflows). */
  bytes: number;
  /** Per body, in scene order. */
  bodies: BodySize[];
}

/** Limits for {@link checkSceneSize}. */
export interface SceneSizeLimits {
  /** Host memory of the machine (bytes); Infinity when unknown. */
  memoryBytes: number;
  /** Most particles (default {@link MAX_PARTICLES}). */
  maxParticles?: number;
  /** Most springs (default {@link MAX_SPRINGS}). */
  maxSprings?: number;
}

/** NaN (∞ · 0 and the like) counts as unbounded: an estimate never hides an overflow. */
function finiteOr(v: number): number {
  return Number.isNaN(v) ? Infinity : v;
}

/** Lattice samples per axis over `[min, max]` at `spacing`, as `sampleFluid`/`sampleSolid` place them. */
function latticeDims(box: { min: Vec3; max: Vec3 }, spacing: number): number[] {
  const { min, max } = box;
  return [0, 1, 2].map((k) =>
    finiteOr(Math.max(1, Math.floor((max[k] - min[k]) / spacing + 1e-9)))
  );
}

/**
 * Lattice points within distance < `rho` (in lattice units) of a lattice point, itself excluded:
 * counted for rho ≤ 100, else 4/3 π rho³.
 */
function familySize(rho: number): number {
  if (!(rho <= 100)) return finiteOr((4 / 3) * Math.PI * rho ** 3);
  let n = 0;
  const r = Math.ceil(rho);
  for (let i = -r; i <= r; i++) {
    for (let j = -r; j <= r; j++) {
      const rest = rho * rho - i * i - j * j;
      if (rest > 0) n += 2 * Math.ceil(Math.sqrt(rest)) - 1; // |k| < sqrt(rest)
    }
  }
  return n - 1;
}

/** Share of a shape's bounding box that the shape fills. */
function fillFraction(body: FluidBody | SolidBody): number {
  const sh = body.shape;
  switch (sh.type) {
    case "box":
      return 1;
    case "cylinder":
      return Math.PI / 4;
    case "sphere":
      return Math.PI / 6;
    case "torus": {
      // 2π²Ra² in a (2(R + a))² × 2a box
      const { majorRadius: R, minorRadius: a } = sh;
      return (Math.PI * Math.PI * R * a) / (4 * (R + a) ** 2);
    }
    case "bowl": {
      // a hemispherical shell, 2/3 π (R³ − (R − t)³), in a 2R × R × 2R box
      const { radius: R, thickness: t } = sh;
      return finiteOr(((2 / 3) * Math.PI * (1 - ((R - t) / R) ** 3)) / 4);
    }
  }
}

/** The particles and springs of one body (no particle is built). */
function bodySize(body: Body, index: number): BodySize {
  const at = `bodies[${index}]`;
  if (body.kind === "cloth") {
    const { rows, cols } = body;
    const structural = body.stretch > 0 ? (cols - 1) * rows + (rows - 1) * cols : 0;
    const shear = body.shear > 0 ? 2 * (rows - 1) * (cols - 1) : 0;
    const bend = body.bend > 0 ? Math.max(0, cols - 2) * rows + Math.max(0, rows - 2) * cols : 0;
    return {
      index,
      name: body.name,
      field: `${at}.rows`,
      particles: finiteOr(rows * cols),
      springs: finiteOr(structural + shear + bend),
    };
  }
  let box: { min: Vec3; max: Vec3 };
  if (body.kind === "solid") box = solidShapeBounds(body.shape);
  else if (body.shape.type === "box") box = body.shape;
  else {
    const { base: b, radius: r, height: h } = body.shape;
    box = { min: [b[0] - r, b[1], b[2] - r], max: [b[0] + r, b[1] + h, b[2] + r] };
  }
  const dims = latticeDims(box, body.spacing);
  const lattice = finiteOr(dims[0] * dims[1] * dims[2]);
  const particles = finiteOr(Math.max(1, lattice * fillFraction(body)));
  // every particle bonded to its family (an interior one's), but no more pairs than the lattice has
  const springs = body.kind === "solid"
    ? finiteOr(
      Math.min(particles * familySize(body.horizon / body.spacing + 0.5), lattice * lattice) / 2,
    )
    : 0;
  return { index, name: body.name, field: `${at}.spacing`, particles, springs };
}

/**
 * Estimates the size of a validated scene from its description alone, without building a
 * particle: per body its particles and springs (see the module doc), the cells of the FLIP MAC
 * grid (the `flip` system's `dx` over the domain, when a body names that system) and an upper bound
 * of the host memory a run takes. Cheap for any input; an estimate that overflows is Infinity,
 * never NaN.
 */
export function estimateSceneSize(scene: Scene): SceneSize {
  const bodies = scene.bodies.map(bodySize);
  const particles = finiteOr(bodies.reduce((a, b) => a + b.particles, 0));
  const springs = finiteOr(bodies.reduce((a, b) => a + b.springs, 0));
  const dx = scene.systems.flip?.dx ?? 0;
  const flip = scene.bodies.some((b) => b.system === "flip") && dx > 0;
  const gridCells = flip
    ? finiteOr(
      [0, 1, 2].reduce(
        (a, k) => a * Math.max(1, Math.round((scene.domain.max[k] - scene.domain.min[k]) / dx)),
        1,
      ),
    )
    : 0;
  const bytes = finiteOr(
    BASE_BYTES + particles * BYTES_PER_PARTICLE + springs * BYTES_PER_SPRING +
      gridCells * BYTES_PER_GRID_CELL,
  );
  return { particles, springs, gridCells, bytes, bodies };
}

/** `n` for a message: whole below 10⁶, else 3 significant digits (`9.42e+12`); `∞` past floats. */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return "∞";
  return n < 1e6 ? String(Math.round(n)) : n.toPrecision(3);
}

/** `bytes` in GiB for a message, 3 significant digits (`23.5 GiB`, `1.20e+5 GiB`). */
export function formatGiB(bytes: number): string {
  if (!Number.isFinite(bytes)) return "∞ GiB";
  const g = bytes / 2 ** 30;
  return `${g < 1e5 ? Number(g.toPrecision(3)) : g.toPrecision(3)} GiB`;
}

/** A limit for a message: exact, with thousands separators (`44,739,242`). */
function formatLimit(n: number): string {
  return n.toLocaleString("en");
}

/** What makes the body `size` estimates as big as it is, and what to change, for a message. */
function bodyAdvice(scene: Scene, size: BodySize): { why: string; fix: string } {
  const body = scene.bodies[size.index];
  const at = `bodies[${size.index}]`;
  const n = formatCount(size.particles);
  if (body.kind === "cloth") {
    return {
      why: `body ${JSON.stringify(body.name)}: ${n} particles, ${body.rows} × ${body.cols}`,
      fix: `lower ${at}.rows and ${at}.cols`,
    };
  }
  const bonds = body.kind === "solid"
    ? ` and ${formatCount(size.springs)} bonds within horizon ${body.horizon} m`
    : "";
  return {
    why: `body ${JSON.stringify(body.name)}: ${n} particles at spacing ${body.spacing} m${bonds}`,
    fix: `raise ${at}.spacing${body.kind === "solid" ? ` (or lower ${at}.horizon)` : ""}` +
      " or shrink the body",
  };
}

/**
 * Throws a {@link SceneError} when the scene's estimated size ({@link estimateSceneSize}) is not
 * finite or passes a limit: more particles or springs than the harness can build, or more host
 * memory than `limits.memoryBytes`. The error names the field to change (the largest body's
 * `bodies[i].spacing`, or `rows/cols` for a cloth; `systems["flip"].dx` when the FLIP grid is what
 * is too big) and gives the numbers. Returns the estimate otherwise.
 */
export function checkSceneSize(scene: Scene, limits: SceneSizeLimits): SceneSize {
  const size = estimateSceneSize(scene);
  const maxParticles = limits.maxParticles ?? MAX_PARTICLES;
  const maxSprings = limits.maxSprings ?? MAX_SPRINGS;
  const over: string[] = [];
  if (!(size.bytes <= limits.memoryBytes)) {
    over.push(`this machine's ${formatGiB(limits.memoryBytes)}`);
  }
  if (!(size.particles <= maxParticles)) {
    over.push(`the harness's limit of ${formatLimit(maxParticles)} particles`);
  }
  if (!(size.springs <= maxSprings)) {
    over.push(`the harness's limit of ${formatLimit(maxSprings)} springs`);
  }
  if (over.length === 0 && !Number.isFinite(size.bytes)) over.push("what any machine holds");
  if (over.length === 0) return size;
  const cost = (b: BodySize) => b.particles * BYTES_PER_PARTICLE + b.springs * BYTES_PER_SPRING;
  const largest = size.bodies.reduce((a, b) => (cost(b) > cost(a) ? b : a));
  const gridHeavy = !(size.gridCells * BYTES_PER_GRID_CELL <= cost(largest)) &&
    size.particles <= maxParticles && size.springs <= maxSprings;
  const springs = size.springs > 0 ? ` and ${formatCount(size.springs)} springs` : "";
  const grid = size.gridCells > 0 ? `, a FLIP grid of ${formatCount(size.gridCells)} cells` : "";
  const advice = bodyAdvice(scene, largest);
  const field = gridHeavy ? `systems["flip"].dx` : largest.field;
  const why = gridHeavy ? `the FLIP grid at dx ${scene.systems.flip?.dx} m` : advice.why;
  const fix = gridHeavy ? `raise systems["flip"].dx or shrink the domain` : advice.fix;
  throw new SceneError(
    field,
    `scene ${scene.id}: about ${formatCount(size.particles)} particles${springs}${grid}, ~${
      formatGiB(size.bytes)
    } of host memory (${why}), more than ${over.join(" and ")}; ${fix}`,
  );
}
