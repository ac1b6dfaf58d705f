/**
 * The setups a case runs under: the paper's own (the default of every suite, the one claims are
 * read from) and the harness's improvements, each a named variant that changes one choice of the
 * paper's, so that an ablation shows which verdict moves with which choice. Declared once here, as
 * data: `bench/cases/suite.ts` `resolveCases` applies them (`--variant` adds variant cases beside the
 * paper's) and the report's ablation table names them.
 *
 * The paper's choices (what it states; everything it does not state is the scene's):
 * - grouping in particle-index order with a limit drawn per group (§5.2): `merge-split.grouping`
 *   = `index-order`;
 * - merging along the colliding pairs (§5.2 "we merge colliding particle pairs recursively", Eq. 5
 *   n "the vector connecting the centers of the two colliding particles"): each member in the
 *   order it joined its group, through the partner it collides with, `merge-split.mergeOrder` =
 *   `colliding-pairs` (`core/merge_orders.ts`);
 * - a meta-particle spanning two systems: "We include these meta-particles in both simulation
 *   systems" (§4):
 *   `--coupling whole`;
 * - stage 2 from a cold start: the warm start is "an optimization that is not included in our
 *   tests" (§6.3): `warmStart` 0 of the implicit spring systems;
 * - no position corrections: "we have entirely avoided position corrections in all our tests in
 *   this paper" (§7): FLIP's `densityIterations` 0 and `separationStrength` 0 (its particle
 *   separation pushes close pairs apart by a share of their overlap); the domain's walls are a
 *   velocity condition in every setup (`core/domain_wall.ts`);
 * - α = 1, β = 0, n_min = 8, n_max = 64 "in all simulations, unless otherwise specified" (§6): the
 *   handler's defaults, which the scenes that specify others (Figs. 10, 11) keep.
 *
 * @module
 */
import type { Scene } from "./scene/scene.ts";
import { GROUPING_METHODS } from "./grouping/index_order_grouping.ts";
import { MERGE_ORDERS } from "./merge_orders.ts";

/** What a setup changes of a case. */
export interface Setup {
  /** Name: `paper`, or the variant's. */
  id: string;
  /** What it is, in words. */
  description: string;
  /** The paper's sentence it follows (the paper profile) or departs from (a variant). */
  paper: string;
  /** Handler parameters by handler id (below `--param`). */
  handlerParams?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** System parameters by system id, set on the scenes that configure that system. */
  systemParams?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** How systems see a shared meta-particle (below `--coupling`; `gpu/coupling/coupling.ts`). */
  coupling?: "whole" | "own-part";
  /**
   * A variant's only handlers, where its parameters alone do not say which cases it changes (a
   * coupling reading matters only where a DOF has parts in several systems, a stage-2 choice only
   * where a handler integrates twice a step: merge-split's meta-particles); absent, any handler.
   */
  handlers?: readonly string[];
  /**
   * The setup changes the scenes' own rule for their handler parameters: a scene's block for it
   * (`Scene.setupHandlers[id]`) goes over the scene's `handlers`; where a scene has none, or none
   * for a handler, the setup runs the paper's case.
   */
  sceneHandlers?: boolean;
}

const INDEX_ORDER = GROUPING_METHODS.indexOf("index-order");
const COLLIDING_PAIRS = MERGE_ORDERS.indexOf("colliding-pairs");
const INDEX_COM = MERGE_ORDERS.indexOf("index-com");

/** The paper's coupling reading (§4): the default of every engine and case. */
export const PAPER_COUPLING = "whole" as const;
const COMPACT = GROUPING_METHODS.indexOf("compact");

/** The paper's setup: the default of every case, the one claims are read from. */
export const PAPER_SETUP: Setup = {
  id: "paper",
  description:
    "the paper's choices: index-order grouping, meta-particles in both systems, stage 2 cold, no position corrections",
  paper:
    '§5.2 "Our implementation performs merging in the order of particle indices"; §4 "We include these meta-particles in both simulation systems"; §6.3 the warm start is "an optimization that is not included in our tests"; §7 "we have entirely avoided position corrections in all our tests"',
  handlerParams: { "merge-split": { grouping: INDEX_ORDER, mergeOrder: COLLIDING_PAIRS } },
  systemParams: {
    "mass-spring": { warmStart: 0 },
    peridynamics: { warmStart: 0 },
    flip: { densityIterations: 0, separationStrength: 0 },
  },
  coupling: PAPER_COUPLING,
};

/**
 * The paper's value of a parameter its setup sets: the default of that parameter in the handler's
 * or system's schema (`kind` says which table of {@link PAPER_SETUP} to read), so that an engine
 * built through `mod.ts` without a setup runs the paper's choices. Throws when the paper's setup
 * does not set it (a schema default that is not the paper's has no business asking).
 */
export function paperDefault(kind: "handler" | "system", owner: string, param: string): number {
  const table = kind === "handler" ? PAPER_SETUP.handlerParams : PAPER_SETUP.systemParams;
  const v = table?.[owner]?.[param];
  if (v === undefined) {
    throw new RangeError(`the paper's setup sets no ${kind} parameter ${owner}.${param}`);
  }
  return v;
}

