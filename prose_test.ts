/**
 * Code says what and why, not how it came to be: no source file (`.ts` outside tests, `.wgsl`)
 * names an issue of the tracker ("issue 24"); the reason a choice was made is written out instead.
 * Tests may name the issue whose defect they guard.
 *
 * @module
 */
import assert from "node:assert/strict";

/** Folders (relative to the root) not searched. */
const SKIP = new Set(["node_modules", "reports/out", "web/dist", ".git"]);

/** The source files of the tree: `.ts` but tests, and `.wgsl`. */
function sources(dir = ""): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(new URL(`./${dir}`, import.meta.url))) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory) {
      if (!SKIP.has(rel) && !e.name.startsWith(".")) out.push(...sources(rel));
    } else if (
      (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) || e.name.endsWith(".wgsl")
    ) {
      out.push(rel);
    }
  }
  return out.sort();
}

/** "issue 24", "Issues 46", "issue #57": a tracker's issue named by number. */
const ISSUE_NUMBER = /\bissues? #?\d+/i;

Deno.test("no source file names an issue of the tracker", () => {
  const found = sources().flatMap((f) =>
    Deno.readTextFileSync(new URL(`./${f}`, import.meta.url)).split("\n")
      .map((line, k) => ({ f, k, line }))
      .filter(({ line }) => ISSUE_NUMBER.test(line))
      .map(({ f, k, line }) => `${f}:${k + 1}: ${line.trim()}`)
  );
  assert.deepEqual(found, []);
});

Deno.test("the pattern finds what it should, and not the word alone", () => {
  for (const s of ["(issue 24)", "Issue 48's budget", "issues 46 and 57", "issue #57"]) {
    assert.match(s, ISSUE_NUMBER);
  }
  for (const s of ["an issue of the tracker", "tissue 24", "reissue"]) {
    assert.doesNotMatch(s, ISSUE_NUMBER);
  }
});
