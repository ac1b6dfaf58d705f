/**
 * The cases a run places in its output folder: each with its place in the whole case list, whose
 * hash names everything that makes the list (`shard.ts`: the cases, their configuration hashes,
 * setups and the adapter), and under `--resume` only those the folder's results file does not yet
 * hold. A record counts as held when an ok or unstable record carries the case's configuration
 * hash, setup and adapter; a results file that holds cases of another list (another scene set,
 * steps, setup or adapter) is refused, naming them, so a resumed run never mixes two runs.
 *
 * @module
 */
import { join } from "node:path";
import {
  adapterName,
  type AdapterRecord,
  type CaseRecord,
  skippedLineWarning,
} from "../../core/result.ts";
import { readResultsFile } from "../../core/io/read_results_file.ts";
import type { BenchOptions } from "../cli.ts";
import { RESULTS_NAME } from "../output/output_dir.ts";
import { specConfigHash } from "../runner.ts";
import { selectShard } from "./shard.ts";
import { type CaseSpec, UsageError } from "./suite.ts";

/** A case of the run with its place in the whole list. */
export type PlacedCase = Awaited<ReturnType<typeof selectShard>>[number];

/** What a run's options say about its cases: the protocol, the shard, `--resume`. */
export type PlaceOptions = Pick<
  BenchOptions,
  "steps" | "duration" | "warmup" | "repeat" | "shard" | "resume"
>;

/** The identity `--resume` matches a case by: its configuration hash, setup and adapter. */
function resumeKey(configHash: string, setup: string | undefined, adapter: string): string {
  return `${configHash}|${setup ?? ""}|${adapter}`;
}

/**
 * The cases of `cases` this run places in `out` (its shard's, each with its place in the whole
 * list, on the adapter `adapter`); under `--resume` only those `out`'s results file does not yet
 * hold, each naming the positions an earlier run recorded (`case.held`). Throws a
 * {@link UsageError} when that file holds cases of another list.
 */
export async function placeCases(
  cases: readonly CaseSpec[],
  opts: PlaceOptions,
  run: { out: string; adapter: AdapterRecord },
): Promise<PlacedCase[]> {
  const hashes = await Promise.all(cases.map((c) => specConfigHash(c, opts)));
  const adapter = adapterName({ env: { adapter: run.adapter } });
  const placed = await selectShard(cases, opts.shard, { hashes, adapter });
  if (!opts.resume) return placed;
  const file = join(run.out, RESULTS_NAME);
  const records = recordsIn(file);
  const keys = cases.map((c, k) => resumeKey(hashes[k], c.setup, adapter));
  refuseForeign(file, records, new Set(keys), adapter);
  const done = new Set(
    records.filter((r) => r.status === "ok" || r.status === "unstable")
      .map((r) => resumeKey(r.configHash, r.setup, adapterName(r))),
  );
  const held = placed.filter((p) => done.has(keys[p.place.index])).map((p) => p.place.index);
  const left = placed.filter((p) => !done.has(keys[p.place.index]));
  console.error(`--resume: ${held.length} of ${placed.length} cases already recorded in ${file}`);
  // each record names the positions an earlier run recorded, so a report sees the list whole
  return held.length ? left.map((p) => ({ ...p, place: { ...p.place, held } })) : left;
}

/**
 * The records of the results file `file` (none when it does not exist yet), each line that breaks
 * the schema named on stderr: its case is not held, so it runs again.
 */
function recordsIn(file: string): CaseRecord[] {
  try {
    const { records, skipped } = readResultsFile(file);
    for (const s of skipped) {
      console.error(`--resume: ${skippedLineWarning(file, s)}; its case runs again`);
    }
    return records;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw new UsageError(
      `--resume: cannot read ${file}: ${(e as Error).message}; give another --out`,
    );
  }
}

/** `fig4-fluid-cloth × merge-split (tiny, 200 steps, setup paper) on llvmpipe (gl)`. */
function recordText(r: CaseRecord): string {
  const setup = r.setup ? `, setup ${r.setup}` : "";
  return `${r.scene} × ${r.handler} (${r.scale}, ${r.steps} steps${setup}) on ${
    adapterName(r) || "no adapter"
  }`;
}

/**
 * Throws a {@link UsageError} when `file` holds a record of a case that is not one of `keys` (this
 * run's whole list, on `adapter`): a record without an adapter (a case that failed before its
 * device) is matched by its hash and setup alone.
 */
function refuseForeign(
  file: string,
  records: readonly CaseRecord[],
  keys: ReadonlySet<string>,
  adapter: string,
): void {
  const foreign = records.filter((r) =>
    !keys.has(resumeKey(r.configHash, r.setup, adapterName(r) || adapter))
  );
  if (!foreign.length) return;
  const lists = [...new Set(foreign.map((r) => r.case?.list ?? "unnamed"))];
  throw new UsageError(
    `--resume: ${file} holds ${foreign.length} case(s) that are not in this run's case list ` +
      `(list ${lists.join(", ")}; ${recordText(foreign[0])}): another scene set, steps, setup ` +
      `or adapter (this run: ${adapter}); resume with the options of the run that made them, ` +
      `or give another --out`,
  );
}