/** The harness's improvements: each changes one choice of {@link PAPER_SETUP}. */
export const VARIANTS: readonly Setup[] = [
  {
    id: "compact-grouping",
    description:
      "merge-split's compact grouping: parallel rounds of pairwise merging (its groups join by rounds, not along pairs: merged in ascending index from the centre of mass)",
    paper: "§5.2: the paper merges in the order of particle indices",
    handlerParams: { "merge-split": { grouping: COMPACT, mergeOrder: INDEX_COM } },
    handlers: ["merge-split"],
  },
  {
    id: "index-com-merge",
    description:
      "each group's members merged in ascending index, each n from the centre of mass of those merged before it",
    paper:
      '§5.2: "we merge colliding particle pairs recursively"; Eq. 5: n is "the vector connecting the centers of the two colliding particles"',
    handlerParams: { "merge-split": { mergeOrder: INDEX_COM } },
    handlers: ["merge-split"],
  },
  {
    id: "own-part-coupling",
    description: "each system integrates its own part of a shared meta-particle",
    paper: "§4: the paper includes the meta-particle in both systems",
    coupling: "own-part",
    // every other handler keeps each particle its own DOF: one part, both readings the same
    handlers: ["merge-split"],
  },
  {
    id: "warm-stage-2",
    description: "stage 2's implicit solve starts from stage 1's solution",
    paper: "§6.3: an optimization not included in the paper's tests",
    systemParams: { "mass-spring": { warmStart: 1 }, peridynamics: { warmStart: 1 } },
    // only merge-split has a stage 2 (the others integrate once a step)
    handlers: ["merge-split"],
  },
  {
    id: "flip-density-correction",
    description:
      "FLIP particles denser than their rest density are moved apart after the position update",
    paper: "§7: the paper avoided position corrections in all its tests",
    systemParams: { flip: { densityIterations: 1 } },
  },
  {
    id: "flip-particle-separation",
    description:
      "FLIP pairs closer than 0.9 × 2r get σ = 0.1 of half their overlap per step as velocity, apart",
    paper: "§7: the paper avoided position corrections in all its tests",
    systemParams: { flip: { separationStrength: 0.1 } },
  },
  {
    id: "per-scene-levels",
    description:
      "baseline levels from each scene's own impact (k_ref = m·v²/(2r)², p = ρ·v²), not its figure's",
    paper:
      'Fig. 3: "the stiffness parameter that works for the top row does not work for the bottom row": the paper compares one stiffness across the rows',
    sceneHandlers: true,
  },
];

/** Every setup by id: the paper's, then the variants. */
export const SETUPS: ReadonlyMap<string, Setup> = new Map(
  [PAPER_SETUP, ...VARIANTS].map((s) => [s.id, s]),
);

/**
 * The setup `id` as a change of the paper's: the paper's choices with the variant's on top (the
 * paper's own for `paper`). Throws a RangeError listing the valid ids.
 */
export function setupChoices(id: string): Setup {
  const variant = SETUPS.get(id);
  if (!variant) {
    throw new RangeError(`unknown setup "${id}"; setups: ${[...SETUPS.keys()].join(", ")}`);
  }
  if (variant === PAPER_SETUP) return PAPER_SETUP;
  const merged = (a: Setup["handlerParams"], b: Setup["handlerParams"]) => {
    const out: Record<string, Record<string, number>> = {};
    for (const [k, v] of [...Object.entries(a ?? {}), ...Object.entries(b ?? {})]) {
      out[k] = { ...out[k], ...v };
    }
    return out;
  };
  return {
    ...variant,
    handlerParams: merged(PAPER_SETUP.handlerParams, variant.handlerParams),
    systemParams: merged(PAPER_SETUP.systemParams, variant.systemParams),
    coupling: variant.coupling ?? PAPER_SETUP.coupling,
  };
}

/**
 * Whether setup `id` changes the case of `handler` on a scene that configures the systems
 * `systems` (their ids) and where particles may collide or not (`collisions`: no handler runs
 * where none may): the paper's setup always; a variant, within its `handlers` and where they run,
 * where its handler parameters name the handler, its coupling is another than the paper's, its
 * system parameters name one of the systems, or (a setup of the scenes' own rule) the scene's block
 * for it, `sceneBlock` (`Scene.setupHandlers[id]`), names the handler. A variant that changes nothing runs the paper's case
 * bit for bit (`bench/cases/setup_changes_test.ts`), so the bench does not run it and the ablation
 * reads the paper's record in its place (`reports/claims/claims.ts` `underSetup`).
 */
export function setupChanges(
  id: string,
  handler: string,
  systems: readonly string[],
  collisions = true,
  sceneBlock?: Scene["handlers"],
): boolean {
  const v = SETUPS.get(id);
  if (!v) throw new RangeError(`unknown setup "${id}"; setups: ${[...SETUPS.keys()].join(", ")}`);
  if (v === PAPER_SETUP) return true;
  if (v.handlers && (!v.handlers.includes(handler) || !collisions)) return false;
  if (v.sceneHandlers && collisions && sceneBlock?.[handler] !== undefined) return true;
  return v.handlerParams?.[handler] !== undefined ||
    (v.coupling !== undefined && v.coupling !== PAPER_SETUP.coupling) ||
    Object.keys(v.systemParams ?? {}).some((system) => systems.includes(system));
}

/**
 * `scene` with the system parameters of `setup` set on the systems it configures (a scene that
 * does not configure a system does not run it) and, for a setup of the scenes' own rule, the
 * scene's handler block for it over its handlers.
 */
export function sceneUnder(scene: Scene, setup: Setup): Scene {
  const systems = { ...scene.systems };
  for (const [id, params] of Object.entries(setup.systemParams ?? {})) {
    if (systems[id]) systems[id] = { ...systems[id], ...params };
  }
  const block = setup.sceneHandlers ? scene.setupHandlers?.[setup.id] : undefined;
  return block
    ? { ...scene, systems, handlers: { ...scene.handlers, ...block } }
    : { ...scene, systems };
}
