/**
 * Which cases of a run's whole case list a set of records holds: for the parts of a sharded run
 * (`--shard i/n`, merged with `deno task report --merge`), the positions of the list that no
 * record holds (a part that did not run, or was lost) and those held more than once (a part run
 * twice). Records carry their place in the list (`case`: position, the list's length, a hash of
 * the list, the shard, and under `--resume` the positions an earlier run's records held, which
 * count as present); records without it (unsharded runs before it was recorded) are left out.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";

/** The coverage of one case list. */
export interface CaseCoverage {
  /** The list's hash. */
  list: string;
  /** Cases in the whole list. */
  of: number;
  /** Distinct positions present (an earlier run's, under `--resume`, included). */
  present: number;
  /** Of `present`, the positions an earlier run recorded (`--resume`: `case.held`). */
  earlier: number;
  /** Positions (from 0) no record holds, each with the shard (`i/n`) that should have run it. */
  missing: { index: number; shard: string | null }[];
  /** Positions held by more than one record, with the records' labels. */
  duplicated: { index: number; records: string[] }[];
}

/** The coverage of every case list the records name, in first-seen order. */
export function caseCoverage(records: readonly CaseRecord[]): CaseCoverage[] {
  const lists = new Map<
    string,
    { of: number; count: number | null; at: Map<number, string[]>; held: Set<number> }
  >();
  for (const r of records) {
    const c = r.case;
    if (!c) continue;
    const l = lists.get(c.list) ??
      { of: c.of, count: null as number | null, at: new Map<number, string[]>(), held: new Set() };
    if (c.shard) l.count = Number(c.shard.split("/")[1]);
    for (const k of c.held ?? []) l.held.add(k);
    const label = `${r.scene} × ${r.handler} (${r.scale})${c.shard ? `, shard ${c.shard}` : ""}`;
    l.at.set(c.index, [...(l.at.get(c.index) ?? []), label]);
    lists.set(c.list, l);
  }
  return [...lists].map(([list, l]) => ({
    list,
    of: l.of,
    present: new Set([...l.at.keys(), ...l.held]).size,
    earlier: [...l.held].filter((k) => !l.at.has(k)).length,
    missing: Array.from({ length: l.of }, (_, index) => index).filter((k) =>
      !l.at.has(k) && !l.held.has(k)
    ).map((index) => ({ index, shard: l.count ? `${(index % l.count) + 1}/${l.count}` : null })),
    duplicated: [...l.at].filter(([, rs]) => rs.length > 1).map(([index, rs]) => ({
      index,
      records: rs,
    })),
  }));
}

/** One line per case list: complete, or what is missing and duplicated (positions from 1). */
export function coverageLines(coverage: readonly CaseCoverage[]): string[] {
  return coverage.map((c) => {
    const earlier = c.earlier ? ` (${c.earlier} recorded by an earlier run: --resume)` : "";
    const head = `case list ${c.list}: ${c.present} of ${c.of} cases${earlier}`;
    if (!c.missing.length && !c.duplicated.length) return `${head}, complete`;
    const parts: string[] = [];
    if (c.missing.length) {
      const shards = [...new Set(c.missing.map((m) => m.shard).filter((s) => s))];
      parts.push(
        `missing #${c.missing.map((m) => m.index + 1).join(", #")}${
          shards.length ? ` (shard ${shards.join(", ")})` : ""
        }`,
      );
    }
    if (c.duplicated.length) {
      parts.push(
        `duplicated ${
          c.duplicated.map((d) => `#${d.index + 1} (${d.records.length} records: ${d.records[0]})`)
            .join(", ")
        }`,
      );
    }
    return `${head}; ${parts.join("; ")}`;
  });
}
