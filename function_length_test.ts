/**
 * No function longer than {@link MAX_LINES} lines (issue 49): every function of every non-test
 * `.ts` file of the tree, parsed with the TypeScript compiler's parser (functions, methods,
 * constructors, accessors, arrow functions and function expressions), measured from its first line
 * to its last. A long function is split by job into named functions, each saying what and why.
 *
 * Not measured: test files (`*_test.ts`), `node_modules/`, `reports/out/`, `web/dist/`, the f64
 * references (`core/reference/`: each follows the paper's algorithm as written, one step after
 * another, so that it reads against the paper). A failure names each function over the limit as
 * `file:line name (N lines)`.
 *
 * @module
 */
import assert from "node:assert/strict";
import ts from "typescript";

/** The most lines a function may span, its first line to its last. */
export const MAX_LINES = 120;

const ROOT = new URL("./", import.meta.url);
/** Folders (relative to the root) not searched. */
const SKIP_DIRS = new Set(["node_modules", "reports/out", "web/dist", ".git", "core/reference"]);
/** Files (relative to the root) not measured, by name pattern. */
const SKIP_FILES = [/_test\.ts$/];

/** Every measured `.ts` file of the tree, as a path relative to the root with `/` separators. */
function measuredFiles(dir = ""): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(new URL(dir || ".", ROOT))) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory) {
      if (!SKIP_DIRS.has(rel) && !e.name.startsWith(".")) out.push(...measuredFiles(rel));
    } else if (e.isFile && rel.endsWith(".ts") && !SKIP_FILES.some((p) => p.test(rel))) {
      out.push(rel);
    }
  }
  return out.sort();
}

/** One function of a file: where it starts, what it is called and how many lines it spans. */
export interface FunctionSpan {
  /** 1-based line of its first character. */
  line: number;
  name: string;
  lines: number;
}

/** A readable name for a function node: its own name, or the name it is bound to, or its kind. */
function functionName(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) {
    const cls = node.parent;
    return `${cls.name?.getText(file) ?? "class"}.constructor`;
  }
  if (node.name) {
    const own = node.name.getText(file);
    const cls = node.parent;
    return ts.isClassLike(cls) && cls.name ? `${cls.name.getText(file)}.${own}` : own;
  }
  const parent = node.parent;
  if (
    parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent)) &&
    parent.name
  ) {
    return parent.name.getText(file);
  }
  return ts.isArrowFunction(node) ? "(arrow function)" : "(function expression)";
}

/** Every function of `source` (parsed as `path`), nested ones included, in source order. */
export function functionSpans(path: string, source: string): FunctionSpan[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true);
  const out: FunctionSpan[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) ||
        ts.isConstructorDeclaration(node) || ts.isGetAccessorDeclaration(node) ||
        ts.isSetAccessorDeclaration(node) || ts.isArrowFunction(node) ||
        ts.isFunctionExpression(node)) && node.body
    ) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ line: first + 1, name: functionName(node, file), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

Deno.test("functionSpans measures every kind of function, first line to last", () => {
  const source = [
    "function a() {", //                     1
    "  const b = () => 1;", //               2
    "  return b;", //                        3
    "}", //                                  4
    "class C {", //                          5
    "  constructor() {", //                  6
    "    this.x = function () {", //         7
    "      return 2;", //                    8
    "    };", //                             9
    "  }", //                                10
    "  get y() { return 1; }", //            11
    "  m(): void {}", //                     12
    "}", //                                  13
    "declare function d(): void;", //        14
  ].join("\n");
  assert.deepEqual(functionSpans("x.ts", source), [
    { line: 1, name: "a", lines: 4 },
    { line: 2, name: "b", lines: 1 },
    { line: 6, name: "C.constructor", lines: 5 },
    { line: 7, name: "(function expression)", lines: 3 },
    { line: 11, name: "C.y", lines: 1 },
    { line: 12, name: "C.m", lines: 1 },
  ]);
});

Deno.test(`no function longer than ${MAX_LINES} lines`, () => {
  const long = measuredFiles().flatMap((path) =>
    functionSpans(path, Deno.readTextFileSync(new URL(path, ROOT)))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${path}:${f.line} ${f.name} (${f.lines} lines)`)
  );
  assert.deepEqual(long, [], `functions over ${MAX_LINES} lines:\n  ${long.join("\n  ")}`);
});
