/**
 * The paper's ball-on-cloth family (Figs. 3 and 7): a peridynamic ball (implicit, with "a high
 * threshold that prevents fracturing") falls onto a single-layer mass-spring cloth pinned at its
 * edges; the cloth is integrated "within the same implicit integration system used for
 * peridynamics" (its body names the `peridynamics` system).
 *
 * Physical choices, the same at every scale except the particle radius r (the cloth's and the
 * ball's stiffness rules were added after `deno task leaks` traced Fig. 7's leaks to the scene, not
 * the method; docs/findings/fig7.md; every other choice was fixed before any run):
 * - the cloth of the fluid scenes (0.6 m × 0.6 m at y = 0, spacing 2r, the same springs), and a
 *   ball of radius 0.1 m on the same lattice, density 1000 kg/m³, so that "all particles have
 *   identical mass" (Fig. 3) — Fig. 7 multiplies the ball's density by 10 and 100;
 * - a cloth stiff enough for its load: its stretch (and shear) springs are those of the fluid
 *   scenes or, where the heaviest ball of the figure needs more, those that carry that ball at
 *   rest with at most {@link CLOTH_STRAIN_MAX} strain ({@link clothStretchForLoad}); Fig. 7's
 *   three mass ratios share the cloth that carries the ratio-100 ball (7.8× the fluid scenes'
 *   springs), Fig. 3 keeps the fluid scenes' cloth. A particle sheet stretched by more than
 *   √2 − 1 ≈ 41 % opens holes between four particles through which a particle of the same radius
 *   passes without touching any of them: the sheet is no longer a sheet;
 * - the ball is a bond-based peridynamic solid with horizon δ = 3 spacings and bulk modulus
 *   K = 10⁶ Pa × its density / 1000 kg/m³ ({@link ballBulkModulus}): every ball has the same
 *   elastic wave speed √(K/ρ) ≈ 32 m/s, so its strain under its impact's dynamic pressure ρv²,
 *   v²/(K/ρ), stays under 1 % (≤ 3 m/s) whatever its density: Fig. 7's balls differ in mass, not
 *   in how soft they are (at K = 10⁶ Pa the 100× ball strained 40 % and squeezed its particles
 *   into the cloth's lattice); it never breaks; bond damping ratio 0.05;
 * - two heights (Fig. 3 top and bottom): the ball's bottom 0.05 m or 0.4 m above the cloth, at
 *   rest, so it hits at about 1.0 or 2.8 m/s;
 * - dt from the CFL condition 0.5·r / v_ref (paper §5.1), v_ref = 1.2 × the impact speed;
 * - baselines by the rule of every scene (`baseline_handlers.ts`), with the ball's weight as its
 *   static load: penalty stiffness in units of k_ref = max(m·v²/(2r)², W/(n·r)) (the stiffness that
 *   stops one particle arriving at the impact speed v within one diameter, or that holds the
 *   ball's weight W at rest on the n particles within one diameter of its bottom),
 *   weak/medium/strong = 1/10/100·k_ref; SPH-based contact pressure p_ref = max(ρ·v², W/(n·(2r)²))
 *   × 0.1/1/10 with h = 4r; impulse restitution 0.5. One k_ref and p_ref per figure: the largest of
 *   its scenes' (`levelsAcross`: Fig. 3's two heights, Fig. 7's three mass ratios), so that every
 *   row faces the same spring; the former rule, each scene's own impact alone (m·v²/(2r)², ρ·v²),
 *   is its block for the setup `per-scene-levels`.
 *
 * @module
 */
import type { Body, Scale, Scene } from "../core/scene/scene.ts";
import {
  ballBearing,
  baselineHandlers,
  figureReferences,
  type ImpactReferences,
  impactReferences,
  type ImpactScale,
  levelsBelowLoad,
} from "./baseline_handlers.ts";
import { RADIUS_BY_SCALE } from "./fluid_on_cloth.ts";

/**
 * The largest strain a cloth may take under the weight it carries: 10 %, the bound of Provot's
 * strain limiting for cloth (Provot 1995, "Deformation constraints in a mass-spring model to
 * describe rigid cloth behavior", Graphics Interface), well below the 41 % at which a particle
 * sheet opens holes a particle passes through.
 */
export const CLOTH_STRAIN_MAX = 0.1;

/** The fluid scenes' cloth springs (N/m): stretch, shear, bend (`fluid_on_cloth.ts`). */
const CLOTH_SPRINGS = { stretch: 2e4, shear: 1e4, bend: 2e3 } as const;

