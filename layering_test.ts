/**
 * The layering of the tree (docs/design.md "Layers"), checked on every relative import
 * of every `.ts` file: a folder never reaches up or sideways. Each rule is a step; a failure lists
 * every violation as `file → imported file (rule)`. Test files (`*_test.ts`) may reach up (a test
 * may use a higher layer to drive the code under test) but never sideways: bench ↔ reports,
 * system ↔ system, handler ↔ handler. The top of the gpu layer (`gpu/engine.ts`, `gpu/mod.ts`, every
 * file directly in `gpu/`), the root files (`cli.ts`, `mod.ts`) and the browser bench (`web/`) may
 * import anything; nothing outside `web/` imports it.
 *
 * The layers below the plug-ins, `gpu/runtime/` and `gpu/state/`, also never name a plug-in: no
 * `.ts` or `.wgsl` file there (tests included; code and comments alike) spells the id of a folder
 * `gpu/systems/<id>/` or `gpu/handlers/<id>/` (see `pluginNames` for the spellings); a plug-in's
 * vocabulary (its statistics, its channels' meaning) lives in its own folder.
 *
 * @module
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = new URL("./", import.meta.url);
/** Modules (not tests, not fixtures) a folder may hold at its top (issue 49: wings). */
const MAX_MODULES_PER_FOLDER = 20;
/** Folders (relative to the root) not searched. */
const SKIP = new Set(["node_modules", "reports/out", ".git"]);

/** Every `.ts` file of the tree, as a path relative to the root with `/` separators. */
function tsFiles(dir = ""): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(new URL(dir || ".", ROOT))) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory) {
      if (!SKIP.has(rel) && !e.name.startsWith(".")) out.push(...tsFiles(rel));
    } else if (e.isFile && e.name.endsWith(".ts")) out.push(rel);
  }
  return out.sort();
}

/**
 * The module specifiers `source` imports: static `import … from "…"`, `export … from "…"`,
 * `import "…"` and dynamic `import("…")`. Lines that are comments (`//`, `/*`, ` *`) are skipped.
 */
function importSpecifiers(source: string): string[] {
  const code = source.split("\n").map((l) => (/^\s*(\/\/|\/\*|\*)/.test(l) ? "" : l)).join("\n");
  const patterns = [
    /(?:^|;)\s*(?:import|export)\s[^;()="'`]*?\bfrom\s*["']([^"'\n]+)["']/gm,
    /(?:^|;)\s*import\s*["']([^"'\n]+)["']/gm,
    /\bimport\s*\(\s*["']([^"'\n]+)["']\s*\)/g,
  ];
  return patterns.flatMap((p) => [...code.matchAll(p)].map((m) => m[1]));
}

/** One import: the importing file and the imported file, both relative to the root. */
interface Edge {
  from: string;
  to: string;
}

/** Every relative import of the tree, resolved to a path relative to the root. */
function edges(files: readonly string[]): Edge[] {
  const root = fileURLToPath(ROOT);
  return files.flatMap((from) => {
    const url = new URL(from, ROOT);
    return importSpecifiers(Deno.readTextFileSync(url))
      .filter((s) => s.startsWith("./") || s.startsWith("../"))
      .map((s) => ({ from, to: fileURLToPath(new URL(s, url)).slice(root.length) }));
  });
}

/** True when `path` lies in one of the folders `prefixes` (each ending in `/`). */
const within = (path: string, ...prefixes: string[]) => prefixes.some((p) => path.startsWith(p));
const isTest = (path: string) => path.endsWith("_test.ts");
/**
 * Folders in `gpu/systems/` that are not plug-ins but a part several systems share (the implicit
 * spring network of mass-spring cloth and peridynamics): held to the rule of the files directly in
 * `gpu/systems/`, and importable by every system.
 */
const SHARED_SYSTEM_PARTS = ["gpu/systems/spring-network/"];

/** `gpu/systems/<id>/` or `gpu/handlers/<id>/` of a path, or null (also for files directly in it). */
function pluginFolder(path: string, kind: "systems" | "handlers"): string | null {
  const m = path.match(new RegExp(`^gpu/${kind}/([^/]+)/`));
  return m && !SHARED_SYSTEM_PARTS.includes(m[0]) ? m[0] : null;
}

