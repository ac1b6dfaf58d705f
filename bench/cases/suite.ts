/**
 * The case matrix: scenes (catalogue ids, globs, or paths to scene files) × handlers (ids or
 * globs), at one scale or at several (a scale sweep). A handler that does not apply to a scene is
 * skipped for that scene.
 *
 * @module
 */
import {
  handlerApplies,
  type Scale,
  SCALES,
  type Scene,
  SceneError,
  sceneFromJson,
} from "../../core/scene/scene.ts";
import { getScene, sceneIds } from "../../scenes/catalog.ts";
import { handlerParams, HANDLERS } from "../../gpu/handlers/registry.ts";
import { collisionsPossible } from "../../gpu/systems/registry.ts";
import { getSuite, type SeedChoice, type Suite } from "./suites.ts";
import { type CouplingReading, DEFAULT_COUPLING } from "../../gpu/coupling/coupling.ts";
import { ParamError, type ParamValues } from "../../core/params.ts";
import { checkSceneFile, machineMemoryBytes, systemSchemas } from "./scene_file_check.ts";
import { checkSceneSize } from "../../core/scene/scene_size.ts";

import {
  InputLimitError,
  MAX_SCENE_FILE_BYTES,
  readTextLimited,
} from "../../core/io/read_text_limited.ts";
import {
  PAPER_SETUP,
  sceneUnder,
  type Setup,
  setupChanges,
  setupChoices,
} from "../../core/setups.ts";

/** One case to run. */
export interface CaseSpec {
  scene: Scene;
  /** `catalog`, or the path of the scene file. */
  sceneSource: string;
  handler: string;
  /** Overrides of the handler's parameters (`--param`, `--sweep`), by name. */
  params?: Record<string, number>;
  /**
   * The handler's parameters resolved and checked once ({@link checkedCase}: the scene's values,
   * `params` on top, the schema's defaults): what the case hashes, records and runs with.
   */
  handlerParams: ParamValues;
  /** How systems see a shared meta-particle (`--coupling`, else the setup's). */
  coupling?: CouplingReading;
  /** The setup it runs under (`bench/setups.ts`): `paper`, or a variant's id. */
  setup?: string;
  /** The sweep values this case runs at, by target (`bench/cases/sweep.ts`); recorded as is. */
  sweep?: Record<string, number>;
}

/** A bad command-line value: exit status 2, with the valid choices in the message. */
export class UsageError extends Error {
  /** @param message what was wrong and what is valid */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** An unreadable or invalid scene file: exit status 2. */
export class SceneFileError extends Error {
  /** @param path the file; @param message what is wrong */
  constructor(path: string, message: string) {
    super(`scene file ${path}: ${message}`);
    this.name = "SceneFileError";
  }
}

/** True when `pattern` uses glob characters (`*`, `?`). */
export function isGlob(pattern: string): boolean {
  return /[*?]/.test(pattern);
}

/**
 * Whether a suite entry's handler pattern `h` takes `handler`: a glob takes the handlers it lists
 * (not the explicit-only families, which run at explicit values), an id takes itself.
 */
export function suiteNames(h: string, handler: string): boolean {
  return isGlob(h) ? globMatch(h, handler) && !HANDLERS.get(handler)?.explicitOnly : h === handler;
}

/** Matches `name` against a glob with `*` (any run) and `?` (one character). */
export function globMatch(pattern: string, name: string): boolean {
  const re = new RegExp(
    "^" + pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".") +
      "$",
  );
  return re.test(name);
}

function looksLikePath(s: string): boolean {
  return s.endsWith(".json") || s.includes("/") || s.includes("\\");
}

/** Expands id/glob patterns against `valid`; throws a {@link UsageError} listing the valid ones. */
export function expand(
  patterns: readonly string[],
  valid: readonly string[],
  what: string,
): string[] {
  const out: string[] = [];
  for (const p of patterns) {
    const hits = isGlob(p) ? valid.filter((v) => globMatch(p, v)) : valid.filter((v) => v === p);
    if (hits.length === 0) {
      throw new UsageError(`no ${what} matches "${p}"; valid ${what}s: ${valid.join(", ")}`);
    }
    for (const h of hits) if (!out.includes(h)) out.push(h);
  }
  return out;
}

/**
 * Reads and validates a scene file, before any device is taken or any particle is built: the
 * file itself (a regular file of at most {@link MAX_SCENE_FILE_BYTES}: `/dev/zero` is refused), its
 * fields, its handlers and systems against the registries (unknown ids, unknown parameters,
 * values out of the declared ranges) and its estimated size against the harness's limits and this
 * machine's memory (`checkSceneFile`; `options.memoryBytes` replaces the machine's). Throws a
 * {@link SceneFileError} naming the bad field.
 */