/**
 * The stretch stiffness k (N/m per spring) with which a pinned cloth carries a weight W resting on
 * a disc of radius a at its centre at a strain of at most ε: the cloth as a cone from the disc's
 * rim, each radial line strained ε = 1/cos θ − 1 (θ its slope), its tension per unit length k·ε
 * (a square lattice of springs k at spacing s has membrane stiffness k), whose vertical part
 * carries the weight along the rim: W = 2π a k ε sin θ, so k = W / (2π a ε sin θ).
 */
export function clothStretchForLoad(
  weight: number,
  options: { contactRadius: number; strain?: number },
): number {
  const eps = options.strain ?? CLOTH_STRAIN_MAX;
  const a = options.contactRadius;
  if (!(weight >= 0) || !(a > 0) || !(eps > 0)) {
    throw new RangeError(
      `clothStretchForLoad: weight must be >= 0, options.contactRadius and options.strain > 0, ` +
        `got ${weight}, ${a}, ${eps}`,
    );
  }
  const sinTheta = Math.sqrt(1 - 1 / (1 + eps) ** 2);
  return weight / (2 * Math.PI * a * eps * sinTheta);
}

/** What varies between the scenes of the family. */
export interface SolidOnClothOptions {
  id: string;
  figure: string;
  description: string;
  scale: Scale;
  /** Height of the ball's bottom above the cloth at rest (m). */
  drop: number;
  /** Density of the ball as a multiple of the cloth's (1 for Fig. 3; 1, 10, 100 for Fig. 7). */
  massRatio: number;
  /**
   * The mass ratio of the heaviest ball the figure's cloth carries (default `massRatio`): its
   * springs are sized for that ball (Fig. 7: 100 for all three ratios, one cloth).
   */
  clothCarries?: number;
  applicableHandlers: readonly string[];
  /**
   * The drops and mass ratios of the figure's scenes, whose most demanding impact sets the
   * baseline levels of all of them (default: this scene's alone).
   */
  levelsAcross?: readonly { drop: number; massRatio: number }[];
  /** Seed; default 2021. */
  seed?: number;
}

const CLOTH_HALF = 0.3;
const BALL_RADIUS = 0.1;
const DENSITY = 1000;
const BULK_MODULUS = 1e6;

/**
 * The ball's bulk modulus K (Pa) at density ρ (kg/m³): 10⁶ Pa for the cloth's density, in
 * proportion to ρ, so that K/ρ, the square of the elastic wave speed, and the strain ρv²/K of an
 * impact at speed v are the same for every mass ratio.
 */
export function ballBulkModulus(density: number): number {
  if (!(density > 0)) {
    throw new RangeError(`ballBulkModulus: density must be > 0 kg/m³, got ${density}`);
  }
  return BULK_MODULUS * density / DENSITY;
}
const GRAVITY = -9.81;

