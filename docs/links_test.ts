/**
 * The documentation holds together: every relative link in `README.md` and `docs/**.md` names a
 * file or folder of the repository, and a link with `#anchor` names a heading of its target by
 * GitHub's heading slug; the README stays short enough to read in five minutes (at most 120 lines: the status, the two
 * commands, what a run writes, where to go next).
 *
 * @module
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);
/** The README's limit in lines (issue 49: a newcomer reads it in five minutes). */
export const README_MAX_LINES = 120;

/** `README.md` and every `.md` file under `docs/`, relative to the root. */
function markdownFiles(): string[] {
  const out = ["README.md"];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(new URL(dir, ROOT))) {
      if (e.isDirectory) walk(`${dir}${e.name}/`);
      else if (e.isFile && e.name.endsWith(".md")) out.push(`${dir}${e.name}`);
    }
  };
  walk("docs/");
  return out.sort();
}

/** The text outside fenced code blocks and inline code spans. */
function proseOf(markdown: string): string {
  let fenced = false;
  const lines: string[] = [];
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    lines.push(fenced ? "" : line);
  }
  return lines.join("\n").replace(/`[^`\n]*`/g, "");
}

/** The targets of the inline links and images of `markdown`, in order. */
export function linkTargets(markdown: string): string[] {
  const out: string[] = [];
  for (const m of proseOf(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    out.push(m[1]);
  }
  return out;
}

/** GitHub's slug of a heading's text: lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // links and images: their text
    .replace(/[`*]/g, "") // code spans and emphasis marks
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** The anchors of a markdown file's headings (`#` lines outside code), duplicates numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const slug = githubSlug(m[1]);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** What is wrong with one link of `file` (relative to the root), or undefined when it resolves. */
function brokenLink(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: …
  const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined];
  const url = pathPart === "" ? new URL(file, ROOT) : new URL(pathPart, new URL(file, ROOT));
  if (!url.href.startsWith(ROOT.href)) return `${target}: outside the repository`;
  let stat: Deno.FileInfo;
  try {
    stat = Deno.statSync(url);
  } catch {
    return `${target}: no such file`;
  }
  if (anchor === undefined || anchor === "") return undefined;
  if (!stat.isFile || !url.pathname.endsWith(".md")) return `${target}: an anchor of a non-page`;
  const anchors = headingAnchors(Deno.readTextFileSync(url));
  return anchors.has(decodeURIComponent(anchor)) ? undefined : `${target}: no heading #${anchor}`;
}

Deno.test("the heading slug follows GitHub's rule", () => {
  assert.equal(
    githubSlug("First rows on a GPU: NVIDIA H100 80GB HBM3"),
    "first-rows-on-a-gpu-nvidia-h100-80gb-hbm3",
  );
  assert.equal(
    githubSlug("Silling & Askari's compression term"),
    "silling--askaris-compression-term",
  );
  assert.equal(githubSlug("The core API (`mod.ts`)"), "the-core-api-modts");
  assert.equal(
    githubSlug("On a machine with a GPU: `deno task gpu-check`"),
    "on-a-machine-with-a-gpu-deno-task-gpu-check",
  );
  assert.deepEqual([...headingAnchors("# A\n## A\n```\n# B\n```\n## a")], ["a", "a-1", "a-2"]);
  assert.deepEqual(linkTargets("[x](a.md) `[y](b.md)` ![p](c.png)\n```\n[z](d.md)\n```"), [
    "a.md",
    "c.png",
  ]);
});

Deno.test("every relative link in README.md and docs/ resolves, with its anchor", () => {
  const broken: string[] = [];
  const files = markdownFiles();
  assert.ok(files.length > 10, `found the pages: ${files.join(", ")}`);
  for (const file of files) {
    for (const target of linkTargets(Deno.readTextFileSync(new URL(file, ROOT)))) {
      const why = brokenLink(file, target);
      if (why) broken.push(`${file}: ${why}`);
    }
  }
  assert.deepEqual(broken, []);
});

Deno.test(`the README is at most ${README_MAX_LINES} lines`, () => {
  const lines = Deno.readTextFileSync(new URL("README.md", ROOT)).trimEnd().split("\n").length;
  assert.ok(
    lines <= README_MAX_LINES,
    `README.md has ${lines} lines (at most ${README_MAX_LINES})`,
  );
});