export function loadSceneFile(path: string, options: { memoryBytes?: number } = {}): Scene {
  let text: string;
  try {
    text = readTextLimited(path, MAX_SCENE_FILE_BYTES);
  } catch (e) {
    const why = (e as Error).message;
    throw new SceneFileError(
      path,
      e instanceof InputLimitError
        ? `${why}; pass the path of a scene file (\`deno task scene\` writes one)`
        : `cannot be read (${why})`,
    );
  }
  try {
    const scene = sceneFromJson(text, {
      knownHandlers: [...HANDLERS.keys()],
      knownSystems: systemSchemas(),
    });
    checkSceneFile(scene, options);
    return scene;
  } catch (e) {
    if (e instanceof SceneError) throw new SceneFileError(path, e.message);
    throw e;
  }
}

/**
 * The case `spec` with its handler's parameters resolved and checked (`handlerParams` of
 * `gpu/handlers/registry.ts`: the scene's values, `spec.params` on top, the schema's defaults),
 * the one resolution a case gets; throws a {@link UsageError} naming the scene, the bad field and
 * the handler's parameters. `option` names the command-line option that gave the overrides
 * (`--param`, `--sweep`).
 */
export function checkedCase(spec: Omit<CaseSpec, "handlerParams">, option: string): CaseSpec {
  const { scene, handler, params } = spec;
  try {
    return { ...spec, handlerParams: handlerParams(scene, handler, params) };
  } catch (e) {
    if (!(e instanceof ParamError)) throw e;
    const valid = Object.keys(HANDLERS.get(handler)!.params).join(", ");
    throw new UsageError(
      `${
        params ? `${option} or ` : ""
      }scene ${scene.id}: ${e.message} (parameters of ${handler}: ${valid})`,
    );
  }
}

/** Options of {@link resolveCases}. */
export interface ResolveCasesOptions {
  scenes: readonly string[];
  handlers: readonly string[];
  /** The scale of the catalogue scenes, or several: each case is run at each. */
  scale: Scale | readonly Scale[];
  /** The seeds each case runs at (`"scene"`: the scene's own); default the suite's, else the scene's. */
  seeds?: readonly SeedChoice[];
  /** `--param` overrides per handler id. */
  params?: Record<string, Record<string, number>>;
  coupling?: CouplingReading;
  /**
   * The setups every case runs under, in order (`core/setups.ts`): default the suite's, else
   * `["paper"]`, the paper's choices; `--variant` adds variants, each the paper's with one choice
   * changed (run only on the cases it changes).
   */
  setups?: readonly string[];
  /** A suite name; default `default` when neither scenes nor handlers are given, else none. */
  suite?: string;
  /** The memory the scenes' size estimates are checked against; default this machine's. */
  memoryBytes?: number;
}

/** A scene of the run and where it comes from (`catalog`, or the scene file's path). */
interface PickedScene {
  scene: Scene;
  source: string;
}

/**
 * The cases of a run: the catalogue scenes (ids or globs) and scene files at each scale, under each
 * handler that applies (within the suite, if any), at each seed; throws a {@link UsageError} that
 * names what is wrong (an unknown id, a scene too big for this machine, no case at all).
 */
/**
 * Resolves the case matrix. `scenes` empty means every catalogue scene; `handlers` empty means
 * every handler that applies to each scene; `suite` (see `bench/cases/suites.ts`) keeps only its cases
 * of the catalogue (scene files are kept). Without scenes, handlers or suite: the `default` suite.
 *
 * With several scales (a sweep), the whole matrix is resolved at each scale, smallest first
 * (`SCALES` order, duplicates dropped): every case at `tiny`, then every case at `small`, and so
 * on, so that an interrupted sweep keeps complete smaller scales. A scene file has its own scale
 * and runs once, with the first scale's cases.
 */
export function resolveCases(options: ResolveCasesOptions): CaseSpec[] {
  const suite = suiteOf(options);
  const inSuite = (scene: string, handler: string) =>
    !suite ||
    suite.cases.some(([sp, hs]) => globMatch(sp, scene) && hs.some((h) => suiteNames(h, handler)));
  const allIds = [...HANDLERS.keys()];
  for (const id of Object.keys(options.params ?? {})) {
    if (!HANDLERS.has(id)) {
      throw new UsageError(`--param ${id}.…: unknown handler "${id}"; known: ${allIds.join(", ")}`);
    }
  }
  const picked = pickScenes(options);
  const wanted = wantedHandlers(options.handlers, suite);
  const cases: CaseSpec[] = [];
  const seeds = options.seeds ?? suite?.seeds ?? ["scene"];
  if (seeds.length === 0) throw new UsageError("no seed given");
  // every case at the first seed, then every case at the next: a cut run has whole seeds
  const runs = seeds.flatMap((seed) =>
    picked.map(({ scene, source }) => ({
      scene: seed === "scene" ? scene : { ...scene, seed },
      source,
    }))
  );
  let setups: Setup[];
  try {
    setups = (options.setups ?? suite?.setups ?? [PAPER_SETUP.id]).map(setupChoices);
  } catch (e) {
    throw new UsageError(`--variant: ${(e as Error).message}`);
  }
  for (const setup of setups) {
    for (const { scene, source } of runs) {
      const s = sceneUnder(scene, setup);
      for (const h of wanted) {
        const usable = handlerApplies(s, h) && !HANDLERS.get(h)!.notApplicable?.(s);
        // a variant that would run the paper's case bit for bit is not run (core/setups.ts)
        const changed = setupChanges(
          setup.id,
          h,
          Object.keys(s.systems),
          collisionsPossible(s),
          scene.setupHandlers?.[setup.id],
        );
        if (usable && changed && (source !== "catalog" || inSuite(s.id, h))) {
          // the user's --param over the setup's
          const params = { ...setup.handlerParams?.[h], ...options.params?.[h] };
          cases.push(checkedCase({
            scene: s,
            sceneSource: source,
            handler: h,
            ...(Object.keys(params).length ? { params } : {}),
            coupling: options.coupling ?? setup.coupling ?? DEFAULT_COUPLING,
            setup: setup.id,
          }, "--param"));
        }
      }
    }
  }
  if (cases.length === 0) throw noCaseError(picked, wanted);
  return cases;
}

