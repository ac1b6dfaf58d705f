/**
 * The paper's fluid-on-cloth family (Figs. 4, 10, 11): SPH fluid (explicit) falling onto a
 * single-layer mass-spring cloth (implicit) pinned at its edges, coupled only through
 * particle-level collisions.
 *
 * Physical choices, the same at every scale except the particle radius r (the scale sets the
 * resolution, not the physics):
 * - a 0.6 m × 0.6 m cloth at y = 0, pinned along its edges, rest spacing 2r (Fig. 9 top: 0.82 m,
 *   the sheet of Table I's 191K cloth particles at the `paper` radius); all particles have the
 *   fluid's particle mass ("All particles have identical mass", Fig. 4 caption);
 * - water-like fluid, ρ0 = 1000 kg/m³, weakly compressible SPH with h = 4r and the speed of sound
 *   of core/model/sph_params.ts `suggestSphParams` at F = {@link SOUND_SPEED_FACTOR}: the larger of
 *   F × the reference speed (the impact's acoustic jump) and √(F·g·H) for the fluid's height H
 *   (its hydrostatic head), each compression held to 1/F;
 * - cloth springs 2·10⁴ N/m stretch, 10⁴ N/m shear, 2·10³ N/m bend, 0.02 N·s/m damping: stiff
 *   enough to carry the fluid's weight with a sag of a few centimetres, soft enough to deflect
 *   visibly on impact; air drag 3 s⁻¹ (−c·m·v) so that a sheet comes to rest within a second;
 * - dt = min(CFL: 0.5·r / referenceSpeed (paper §5.1), the SPH limit);
 * - penalty stiffness in units of k_ref = m·v²/(2r)², the stiffness that stops one particle
 *   arriving at the impact speed within one particle diameter: weak/medium/strong = 1/10/100·k_ref
 *   (`scenes/baseline_handlers.ts`: one physical rule, decades apart as in the paper, kept
 *   whatever the runs show; an earlier 3/30/300 had been placed by looking at outcomes);
 * - SPH-based coupling: a contact pressure (Pa) around the fluid's dynamic pressure at impact,
 *   p_dyn = ρ0·v², times 0.1, 1 and 10.
 *
 * @module
 */
import { suggestSphParams } from "../core/model/sph_params.ts";
import { baselineHandlers, impactReferences, type StaticLoad } from "./baseline_handlers.ts";
import type { MergeSplitValues } from "../core/handler_schemas/merge_split_schema.ts";
import type { Body, Scale, Scene } from "../core/scene/scene.ts";

/** Particle radius per scale (m): tiny for unit tests, small for the default bench. */
export const RADIUS_BY_SCALE: Readonly<Record<Scale, number>> = {
  tiny: 0.02,
  small: 0.01,
  medium: 0.005,
  paper: 0.0015,
};

/**
 * Table I's fluid particle count of Fig. 9 (top: FLIP on cloth): the `paper` scale of the FLIP
 * column (0.1 m radius, 0.3 m tall) has this many particles.
 */
export const FIG9_FLUID_PARTICLES = 1_400_000;
const FIG9_PAPER_RADIUS = Math.cbrt((Math.PI * 0.1 ** 2 * 0.3) / FIG9_FLUID_PARTICLES) / 2;

/** Table I's cloth particle count of Fig. 9 (top): the sheet's size at the `paper` radius. */
export const FIG9_CLOTH_PARTICLES = 191_000;

/**
 * Half the side of Fig. 9 (top)'s cloth (m), the same at every scale: a square sheet of
 * ⌊√191,000⌉ = 437 × 437 particles at the `paper` radius (the paper does not give its geometry).
 */
export const FIG9_CLOTH_HALF = (Math.round(Math.sqrt(FIG9_CLOTH_PARTICLES)) - 1) *
  FIG9_PAPER_RADIUS;

