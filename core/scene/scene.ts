/**
 * Scenes as data: the schema of a resolved scene (one scale of one paper figure), its
 * validation with messages that name the bad field, and JSON (de)serialisation.
 *
 * A scene holds everything a run needs except the collision handler: bodies (cloth sheets, fluid
 * volumes and peridynamic solids with their materials), the domain box, gravity, the particle radius, the time
 * step chosen by a CFL condition, the duration, the parameters of every system and handler (by
 * plug-in id: core knows none of them), which handlers apply, the metrics sampling period and the
 * seed.
 *
 * @module
 */
import { didYouMean } from "../nearest_name.ts";
import { checkParam, ParamError, type ParamSchema, type ParamSpec } from "../params.ts";
import { controlCharacterProblem, withoutControls } from "../option_text.ts";
import { SOLID_SHAPE_TYPES, type SolidShape, solidShapeBounds } from "./solid_shape.ts";
import type { Vec3 } from "../vec3.ts";

/** Scene sizes: `tiny` for tests, `small` for the default bench, `paper` for Table I counts. */
export type Scale = "tiny" | "small" | "medium" | "paper";

/** Every scale, smallest first. */
export const SCALES: readonly Scale[] = ["tiny", "small", "medium", "paper"];

/** Which particles of a cloth are pinned (fixed in space). */
export type PinMode = "none" | "corners" | "edges";

/** A single-layer mass-spring cloth in the xz-plane at height `origin[1]` (implicit system). */
export interface ClothBody {
  kind: "cloth";
  name: string;
  /** System that integrates it (default by kind: `mass-spring`); see `gpu/systems/registry.ts`. */
  system?: string;
  /** Position of particle (row 0, col 0); rows run along +z, columns along +x. */
  origin: Vec3;
  rows: number;
  cols: number;
  /** Rest distance between neighbouring particles (m). */
  spacing: number;
  /** Mass of each particle (kg). */
  particleMass: number;
  /** Spring stiffnesses (N/m) and damping (N·s/m). */
  stretch: number;
  shear: number;
  bend: number;
  damping: number;
  pinned: PinMode;
}

/** A fluid volume sampled on a lattice (explicit SPH system). */
export interface FluidBody {
  kind: "fluid";
  name: string;
  /** System that integrates it (default by kind: `sph`); see `gpu/systems/registry.ts`. */
  system?: string;
  shape:
    | {
      type: "cylinder"; /** centre of the bottom disc */
      base: Vec3;
      radius: number;
      height: number;
    }
    | { type: "box"; min: Vec3; max: Vec3 };
  /** Lattice spacing (m). */
  spacing: number;
  /** Random displacement of each sample, as a fraction of the spacing (seeded). */
  jitter: number;
  /** Initial velocity (m/s). */
  velocity: Vec3;
  /** Mass of each particle (kg). */
  particleMass: number;
}

/**
 * A brittle peridynamic solid (bond-based PMB material, `core/model/peridynamic_bonds.ts`) sampled
 * on a simple cubic lattice of spacing h: every particle has volume h³ and mass ρ h³, and every
 * pair of its particles within the horizon δ (+ h/2, partial-volume correction) is a bond, i.e. a
 * Hookean spring of stiffness c β V² / L (c = 18 K / (π δ⁴)) that breaks, irreversibly, past the
 * critical stretch s0 = √(5 G0 / (9 K δ)) when the body is breakable (Silling & Askari 2005).
 */
export interface SolidBody {
  kind: "solid";
  name: string;
  /** System that integrates it (default by kind: `peridynamics`); see `gpu/systems/registry.ts`. */
  system?: string;
  /** Region sampled by the lattice (centred in its bounding box, no jitter; `solid_shape.ts`). */
  shape: SolidShape;
  /** Lattice spacing h (m), ≥ 2·scene.radius. */
  spacing: number;
  /** Density ρ (kg/m³); particle mass ρ h³. */
  density: number;
  /** Bulk modulus K (Pa). */
  bulkModulus: number;
  /** Fracture energy G0 (J/m²), which sets the critical stretch s0 = √(5 G0 / (9 K δ)). */
  fractureEnergy: number;
  /** Horizon δ (m), ≥ spacing (typically about 3 spacings). */
  horizon: number;
  /** false: bonds never break (the paper's "high threshold that prevents fracturing", Fig. 3). */
  breakable: boolean;
  /** Damping ratio ζ (≥ 0) of every bond (`bondDamping` of `core/model/peridynamic_bonds.ts`). */
  dampingRatio: number;
  /** Initial velocity (m/s). */
  velocity: Vec3;
  /** Particles inside this box (bounds included) are pinned (fixed). */
  pinned?: { min: Vec3; max: Vec3 };
}

