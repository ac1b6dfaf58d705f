// run_tests: one implementation (parsers and readers of user input: no device is taken)
/**
 * Fuzz targets (fast-check, fixed seed, a time limit per target): the bench's option parser, the
 * scene-file loader and the results-file reader, fed mutations of valid input (argument lists of
 * the documented commands, the catalogue's scenes as `deno task scene` writes them, the records of
 * a committed results file). Each input must end in an accepted value or in the harness's
 * bad-input error (exit status 2) whose first line is plain text (no control character, no stack
 * frame), never in a TypeError, a RangeError or a hang (each input within {@link SLOW_MS}).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { parseBenchArgs } from "../bench/cli.ts";
import { loadSceneFile, resolveCases, SceneFileError, UsageError } from "../bench/cases/suite.ts";
import { planCases } from "../bench/main.ts";
import { readResultsFile } from "../core/io/read_results_file.ts";
import { hasControlCharacter } from "../core/option_text.ts";
import { recordLine } from "../core/result.ts";
import { buildParticles } from "../core/scene/scene_builder.ts";
import { estimateSceneSize } from "../core/scene/scene_size.ts";
import { sceneToJson } from "../core/scene/scene.ts";
import { fakeRecord } from "../reports/fake_record.ts";
import { getScene, sceneIds } from "../scenes/catalog.ts";

/** The seed of every target: a failure is reproduced by running the file again. */
const SEED = 2021;

/** The time each target may take, ms (the three well within a minute). */
const TARGET_MS = 8_000;

/** The longest one input may take, ms: more is taken for a hang. */
const SLOW_MS = 5_000;

/** An error class the harness reports as bad input (exit status 2). */
type BadInput = abstract new (...args: never[]) => Error;

/**
 * Runs `fn` on one input: its value, or undefined when it threw one of `bad` with a plain first
 * line; anything else thrown fails the target (with the input, shrunk). Fails too when it took
 * longer than {@link SLOW_MS}.
 */
function acceptedOrBad<T>(fn: () => T, bad: readonly BadInput[]): T | undefined {
  const t0 = performance.now();
  try {
    return fn();
  } catch (e) {
    if (!bad.some((c) => e instanceof c)) throw e;
    const first = (e as Error).message.split("\n")[0];
    assert.ok(first.trim().length > 0, "an empty message");
    assert.ok(!hasControlCharacter(first), `a control character in ${JSON.stringify(first)}`);
    assert.ok(!/\n\s+at /.test((e as Error).message), "a stack trace in the message");
    return undefined;
  } finally {
    const ms = performance.now() - t0;
    assert.ok(ms < SLOW_MS, `took ${ms.toFixed(0)} ms`);
  }
}

/** Runs `property` with the fixed seed until `numRuns` or the target's time is up. */
function check<T>(property: fc.IPropertyWithHooks<T> | fc.IProperty<T>, numRuns: number): void {
  fc.assert(property, {
    seed: SEED,
    numRuns,
    interruptAfterTimeLimit: TARGET_MS,
    markInterruptAsFailure: false,
  });
}

/** Hostile strings: empty and blank, numbers in other grammars, controls, paths, prototype keys. */
const TRICKY = [
  "",
  " ",
  "-",
  "--",
  "=",
  "0x10",
  "0b1",
  "1_000",
  "-inf",
  "inf",
  "Infinity",
  "NaN",
  "1e999",
  "-1",
  "-0",
  "0",
  "1.5",
  "9".repeat(400),
  "\u202e",
  "a\nb",
  "\x1b[2J",
  "\0",
  "__proto__",
  "constructor",
  "toString",
  "*",
  "?",
  "fig*",
  ",",
  ",,",
  "1/0",
  "0/0",
  "3/2",
  "1..2:0",
  "1..2:1001",
  "0..1:3",
  "1,1",
  "merge-split.=1",
  ".alpha=1",
  "scene.dt=",
  "scene.dt=1",
  "scene.dt=1e-9",
  "merge-split.nMax=-inf",
  "merge-split.grouping=index-order",
  "penalty.stiffness=1e2..1e6:9",
  "/dev/null",
  "/proc/self/status",
  "deno.json",
  "../../etc/passwd",
  "fig4-fluid-cloth",
  "merge-split",
  "tiny",
  "paper",
  "all",
  "none",
  "scene",
];

