/**
 * How the claims find and check the records they read: a case at the scene's own parameters, the
 * records of one sweep, a family of scenes, and the "not run" results naming what is missing.
 * Shared by the claims (`claims.ts`) and their earlier definitions (`earlier_claims.ts`).
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import type { ClaimResult } from "./claim.ts";
import { finished, SPIKE_FIELD, summaryMetric, usable } from "./case_status.ts";

/** The records of `scene` × `handler` whose only sweep key is `key` (one sweep, nothing else varied). */
export function sweptOnly(
  records: readonly CaseRecord[],
  options: { scene: string; handler: string; key: string },
): CaseRecord[] {
  return records.filter((r) => {
    const keys = Object.keys(r.sweep ?? {});
    return r.scene === options.scene && r.handler === options.handler && keys.length === 1 &&
      keys[0] === options.key;
  });
}

/**
 * A claim over the scenes of a family that were run: `test` gets the usable records of `handler`
 * per scene (missing or unusable ones left out); "not run" when none is usable.
 */
export function overScenes(
  scenes: readonly string[],
  handler: string,
  test: (found: CaseRecord[]) => { ok: boolean; measured: string },
  options: { usableOnly?: boolean; fields?: readonly string[] } = {},
): (records: readonly CaseRecord[]) => ClaimResult {
  return (records) => {
    const found = scenes.map((s) => findCase(records, s, handler)).filter((r) =>
      options.usableOnly === false
        ? r !== undefined && (r.status === "ok" || r.status === "unstable")
        : usable(r)
    ) as CaseRecord[];
    for (const field of options.fields ?? []) {
      const gap = found.length ? lacking(found, field) : null;
      if (gap) return gap;
    }
    if (!found.length) {
      return { status: "not run", measured: `no usable ${handler} case of ${scenes.join(", ")}` };
    }
    const t = test(found);
    return { status: t.ok ? "reproduced" : "not reproduced", measured: t.measured };
  };
}

/**
 * The record of `scene` × `handler` at the scene's own parameters that ran longest in simulated
 * time (the last of those), or undefined: a case of a parameter sweep (`sweep` set) ran at other
 * values and is read only by the sweep claims. A shorter run of the same case (a scale stage of
 * `deno task gpu-check`, a `--steps 200` check) stops before the outcome a claim reads, so it
 * never stands in for the whole run beside another handler's whole run.
 */
export function findCase(
  records: readonly CaseRecord[],
  scene: string,
  handler: string,
): CaseRecord | undefined {
  let best: CaseRecord | undefined;
  for (const r of records) {
    if (r.scene !== scene || r.handler !== handler || Object.keys(r.sweep ?? {}).length) continue;
    if (!best || r.steps * r.dt >= best.steps * best.dt) best = r;
  }
  return best;
}

/** A summary metric as a number (NaN when missing). */
export const metric = summaryMetric;

/** "not run" for a missing case or one without metrics, naming which and why. */
export function missing(
  needed: ReadonlyArray<[string, string]>,
  found: ReadonlyArray<CaseRecord | undefined>,
): ClaimResult | null {
  const why: string[] = [];
  needed.forEach(([scene, handler], k) => {
    const r = found[k];
    if (!r) why.push(`${scene} × ${handler} absent`);
    else if (!r.metrics) why.push(`${scene} × ${handler} ${r.status}, no metrics`);
  });
  return why.length ? { status: "not run", measured: why.join("; ") } : null;
}

/**
 * "not run" unless every needed case finished `ok` with metrics and did not explode, naming each
 * that is absent, failed or exploded.
 */
export function notUsable(
  needed: ReadonlyArray<[string, string]>,
  found: ReadonlyArray<CaseRecord | undefined>,
): ClaimResult | null {
  const gap = missing(needed, found);
  if (gap) return gap;
  const why: string[] = [];
  needed.forEach(([scene, handler], k) => {
    const r = found[k]!;
    if (r.status !== "ok") why.push(`${scene} × ${handler} ended ${r.status}`);
    else if (r.metrics?.summary.exploded === true) why.push(`${scene} × ${handler} exploded`);
  });
  return why.length ? { status: "not run", measured: why.join("; ") } : null;
}

/**
 * "not run" naming the records that lack the summary metric `field` (made before it was measured),
 * else null: a claim never reads a missing value as a failure.
 */
export function lacking(records: readonly CaseRecord[], field: string): ClaimResult | null {
  const old = records.filter((r) => !Number.isFinite(metric(r, field)));
  return old.length
    ? {
      status: "not run",
      measured: `no ${field} in the record of ${
        old.map((r) => `${r.scene} × ${r.handler}`).join(", ")
      } (made before it was measured)`,
    }
    : null;
}

/**
 * "not run" unless every needed case ran to its end (`ok` or `unstable`, with metrics) and its
 * record has what the one definition of instability reads ({@link SPIKE_FIELD}), naming each that
 * is absent, failed, timed out or older; else null. An unstable run is an outcome, judged by the
 * claim, never "not run".
 */
export function notFinished(
  needed: ReadonlyArray<[string, string]>,
  found: ReadonlyArray<CaseRecord | undefined>,
): ClaimResult | null {
  const gap = missing(needed, found);
  if (gap) return gap;
  const why = needed.flatMap(([scene, handler], k) =>
    finished(found[k]) ? [] : [`${scene} × ${handler} ended ${found[k]!.status}`]
  );
  if (why.length) return { status: "not run", measured: why.join("; ") };
  return lacking(found as CaseRecord[], SPIKE_FIELD);
}