/** The suite of a run: the one named, or `default` when no scene or handler is given. */
function suiteOf(options: ResolveCasesOptions): Suite | undefined {
  const suiteName = options.suite ??
    (options.scenes.length || options.handlers.length ? undefined : "default");
  try {
    return suiteName === undefined ? undefined : getSuite(suiteName);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/**
 * The scenes of a run: the scene files first, with the first scale's cases only (a file has its
 * own scale), then the catalogue scenes the patterns match at each scale, smallest first; a
 * catalogue scene too big for this machine fails here, before any particle is built.
 */
function pickScenes(options: ResolveCasesOptions): PickedScene[] {
  const asked: readonly Scale[] = typeof options.scale === "string"
    ? [options.scale]
    : options.scale;
  const scales = SCALES.filter((s) => asked.includes(s));
  if (scales.length === 0) {
    throw new UsageError(`no scale given; scales: ${SCALES.join(", ")}`);
  }
  const catalog = sceneIds();
  const files: PickedScene[] = [];
  const patterns = options.scenes.length ? options.scenes : ["*"];
  const ids: string[] = [];
  for (const p of patterns) {
    if (looksLikePath(p)) {
      files.push({ scene: loadSceneFile(p, { memoryBytes: options.memoryBytes }), source: p });
    } else ids.push(...expand([p], catalog, "scene").filter((id) => !ids.includes(id)));
  }
  // Scene files first, with the first scale's cases only (a file has its own scale).
  const picked: PickedScene[] = [];
  scales.forEach((scale, k) => {
    if (k === 0) picked.push(...files);
    for (const id of ids) picked.push({ scene: getScene(id, { scale }), source: "catalog" });
  });
  // a catalogue scene too big for this machine fails here, before any particle is built
  const memoryBytes = options.memoryBytes ?? machineMemoryBytes();
  for (const { scene, source } of picked) {
    if (source !== "catalog") continue;
    try {
      checkSceneSize(scene, { memoryBytes });
    } catch (e) {
      if (!(e instanceof SceneError)) throw e;
      // the file's advice (raise a spacing) is the catalogue's smaller scales
      const what = e.message.replace(/^scene\.[^:]*: scene [^:]*: /, "").replace(/; [^;]*$/, "");
      throw new UsageError(`${scene.id} at scale ${scene.scale}: ${what}; run a smaller --scale`);
    }
  }
  return picked;
}

/**
 * The handlers a run asks for: those `handlers` names (ids or globs), or every handler that is
 * not explicit-only and those the suite names.
 */
function wantedHandlers(handlers: readonly string[], suite: Suite | undefined): string[] {
  // `*` and globs list the handlers that are not explicit-only (the families run at explicit
  // values, e.g. `penalty`); an exact id names any handler
  const allHandlers = [...HANDLERS.keys()];
  const listed = allHandlers.filter((id) => !HANDLERS.get(id)!.explicitOnly);
  // (a suite's entry may name an explicit-only family exactly: its cases run at swept values)
  const named = suite
    ? allHandlers.filter((id) => suite!.cases.some(([, hs]) => hs.includes(id)))
    : [];
  return handlers.length
    ? [
      ...new Set(
        handlers.flatMap((p) => expand([p], isGlob(p) ? listed : allHandlers, "handler")),
      ),
    ]
    : [...new Set([...listed, ...named])];
}

/**
 * The error of a run with no case: the handlers and scenes it asked for and, where a handler a
 * scene lists cannot run, why (e.g. akinci without an SPH fluid).
 */
function noCaseError(picked: readonly PickedScene[], wanted: readonly string[]): UsageError {
  // a handler a scene lists but cannot run says why (e.g. akinci without an SPH fluid)
  const why = [
    ...new Set(picked.flatMap(({ scene }) =>
      wanted.flatMap((h) => {
        const reason = handlerApplies(scene, h)
          ? HANDLERS.get(h)!.notApplicable?.(scene)
          : undefined;
        return reason ? [`${h} on ${scene.id}: ${reason}`] : [];
      })
    )),
  ];
  return new UsageError(
    `no case to run: the handlers ${wanted.join(", ")} apply to none of the scenes ${
      [...new Set(picked.map((p) => p.scene.id))].join(", ")
    }${why.length ? ` (${why.join("; ")})` : ""}`,
  );
}