/** A layering rule: which files it governs, which imports it allows, whether tests are held to it. */
interface Rule {
  name: string;
  appliesTo(from: string): boolean;
  allows(from: string, to: string): boolean;
  /** Sideways rules hold for test files too; "no higher layer" rules do not. */
  tests: boolean;
}

const CORE = "core/";
/** The f64 references: the tests' oracles, imported by tests alone. */
const REFERENCE = "core/reference/";
/** The model the systems share: imported by the references and by production alike. */
const MODEL = "core/model/";
/** The leaf files of core/ (they import nothing) that the model may build on. */
const MODEL_LEAVES = ["core/vec3.ts"];
const RUNTIME = "gpu/runtime/";
const STATE = "gpu/state/";

/** Rules for the folders of one plug-in kind (`gpu/systems/<id>/`, `gpu/handlers/<id>/`). */
function pluginRules(kind: "systems" | "handlers"): Rule[] {
  const one = kind === "systems" ? "system" : "handler";
  return [
    {
      name:
        `gpu/${kind}/<id>/ imports only core/, gpu/runtime/, gpu/state/, its own folder and the interface beside it`,
      appliesTo: (f) => pluginFolder(f, kind) !== null,
      // another folder of the same kind is the sideways rule's
      // and the plug-in interfaces directly in gpu/<kind>/ (system.ts, handler.ts), not the registry
      allows: (_f, t) =>
        within(t, CORE, RUNTIME, STATE, ...SHARED_SYSTEM_PARTS) || pluginFolder(t, kind) !== null ||
        (within(t, `gpu/${kind}/`) && !t.slice(`gpu/${kind}/`.length).includes("/") &&
          !t.endsWith("/registry.ts")),
      tests: false,
    },
    {
      name: `a ${one} never imports another ${one}`,
      appliesTo: (f) => pluginFolder(f, kind) !== null,
      allows: (f, t) => [null, pluginFolder(f, kind)].includes(pluginFolder(t, kind)),
      tests: true,
    },
    {
      name:
        `files directly in gpu/${kind}/ import only core/, gpu/runtime/, gpu/state/, gpu/${kind}/`,
      appliesTo: (f) => within(f, `gpu/${kind}/`) && pluginFolder(f, kind) === null,
      allows: (_f, t) => within(t, CORE, RUNTIME, STATE, `gpu/${kind}/`),
      tests: false,
    },
  ];
}

