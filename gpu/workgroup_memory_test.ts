/**
 * Workgroup memory per WGSL file, checked on the source of every kernel under `gpu/`: at most
 * {@link WORKGROUP_BYTES_MAX} bytes of `var<workgroup>` declarations in one file. WGSL zeroes
 * workgroup memory at the start of every workgroup, and SwiftShader compiles that initialisation (as
 * Deno's naga emits it) in time proportional to the memory's size, used or not (measured with a
 * kernel that touches one element): a single-workgroup reduction with three `array<vec4f, 256>`
 * and an `array<f32, 256>` took 2.4 s to compile there and
 * 0.3 s once folded into 16 slots (`gpu/metrics/fluid_metrics.wgsl`), and six of the 93 pipelines
 * of a Fig. 4 case took 7.8 of its 11 s. A reduction over a large workgroup folds its partial results
 * into a few slots first (`gpu/metrics/metrics.wgsl`, `step_budget.wgsl`).
 *
 * @module
 */
import assert from "node:assert/strict";

/**
 * The most workgroup memory one WGSL file may declare (bytes): 2 KiB, twice the largest today (the
 * merge-split grouping's 1,040: a 256-entry u32 scan and four words); the reductions that took
 * SwiftShader seconds to compile declared 4–15 KiB.
 */
const WORKGROUP_BYTES_MAX = 2048;

/** Bytes (size rounded up to its alignment, as an array element) of the WGSL types used here. */
const TYPE_BYTES: Readonly<Record<string, number>> = {
  f32: 4,
  u32: 4,
  i32: 4,
  "atomic<u32>": 4,
  "atomic<i32>": 4,
  vec2f: 8,
  vec2u: 8,
  vec2i: 8,
  vec3f: 16,
  vec3u: 16,
  vec3i: 16,
  vec4f: 16,
  vec4u: 16,
  vec4i: 16,
};

/**
 * The workgroup variables of WGSL `source` and their sizes in bytes. Array lengths are literals
 * or `const`/`override` u32 values of the same source (an override by its default); throws naming
 * the variable when a type or a length cannot be sized.
 */
function workgroupVariables(source: string, file: string): { name: string; bytes: number }[] {
  const values = new Map<string, number>();
  for (const m of source.matchAll(/^\s*(?:const|override)\s+(\w+)\s*:\s*u32\s*=\s*(\d+)u?\s*;/gm)) {
    values.set(m[1], Number(m[2]));
  }
  const size = (type: string, name: string): number => {
    const t = type.replace(/\s+/g, "");
    const array = /^array<(.+),(\w+)>$/.exec(t);
    if (array) {
      const n = /^\d+u?$/.test(array[2]) ? parseInt(array[2]) : values.get(array[2]);
      if (n === undefined) {
        throw new Error(`${file}: ${name}'s length ${array[2]} is no u32 const or override here`);
      }
      return n * size(array[1], name);
    }
    const bytes = TYPE_BYTES[t];
    if (bytes === undefined) throw new Error(`${file}: ${name}: size of ${type} unknown here`);
    return bytes;
  };
  return [...source.matchAll(/^\s*var<workgroup>\s+(\w+)\s*:\s*([^;]+);/gm)].map((m) => ({
    name: m[1],
    bytes: size(m[2], m[1]),
  }));
}

/** Every `.wgsl` file under `gpu/`, relative to the repository root. */
function wgslFiles(dir = "gpu"): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(new URL(`./${dir.slice("gpu".length)}`, import.meta.url))) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...wgslFiles(rel));
    else if (e.name.endsWith(".wgsl")) out.push(rel);
  }
  return out.sort();
}

Deno.test("workgroup memory: sized from the source, consts and override defaults", () => {
  const vars = workgroupVariables(
    `const WG: u32 = 256u;\noverride RED: u32 = 16u;\n` +
      `var<workgroup> a: array<vec4f, RED>;\nvar<workgroup> b: array<f32, WG>;\n` +
      `var<workgroup> c: atomic<u32>;\nvar<workgroup> d: array<vec3f, 4>;`,
    "fixture.wgsl",
  );
  assert.deepEqual(vars, [
    { name: "a", bytes: 256 },
    { name: "b", bytes: 1024 },
    { name: "c", bytes: 4 },
    { name: "d", bytes: 64 },
  ]);
  assert.throws(
    () => workgroupVariables("override N: u32;\nvar<workgroup> a: array<f32, N>;", "x.wgsl"),
    /x\.wgsl: a's length N is no u32 const or override here/,
  );
});

Deno.test(`workgroup memory: at most ${WORKGROUP_BYTES_MAX} bytes in every gpu/ WGSL file`, () => {
  const files = wgslFiles();
  const totals = new Map<string, number>();
  for (const f of files) {
    const source = Deno.readTextFileSync(new URL(`../${f}`, import.meta.url));
    const vars = workgroupVariables(source, f);
    if (vars.length) totals.set(f, vars.reduce((s, v) => s + v.bytes, 0));
  }
  // the parser finds the reductions it is about (a guard against a test that checks nothing)
  // sums, maxima, counts (vec4), penetration and flung speed (vec2f), fluid (vec3f: 16), fast
  assert.equal(totals.get("gpu/metrics/metrics.wgsl"), 16 * (16 + 16 + 16 + 8 + 16 + 4));
  assert.equal(totals.get("gpu/metrics/fluid_metrics.wgsl"), 16 * (16 + 4 + 16 + 16));
  assert.equal(totals.get("gpu/metrics/step_budget.wgsl"), 16 * 16);
  const over = [...totals].filter(([, bytes]) => bytes > WORKGROUP_BYTES_MAX);
  assert.deepEqual(
    over,
    [],
    `workgroup memory over ${WORKGROUP_BYTES_MAX} bytes (fold a reduction into fewer slots): ` +
      over.map(([f, b]) => `${f} ${b} B`).join(", "),
  );
});
