/**
 * Parameter sweeps (`--sweep`): one case per value of a handler parameter or of the scene's time
 * step, each recorded with the values it ran at (`CaseRecord.sweep`).
 *
 * ```sh
 * deno task bench --scene fig4-fluid-cloth --handler penalty --sweep penalty.stiffness=1e2..1e6:9
 * deno task bench --scene fig3-* --handler merge-split,penalty-medium --sweep scene.dt=1e-4..4e-3:6
 * ```
 *
 * A value list is `a..b:n` (n values from a to b, log-spaced: both positive) or `v1,v2,…`, each
 * value a finite decimal number (`parseOptionNumber`, the grammar of every numeric option).
 * Several `--sweep` options run their cartesian product. A handler target `<handler>.<param>`
 * applies to the cases of that handler only (a family id such as `penalty` runs at exactly the
 * swept values, beside the named levels `penalty-weak` … which are left as they are); `scene.dt`
 * applies to every case; `scene.speed` (the impact speed, m/s) rebuilds each case's catalogue
 * scene at that speed (`scenes/catalog.ts` `getScene`: the drop height or the fluid's initial
 * speed, and with them the reference speed, the time step and the stiffness levels of the rule),
 * and `scene.soundSpeedFactor` (F of the SPH water's speed of sound, c = max(F·v_ref, √(F·g·H)):
 * a compressibility study) rebuilds it with that F (the state equation's stiffness, the time step
 * and Akinci's coupling follow), both before any other sweep applies.
 *
 * @module
 */
import { type Scene, SceneError, validateScene } from "../../core/scene/scene.ts";
import { checkSceneFile, systemSchemas } from "./scene_file_check.ts";
import { getScene, hasImpactSpeed, hasSoundSpeed } from "../../scenes/catalog.ts";
import type { CaseSpec } from "./suite.ts";
import { checkedCase, globMatch, suiteNames, UsageError } from "./suite.ts";
import type { Suite } from "./suites.ts";
import { sceneUnder, setupChoices } from "../../core/setups.ts";
import { parseOptionNumber } from "../../core/option_text.ts";

/** What a sweep varies: a handler parameter, or a field of the scene. */
export type SweepTarget =
  | { kind: "handler"; handler: string; param: string }
  | { kind: "scene"; field: SceneSweepField };

/** The scene fields a sweep may vary. */
export const SCENE_SWEEP_FIELDS = ["dt", "speed", "soundSpeedFactor"] as const;

/** A scene field a sweep may vary. */
export type SceneSweepField = typeof SCENE_SWEEP_FIELDS[number];

/** The scene fields that rebuild the catalogue scene (`getScene`'s variant) rather than replace. */
const REBUILD_FIELDS: readonly SceneSweepField[] = ["speed", "soundSpeedFactor"];

/** Which catalogue scenes each rebuild field applies to, and how to say so when one does not. */
const REBUILD_SCENES: Readonly<Record<string, { has: (id: string) => boolean; where: string }>> = {
  speed: {
    has: hasImpactSpeed,
    where: "has no impact speed to set; it applies to the catalogue scenes of Figs. 3, 4, 7, 10 " +
      "and 11",
  },
  soundSpeedFactor: {
    has: hasSoundSpeed,
    where: "has no SPH water whose speed of sound to set; it applies to the catalogue scenes of " +
      "Figs. 4, 8, 10, 11 and dam-break-sph",
  },
};

/** One `--sweep` option, parsed. */
export interface Sweep {
  /** The target as written in the record's `sweep` field, e.g. `penalty.stiffness`, `scene.dt`. */
  key: string;
  /** What it varies. */
  target: SweepTarget;
  /** The values, in the order given (ascending for a range). */
  values: number[];
}

/**
 * The values of `a..b:n` (n ≥ 2 log-spaced values from a to b, both > 0; n = 1 gives a) or of a
 * comma list. Throws a {@link UsageError} saying what is wrong.
 */