/** The rules (docs/design.md "Layers"). */
const RULES: Rule[] = [
  {
    name: "core/ imports only core/",
    appliesTo: (f) => within(f, CORE),
    allows: (_f, t) => within(t, CORE),
    tests: false,
  },
  {
    name: "nothing outside core/reference/ imports core/reference/ (tests aside)",
    appliesTo: (f) => !within(f, REFERENCE),
    allows: (_f, t) => !within(t, REFERENCE),
    tests: false,
  },
  {
    // fixtures are the tests' helpers, held to the tests' rule
    name: `core/model/ imports only core/model/, ${MODEL_LEAVES.join(", ")}`,
    appliesTo: (f) => within(f, MODEL) && !f.endsWith("_fixture.ts"),
    allows: (_f, t) => within(t, MODEL) || MODEL_LEAVES.includes(t),
    tests: false,
  },
  {
    name: "core/scene/ never imports core/reference/ (tests included)",
    appliesTo: (f) => within(f, "core/scene/"),
    allows: (_f, t) => !within(t, REFERENCE),
    tests: true,
  },
  {
    name: "gpu/runtime/ imports only core/, gpu/runtime/",
    appliesTo: (f) => within(f, RUNTIME),
    allows: (_f, t) => within(t, CORE, RUNTIME),
    tests: false,
  },
  {
    name: "gpu/state/ imports only core/, gpu/runtime/, gpu/state/",
    appliesTo: (f) => within(f, STATE),
    allows: (_f, t) => within(t, CORE, RUNTIME, STATE),
    tests: false,
  },
  ...pluginRules("systems"),
  ...pluginRules("handlers"),
  ...["gpu/coupling/", "gpu/metrics/"].map((dir): Rule => ({
    name: `${dir} imports only core/, gpu/runtime/, gpu/state/, ${dir}`,
    appliesTo: (f) => within(f, dir),
    allows: (_f, t) => within(t, CORE, RUNTIME, STATE, dir),
    tests: false,
  })),
  {
    name: "scenes/ imports only core/, scenes/",
    appliesTo: (f) => within(f, "scenes/"),
    allows: (_f, t) => within(t, CORE, "scenes/"),
    tests: false,
  },
  {
    name: "bench/ imports only core/, gpu/, scenes/, bench/",
    appliesTo: (f) => within(f, "bench/"),
    // reports/ is the sideways rule's
    allows: (_f, t) => within(t, CORE, "gpu/", "scenes/", "bench/", "reports/"),
    tests: false,
  },
  {
    name: "bench/ never imports reports/",
    appliesTo: (f) => within(f, "bench/"),
    allows: (_f, t) => !within(t, "reports/"),
    tests: true,
  },
  {
    name: "reports/ imports only core/, reports/",
    appliesTo: (f) => within(f, "reports/"),
    // bench/ is the sideways rule's
    allows: (_f, t) => within(t, CORE, "reports/", "bench/"),
    tests: false,
  },
  {
    name: "reports/ never imports bench/",
    appliesTo: (f) => within(f, "reports/"),
    allows: (_f, t) => !within(t, "bench/"),
    tests: true,
  },
  {
    name: "examples/ imports only core/, its own folder",
    appliesTo: (f) => within(f, "examples/"),
    allows: (_f, t) => within(t, CORE, "examples/"),
    tests: true,
  },
  {
    // the findings pages list each figure's claims with their outcomes (issue 49): the docs task
    // evaluates them as the report does, through the reports' public surface, not its parts
    name: "docs/ imports only core/, reports/mod.ts, its own folder",
    appliesTo: (f) => within(f, "docs/"),
    allows: (_f, t) => within(t, CORE, "docs/") || t === "reports/mod.ts",
    tests: true,
  },
  {
    // web/ is the top of the browser bench, as cli.ts is of the Deno one: it may import anything
    name: "nothing outside web/ imports web/",
    appliesTo: (f) => !within(f, "web/"),
    allows: (_f, t) => !within(t, "web/"),
    tests: true,
  },
];

/**
 * The readers of input files with a byte limit (scene files, results files), in core/ because
 * bench/ and reports/ share them: the core/ files that read files, imported only from bench/,
 * reports/ and each other, so the browser bench never bundles them.
 */
const INPUT_READERS = ["core/io/read_text_limited.ts", "core/io/read_results_file.ts"];

/** The folders that hold no plug-in's name (issue 25, item 5): the layers below the plug-ins. */
const NAME_FREE = [RUNTIME, STATE];

/** The plug-in ids: the folders `gpu/systems/<id>/` and `gpu/handlers/<id>/`. */
function pluginIds(): string[] {
  return ["gpu/systems", "gpu/handlers"].flatMap((dir) =>
    [...Deno.readDirSync(new URL(`${dir}/`, ROOT))]
      .filter((e) => e.isDirectory && !SHARED_SYSTEM_PARTS.includes(`${dir}/${e.name}/`))
      .map((e) => e.name)
  ).sort();
}

/** Every `.ts` and `.wgsl` file under `dir` (relative to the root), recursively. */
function sourceFiles(dir: string): string[] {
  return [...Deno.readDirSync(new URL(dir, ROOT))].flatMap((e) => {
    const rel = `${dir}${e.name}`;
    if (e.isDirectory) return sourceFiles(`${rel}/`);
    return e.isFile && /\.(ts|wgsl)$/.test(e.name) ? [rel] : [];
  }).sort();
}