/** A body of the scene. */
export type Body = ClothBody | FluidBody | SolidBody;

/**
 * Where a dam-break scene measures its front and column (`frontX`, `columnHeight` of
 * `gpu/metrics/fluid_metrics.ts`): the water column stands against the back wall x = `backWallX`
 * on the floor y = `floorY` and flows towards +x.
 */
export interface DamBreakProbe {
  /** x of the back wall (m); the front is measured from it along +x. */
  backWallX: number;
  /** y of the floor (m); the column height is measured from it along +y. */
  floorY: number;
  /** Initial width a of the column along x (m), recorded as `columnWidth` in the summary. */
  columnWidth: number;
}

/** Parameter values of plug-ins (systems or handlers) by plug-in id, then by name. */
export type PluginParams = Record<string, Record<string, number>>;

/** A resolved scene: one scale of one paper scene, complete and serialisable. */
export interface Scene {
  /** Scene id, e.g. `fig4-fluid-cloth`. */
  id: string;
  scale: Scale;
  /** Paper figure it reproduces and what it shows. */
  figure: string;
  description: string;
  seed: number;
  /**
   * Seeded rigid horizontal displacement of every cloth and solid that has no pinned particle, as
   * a fraction of {@link Scene.radius}: x and z each uniform in ±placementJitter·radius, drawn from
   * the scene's seed (absent: 0). Fluids are jittered sample by sample (`FluidBody.jitter`); with
   * this, every free body's initial state moves with the seed, so runs at three seeds are three
   * samples of where the bodies meet, not one state thrice.
   */
  placementJitter?: number;
  gravity: Vec3;
  /** Axis-aligned simulation box; particles are kept inside it. */
  domain: { min: Vec3; max: Vec3 };
  /** Collision radius of every particle (m). */
  radius: number;
  /** Time step (s), chosen so that `referenceSpeed · dt ≤ cflFraction · radius`. */
  dt: number;
  /** CFL bookkeeping: the speed the time step was chosen for and the fraction of a radius. */
  cfl: { referenceSpeed: number; fraction: number };
  /** Simulated time (s). */
  duration: number;
  /** Metrics are sampled every this many steps (never per-step readback). */
  metricsEvery: number;
  bodies: Body[];
  /**
   * Parameters of the simulation systems by system id (e.g. `sph`: h, rho0, stiffness, viscosity;
   * `mass-spring`: cgIterations, cgTolerance, drag), checked against each system's schema
   * (`gpu/systems/registry.ts`).
   */
  systems: PluginParams;
  /**
   * Parameters of every handler by handler id (e.g. `merge-split`: alpha, beta, nMin, nMax),
   * checked against each handler's schema (`gpu/handlers/registry.ts`): the physical choices
   * behind them are recorded in `notes`.
   */
  handlers: PluginParams;
  /**
   * Handler parameters under a named setup that changes the scene's own rule for them, by setup
   * id (`core/setups.ts`: `per-scene-levels`), holding only the handlers whose parameters differ
   * from `handlers`; `sceneUnder` puts them over `handlers` when the case runs under that setup.
   */
  setupHandlers?: Readonly<Record<string, PluginParams>>;
  /**
   * Handler ids that apply to this scene, or `*` for every registered handler (fig10/fig11 fix
   * merge-split with their parameters). See {@link handlerApplies}.
   */
  applicableHandlers: string[];
  /** Why these parameters: free text recorded with results. */
  notes: string;
  /** Dam-break scenes only: where the front and the column height are measured. */
  damBreak?: DamBreakProbe;
}