/** Builds one scale of a ball-on-cloth scene. */
export function solidOnCloth(options: SolidOnClothOptions): Scene {
  const r = RADIUS_BY_SCALE[options.scale];
  const spacing = 2 * r;
  const impact = Math.sqrt(2 * -GRAVITY * options.drop);
  const referenceSpeed = Math.ceil(1.2 * impact * 10) / 10;
  const cflFraction = 0.5;
  const dt = cflFraction * r / referenceSpeed;
  const n = Math.round((2 * CLOTH_HALF) / spacing) + 1;
  const clothSize = (n - 1) * spacing;
  const mass = DENSITY * spacing ** 3;
  const ballDensity = DENSITY * options.massRatio;
  const horizon = 3 * spacing;
  const ballWeight = (ratio: number) =>
    DENSITY * ratio * (4 / 3) * Math.PI * BALL_RADIUS ** 3 * -GRAVITY;
  const needed = clothStretchForLoad(ballWeight(options.clothCarries ?? options.massRatio), {
    contactRadius: BALL_RADIUS,
  });
  const stiffer = Math.max(1, needed / CLOTH_SPRINGS.stretch);
  const clothNote = stiffer > 1
    ? `cloth stretch ${(CLOTH_SPRINGS.stretch * stiffer).toFixed(0)} N/m (${
      CLOTH_STRAIN_MAX * 100
    } % strain under the ${options.clothCarries ?? options.massRatio}× ball); `
    : "";
  const bodies: Body[] = [
    {
      kind: "cloth",
      name: "cloth",
      system: "peridynamics",
      origin: [-clothSize / 2, 0, -clothSize / 2],
      rows: n,
      cols: n,
      spacing,
      particleMass: mass,
      stretch: CLOTH_SPRINGS.stretch * stiffer,
      shear: CLOTH_SPRINGS.shear * stiffer,
      bend: CLOTH_SPRINGS.bend,
      damping: 0.02,
      pinned: "edges",
    },
    {
      kind: "solid",
      name: "ball",
      shape: {
        type: "sphere",
        center: [0, spacing + options.drop + BALL_RADIUS, 0],
        radius: BALL_RADIUS,
      },
      spacing,
      density: ballDensity,
      bulkModulus: ballBulkModulus(ballDensity),
      fractureEnergy: 100,
      horizon,
      breakable: false,
      dampingRatio: 0.05,
      velocity: [0, 0, 0],
    },
  ];
  const impactScale = ballImpact(r, options);
  const own = impactReferences(impactScale);
  const refs = figureReferences((options.levelsAcross ?? [options]).map((o) => ballImpact(r, o)));
  const handlers = baselineHandlers(impactScale, { references: refs });
  // the rule before the static load and the figure's levels: each scene's own impact alone
  const perScene = changedHandlers(handlers, baselineHandlers({ ...impactScale, load: undefined }));
  const fallTime = Math.sqrt(2 * options.drop / -GRAVITY);
  return {
    id: options.id,
    scale: options.scale,
    figure: options.figure,
    description: options.description,
    seed: options.seed ?? 2021,
    gravity: [0, GRAVITY, 0],
    domain: { min: [-0.45, -0.45, -0.45], max: [0.45, 0.75, 0.45] },
    radius: r,
    dt,
    cfl: { referenceSpeed, fraction: cflFraction },
    // the fall, then 0.25 s of impact and rebound
    duration: Math.ceil((fallTime + 0.25) * 100) / 100,
    metricsEvery: Math.max(1, Math.round(0.01 / dt)),
    bodies,
    systems: { peridynamics: { cgIterations: 16, cgTolerance: 1e-3, drag: 0 } },
    handlers,
    ...(perScene ? { setupHandlers: { "per-scene-levels": perScene } } : {}),
    applicableHandlers: [...options.applicableHandlers],
    notes: `r = ${r} m, spacing 2r; ball ${BALL_RADIUS} m, ρ = ${ballDensity} kg/m³, K = ` +
      `${
        ballBulkModulus(ballDensity)
      } Pa, δ = 3 spacings, unbreakable; ${clothNote}drop ${options.drop} m, impact ` +
      `${impact.toFixed(2)} m/s; ${levelsNote(own, refs)}; dt = ${cflFraction}·r/v_ref.`,
  };
}

/** The ball's impact in the terms of the baseline rule: its particles, speed and static load. */
function ballImpact(r: number, o: { drop: number; massRatio: number }): ImpactScale {
  const spacing = 2 * r;
  const density = DENSITY * o.massRatio;
  const weight = density * (4 / 3) * Math.PI * BALL_RADIUS ** 3 * -GRAVITY;
  return {
    particleMass: density * spacing ** 3,
    density,
    speed: Math.sqrt(2 * -GRAVITY * o.drop),
    spacing,
    h: 4 * r,
    load: { weight, bearing: ballBearing(BALL_RADIUS, spacing) },
  };
}

/** The handlers of `perScene` whose parameters differ from `figure`'s, or undefined if none. */
function changedHandlers(
  figure: Scene["handlers"],
  perScene: Scene["handlers"],
): Scene["handlers"] | undefined {
  const same = (a: object, b: object) => JSON.stringify(a) === JSON.stringify(b);
  const changed = Object.entries(perScene).filter(([id, p]) => !same(p, figure[id] ?? {}));
  return changed.length ? Object.fromEntries(changed) : undefined;
}

/**
 * The notes' account of the levels: the scene's own terms, the figure's references, and the levels
 * that cannot hold the ball at rest.
 */
function levelsNote(own: ImpactReferences, figure: ImpactReferences): string {
  const below = levelsBelowLoad(figure);
  return `this scene's k_impact = m v²/(2r)² = ${own.kImpact.toFixed(1)} N/m, k_load = W/(n r) = ` +
    `${own.kLoad.toFixed(1)} N/m, ρ v² = ${own.pImpact.toFixed(0)} Pa, W/(n (2r)²) = ` +
    `${own.pLoad.toFixed(0)} Pa; the figure's k_ref = ${figure.kRef.toFixed(1)} N/m, p_ref = ` +
    `${figure.pDyn.toFixed(0)} Pa` +
    (below.length ? ` (cannot hold the ball at rest: ${below.join(", ")})` : "");
}