/**
 * Where `source` (code and comments alike) names one of the plug-ins `ids`: the id's words (split
 * at `-`) in any case, joined by `-`, `_`, white space or a camelCase hump, as a whole word or a
 * camelCase part of one: `merge-split`, `merge_split`, `MERGE_SPLIT`, `mergeSplit`,
 * `MergeSplitKernels`, `merge split`, `Akinci`, `akinciCoupling`, `SPH`, `sphForces`. Not a part
 * of a longer lowercase word (`sphere`, `flipped`), nor the words run together in one case
 * (`mergesplit`, the project's name). Returns `line: match` for each.
 */
function pluginNames(source: string, ids: readonly string[]): string[] {
  const anyCase = (w: string) =>
    [...w].map((c) => `[${c.toLowerCase()}${c.toUpperCase()}]`).join("");
  const found: string[] = [];
  for (const id of ids) {
    const words = id.split("-");
    const joined = words.map((w, k) =>
      k === 0
        ? anyCase(w)
        : `(?:[-_\\s]+${anyCase(w)}|(?<=[a-z0-9])${w[0].toUpperCase()}${anyCase(w.slice(1))})`
    ).join("");
    // starts a word or a camelCase part; ends one (no lowercase letter or digit follows)
    const re = new RegExp(`(?:(?<![A-Za-z0-9])|(?<=[a-z0-9])(?=[A-Z]))${joined}(?![a-z0-9])`, "g");
    for (const m of source.matchAll(re)) {
      found.push(`${source.slice(0, m.index).split("\n").length}: ${m[0]}`);
    }
  }
  return found;
}

/** Drops comments, then splits a module into its statements. */
function statements(source: string): string[] {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "")
    .split(";")
    .map((s) => s.trim().replace(/\s+/g, " "))
    .filter((s) => s.length > 0);
}

const RE_EXPORT = /^export (?:type )?(?:\* (?:as \w+ )?|\{[^}]*\} )from ["'][^"']+["']$/;