/** What {@link validateScene} checks against beyond the scene itself (the registered plug-ins). */
export interface SceneValidationOptions {
  /** Handler ids `applicableHandlers` may name (`gpu/handlers/registry.ts`); unchecked when absent. */
  knownHandlers?: readonly string[];
  /**
   * The registered systems' parameter schemas by system id (`gpu/systems/registry.ts`): a body's
   * `system` and every id of `systems` must be one of them, every parameter of `systems[id]` must
   * be in its schema and every value in the range the schema declares. Unchecked when absent (then
   * any finite number, or Infinity, is accepted).
   */
  knownSystems?: Readonly<Record<string, ParamSchema>>;
  /**
   * How many times the CFL bound (`cfl.fraction · radius / cfl.referenceSpeed`) `dt` may be; 1
   * when absent. More only for a time step swept on purpose across the bound (a stability study,
   * `--sweep scene.dt`), never for a scene as written.
   */
  dtOverCfl?: number;
}

/**
 * Largest finite f32 (3.4028234663852886e38): the GPU keeps positions and the domain's walls as
 * f32, so a domain bound beyond it cannot be represented there.
 */
export const F32_MAX = 3.4028234663852886e38;

/** Thrown for an invalid scene; `field` is the path of the bad field, e.g. `bodies[1].spacing`. */
export class SceneError extends Error {
  /** Path of the offending field. */
  readonly field: string;
  /** @param field path of the bad field; @param message what is wrong and what is expected */
  constructor(field: string, message: string) {
    super(withoutControls(`scene.${field}: ${message}`)); // a quoted value printed plainly
    this.name = "SceneError";
    this.field = field;
  }
}

type Obj = Record<string, unknown>;

function obj(v: unknown, field: string): Obj {
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw new SceneError(field, `must be an object, got ${JSON.stringify(v)}`);
  }
  return v as Obj;
}
/** The keys of a scene's objects, by where they appear; any other key is an error. */
const KEYS = {
  scene: [
    "id",
    "scale",
    "figure",
    "description",
    "seed",
    "placementJitter",
    "gravity",
    "domain",
    "radius",
    "dt",
    "cfl",
    "duration",
    "metricsEvery",
    "bodies",
    "systems",
    "handlers",
    "setupHandlers",
    "applicableHandlers",
    "notes",
    "damBreak",
  ],
  box: ["min", "max"],
  cfl: ["referenceSpeed", "fraction"],
  cloth: [
    "kind",
    "name",
    "system",
    "origin",
    "rows",
    "cols",
    "spacing",
    "particleMass",
    "stretch",
    "shear",
    "bend",
    "damping",
    "pinned",
  ],
  fluid: ["kind", "name", "system", "shape", "spacing", "jitter", "velocity", "particleMass"],
  solid: [
    "kind",
    "name",
    "system",
    "shape",
    "spacing",
    "density",
    "bulkModulus",
    "fractureEnergy",
    "horizon",
    "breakable",
    "dampingRatio",
    "velocity",
    "pinned",
  ],
  cylinder: ["type", "base", "radius", "height"],
  sphere: ["type", "center", "radius"],
  torus: ["type", "center", "majorRadius", "minorRadius"],
  bowl: ["type", "center", "radius", "thickness"],
  damBreak: ["backWallX", "floorY", "columnWidth"],
} as const;

/**
 * Throws a {@link SceneError} on the first key of `o` (the object at `field`) that is not one of
 * `keys`, naming the nearest valid key (a misspelt `durationn` would otherwise be ignored, and
 * the scene run without the value meant).
 */
function onlyKeys(o: Obj, keys: readonly string[], field: string): void {
  for (const key of Object.keys(o)) {
    if (keys.includes(key)) continue;
    throw new SceneError(
      `${field}${field ? "." : ""}${key}`,
      `unknown key${didYouMean(key, keys)} (the keys here: ${keys.join(", ")}); ` +
        "fix its spelling or remove it",
    );
  }
}

function num(
  o: Obj,
  key: string,
  field: string,
  range: { min?: number; max?: number; gt?: number; int?: boolean } = {},
): number {
  const f = `${field}${field ? "." : ""}${key}`;
  const spec: ParamSpec = {
    description: key,
    ...range,
    integer: range.int,
    allowInfinity: range.max === Infinity,
  };
  try {
    return checkParam(spec, o[key], f);
  } catch (e) {
    throw e instanceof ParamError ? new SceneError(f, e.detail) : e;
  }
}