export function sweepValues(text: string, what = "--sweep"): number[] {
  const range = /^\s*([^.,:\s][^,:]*?)\s*\.\.\s*([^,:]+?)\s*:\s*(\d+)\s*$/.exec(text);
  if (range) {
    const [a, b] = [parseOptionNumber(range[1]) ?? NaN, parseOptionNumber(range[2]) ?? NaN];
    const n = Number(range[3]);
    if (!(a > 0) || !(b > 0) || !Number.isFinite(a) || !Number.isFinite(b)) {
      throw new UsageError(
        `${what}: a log-spaced range a..b:n needs finite a, b > 0, got "${text}"`,
      );
    }
    if (!Number.isInteger(n) || n < 1 || n > 1000) {
      throw new UsageError(`${what}: the count n of a..b:n must be 1..1000, got "${text}"`);
    }
    if (n === 1) return [a];
    const la = Math.log(a), lb = Math.log(b);
    // exact ends; interior values rounded to 6 significant digits so records read cleanly
    return distinct(
      Array.from(
        { length: n },
        (_, k) =>
          k === 0
            ? a
            : k === n - 1
            ? b
            : Number(Math.exp(la + (lb - la) * k / (n - 1)).toPrecision(6)),
      ),
      text,
      what,
    );
  }
  const items = text.split(",").map((s) => s.trim());
  const values = items.map((s) => parseOptionNumber(s) ?? NaN);
  if (values.some((v) => !Number.isFinite(v))) {
    throw new UsageError(
      `${what}: values must be a..b:n (log-spaced) or a comma list of finite decimal numbers ` +
        `(e.g. 0.5, 1e-3), got "${text}"`,
    );
  }
  return distinct(values, text, what);
}

/**
 * `values` when no two are equal (two cases of one configuration would run twice); else a
 * {@link UsageError} quoting `text` (a range `a..a:n`, or one whose 6-digit values meet).
 */
function distinct(values: number[], text: string, what: string): number[] {
  if (new Set(values).size !== values.length) {
    throw new UsageError(
      `${what}: a value is listed twice in "${text}" (a range a..b:n gives n distinct values ` +
        "only for a < b far enough apart); give each value once",
    );
  }
  return values;
}

/**
 * Parses one `--sweep <target>=<values>`: target `<handler>.<param>` or `scene.<field>`
 * ({@link SCENE_SWEEP_FIELDS}). `knownHandlers` are the handler ids; a handler target is checked
 * against them (the parameter is checked when the cases are resolved, against the schema).
 */
export function parseSweep(text: string, options: { knownHandlers: readonly string[] }): Sweep {
  const m = /^\s*([A-Za-z0-9_-]+)\.([A-Za-z0-9_]+)\s*=(.+)$/.exec(text);
  if (!m) {
    throw new UsageError(
      `--sweep ${text}: must read <handler>.<param>=<values> or scene.<field>=<values> (${
        SCENE_SWEEP_FIELDS.join(", ")
      }), e.g. penalty.stiffness=1e2..1e6:9`,
    );
  }
  const [, owner, name, valuesText] = m;
  const values = sweepValues(valuesText, `--sweep ${owner}.${name}`);
  if (owner === "scene") {
    if (!(SCENE_SWEEP_FIELDS as readonly string[]).includes(name)) {
      throw new UsageError(
        `--sweep scene.${name}: a scene sweep varies one of ${SCENE_SWEEP_FIELDS.join(", ")}`,
      );
    }
    if (values.some((v) => !(v > 0))) {
      throw new UsageError(`--sweep scene.${name}: every value must be > 0`);
    }
    if (name === "soundSpeedFactor" && values.some((v) => !(v > 1))) {
      throw new UsageError(
        "--sweep scene.soundSpeedFactor: every value must be > 1 (c as a multiple of the " +
          "reference speed: 10 is the catalogue's, a density error target of 10 %)",
      );
    }
    return {
      key: `scene.${name}`,
      target: { kind: "scene", field: name as SceneSweepField },
      values,
    };
  }
  if (!options.knownHandlers.includes(owner)) {
    throw new UsageError(
      `--sweep ${owner}.${name}: unknown handler "${owner}"; known: ${
        options.knownHandlers.join(", ")
      }`,
    );
  }
  return {
    key: `${owner}.${name}`,
    target: { kind: "handler", handler: owner, param: name },
    values,
  };
}

/**
 * `scene` at the scene values of a sweep (`CaseRecord.sweep`, e.g. `{"scene.dt": 0.001,
 * "penalty.stiffness": 1000}`): the rebuild fields (`scene.speed`, `scene.soundSpeedFactor`) first,
 * in one `getScene` of the catalogue scene at the record's scale (the seed is kept), then each other
 * `scene.<field>` replaced by its value; the handler keys are left out (a record holds them in its
 * `handlerParams`). Rebuilds the scene a swept case ran on, e.g. for `--verify`. Throws a
 * {@link UsageError} for a `scene.` key that is not a {@link SCENE_SWEEP_FIELDS} field.
 */