/** What varies between the scenes of the family. */
export interface FluidOnClothOptions {
  id: string;
  figure: string;
  description: string;
  scale: Scale;
  /** `column`: a fast cylinder (Figs. 4, 10); `block`: a block covering the cloth (Fig. 11). */
  fluid: "column" | "block";
  /** Merge-split's parameters where they differ from its schema's defaults. */
  mergeSplit?: MergeSplitValues;
  /**
   * The fluid's system: `sph` (default; Figs. 4, 10, 11) or `flip` (Fig. 9, top): a FLIP fluid of
   * the same water on a MAC grid of cell dx ≈ 2 spacings ({@link flipCellSize}), dt by the CFL
   * rule alone (no SPH sound-speed limit).
   */
  fluidSystem?: "sph" | "flip";
  applicableHandlers: readonly string[];
  /**
   * Speed (m/s) at which the fluid's top reaches the cloth: the fluid starts with the downward
   * speed that gives it after its fall; default the scene's (the column starts at 2 m/s, the block
   * at rest). Below the free-fall speed of the geometry a `RangeError` says the least.
   */
  impactSpeed?: number;
  /** Simulated time (s); default 0.3 (the column's impact and rebound). */
  duration?: number;
  /**
   * `suggestSphParams`' F (the SPH fluid's density error target 1/F sets its speed of sound);
   * default {@link SOUND_SPEED_FACTOR}. The time step follows. SPH only.
   */
  soundSpeedFactor?: number;
  /** Seed; default 2021. */
  seed?: number;
}

const CLOTH_HALF = 0.3;
/**
 * F of the SPH fluid's speed of sound (`suggestSphParams`: c = max(F·v_ref, √(F·g·H))): 10, the
 * usual WCSPH choice (Monaghan 1994; Becker & Teschner 2007), fixed before any run. It bounds a
 * water hammer's acoustic jump v/c by 1/F = 10 % and holds steady-flow fluctuations near Mach² ≈
 * 1 %; the worst particle's error measured 6–12 % at `small` and falls as 1/F to 1/F² (`--sweep
 * scene.soundSpeedFactor`, docs/findings/dam-breaks.md; the recorded `densityErrorMax` says what
 * each case reached). The time step then follows from
 * the SPH conditions (`suggestSphParams`: CFL 0.4·2r/(c + v), viscous and body-force limits),
 * about 0.07·r/v, smaller than the paper's CFL rule 0.5·r/v alone. (An earlier 3× — about 11 %
 * density variation — had been chosen for larger steps; the fluid's compressibility is physics,
 * not a knob for the comparison.)
 */
export const SOUND_SPEED_FACTOR = 10;
const GRAVITY = -9.81;

/**
 * The FLIP cell edge for a domain and particle spacing: about two spacings (8 particles per cell,
 * Zhu & Bridson 2005), adjusted so that every extent of the domain is a whole number of cells (the
 * MAC grid's walls are the domain's walls): dx = g / round(g / (2·spacing)), g the largest common
 * divisor of the extents on a 1 mm lattice.
 */
export function flipCellSize(domain: Scene["domain"], spacing: number): number {
  const mm = [0, 1, 2].map((a) => Math.round((domain.max[a] - domain.min[a]) * 1000));
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  const g = mm.reduce(gcd) / 1000;
  return g / Math.max(1, Math.round(g / (2 * spacing)));
}

/**
 * Throws a `RangeError` when a speed-of-sound factor is given for the FLIP fluid of scene `id`:
 * FLIP's pressure projection makes it incompressible, so it has no speed of sound to set.
 */
export function rejectFlipSoundSpeed(id: string, soundSpeedFactor: number | undefined): void {
  if (soundSpeedFactor === undefined) return;
  throw new RangeError(
    `soundSpeedFactor: ${id} is a FLIP fluid (incompressible: no speed of sound); ` +
      `leave it out, or choose the scene's SPH variant`,
  );
}

