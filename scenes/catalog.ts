/**
 * The catalogue of paper scenes, by id, each available at every scale.
 *
 * @module
 */
import type { Scale, Scene } from "../core/scene/scene.ts";
import { validateScene } from "../core/scene/scene.ts";
import { bowlOnWater } from "./bowl_on_water.ts";
import { type BrittleMaterial, brittleMaterial } from "./brittle_materials.ts";
import { brittleWall } from "./brittle_wall.ts";
import { clothTori } from "./cloth_tori.ts";
import { damBreakWall } from "./dam_break_wall.ts";
import { damBreak } from "./dam_break.ts";
import { fluidOnCloth } from "./fluid_on_cloth.ts";
import { fluidOnWall } from "./fluid_on_wall.ts";
import { solidOnCloth } from "./solid_on_cloth.ts";

/**
 * What {@link getScene} may set beside the scale, each where the scene has it: the impact speed
 * (m/s) and the SPH water's speed-of-sound factor F (`suggestSphParams`).
 */
export interface SceneVariant {
  /** Impact speed (m/s): the scenes of {@link hasImpactSpeed}. */
  speed?: number;
  /** F of the SPH water's speed of sound: the scenes of {@link hasSoundSpeed}. */
  soundSpeedFactor?: number;
  /**
   * A real brittle material for the breakable body (`brittle_materials.ts` id): the scenes of
   * {@link hasBrittleMaterial}.
   */
  material?: string;
}

/**
 * The seeded placement of every catalogue scene's free cloths and solids (`Scene.placementJitter`,
 * a fraction of the radius): x and z each within ±r, so the impact point sweeps a whole cloth or
 * lattice spacing (2r) across seeds and three seeds are three samples of where the bodies meet. Set
 * before any run with it, as the sampling rule of every scene alike; `placement_jitter_test.ts`
 * checks that no seed brings two bodies closer than they were placed (or than 2r).
 */
export const PLACEMENT_JITTER = 1;

/** Builds a scene at a scale and variant. */
type Builder = (scale: Scale, variant: SceneVariant) => Scene;

/** The real brittle material of id `name` (`brittle_materials.ts`); undefined for none. */
function materialOf(name: string | undefined): BrittleMaterial | undefined {
  return name === undefined ? undefined : brittleMaterial(name);
}

/**
 * Handlers that apply to every scene where fluid meets cloth or solids, beyond those a scene
 * lists: `velocity-projection` (Gao et al. 2018, Eqs. 19–20) acts on fluid–solid pairs only.
 * Scenes with `*` get it anyway (a no-op where there is no fluid).
 */
const FLUID_SOLID_HANDLERS: readonly string[] = ["velocity-projection"];

const FIG11: ReadonlyArray<readonly [string, number, number]> = [
  ["inf", Infinity, Infinity],
  ["32-64", 32, 64],
  ["16-32", 16, 32],
  ["8-16", 8, 16],
  ["4-8", 4, 8],
];

/**
 * Simulated time of the Fig. 11 scenes (s): the paper compares "the simulation state a few
 * seconds after the collision"; the block (its bottom 0.03 m above the cloth) lands after about
 * 0.08 s, so 2 s leave the sheet about 1.9 s under the resting fluid, time for a small meta-particle
 * limit to leak and for an unlimited one to hold the sheet stiff.
 */
export const FIG11_DURATION = 2;

/** Drop height (m) of a ball that reaches the cloth at `speed` (m/s) in free fall. */
function dropForSpeed(speed: number): number {
  return (speed * speed) / (2 * 9.81);
}

/** Fig. 3's two drops (m): the rows of the figure, which share one set of baseline levels. */
const FIG3_DROPS = [["low", 0.05], ["high", 0.4]] as const;

/** Fig. 7's mass ratios, which share one cloth and one set of baseline levels. */
const FIG7_RATIOS = [1, 10, 100] as const;
const FIG7_DROP = 0.2;