/** The bench's options, as tokens to insert. */
const OPTIONS = [
  "--scene",
  "--handler",
  "--scale",
  "--adapter",
  "--out",
  "--seed",
  "--param",
  "--sweep",
  "--suite",
  "--coupling",
  "--variant",
  "--steps",
  "--duration",
  "--warmup",
  "--repeat",
  "--steps-per-submit",
  "--one-workgroup-grouping",
  "--timeout",
  "--list",
  "--list-adapters",
  "--verify",
  "--append",
  "--resume",
  "--shard",
  "-h",
  "--help",
  "--nope",
  "--scene=",
  "--param=",
];

/** A string to put into an input: a tricky one, an option, or an arbitrary one. */
const token = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...TRICKY) },
  { weight: 3, arbitrary: fc.constantFrom(...OPTIONS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) },
  { weight: 1, arbitrary: fc.double().map(String) },
);

/** One edit of a list: replace, insert, delete, duplicate, swap, or change one character. */
const edit = fc.record({
  op: fc.constantFrom("replace", "insert", "delete", "duplicate", "swap", "char"),
  i: fc.nat(),
  j: fc.nat(),
  token,
});

/** `list` with `edits` applied (positions taken modulo its length). */
function applyEdits<T>(
  list: readonly T[],
  edits: readonly { op: string; i: number; j: number; token: string }[],
  fromToken: (t: string, old: T | undefined) => T,
): T[] {
  const out = [...list];
  for (const { op, i, j, token } of edits) {
    const k = out.length ? i % out.length : 0;
    const old = out[k];
    if (op === "insert" || !out.length) out.splice(i % (out.length + 1), 0, fromToken(token, old));
    else if (op === "replace") out[k] = fromToken(token, old);
    else if (op === "delete") out.splice(k, 1);
    else if (op === "duplicate") out.splice(k, 0, old);
    else if (op === "swap") [out[k], out[j % out.length]] = [out[j % out.length], old];
    else out[k] = fromToken(charEdit(String(old), j, token), old);
  }
  return out;
}

/** `text` with one character at `at` replaced by `token` (or `token` appended). */
function charEdit(text: string, at: number, token: string): string {
  const k = text.length ? at % (text.length + 1) : 0;
  return text.slice(0, k) + token + text.slice(k + 1);
}

/** Argument lists of the documented commands. */
const VALID_ARGS: readonly string[][] = [
  [],
  ["--scene", "fig4-fluid-cloth", "--handler", "merge-split", "--scale", "tiny"],
  ["--suite", "claims", "--seed", "scene,7,99", "--variant", "all", "--scale", "tiny"],
  [
    "--scene",
    "fig3-*",
    "--handler",
    "merge-split,penalty-medium",
    "--sweep",
    "scene.dt=1e-5..1e-3:5",
  ],
  [
    "--scene",
    "fig4-fluid-cloth",
    "--handler",
    "penalty",
    "--sweep",
    "penalty.stiffness=1e2..1e6:9",
  ],
  ["--param", "merge-split.alpha=0.5", "--param", "merge-split.nMax=inf", "--coupling", "own-part"],
  [
    "--steps",
    "100",
    "--warmup",
    "10",
    "--repeat",
    "3",
    "--steps-per-submit",
    "4",
    "--timeout",
    "60",
  ],
  ["--duration", "0.5", "--one-workgroup-grouping", "--adapter", "software", "--scale", "tiny"],
  ["--out", "reports/out/x", "--resume", "--shard", "2/8", "--scale", "tiny"],
  ["--verify", "reports/out/x/results.jsonl", "--adapter", "gl"],
  ["--scale", "tiny,small", "--scene", "fig4-*", "--handler", "merge-split"],
  ["--scene", "fig11-*", "--sweep", "scene.speed=2,4", "--sweep", "merge-split.alpha=0.25,0.5"],
  ["--list"],
  ["--help"],
];