/** Builds one scale of a fluid-on-cloth scene. */
export function fluidOnCloth(options: FluidOnClothOptions): Scene {
  const flip = options.fluidSystem === "flip";
  if (flip) rejectFlipSoundSpeed(options.id, options.soundSpeedFactor);
  const r = flip && options.scale === "paper" ? FIG9_PAPER_RADIUS : RADIUS_BY_SCALE[options.scale];
  const spacing = 2 * r;
  const column = options.fluid === "column";
  const fall = fluidFall(options);
  const { impact, referenceSpeed } = fall;
  const sph = suggestSphParams({
    radius: r,
    rho0: 1000,
    maxSpeed: referenceSpeed,
    gravity: GRAVITY,
    depth: fall.fallHeight,
    soundSpeedFactor: options.soundSpeedFactor ?? SOUND_SPEED_FACTOR,
  });
  const cflFraction = 0.5;
  const dt = flip
    ? cflFraction * r / referenceSpeed
    : Math.min(cflFraction * r / referenceSpeed, sph.dtMax);
  const clothHalf = flip ? FIG9_CLOTH_HALF : CLOTH_HALF;
  const mass = sph.mass;
  const bodies = clothAndFluid({ column, flip, clothHalf, spacing, mass, fall });
  const impactScale = {
    particleMass: mass,
    density: 1000,
    speed: impact,
    spacing,
    h: sph.h,
    load: fluidLayerLoad(bodies, spacing),
  };
  const { kRef } = impactReferences(impactScale);
  const ms = options.mergeSplit ?? {};
  const domain = fluidOnClothDomain(flip, clothHalf);
  const dx = flipCellSize(domain, spacing);
  return {
    id: options.id,
    scale: options.scale,
    figure: options.figure,
    description: options.description,
    seed: options.seed ?? 2021,
    gravity: [0, GRAVITY, 0],
    domain,
    radius: r,
    dt,
    cfl: { referenceSpeed, fraction: cflFraction },
    duration: options.duration ?? 0.3,
    metricsEvery: Math.max(1, Math.round(0.01 / dt)),
    bodies,
    systems: {
      // CG: a loose tolerance (the implicit step damps what it leaves); the block loads the whole
      // sheet at once and needs more iterations than the column.
      "mass-spring": { cgIterations: column ? 12 : 16, cgTolerance: 1e-3, drag: 3 },
      ...(flip
        ? { flip: { dx, flipRatio: 0.97, cgIterations: 200, cgTolerance: 1e-4 } }
        : { sph: { h: sph.h, rho0: 1000, stiffness: sph.stiffness, viscosity: sph.viscosity } }),
    },
    // Baseline levels an order of magnitude apart around the physical reference stiffness k_ref
    // (penalty) and the dynamic pressure of the impact (SPH-based force), fixed before any run.
    handlers: baselineHandlers(impactScale, {
      mergeSplit: ms,
      ...(flip ? {} : { fluid: { h: sph.h, rho0: 1000, soundSpeed: sph.soundSpeed } }),
    }),
    applicableHandlers: [...options.applicableHandlers],
    notes: `r = ${r} m, spacing 2r; impact speed ${impact.toFixed(2)} m/s; ` +
      `k_ref = m v²/(2r)² = ${kRef.toFixed(1)} N/m; SPH c = ${sph.soundSpeed} m/s, ` +
      (flip
        ? `FLIP dx = ${dx.toPrecision(4)} m (whole cells across the domain, ≈ 2 spacings), ` +
          `PIC/FLIP 0.97; dt = ${cflFraction}·r/v_ref.`
        : `k = ${sph.stiffness.toExponential(3)} Pa, mu = ${sph.viscosity.toFixed(3)} Pa·s; ` +
          `dt = min(${cflFraction}·r/v_ref, SPH limit ${sph.dtMax.toExponential(3)} s).`),
  };
}

/** The fluid's fall onto the cloth: where it starts, how fast, and the speed it arrives at. */
interface FluidFall {
  /** The fluid's bottom above the cloth (m). */
  gap: number;
  /** The fluid's height (m). */
  fallHeight: number;
  /** Its initial downward speed (m/s). */
  v0: number;
  /** The speed of its top at the cloth (m/s). */
  impact: number;
  /** The scene's reference speed: the impact speed with a margin for splashes (m/s). */
  referenceSpeed: number;
}

/**
 * The fluid's fall: the column starts 5 cm above the cloth at 2 m/s, the block 3 cm above at
 * rest, or either at the speed that gives `impactSpeed` at the cloth (a `RangeError` below the
 * free-fall speed of the geometry).
 */
function fluidFall(options: FluidOnClothOptions): FluidFall {
  const column = options.fluid === "column";
  const gap = column ? 0.05 : 0.03; // fluid bottom above the cloth (m)
  const fallHeight = column ? 0.3 : 0.1; // fluid height (m)
  const freeFall2 = 2 * 9.81 * (gap + fallHeight);
  if (options.impactSpeed !== undefined && options.impactSpeed ** 2 < freeFall2) {
    throw new RangeError(
      `impactSpeed: the fluid of ${options.id} reaches the cloth at ${
        Math.sqrt(freeFall2).toFixed(3)
      } m/s falling from rest; got ${options.impactSpeed}`,
    );
  }
  // initial downward speed (m/s)
  const v0 = options.impactSpeed !== undefined
    ? Math.sqrt(options.impactSpeed ** 2 - freeFall2)
    : column
    ? 2.0
    : 0.0;
  // Reference speed: the impact speed of the fluid's top after falling gap + its own height,
  // with a 1.2× margin for splashes.
  const impact = Math.sqrt(v0 * v0 + 2 * 9.81 * (gap + fallHeight));
  const referenceSpeed = Math.ceil(1.2 * impact * 10) / 10;
  return { gap, fallHeight, v0, impact, referenceSpeed };
}

