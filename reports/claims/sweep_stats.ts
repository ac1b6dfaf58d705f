/**
 * What a parameter sweep (`--sweep`, records with a `sweep` field) found, as plain data: the
 * working window of a swept handler parameter and the stability of each swept time step. Read by
 * the claims (`reports/claims/claims.ts`) and drawn by the report (`reports/sections/sweep_section.ts`).
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import { distinct } from "../case_key.ts";
import { caseWorks, unstable, usable } from "./case_status.ts";

/** The sweep target of the time step. */
export const DT_TARGET = "scene.dt";

/** The swept values of a target and those at which the case works (both ascending). */
export interface SweepWindow {
  /** Every swept value present. */
  values: number[];
  /** The values at which the case is usable, not unstable and leaks at most LEAK_FRACTION_MIN. */
  working: number[];
}

/** The swept time steps of a scene × handler, by outcome (all ascending). */
export interface DtStability {
  /** Every swept dt present. */
  values: number[];
  /** The dt values at which the case finished usable and not unstable. */
  stable: number[];
  /** The dt values at which the case was unstable (recorded so, exploded or gained energy). */
  unstable: number[];
}

/** The record's sweep value of `target`, or null when it has none. */
export function sweepValue(r: CaseRecord, target: string): number | null {
  const v = r.sweep?.[target];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** Distinct values, ascending. */
export function ascending(values: Iterable<number>): number[] {
  return distinct(values).sort((a, b) => a - b);
}

/** The values of `target` in `records` and, per value, the records swept at it. */
export function byValue(records: readonly CaseRecord[], target: string): Map<number, CaseRecord[]> {
  const out = new Map<number, CaseRecord[]>();
  for (const r of records) {
    const v = sweepValue(r, target);
    if (v === null) continue;
    out.set(v, [...(out.get(v) ?? []), r]);
  }
  return out;
}

/**
 * The working window of a sweep of `target` (e.g. `penalty.stiffness`): every value of `target`
 * among `records` (those without it are ignored), and the values at which the case is usable
 * (`ok`, with metrics, not exploded), not unstable, and has `passThroughFraction` ≤
 * LEAK_FRACTION_MIN. Pass the records of one scene and scale (and one combination of any other
 * sweep keys): where several records share a value, the value works only when all of them do.
 */
export function workingWindow(records: readonly CaseRecord[], target: string): SweepWindow {
  const at = byValue(records, target);
  const values = ascending(at.keys());
  return { values, working: values.filter((v) => at.get(v)!.every(caseWorks)) };
}

/**
 * The swept time steps (`sweep["scene.dt"]`) of `options.scene` × `options.handler` (and
 * `options.scale` when given) among `records`, split into those at which the case finished usable
 * and not unstable and those at which it was unstable. Where several records share a dt (other
 * sweep keys), the dt is stable only when all of them are, and unstable when any is.
 */
export function dtStability(
  records: readonly CaseRecord[],
  options: { scene: string; handler: string; scale?: string },
): DtStability {
  const at = byValue(
    records.filter((r) =>
      r.scene === options.scene && r.handler === options.handler &&
      (options.scale === undefined || r.scale === options.scale)
    ),
    DT_TARGET,
  );
  const values = ascending(at.keys());
  return {
    values,
    stable: values.filter((v) => at.get(v)!.every((r) => usable(r) && !unstable(r))),
    unstable: values.filter((v) => at.get(v)!.some(unstable)),
  };
}

/**
 * The largest swept dt (`sweep["scene.dt"]`) at which `options.scene` × `options.handler` (at
 * `options.scale`, when given) finished usable and not unstable; null when none did or no dt was
 * swept. A smaller dt may still have been unstable: see {@link dtStability}.
 */
export function largestStableDt(
  records: readonly CaseRecord[],
  options: { scene: string; handler: string; scale?: string },
): number | null {
  const { stable } = dtStability(records, options);
  return stable.length ? stable[stable.length - 1] : null;
}