const BUILDERS: ReadonlyMap<string, Builder> = new Map<string, Builder>([
  ...FIG3_DROPS.map(([tag, drop]): [string, Builder] => [
    `fig3-ball-cloth-${tag}`,
    (scale, { speed }) =>
      solidOnCloth({
        id: `fig3-ball-cloth-${tag}`,
        figure: "Fig. 3",
        description:
          `A peridynamic ball (unbreakable) falls ${drop} m onto a pinned cloth in the ` +
          "same implicit solve; every handler is compared.",
        scale,
        drop: speed === undefined ? drop : dropForSpeed(speed),
        massRatio: 1,
        levelsAcross: FIG3_DROPS.map(([, d]) => ({ drop: d, massRatio: 1 })),
        applicableHandlers: ["*"],
      }),
  ]),
  [
    "fig4-fluid-cloth",
    (scale, { speed, soundSpeedFactor }) =>
      fluidOnCloth({
        id: "fig4-fluid-cloth",
        figure: "Fig. 4",
        description: "A fast cylinder-shaped SPH fluid column hits a pinned elastic cloth; " +
          "every handler is compared.",
        scale,
        fluid: "column",
        impactSpeed: speed,
        soundSpeedFactor,
        applicableHandlers: ["*"],
      }),
  ],
  [
    "fig9-flip-cloth",
    (scale) =>
      fluidOnCloth({
        id: "fig9-flip-cloth",
        figure: "Fig. 9",
        description: "A FLIP fluid column (semi-implicit) falls onto a pinned elastic cloth " +
          "(implicit); at scale paper Table I's 1.4M fluid particles.",
        scale,
        fluid: "column",
        fluidSystem: "flip",
        applicableHandlers: ["*"],
      }),
  ],
  [
    "fig9-flip-peridynamics",
    (scale, { material }) =>
      fluidOnWall({
        id: "fig9-flip-peridynamics",
        figure: "Fig. 9",
        description: "A block of FLIP water thrown at 5 m/s against a brittle peridynamic wall; " +
          "at scale paper Table I's 191K solid particles.",
        scale,
        applicableHandlers: ["*"],
        material: materialOf(material),
      }),
  ],
  [
    "fig5-wall",
    (scale, { material }) =>
      brittleWall({
        id: "fig5-wall",
        figure: "Fig. 5",
        description: "A dense peridynamic ball (20× heavier particles) hits a brittle wall at " +
          "5 m/s; every handler is compared.",
        scale,
        applicableHandlers: ["*"],
        material: materialOf(material),
      }),
  ],
  [
    "fig6-wall",
    (scale, { material }) =>
      brittleWall({
        id: "fig6-wall",
        figure: "Fig. 6",
        description: "The Fig. 5 impact under merge-split; at scale paper Table I's 247.9K solid " +
          "particles.",
        scale,
        applicableHandlers: ["merge-split"],
        material: materialOf(material),
      }),
  ],
  ...FIG7_RATIOS.map((ratio): [string, Builder] => [
    `fig7-mass-${ratio}`,
    (scale, { speed }) =>
      solidOnCloth({
        id: `fig7-mass-${ratio}`,
        figure: "Fig. 7",
        description:
          `A ball of ${ratio}× heavier particles than the cloth's falls 0.2 m onto it; ` +
          "merge-split.",
        scale,
        drop: speed === undefined ? FIG7_DROP : dropForSpeed(speed),
        massRatio: ratio,
        clothCarries: Math.max(...FIG7_RATIOS),
        levelsAcross: FIG7_RATIOS.map((m) => ({ drop: FIG7_DROP, massRatio: m })),
        applicableHandlers: ["merge-split"],
      }),
  ]),
  ...([[0, 0, "00"], [1, 0, "10"], [1, 1, "11"]] as const).map((
    [alpha, beta, tag],
  ): [string, Builder] => [
    `fig10-alpha-beta-${tag}`,
    (scale, { speed, soundSpeedFactor }) =>
      fluidOnCloth({
        id: `fig10-alpha-beta-${tag}`,
        figure: "Fig. 10",
        description: `A fluid column onto cloth under merge-split with α = ${alpha}, β = ${beta}.`,
        scale,
        fluid: "column",
        impactSpeed: speed,
        soundSpeedFactor,
        mergeSplit: { alpha, beta },
        applicableHandlers: ["merge-split", ...FLUID_SOLID_HANDLERS],
      }),
  ]),
  ...FIG11.map(([tag, nMin, nMax]): [string, Builder] => [
    `fig11-nlimit-${tag}`,
    (scale, { speed, soundSpeedFactor }) =>
      fluidOnCloth({
        id: `fig11-nlimit-${tag}`,
        figure: "Fig. 11",
        description: `A fluid block covering the whole cloth falls onto it; merge-split with ` +
          `n_min = ${nMin}, n_max = ${nMax}; ${FIG11_DURATION} s (the paper shows the state a ` +
          "few seconds after the collision).",
        scale,
        fluid: "block",
        impactSpeed: speed,
        soundSpeedFactor,
        duration: FIG11_DURATION,
        mergeSplit: { nMin, nMax },
        applicableHandlers: ["merge-split", ...FLUID_SOLID_HANDLERS],
      }),
  ]),
  [
    "fig8-cloth-tori",
    (scale, { soundSpeedFactor }) =>
      clothTori({ id: "fig8-cloth-tori", scale, soundSpeedFactor, applicableHandlers: ["*"] }),
  ],
  [
    "fig8-dam-break-wall",
    (scale, { soundSpeedFactor, material }) =>
      damBreakWall({
        id: "fig8-dam-break-wall",
        scale,
        soundSpeedFactor,
        material: materialOf(material),
        applicableHandlers: ["*"],
      }),
  ],
  [
    "fig8-bowl",
    (scale, { soundSpeedFactor, material }) =>
      bowlOnWater({
        id: "fig8-bowl",
        scale,
        soundSpeedFactor,
        applicableHandlers: ["*"],
        material: materialOf(material),
      }),
  ],
  ...(["sph", "flip"] as const).map((fluidSystem): [string, Builder] => [
    `dam-break-${fluidSystem}`,
    (scale, { soundSpeedFactor }) =>
      damBreak({ id: `dam-break-${fluidSystem}`, scale, fluidSystem, soundSpeedFactor }),
  ]),
]);