/**
 * `o[key]` as a non-empty string without control characters (an id or name printed later must
 * not fake or reorder terminal lines), one of `allowed` when given; else a {@link SceneError}.
 */
function str(o: Obj, key: string, field: string, allowed?: readonly string[]): string {
  const v = o[key];
  const f = `${field}${field ? "." : ""}${key}`;
  if (typeof v !== "string" || v.length === 0) {
    throw new SceneError(f, `must be a non-empty string, got ${JSON.stringify(v)}`);
  }
  const control = controlCharacterProblem(v, "the value");
  if (control) throw new SceneError(f, control);
  if (allowed && !allowed.includes(v)) {
    throw new SceneError(
      f,
      `must be one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}; got ${
        JSON.stringify(v)
      }`,
    );
  }
  return v;
}
function vec(o: Obj, key: string, field: string): Vec3 {
  const v = o[key];
  const f = `${field}${field ? "." : ""}${key}`;
  if (
    !Array.isArray(v) || v.length !== 3 ||
    !v.every((c) => typeof c === "number" && Number.isFinite(c))
  ) {
    throw new SceneError(
      f,
      `must be a 3-vector of finite numbers [x, y, z], got ${JSON.stringify(v)}`,
    );
  }
  return v as unknown as Vec3;
}
function inside(p: Vec3, domain: { min: Vec3; max: Vec3 }, field: string): void {
  for (let k = 0; k < 3; k++) {
    if (p[k] < domain.min[k] || p[k] > domain.max[k]) {
      throw new SceneError(
        field,
        `[${p.join(", ")}] lies outside the domain [${domain.min.join(", ")}]–[${
          domain.max.join(", ")
        }]`,
      );
    }
  }
}

function boxOf(o: Obj, field: string): { min: Vec3; max: Vec3 } {
  const mn = vec(o, "min", field);
  const mx = vec(o, "max", field);
  for (let k = 0; k < 3; k++) {
    if (!(mx[k] > mn[k])) {
      throw new SceneError(
        `${field}.max`,
        `must exceed ${field.split(".").pop()}.min on every axis, got [${mx.join(", ")}] vs [${
          mn.join(", ")
        }]`,
      );
    }
  }
  return { min: mn, max: mx };
}

/**
 * A solid body's `shape` (`solid_shape.ts`): its fields, inside the domain, and thick enough to
 * hold lattice samples at `spacing`.
 */
function validateSolidShape(
  shape: Obj,
  f: string,
  options: { spacing: number; domain: { min: Vec3; max: Vec3 } },
): void {
  const { spacing, domain } = options;
  const type = str(shape, "type", f, SOLID_SHAPE_TYPES);
  onlyKeys(
    shape,
    type === "box" ? ["type", ...KEYS.box] : KEYS[type as Exclude<SolidShape["type"], "box">],
    f,
  );
  const atLeast = (name: string, v: number, min: number, what: string) => {
    if (v < min * (1 - 1e-9)) {
      throw new SceneError(`${f}.${name}`, `${v} ${what} (needs >= ${min} at spacing ${spacing})`);
    }
  };
  if (type === "box") {
    const { min: mn, max: mx } = boxOf(shape, f);
    inside(mn, domain, `${f}.min`);
    inside(mx, domain, `${f}.max`);
    for (let k = 0; k < 3; k++) {
      if (mx[k] - mn[k] < spacing * (1 - 1e-9)) {
        throw new SceneError(
          `${f}.max`,
          `the box is ${mx[k] - mn[k]} m wide along axis ${k}, less than one spacing ${spacing}`,
        );
      }
    }
    return;
  }
  const c = vec(shape, "center", f);
  inside(c, domain, `${f}.center`);
  if (type === "sphere") {
    atLeast("radius", num(shape, "radius", f, { gt: 0 }), spacing / 2, "holds no lattice sample");
  } else if (type === "torus") {
    const major = num(shape, "majorRadius", f, { gt: 0 });
    const minor = num(shape, "minorRadius", f, { gt: 0 });
    if (!(minor < major)) {
      throw new SceneError(
        `${f}.minorRadius`,
        `${minor} must be below majorRadius ${major} (a torus with a hole)`,
      );
    }
    atLeast("minorRadius", minor, spacing / 2, "holds no lattice sample across the tube");
  } else {
    const R = num(shape, "radius", f, { gt: 0 });
    const t = num(shape, "thickness", f, { gt: 0 });
    if (!(t < R)) throw new SceneError(`${f}.thickness`, `${t} must be below radius ${R}`);
    atLeast("thickness", t, spacing, "is thinner than one lattice spacing");
  }
  const { min, max } = solidShapeBounds(shape as unknown as SolidShape);
  inside(min, domain, f);
  inside(max, domain, f);
}