/**
 * The scene's two bodies: the square cloth pinned at its edges (centred, whole spacings across),
 * and the fluid above it, a column or a block covering the cloth, falling at the fall's speed.
 */
function clothAndFluid(
  o: {
    column: boolean;
    flip: boolean;
    clothHalf: number;
    spacing: number;
    mass: number;
    fall: FluidFall;
  },
): Body[] {
  const { column, flip, clothHalf, spacing, mass } = o;
  const { gap, fallHeight, v0 } = o.fall;
  const n = Math.round((2 * clothHalf) / spacing) + 1;
  const origin: [number, number, number] = [-clothHalf, 0, -clothHalf];
  const clothSize = (n - 1) * spacing;
  origin[0] = origin[2] = -clothSize / 2;
  return [
    {
      kind: "cloth",
      name: "cloth",
      origin,
      rows: n,
      cols: n,
      spacing,
      particleMass: mass,
      stretch: 2e4,
      shear: 1e4,
      bend: 2e3,
      damping: 0.02,
      pinned: "edges",
    },
    column
      ? {
        kind: "fluid",
        name: "fluid",
        ...(flip ? { system: "flip" } : {}),
        shape: { type: "cylinder", base: [0, gap, 0], radius: 0.1, height: fallHeight },
        spacing,
        jitter: 0.05,
        velocity: [0, 0 - v0, 0], // 0 − v0: +0 at rest (a −0 would not survive JSON)
        particleMass: mass,
      }
      : {
        kind: "fluid",
        name: "fluid",
        ...(flip ? { system: "flip" } : {}),
        shape: {
          type: "box",
          min: [-clothSize / 2 + spacing, gap, -clothSize / 2 + spacing],
          max: [clothSize / 2 - spacing, gap + fallHeight, clothSize / 2 - spacing],
        },
        spacing,
        jitter: 0.05,
        velocity: [0, 0 - v0, 0], // 0 − v0: +0 at rest (a −0 would not survive JSON)
        particleMass: mass,
      },
  ];
}

/**
 * The fluid's static load on the cloth (`baseline_handlers.ts`): its weight W = ρ·V·g at rest in a
 * layer over the whole sheet, carried by the sheet's area over (2r)² particles of its bottom layer,
 * so k_load = W/(n·r) = 4·ρ·g·(V/A)·r. Below the impact's m·v²/(2r)² in every scene of the family
 * (the layer is 2.6 cm deep under the column, 8.7 cm under the block): the levels are the impact's.
 */
function fluidLayerLoad(bodies: readonly Body[], spacing: number): StaticLoad {
  const [cloth, fluid] = bodies;
  if (cloth.kind !== "cloth" || fluid.kind !== "fluid") {
    throw new Error("fluidLayerLoad: the bodies must be the cloth, then the fluid");
  }
  const side = (cloth.rows - 1) * spacing;
  const shape = fluid.shape;
  const volume = shape.type === "cylinder"
    ? Math.PI * shape.radius ** 2 * shape.height
    : shape.type === "box"
    ? (shape.max[0] - shape.min[0]) * (shape.max[1] - shape.min[1]) * (shape.max[2] - shape.min[2])
    : NaN;
  return { weight: 1000 * volume * -GRAVITY, bearing: (side / spacing) ** 2 };
}

/**
 * The scene's domain. FLIP: a box just around the cloth, at least 6 cm beyond its edges, its
 * sides multiples of 6 cm so that a cell of about 2 spacings divides them all (flipCellSize; the
 * MAC grid covers the whole domain, and Table I's 1.4M fluid particles need a grid that fits in
 * memory); SPH: a fixed box with room for the splash.
 */
function fluidOnClothDomain(flip: boolean, clothHalf: number): Scene["domain"] {
  const side = 0.06 * Math.ceil((clothHalf + 0.06) / 0.06 - 1e-9);
  return flip
    ? { min: [-side, -0.3, -side], max: [side, 0.42, side] }
    : { min: [-0.45, -0.45, -0.45], max: [0.45, 0.75, 0.45] };
}
