/**
 * `--shard i/n`: the i-th of n parts of a run's case list, for array jobs (Slurm job arrays,
 * Kubernetes indexed Jobs, a CI matrix). Part i holds the cases at positions i−1, i−1+n, … of
 * the whole list (round robin, so every part gets cases of every scale of a sweep); the parts are
 * disjoint, their union is the list, and each case records its position, the list's length and a
 * hash of the list, so that a merged report can name the missing and duplicated cases.
 *
 * @module
 */
import type { Shard } from "../cli.ts";
import type { CaseSpec } from "./suite.ts";
import { DEFAULT_COUPLING } from "../../gpu/coupling/coupling.ts";

/** Where a case sits in the whole (unsharded) case list of a run. */
export interface CasePlace {
  /** Its position in the whole list, from 0. */
  index: number;
  /** The whole list's length. */
  of: number;
  /** SHA-256 (hex, first 16 digits) of the whole list's case labels: parts of one run share it. */
  list: string;
  /** The shard that ran it, `i/n`, or null for an unsharded run. */
  shard: string | null;
  /**
   * Positions of the list (of this shard's) whose records the results file already held when a
   * `--resume` run began: an earlier run made them, so the run did not (absent: none).
   */
  held?: number[];
}

/**
 * The label of a case in the list hash: scene, scale, handler, seed, parameters, sweep values,
 * coupling, setup and, where given, the case's configuration hash (`bench/runner.ts`
 * `specConfigHash`: its steps, warm-up, repetitions and resolved scene).
 */
export function caseListLabel(c: CaseSpec, configHash?: string): string {
  return JSON.stringify([
    c.scene.id,
    c.scene.scale,
    c.sceneSource,
    c.handler,
    c.scene.seed,
    c.params ?? {},
    c.sweep ?? {},
    c.coupling ?? DEFAULT_COUPLING,
    c.setup ?? null,
    configHash ?? null,
  ]);
}

/** What identifies a run's case list beside its cases: their configuration hashes, the adapter. */
export interface ListIdentity {
  /** Each case's configuration hash, in the list's order. */
  hashes?: readonly string[];
  /** The adapter the run uses, as `core/result.ts` `adapterName` names it. */
  adapter?: string;
}

/**
 * The cases of `shard` (all of them without one), each with its {@link CasePlace} in the whole
 * list, whose hash covers `identity` too: parts run with other steps, setups or on another adapter
 * name another list.
 */
export async function selectShard(
  cases: readonly CaseSpec[],
  shard: Shard | null,
  identity: ListIdentity = {},
): Promise<{ spec: CaseSpec; place: CasePlace }[]> {
  const labels = cases.map((c, k) => caseListLabel(c, identity.hashes?.[k]));
  const text = [...labels, ...(identity.adapter ? [`adapter ${identity.adapter}`] : [])];
  const bytes = new TextEncoder().encode(text.join("\n"));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const list = [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const label = shard ? `${shard.index}/${shard.count}` : null;
  return cases.flatMap((spec, index) =>
    !shard || index % shard.count === shard.index - 1
      ? [{ spec, place: { index, of: cases.length, list, shard: label } }]
      : []
  );
}