/** The fields of a {@link SolidBody} (after kind, name and system). */
function validateSolid(
  b: Obj,
  f: string,
  radius: number,
  domain: { min: Vec3; max: Vec3 },
): void {
  const spacing = num(b, "spacing", f, { gt: 0 });
  if (spacing < 2 * radius * (1 - 1e-9)) {
    throw new SceneError(
      `${f}.spacing`,
      `${spacing} is below 2·radius = ${2 * radius}: neighbouring solid particles would overlap`,
    );
  }
  validateSolidShape(obj(b.shape, `${f}.shape`), `${f}.shape`, { spacing, domain });
  num(b, "density", f, { gt: 0 });
  num(b, "bulkModulus", f, { gt: 0 });
  num(b, "fractureEnergy", f, { gt: 0 });
  const horizon = num(b, "horizon", f, { gt: 0 });
  if (horizon < spacing) {
    throw new SceneError(`${f}.horizon`, `must be >= spacing ${spacing}, got ${horizon}`);
  }
  if (typeof b.breakable !== "boolean") {
    throw new SceneError(`${f}.breakable`, `must be a boolean, got ${JSON.stringify(b.breakable)}`);
  }
  num(b, "dampingRatio", f, { min: 0 });
  vec(b, "velocity", f);
  if (b.pinned !== undefined) {
    const pinned = obj(b.pinned, `${f}.pinned`);
    onlyKeys(pinned, KEYS.box, `${f}.pinned`);
    boxOf(pinned, `${f}.pinned`);
  }
}

/** The {@link DamBreakProbe} of a scene: the wall and floor inside the domain, a > 0 fits in it. */
function validateDamBreak(raw: unknown, domain: { min: Vec3; max: Vec3 }): void {
  const d = obj(raw, "damBreak");
  onlyKeys(d, KEYS.damBreak, "damBreak");
  const wall = num(d, "backWallX", "damBreak");
  const floor = num(d, "floorY", "damBreak");
  const a = num(d, "columnWidth", "damBreak", { gt: 0 });
  if (wall < domain.min[0] || wall > domain.max[0]) {
    throw new SceneError(
      "damBreak.backWallX",
      `${wall} lies outside the domain's x range [${domain.min[0]}, ${domain.max[0]}]; ` +
        "put the back wall at a domain face, e.g. domain.min[0]",
    );
  }
  if (floor < domain.min[1] || floor > domain.max[1]) {
    throw new SceneError(
      "damBreak.floorY",
      `${floor} lies outside the domain's y range [${domain.min[1]}, ${domain.max[1]}]; ` +
        "put the floor at a domain face, e.g. domain.min[1]",
    );
  }
  if (wall + a > domain.max[0]) {
    throw new SceneError(
      "damBreak.columnWidth",
      `${a} m from the back wall at x = ${wall} reaches past the domain's end x = ${domain.max[0]}`,
    );
  }
}

/** `systems[id]` of a scene against the registered systems' schemas (see {@link SceneValidationOptions}). */
function validateSystems(group: Obj, known: Readonly<Record<string, ParamSchema>>): void {
  const ids = Object.keys(known);
  for (const [id, raw] of Object.entries(group)) {
    const f = `systems[${JSON.stringify(id)}]`;
    if (!Object.hasOwn(known, id)) {
      throw new SceneError(
        f,
        `unknown system ${JSON.stringify(id)}; known systems: ${ids.join(", ")} ` +
          "(fix the name or remove the entry)",
      );
    }
    const values = obj(raw, f);
    const schema = known[id];
    for (const [name, value] of Object.entries(values)) {
      if (!Object.hasOwn(schema, name)) {
        throw new SceneError(
          `${f}.${name}`,
          `unknown parameter of system ${JSON.stringify(id)}${
            didYouMean(name, Object.keys(schema))
          }; its parameters: ${Object.keys(schema).join(", ") || "(none)"}`,
        );
      }
      if (typeof value === "number" && Number.isNaN(value)) {
        throw new SceneError(
          `${f}.${name}`,
          `must be a number, got NaN (${id}: ${schema[name].description})`,
        );
      }
      try {
        checkParam(schema[name], value, `${f}.${name}`);
      } catch (e) {
        if (!(e instanceof ParamError)) throw e;
        throw new SceneError(`${f}.${name}`, `${e.detail} (${id}: ${schema[name].description})`);
      }
    }
  }
}

