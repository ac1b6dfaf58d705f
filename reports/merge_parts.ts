/**
 * What `deno task report --merge` checks before it reads several results files as one run: the
 * parts must be parts of one run, so two parts that share no case list (whose hash covers the
 * cases, their steps, scale, setup and configuration, and the adapter: `bench/cases/shard.ts`),
 * or that name one list but ran on different adapters (records made before the adapter was in the
 * hash), are refused, naming them; parts made by different commits are merged, and named.
 *
 * @module
 */
import type { CaseRecord } from "../core/result.ts";
import { adapterName } from "./case_key.ts";

/** A results file to merge: its path and its records. */
export interface MergePart {
  file: string;
  records: readonly CaseRecord[];
}

/** `part.jsonl (list 3f…, 200 steps, tiny, on llvmpipe (gl))`: a part as the refusal names it. */
function partText(part: MergePart): string {
  const listed = part.records.filter((r) => r.case);
  const lists = [...new Set(listed.map((r) => r.case!.list))].join(", ") || "no case list";
  const steps = [...new Set(part.records.map((r) => r.steps))].join("/");
  const scales = [...new Set(part.records.map((r) => r.scale))].join("/");
  const adapters = [...new Set(part.records.map(adapterName).filter((a) => a))].join(", ");
  return `${part.file} (list ${lists}, ${steps} steps, ${scales}, on ${adapters || "no adapter"})`;
}

/** The case lists the records of `part` name. */
function listsOf(part: MergePart): Set<string> {
  return new Set(part.records.flatMap((r) => (r.case ? [r.case.list] : [])));
}

/** The adapters the records of `part` in the list `list` ran on (a record without one left out). */
function adaptersIn(part: MergePart, list: string): Set<string> {
  return new Set(
    part.records.filter((r) => r.case?.list === list).map(adapterName).filter((a) => a),
  );
}

/** Whether the parts `a` and `b` belong to one run (see the module's header). */
function oneRun(a: MergePart, b: MergePart): boolean {
  const la = listsOf(a), lb = listsOf(b);
  if (!la.size || !lb.size) return true; // records made before the list was kept: nothing to tell
  const shared = [...la].filter((l) => lb.has(l));
  if (!shared.length) return false;
  return shared.every((l) => {
    const all = new Set([...adaptersIn(a, l), ...adaptersIn(b, l)]);
    return all.size <= 1;
  });
}

/**
 * Why `parts` cannot be merged as one run (two parts of different case lists, or of one list on
 * different adapters), naming the first two such parts and what to do; null when they can.
 */
export function mergeRefusal(parts: readonly MergePart[]): string | null {
  for (let i = 0; i < parts.length; i++) {
    for (let j = i + 1; j < parts.length; j++) {
      if (oneRun(parts[i], parts[j])) continue;
      return `--merge: ${partText(parts[i])} and ${partText(parts[j])} are not parts of one run ` +
        `(their case lists differ in cases, steps, scale, setup or adapter); merge the parts of ` +
        `one run, or leave out --merge to compare them`;
    }
  }
  return null;
}

/** The commit a record was made by (`env.git.commit`), `dirty` marked; "unknown" without one. */
function commitOf(r: CaseRecord): string {
  const git = r.env?.git;
  if (!git?.commit) return "unknown";
  return `${git.commit.slice(0, 12)}${git.dirty ? " (dirty)" : ""}`;
}

/**
 * "parts from different commits: a.jsonl (commit 0123456789ab), b.jsonl (commit fedcba987654)"
 * when the parts' records were made by more than one commit; null when one made them all.
 */
export function mixedCommits(parts: readonly MergePart[]): string | null {
  const byPart = parts.map((p) => ({
    file: p.file,
    commits: [...new Set(p.records.map(commitOf))],
  }));
  const all = new Set(byPart.flatMap((p) => p.commits));
  if (all.size <= 1) return null;
  return `parts from different commits: ${
    byPart.map((p) => `${p.file} (commit ${p.commits.join(", ")})`).join(", ")
  }; their cases may differ in code as well as in results`;
}
