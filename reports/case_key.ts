/**
 * The identity of a case across result files: scene, handler and scale (and, to match timings,
 * the configuration hash), with the label the report shows for it.
 *
 * @module
 */
import type { CaseRecord } from "../core/result.ts";
import { SCALES } from "../core/scene.ts";

/** What identifies a case in a suite. */
export interface CaseIdentity {
  scene: string;
  handler: string;
  scale: string;
  /** The values of a parameter sweep the case ran at (`CaseRecord.sweep`), if any. */
  sweep?: Readonly<Record<string, number>>;
}

/** ` k=v …` of a sweep's values in key order (a leading space); "" outside a sweep. */
export function sweepText(sweep: CaseIdentity["sweep"]): string {
  return sweep ? Object.keys(sweep).sort().map((k) => ` ${k}=${sweep[k]}`).join("") : "";
}

/**
 * `scene|handler|scale` (then ` k=v` per swept value): one case of a suite, whatever its
 * configuration; each value of a parameter sweep is a case of its own.
 */
export function caseKey(record: CaseIdentity): string {
  return `${record.scene}|${record.handler}|${record.scale}${sweepText(record.sweep)}`;
}

/** `scene × handler`, with ` (scale)` when `withScale` is set. Plain text: escape it for HTML. */
export function caseLabel(
  record: CaseIdentity,
  options: { withScale?: boolean } = {},
): string {
  return `${record.scene} × ${record.handler}${sweepText(record.sweep)}${
    options.withScale ? ` (${record.scale})` : ""
  }`;
}

/**
 * The records with one record per case key: of each, the last of those that ran longest in
 * simulated time (a re-run replaces a case; a shorter run of it, such as the 200-step scale
 * stage of `deno task gpu-check` after the default suite, does not replace the whole run).
 */
export function latestCases(records: readonly CaseRecord[]): CaseRecord[] {
  const byKey = new Map<string, CaseRecord>();
  const span = (r: CaseRecord) => (r.steps ?? 0) * (r.dt ?? 0);
  for (const r of records) {
    const held = byKey.get(caseKey(r));
    if (held && span(r) < span(held)) continue;
    byKey.delete(caseKey(r));
    byKey.set(caseKey(r), r);
  }
  const last = new Set(byKey.values());
  return records.filter((r) => last.has(r));
}

/** Distinct values in first-seen order. */
export function distinct<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}

/** A scale's place in `SCALES` (smallest first; unknown scales after every known one). */
export function scaleRank(scale: string): number {
  const k = (SCALES as readonly string[]).indexOf(scale);
  return k < 0 ? SCALES.length : k;
}