/** A scene's domain, the box every body lies in. */
type Domain = { min: Vec3; max: Vec3 };

/**
 * Validates a scene (e.g. parsed from JSON) and returns it typed. Throws a {@link SceneError}
 * naming the first bad field. With `options.knownSystems`, a body's `system` and the `systems`
 * block are checked against the registered systems' schemas too.
 */
export function validateScene(input: unknown, options: SceneValidationOptions = {}): Scene {
  const s = obj(input, "(root)");
  onlyKeys(s, KEYS.scene, "");
  str(s, "id", "");
  str(s, "scale", "", SCALES);
  str(s, "figure", "");
  if (typeof s.description !== "string") throw new SceneError("description", "must be a string");
  if (typeof s.notes !== "string") throw new SceneError("notes", "must be a string");
  num(s, "seed", "", { min: 0, max: 0xffffffff, int: true });
  if (s.placementJitter !== undefined) num(s, "placementJitter", "", { min: 0, max: 1 });
  vec(s, "gravity", "");
  const domain = validateDomain(s);
  const radius = validateTimeStep(s, options.dtOverCfl ?? 1);
  if (!Array.isArray(s.bodies) || s.bodies.length === 0) {
    throw new SceneError("bodies", "must be a non-empty array");
  }
  const names = new Set<string>();
  s.bodies.forEach((raw, i) =>
    validateBody(raw, `bodies[${i}]`, { names, radius, domain, options })
  );
  validateParamGroups(s, options);
  if (s.damBreak !== undefined) validateDamBreak(s.damBreak, domain);
  validateApplicableHandlers(s, options);
  return s as unknown as Scene;
}

/**
 * Validates the scene's domain: a box within the f32 range the GPU's positions keep, its max
 * above its min on every axis. Returns it.
 */
function validateDomain(s: Obj): Domain {
  const domain = obj(s.domain, "domain");
  onlyKeys(domain, KEYS.box, "domain");
  const dmin = vec(domain, "min", "domain");
  const dmax = vec(domain, "max", "domain");
  for (const [name, v] of [["min", dmin], ["max", dmax]] as const) {
    if (v.some((c) => Math.abs(c) > F32_MAX)) {
      throw new SceneError(
        `domain.${name}`,
        `[${v.join(", ")}] lies beyond ±${F32_MAX.toPrecision(3)} m, the range of the f32 ` +
          "positions the GPU keeps; give a domain a few metres across, as the catalogue scenes do",
      );
    }
  }
  for (let k = 0; k < 3; k++) {
    if (!(dmax[k] > dmin[k])) {
      throw new SceneError(
        "domain.max",
        `must exceed domain.min on every axis, got ${dmax.join(", ")}`,
      );
    }
  }
  return { min: dmin, max: dmax };
}

/**
 * Validates the particle radius, the time step against the CFL condition (paper §5.1; `over`
 * times its bound at most, see {@link SceneValidationOptions.dtOverCfl}), the duration and the
 * metrics interval. Returns the radius.
 */
function validateTimeStep(s: Obj, over: number): number {
  const radius = num(s, "radius", "", { gt: 0 });
  const dt = num(s, "dt", "", { gt: 0 });
  const cfl = obj(s.cfl, "cfl");
  onlyKeys(cfl, KEYS.cfl, "cfl");
  const refSpeed = num(cfl, "referenceSpeed", "cfl", { gt: 0 });
  const fraction = num(cfl, "fraction", "cfl", { gt: 0, max: 1 });
  if (refSpeed * dt > over * fraction * radius * (1 + 1e-9)) {
    const times = over === 1 ? "" : `${over} × `;
    throw new SceneError(
      "dt",
      `${dt} s moves a particle at the reference speed ${refSpeed} m/s by ${
        refSpeed * dt
      } m, more than ` +
        `${times}cfl.fraction · radius = ${over * fraction * radius} m (CFL, paper §5.1); lower dt`,
    );
  }
  num(s, "duration", "", { gt: 0 });
  num(s, "metricsEvery", "", { min: 1, int: true });
  return radius;
}