Deno.test("layering", async (t) => {
  const files = tsFiles();
  const all = edges(files);

  await t.step("the import scanner sees every kind of import, and not comments", () => {
    const src = [
      `import { a } from "./a.ts";`,
      `import type {`,
      `  B,`,
      `  c,`,
      `} from '../b.ts';`,
      `export * from "./c.ts";`,
      `export { type D } from "./d.ts";`,
      `import "./e.ts"; import "./e2.ts";`,
      `const f = await import("./f.ts");`,
      `// import { g } from "./g.ts";`,
      ` * import("./h.ts")`,
      `export function i(x = "j") { return x; } // from "./k.ts"`,
      `import schema from "./l.json" with { type: "json" };`,
    ].join("\n");
    assert.deepEqual(importSpecifiers(src).sort(), [
      "../b.ts",
      "./a.ts",
      "./c.ts",
      "./d.ts",
      "./e.ts",
      "./e2.ts",
      "./f.ts",
      "./l.json",
    ]);
    assert.ok(files.includes("core/result.ts") && files.includes("cli.ts"), "the tree was read");
    assert.ok(!files.some((f) => f.startsWith("node_modules/")), "node_modules/ is skipped");
    assert.ok(files.some((f) => within(f, MODEL) && !isTest(f)), "core/model/ was read");
    assert.ok(all.some((e) => e.from === "cli.ts" && e.to === "bench/main.ts"), "imports resolved");
  });

  for (const rule of RULES) {
    await t.step(rule.name, () => {
      const bad = all.filter((e) =>
        rule.appliesTo(e.from) && (rule.tests || !isTest(e.from)) && !rule.allows(e.from, e.to)
      );
      assert.equal(
        bad.length,
        0,
        `${bad.length} violation(s):\n${
          bad.map((e) => `  ${e.from} → ${e.to} (${rule.name})`).join("\n")
        }`,
      );
    });
  }

  await t.step("the plug-in name scanner finds every spelling of an id, and only those", () => {
    const ids = ["merge-split", "akinci", "sph", "flip", "kernel-repulsion"];
    const src = [
      `import { x } from "../handlers/merge-split/merge_split.ts"; // MergeSplitKernels`,
      ` * merging-and-splitting (the paper), MERGESPLIT_STORAGE_BUFFERS, "mergesplit device"`,
      `const akinciCoupling = new AkinciCoupling(); // SPH and FLIP; sphForces`,
      `fn sphere() {} // flipped; a kernel repulsion; KERNEL_REPULSION; isSph`,
    ].join("\n");
    assert.deepEqual(pluginNames(src, ids).sort(), [
      "1: MergeSplit",
      "1: merge-split",
      "1: merge_split",
      "3: Akinci",
      "3: FLIP",
      "3: SPH",
      "3: akinci",
      "3: sph",
      "4: KERNEL_REPULSION",
      "4: Sph",
      "4: kernel repulsion",
    ]);
    const ids2 = pluginIds();
    for (const id of ["merge-split", "akinci", "penalty", "sph", "mass-spring", "flip"]) {
      assert.ok(ids2.includes(id), `plug-in id ${id} found`);
    }
  });

  await t.step("gpu/runtime/ and gpu/state/ name no plug-in (code and comments)", () => {
    const ids = pluginIds();
    const files = NAME_FREE.flatMap(sourceFiles);
    assert.ok(files.includes("gpu/state/particle_state.wgsl"), "the .wgsl files are read");
    const bad = files.flatMap((f) =>
      pluginNames(Deno.readTextFileSync(new URL(f, ROOT)), ids).map((m) => `  ${f}:${m}`)
    );
    assert.equal(
      bad.length,
      0,
      `${bad.length} plug-in name(s) in ${NAME_FREE.join(", ")} (a plug-in's vocabulary lives ` +
        `in its own folder; say it generically, or move it there):\n${bad.join("\n")}`,
    );
  });

  await t.step("gpu/, core/ and scenes/ read no file (the browser bench bundles them)", () => {
    const read = /\bDeno\.(readTextFile|readFile|open)(Sync)?\(/;
    const bad = files.filter((f) =>
      within(f, "gpu/", CORE, "scenes/") && !isTest(f) && !f.endsWith("_fixture.ts") &&
      !INPUT_READERS.includes(f) && read.test(Deno.readTextFileSync(new URL(f, ROOT)))
    );
    assert.deepEqual(bad, [], "import WGSL and data as text or JSON modules instead");
    assert.ok(read.test('Deno.readTextFileSync(new URL("./x.wgsl", import.meta.url))'));
    // the readers of input files, shared by bench/ and reports/, stay out of the bundle
    const reach = all.filter((e) =>
      INPUT_READERS.includes(e.to) && !isTest(e.from) && !INPUT_READERS.includes(e.from) &&
      !within(e.from, "bench/", "reports/")
    );
    assert.deepEqual(reach.map((e) => `${e.from} → ${e.to}`), [], "only bench/ and reports/");
  });

  await t.step("no folder holds more than 20 modules at its top (wings, not a flat folder)", () => {
    const modules = new Map<string, number>();
    for (const f of files.filter((f) => !isTest(f) && !f.endsWith("_fixture.ts"))) {
      const dir = f.includes("/") ? f.slice(0, f.lastIndexOf("/")) : ".";
      modules.set(dir, (modules.get(dir) ?? 0) + 1);
    }
    const crowded = [...modules].filter(([, n]) => n > MAX_MODULES_PER_FOLDER);
    assert.deepEqual(
      crowded.map(([dir, n]) => `${dir}: ${n} modules`),
      [],
      `split these folders by job (at most ${MAX_MODULES_PER_FOLDER} modules each)`,
    );
  });

  await t.step("every mod.ts only re-exports", () => {
    const mods = files.filter((f) => f === "mod.ts" || f.endsWith("/mod.ts"));
    assert.ok(mods.includes("mod.ts") && mods.includes("core/mod.ts"));
    const bad = mods.flatMap((f) =>
      statements(Deno.readTextFileSync(new URL(f, ROOT)))
        .filter((s) => !RE_EXPORT.test(s))
        .map((s) => `  ${f}: ${s.slice(0, 120)} (mod.ts only re-exports)`)
    );
    assert.equal(
      bad.length,
      0,
      `${bad.length} statement(s) that are not re-exports:\n${bad.join("\n")}`,
    );
  });
});