/**
 * The scenes with an impact speed to set (`getScene`'s `speed`, `--sweep scene.speed`): a ball
 * dropped onto the cloth from the height that gives that speed (Figs. 3, 7), a fluid whose top
 * reaches the cloth at that speed (Figs. 4, 10, 11). The stiffness levels follow (k_ref and p_dyn
 * are defined by the impact speed), as do the reference speed and the time step.
 */
const SPEED_SCENES: ReadonlySet<string> = new Set(
  [...BUILDERS.keys()].filter((id) => /^fig(3|4|7|10|11)-/.test(id)),
);

/**
 * The scenes of SPH water, whose speed of sound may be set (`getScene`'s `soundSpeedFactor`,
 * `--sweep scene.soundSpeedFactor`): Figs. 4, 8, 10, 11 and the SPH dam break. The time step
 * follows (the SPH limit), as do Akinci's coupling (it takes c) and the state equation's stiffness.
 */
const SOUND_SPEED_SCENES: ReadonlySet<string> = new Set(
  [...BUILDERS.keys()].filter((id) => /^(fig(4|8|10|11)-|dam-break-sph$)/.test(id)),
);

/**
 * The scenes whose breakable body (a wall, Fig. 8's bowl) may be given a real brittle material
 * (`getScene`'s `material`, `deno task scene --material`): Figs. 5, 6, 8 (middle and bottom) and
 * 9 (bottom).
 */
const MATERIAL_SCENES: ReadonlySet<string> = new Set([
  "fig5-wall",
  "fig6-wall",
  "fig8-dam-break-wall",
  "fig8-bowl",
  "fig9-flip-peridynamics",
]);

/** Ids of every scene in the catalogue. */
export function sceneIds(): string[] {
  return [...BUILDERS.keys()];
}

/**
 * The scene `id` at `scale`, validated. Throws a `RangeError` listing the known ids when `id`
 * is unknown.
 */
export function getScene(id: string, options: { scale: Scale } & SceneVariant): Scene {
  const build = BUILDERS.get(id);
  if (!build) throw new RangeError(`unknown scene "${id}"; known scenes: ${sceneIds().join(", ")}`);
  const { speed, soundSpeedFactor, material } = options;
  if (material !== undefined) {
    if (!MATERIAL_SCENES.has(id)) {
      throw new RangeError(
        `scene "${id}" has no breakable body to give a material; scenes with one: ${
          [...MATERIAL_SCENES].join(", ")
        }`,
      );
    }
    brittleMaterial(material); // names the known ones when it is not
  }
  if (speed !== undefined) {
    if (!SPEED_SCENES.has(id)) {
      throw new RangeError(
        `scene "${id}" has no impact speed to set; scenes with one: ${
          [...SPEED_SCENES].join(", ")
        }`,
      );
    }
    if (!(speed > 0) || !Number.isFinite(speed)) {
      throw new RangeError(`speed: must be a finite number > 0 (m/s), got ${speed}`);
    }
  }
  if (soundSpeedFactor !== undefined) {
    if (!SOUND_SPEED_SCENES.has(id)) {
      throw new RangeError(
        `scene "${id}" has no SPH water whose speed of sound to set; scenes with one: ${
          [...SOUND_SPEED_SCENES].join(", ")
        }`,
      );
    }
    if (!(soundSpeedFactor > 1) || !Number.isFinite(soundSpeedFactor)) {
      throw new RangeError(
        `soundSpeedFactor: must be a finite number > 1 (c as a multiple of the reference speed), ` +
          `got ${soundSpeedFactor}`,
      );
    }
  }
  const scene = build(options.scale, { speed, soundSpeedFactor, material });
  return validateScene({ ...scene, placementJitter: PLACEMENT_JITTER });
}

/** Whether the catalogue scene `id` takes a real brittle material ({@link getScene}'s `material`). */
export function hasBrittleMaterial(id: string): boolean {
  return MATERIAL_SCENES.has(id);
}

/** Whether the catalogue scene `id` takes an impact speed ({@link getScene}'s `speed`). */
export function hasImpactSpeed(id: string): boolean {
  return SPEED_SCENES.has(id);
}

/**
 * Whether the catalogue scene `id` has SPH water whose speed of sound may be set
 * ({@link getScene}'s `soundSpeedFactor`).
 */
export function hasSoundSpeed(id: string): boolean {
  return SOUND_SPEED_SCENES.has(id);
}