/**
 * Validates body `f` of a scene: its kind's fields, a name no other body has (added to `names`),
 * a known `system` (with `options.knownSystems`), and its particles inside the domain.
 */
function validateBody(
  raw: unknown,
  f: string,
  scene: { names: Set<string>; radius: number; domain: Domain; options: SceneValidationOptions },
): void {
  const { names, radius, domain, options } = scene;
  const b = obj(raw, f);
  const kind = str(b, "kind", f, ["cloth", "fluid", "solid"]);
  onlyKeys(b, KEYS[kind as Body["kind"]], f);
  const name = str(b, "name", f);
  if (names.has(name)) {
    throw new SceneError(
      `${f}.name`,
      `duplicates the name ${JSON.stringify(name)} of another body`,
    );
  }
  names.add(name);
  if (b.system !== undefined) {
    const id = str(b, "system", f);
    const known = options.knownSystems;
    if (known && !Object.hasOwn(known, id)) {
      throw new SceneError(
        `${f}.system`,
        `unknown system ${JSON.stringify(id)}; known systems: ${
          Object.keys(known).join(", ")
        } (or leave "system" out for the system of the body's kind)`,
      );
    }
  }
  if (kind === "solid") {
    validateSolid(b, f, radius, domain);
    return;
  }
  num(b, "particleMass", f, { gt: 0 });
  const spacing = num(b, "spacing", f, { gt: 0 });
  if (kind === "cloth") validateCloth(b, f, { spacing, radius, domain });
  else validateFluid(b, f, { spacing, domain });
}

/**
 * Validates a cloth body's fields: its grid, stiffnesses and pinning, the sheet inside the domain,
 * and a spacing at which neighbouring particles do not overlap.
 */
function validateCloth(
  b: Obj,
  f: string,
  { spacing, radius, domain }: { spacing: number; radius: number; domain: Domain },
): void {
  const origin = vec(b, "origin", f);
  const rows = num(b, "rows", f, { min: 2, int: true });
  const cols = num(b, "cols", f, { min: 2, int: true });
  for (const k of ["stretch", "shear", "bend", "damping"]) num(b, k, f, { min: 0 });
  num(b, "stretch", f, { gt: 0 });
  str(b, "pinned", f, ["none", "corners", "edges"]);
  inside(origin, domain, `${f}.origin`);
  inside(
    [origin[0] + (cols - 1) * spacing, origin[1], origin[2] + (rows - 1) * spacing],
    domain,
    `${f}.rows/cols`,
  );
  if (spacing < 2 * radius * (1 - 1e-9)) {
    throw new SceneError(
      `${f}.spacing`,
      `${spacing} is below 2·radius = ${2 * radius}: neighbouring cloth particles would overlap`,
    );
  }
}

/**
 * Validates a fluid body's fields: its shape (a cylinder holding a lattice sample, or a box)
 * inside the domain, its jitter and its velocity.
 */
function validateFluid(
  b: Obj,
  f: string,
  { spacing, domain }: { spacing: number; domain: Domain },
): void {
  const shape = obj(b.shape, `${f}.shape`);
  const type = str(shape, "type", `${f}.shape`, ["cylinder", "box"]);
  onlyKeys(shape, type === "box" ? ["type", ...KEYS.box] : KEYS.cylinder, `${f}.shape`);
  if (type === "cylinder") {
    const base = vec(shape, "base", `${f}.shape`);
    const r = num(shape, "radius", `${f}.shape`, { gt: 0 });
    const h = num(shape, "height", `${f}.shape`, { gt: 0 });
    inside(base, domain, `${f}.shape.base`);
    inside([base[0] + r, base[1] + h, base[2] + r], domain, `${f}.shape`);
    inside([base[0] - r, base[1], base[2] - r], domain, `${f}.shape`);
    if (r < spacing / 2) {
      throw new SceneError(
        `${f}.shape.radius`,
        `${r} holds no lattice sample at spacing ${spacing}`,
      );
    }
  } else {
    const mn = vec(shape, "min", `${f}.shape`);
    const mx = vec(shape, "max", `${f}.shape`);
    for (let k = 0; k < 3; k++) {
      if (!(mx[k] > mn[k])) {
        throw new SceneError(`${f}.shape.max`, "must exceed shape.min on every axis");
      }
    }
    inside(mn, domain, `${f}.shape.min`);
    inside(mx, domain, `${f}.shape.max`);
  }
  num(b, "jitter", f, { min: 0, max: 0.5 });
  vec(b, "velocity", f);
}