/**
 * What the bench does with accepted options before it takes a device (`planCases`), at tiny and
 * small (a larger scale only builds bigger scenes) and with one handler when none is named (the
 * whole suite only takes longer).
 */
function planRun(args: readonly string[]): void {
  const opts = acceptedOrBad(() => parseBenchArgs(args), [UsageError]);
  if (!opts || opts.help || opts.list || opts.listAdapters || opts.verify) return;
  if (opts.scales.some((s) => s !== "tiny" && s !== "small")) return;
  const one = opts.handlers.length || opts.scenes.length ? opts.handlers : ["merge-split"];
  acceptedOrBad(() => planCases({ ...opts, handlers: one }), [UsageError, SceneFileError]);
}

Deno.test("fuzz: the bench's options end in options or a usage error", () => {
  check(
    fc.property(
      fc.constantFrom(...VALID_ARGS),
      fc.array(edit, { minLength: 1, maxLength: 4 }),
      (args, edits) => planRun(applyEdits(args, edits, (t) => t)),
    ),
    10_000,
  );
});

Deno.test("every option with every hostile value ends in options or a usage error", () => {
  const base = ["--scene", "fig4-fluid-cloth", "--handler", "merge-split", "--scale", "tiny"];
  for (const option of OPTIONS) {
    for (const value of TRICKY) {
      for (
        const args of [[...base, option, value], [`${option}=${value}`], [option, `${value},x`]]
      ) {
        try {
          planRun(args);
        } catch (e) {
          throw new Error(`${JSON.stringify(args)}: ${(e as Error).message}`, { cause: e });
        }
      }
    }
  }
});

/** A JSON value with one of its nested values edited (set, removed, renamed, or made odd). */
type Json = unknown;

/** Odd values to put into a scene or a record. */
const ODD_VALUE = fc.oneof(
  fc.constantFrom<Json>(
    null,
    true,
    "",
    "Infinity",
    "-Infinity",
    0,
    -0,
    -1,
    1e308,
    -1e308,
    5e-324,
    2 ** 53 + 1,
    1e9,
    [],
    {},
    [[]],
    "\u202e",
    "a\nb",
    "__proto__",
  ),
  fc.jsonValue({ maxDepth: 2 }),
  token,
);

/**
 * A path into `v` (object keys and array indices) walked by `choices`: at each value holding n
 * others, choice c goes into the (c mod (n + 1))-th, or stops there when that is n.
 */
function pickPath(v: Json, choices: readonly number[]): (string | number)[] {
  const path: (string | number)[] = [];
  for (const c of choices) {
    if (!v || typeof v !== "object") break;
    const keys: (string | number)[] = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
    const k = c % (keys.length + 1);
    if (k === keys.length) break;
    path.push(keys[k]);
    v = (v as Record<string | number, Json>)[keys[k]];
  }
  return path;
}

/** `root` (a fresh copy) with the value at `path` set to `value`, removed or its key renamed. */
function editJson(root: Json, path: (string | number)[], op: number, value: Json): Json {
  if (path.length === 0) return op === 0 ? value : root;
  // deno-lint-ignore no-explicit-any
  const parent = path.slice(0, -1).reduce((o: any, k) => o[k], root) as any;
  const key = path.at(-1)!;
  if (op === 0) ownValue(parent, key, value);
  else if (op === 1 && Array.isArray(parent)) parent.splice(Number(key), 1);
  else if (op === 1) delete parent[key];
  else if (op === 2 && !Array.isArray(parent)) {
    const name = typeof value === "string" ? value : `${String(key)}x`;
    ownValue(parent, name, parent[key]);
    delete parent[key];
  } else if (Array.isArray(parent)) parent.push(structuredClone(parent[key as number]));
  else parent[key] = [parent[key]];
  return root;
}