export function sweptScene(scene: Scene, sweep: Readonly<Record<string, number>> = {}): Scene {
  const fields = Object.keys(sweep).filter((k) => k.startsWith("scene.")).map((k) => {
    const field = k.slice("scene.".length);
    if (!(SCENE_SWEEP_FIELDS as readonly string[]).includes(field)) {
      throw new UsageError(
        `sweep key "${k}": a scene sweep varies one of ${
          SCENE_SWEEP_FIELDS.map((f) => `scene.${f}`).join(", ")
        }; this record was written by another version of mergesplit`,
      );
    }
    return field as SceneSweepField;
  });
  const rebuild = fields.filter((f) => REBUILD_FIELDS.includes(f));
  const base = rebuild.length
    ? { ...rebuiltScene(scene, rebuild, sweep), seed: scene.seed }
    : scene;
  return fields.filter((f) => !REBUILD_FIELDS.includes(f)).reduce(
    (s, f) => ({ ...s, [f]: sweep[`scene.${f}`] }),
    base,
  );
}

/**
 * The catalogue scene `scene.id` at its scale rebuilt with the sweep's values of the `rebuild`
 * fields; a value the catalogue cannot build it at (a speed the drop cannot reach) is a
 * {@link UsageError} naming the values.
 */
function rebuiltScene(
  scene: Scene,
  rebuild: readonly SceneSweepField[],
  sweep: Readonly<Record<string, number>>,
): Scene {
  const values = Object.fromEntries(rebuild.map((f) => [f, sweep[`scene.${f}`]]));
  try {
    return getScene(scene.id, { scale: scene.scale, ...values });
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    const named = rebuild.map((f) => `scene.${f}=${values[f]}`).join(" ");
    throw new UsageError(`--sweep ${named}: ${scene.id} cannot be built so: ${e.message}`);
  }
}

function isRebuild(s: Sweep): boolean {
  return s.target.kind === "scene" && REBUILD_FIELDS.includes(s.target.field);
}

/** Most cases one run may hold (sweeps' product included): about a day at 10 s a case. */
export const MAX_CASES = 10_000;

/**
 * How many cases {@link expandSweeps} would make of `cases` (each case times the value counts of
 * the sweeps that apply to it), counted without making them.
 */
export function sweptCaseCount(cases: readonly CaseSpec[], sweeps: readonly Sweep[]): number {
  let total = 0;
  for (const c of cases) {
    total += sweeps.reduce(
      (n, s) =>
        s.target.kind === "handler" && c.handler !== s.target.handler ? n : n * s.values.length,
      1,
    );
  }
  return total;
}

/**
 * Throws a {@link UsageError} when `count` cases are more than {@link MAX_CASES} (`what` says where
 * they come from), before anything is made for them.
 */
export function checkCaseCount(count: number, what: string): void {
  if (count > MAX_CASES) {
    throw new UsageError(
      `${what} make ${count.toLocaleString("en")} cases, more than ${
        MAX_CASES.toLocaleString("en")
      } per run; sweep fewer values (a..b:n with a smaller n), or split the run`,
    );
  }
}

/**
 * Every case of `cases` once per combination of the sweeps' values that apply to it: a handler
 * sweep multiplies the cases of its handler (its value goes into the case's parameters), a scene
 * sweep every case (its value replaces the scene field). A case no sweep applies to stays as it
 * is; a swept one has its handler parameters resolved and checked again (`checkedCase`), at its
 * final values. Throws a {@link UsageError} when a handler sweep matches no case, when the cases
 * would be more than {@link MAX_CASES} (counted first) or a swept value is out of its parameter's
 * range.
 */