/**
 * Validates the `systems` and `handlers` blocks: per id, numeric parameters (with
 * `options.knownSystems`, the systems' schemas; with `options.knownHandlers`, known handler ids).
 */
function validateParamGroups(s: Obj, options: SceneValidationOptions): void {
  const systems = obj(s.systems, "systems");
  if (options.knownSystems) validateSystems(systems, options.knownSystems);
  else validateHandlerBlock(systems, "systems", undefined);
  validateHandlerBlock(obj(s.handlers, "handlers"), "handlers", options.knownHandlers);
  if (s.setupHandlers === undefined) return;
  for (const [setup, block] of Object.entries(obj(s.setupHandlers, "setupHandlers"))) {
    const field = `setupHandlers[${JSON.stringify(setup)}]`;
    validateHandlerBlock(obj(block, field), field, options.knownHandlers);
  }
}

/** Validates one block of parameters by plug-in id (`field` its path): numbers, known ids. */
function validateHandlerBlock(group: Obj, field: string, known: readonly string[] | undefined) {
  for (const [id, raw] of Object.entries(group)) {
    if (known && !known.includes(id)) {
      throw new SceneError(
        `${field}[${JSON.stringify(id)}]`,
        `unknown handler ${JSON.stringify(id)}${didYouMean(id, known)}; known: ${
          known.join(", ")
        } (fix the name or remove the entry)`,
      );
    }
    const values = obj(raw, `${field}[${JSON.stringify(id)}]`);
    for (const name of Object.keys(values)) {
      num(values, name, `${field}[${JSON.stringify(id)}]`, { max: Infinity });
    }
  }
}

/**
 * Validates `applicableHandlers`: a non-empty array of handler ids (known ones, with
 * `options.knownHandlers`) or `*`.
 */
function validateApplicableHandlers(s: Obj, options: SceneValidationOptions): void {
  if (!Array.isArray(s.applicableHandlers) || s.applicableHandlers.length === 0) {
    throw new SceneError("applicableHandlers", "must be a non-empty array of handler ids");
  }
  s.applicableHandlers.forEach((id, i) => {
    if (typeof id !== "string") {
      throw new SceneError(`applicableHandlers[${i}]`, "must be a string");
    }
    if (id !== "*" && options.knownHandlers && !options.knownHandlers.includes(id)) {
      throw new SceneError(
        `applicableHandlers[${i}]`,
        `unknown handler ${JSON.stringify(id)}; known: ${options.knownHandlers.join(", ")}`,
      );
    }
  });
}

/** Whether handler `id` applies to `scene` (listed in `applicableHandlers`, or `*` is). */
export function handlerApplies(scene: Scene, id: string): boolean {
  return scene.applicableHandlers.includes("*") || scene.applicableHandlers.includes(id);
}

/** Serialises a scene to JSON (Infinity, used for unlimited n_max, is written as "Infinity"). */
export function sceneToJson(scene: Scene): string {
  return JSON.stringify(scene, (_k, v) => (v === Infinity ? "Infinity" : v), 2);
}

/** Parses and validates a scene from JSON written by {@link sceneToJson} (or by hand). */
export function sceneFromJson(text: string, options: SceneValidationOptions = {}): Scene {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, (_k, v) => (v === "Infinity" ? Infinity : v));
  } catch (e) {
    throw new SceneError("(root)", `is not valid JSON: ${(e as Error).message}`);
  }
  return validateScene(parsed, options);
}