/** Sets `o[key]` as an own property (`__proto__` too, as `JSON.parse` makes it). */
function ownValue(o: object, key: string | number, value: Json): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** JSON as the harness writes it (Infinity as "Infinity"). */
function toJson(v: Json, indent?: number): string {
  return JSON.stringify(v, (_k, x) => (x === Infinity ? "Infinity" : x), indent);
}

/**
 * Edits of a JSON text: up to three value edits, then maybe one of its characters, and now and
 * then the text cut short (a write torn by a kill).
 */
const jsonEdits = fc.record({
  values: fc.array(fc.tuple(fc.array(fc.nat(), { maxLength: 8 }), fc.nat({ max: 3 }), ODD_VALUE), {
    minLength: 1,
    maxLength: 3,
  }),
  text: fc.option(fc.tuple(fc.nat(), token), { freq: 3 }),
  cut: fc.option(fc.nat(), { freq: 6 }),
});

/** `text` (JSON) with `edits` applied. */
function mutateJson(
  text: string,
  edits: { values: [number[], number, Json][]; text: [number, string] | null; cut: number | null },
  indent?: number,
): string {
  let root = JSON.parse(text);
  for (const [walk, op, value] of edits.values) {
    root = editJson(root, pickPath(root, walk), op, structuredClone(value));
  }
  const out = toJson(root, indent) ?? "";
  const edited = edits.text ? charEdit(out, edits.text[0], edits.text[1]) : out;
  return edits.cut === null ? edited : edited.slice(0, edits.cut % (edited.length + 1)); // torn
}

/** Most particles a fuzzed scene is built with (more only takes longer). */
const BUILD_PARTICLES = 20_000;

Deno.test("fuzz: scene files end in a scene or a scene-file error", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-fuzz-scene-" });
  const scenes = sceneIds().map((id) => sceneToJson(getScene(id, { scale: "tiny" })));
  let n = 0;
  try {
    check(
      fc.property(fc.constantFrom(...scenes), jsonEdits, (text, edits) => {
        const path = join(dir, `scene-${n++}.json`);
        Deno.writeTextFileSync(path, mutateJson(text, edits, 2));
        const scene = acceptedOrBad(() => loadSceneFile(path), [SceneFileError]);
        if (!scene) return;
        acceptedOrBad(
          () => resolveCases({ scenes: [path], handlers: [], scale: "tiny" }),
          [UsageError, SceneFileError],
        );
        const size = estimateSceneSize(scene);
        if (size.particles <= BUILD_PARTICLES) acceptedOrBad(() => buildParticles(scene), []);
        Deno.removeSync(path);
      }),
      3000,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** The first record of a committed results file, and a synthetic one. */
function recordLines(): string[] {
  const committed = Deno.readTextFileSync(
    new URL("../docs/results/small-lavapipe-default/results.jsonl", import.meta.url),
  ).split("\n")[0];
  return [committed, recordLine(fakeRecord()).trimEnd()];
}

Deno.test("fuzz: results files end in records and named skipped lines, never a throw", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-fuzz-results-" });
  const path = join(dir, "results.jsonl");
  const lines = recordLines();
  try {
    check(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...lines), jsonEdits), { minLength: 1, maxLength: 3 }),
        fc.constantFrom("\n", "\r\n"),
        fc.boolean(),
        (parts, eol, bom) => {
          const text = parts.map(([l, e]) => mutateJson(l, e)).join(eol);
          Deno.writeTextFileSync(path, (bom ? "\ufeff" : "") + text);
          const read = acceptedOrBad(() => readResultsFile(path), [])!;
          for (const s of read.skipped) {
            assert.ok(!hasControlCharacter(s.reason), `a skipped line's reason: ${s.reason}`);
          }
          for (const r of read.records) {
            for (const field of ["scene", "handler", "status"] as const) {
              assert.equal(typeof r[field], "string", `record.${field}: ${toJson(r[field])}`);
            }
          }
        },
      ),
      2000,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