export function expandSweeps(cases: readonly CaseSpec[], sweeps: readonly Sweep[]): CaseSpec[] {
  for (const s of sweeps) {
    if (
      s.target.kind === "handler" &&
      !cases.some((c) => s.target.kind === "handler" && c.handler === s.target.handler)
    ) {
      throw new UsageError(
        `--sweep ${s.key}: no case runs handler "${s.target.handler}"; add --handler ${s.target.handler}`,
      );
    }
  }
  const keys = new Set<string>();
  for (const s of sweeps) {
    if (keys.has(s.key)) throw new UsageError(`--sweep ${s.key} is given twice`);
    keys.add(s.key);
  }
  for (const s of sweeps) {
    if (s.target.kind !== "scene" || !REBUILD_FIELDS.includes(s.target.field)) continue;
    const { has, where } = REBUILD_SCENES[s.target.field];
    const bad = cases.find((c) => c.sceneSource !== "catalog" || !has(c.scene.id));
    if (bad) {
      throw new UsageError(
        `--sweep ${s.key}: scene "${bad.scene.id}" (${bad.sceneSource}) ${where}`,
      );
    }
  }
  checkCaseCount(
    sweptCaseCount(cases, sweeps),
    `the sweeps (${
      sweeps.map((s) => `${s.key}: ${s.values.length} values`).join(", ")
    }) over ${cases.length} cases`,
  );
  // a speed or a speed of sound rebuilds the scene, so they go first and the others apply on top
  const ordered = [...sweeps].sort((a, b) => Number(isRebuild(b)) - Number(isRebuild(a)));
  let out: CaseSpec[] = [...cases];
  for (const s of ordered) {
    out = out.flatMap((c) => {
      const t = s.target;
      if (t.kind === "handler" && c.handler !== t.handler) return [c];
      return s.values.map((v): CaseSpec => {
        const sweep = { ...c.sweep, [s.key]: v };
        if (t.kind === "handler") return { ...c, params: { ...c.params, [t.param]: v }, sweep };
        return { ...c, scene: sweptScene(c.scene, sweep), sweep };
      });
    });
  }
  // a swept case's parameters changed (a handler value, or the scene's): resolve them once more
  // (a rebuilt scene gets its setup's system parameters again)
  return out.map((c) =>
    c.sweep
      ? checkSweptScene(checkedCase(
        c.setup ? { ...c, scene: sceneUnder(c.scene, setupChoices(c.setup)) } : c,
        "--sweep",
      ))
      : c
  );
}

/**
 * How many times the CFL bound a swept `scene.dt` may be: a stability study crosses the bound on
 * purpose (the claims suite's Fig. 5 sweep reaches 13.4 times it at scale paper), but a time step
 * far beyond it (`scene.dt=1`) runs a case whose particles jump through each other.
 */
export const SWEPT_DT_OVER_CFL = 20;

/**
 * `c` when the scene values of its sweep leave a scene that passes the checks a scene file passes
 * (`validateScene`, CFL up to {@link SWEPT_DT_OVER_CFL} times its bound, and `checkSceneFile`: the
 * systems' own checks, the steps); a case without scene values as it is. Throws a
 * {@link UsageError} naming the swept values and the field otherwise.
 */
function checkSweptScene(c: CaseSpec): CaseSpec {
  const values = Object.entries(c.sweep ?? {}).filter(([k]) => k.startsWith("scene."));
  if (!values.length) return c;
  try {
    validateScene(c.scene, { knownSystems: systemSchemas(), dtOverCfl: SWEPT_DT_OVER_CFL });
    checkSceneFile(c.scene);
  } catch (e) {
    if (!(e instanceof SceneError)) throw e;
    throw new UsageError(
      `--sweep ${
        values.map(([k, v]) => `${k}=${v}`).join(" ")
      }: ${c.scene.id} at scale ${c.scene.scale} fails the checks a scene file passes: ${e.message}; sweep values within them`,
    );
  }
  return c;
}

/**
 * The cases of `cases` with the sweeps of the suite's entries (`bench/cases/suites.ts`): each case once
 * per entry that matches it, plain for an entry without sweeps, expanded by the entry's sweeps
 * otherwise (a case no entry matches, a scene file's, stays as it is).
 */
export function suiteSweeps(
  cases: readonly CaseSpec[],
  suite: Suite | undefined,
  options: { knownHandlers: readonly string[] },
): CaseSpec[] {
  if (!suite?.cases.some(([, , sweeps]) => sweeps?.length)) return [...cases];
  return cases.flatMap((c) => {
    const entries = c.sceneSource === "catalog"
      ? suite.cases.filter(([sp, hs]) =>
        globMatch(sp, c.scene.id) && hs.some((h) => suiteNames(h, c.handler))
      )
      : [];
    if (!entries.length) return [c];
    return entries.flatMap(([, , sweeps]) =>
      sweeps?.length ? expandSweeps([c], sweeps.map((s) => parseSweep(s, options))) : [c]
    );
  });
}
