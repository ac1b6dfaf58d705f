/**
 * The identity of a case in the report: everything that changes its outcome (scene, handler,
 * scale, the values of a parameter sweep, steps, time step, seed, handler parameters, coupling and
 * the configuration hash), so that two runs that differ in any of them are two cases; the coarser
 * group of a case (scene × handler × scale and sweep values), whose members the comparison of
 * inputs sets side by side; and the label the report shows for a case, which names the fields
 * that tell it apart from the other cases of its group.
 *
 * @module
 */
import { adapterName, type CaseRecord } from "../core/result.ts";

export { adapterName };
import { SCALES } from "../core/scene/scene.ts";

/** What identifies a case (the fields a record has; those after `sweep` may be absent). */
export interface CaseIdentity {
  scene: string;
  handler: string;
  scale: string;
  /** The values of a parameter sweep the case ran at (`CaseRecord.sweep`), if any. */
  sweep?: Readonly<Record<string, number>>;
  steps?: number;
  dt?: number;
  seed?: number;
  handlerParams?: Readonly<Record<string, number | string>>;
  /** How systems saw a shared meta-particle; absent means `own-part`. */
  coupling?: string;
  /** The setup it ran under (`paper` or a variant); absent in records made before setups. */
  setup?: string;
  configHash?: string;
  /** The adapter it ran on (`CaseRecord.env.adapter`), where recorded. */
  env?: { adapter?: { description?: string; backend?: string } } | null;
}

/** ` k=v …` of a sweep's values in key order (a leading space); "" outside a sweep. */
export function sweepText(sweep: CaseIdentity["sweep"]): string {
  return sweep ? Object.keys(sweep).sort().map((k) => ` ${k}=${sweep[k]}`).join("") : "";
}

/**
 * `scene|handler|scale` (then ` k=v` per swept value): the group of a case, whatever the rest of
 * its configuration; each value of a parameter sweep is a group of its own. The comparison of
 * inputs reports the seeds and configuration hashes that differ within a group.
 */
export function caseGroupKey(record: CaseIdentity): string {
  return `${record.scene}|${record.handler}|${record.scale}${sweepText(record.sweep)}`;
}

/** `k=v,…` of handler parameters in key order ("" without any). */
export function paramsText(params: CaseIdentity["handlerParams"]): string {
  return params ? Object.keys(params).sort().map((k) => `${k}=${params[k]}`).join(",") : "";
}

/**
 * The identity of a case: its {@link caseGroupKey}, then its steps, time step, seed, coupling,
 * handler parameters and configuration hash. Two records with the same key are the same case run
 * twice; records that differ in any of these are different cases.
 */
export function caseKey(record: CaseIdentity): string {
  return [
    caseGroupKey(record),
    `steps=${record.steps}`,
    `dt=${record.dt}`,
    `seed=${record.seed}`,
    `coupling=${record.coupling ?? "own-part"}`,
    `setup=${record.setup ?? ""}`,
    `params=${paramsText(record.handlerParams)}`,
    `config=${record.configHash ?? ""}`,
  ].join("|");
}

/**
 * The identity of a record: its {@link caseKey} and the adapter it ran on. The same case run on
 * two adapters is two records, both shown; a re-run on the same adapter replaces the earlier run.
 */
export function recordKey(record: CaseIdentity): string {
  return `${caseKey(record)}|adapter=${adapterName(record)}`;
}

/** The fields a label may name to tell the cases of one group apart, in the order named. */
const VARIANT_FIELDS: ReadonlyArray<readonly [string, (r: CaseIdentity) => unknown]> = [
  ["steps", (r) => r.steps],
  ["dt", (r) => r.dt],
  ["seed", (r) => r.seed],
  ["setup", (r) => r.setup ?? "none"],
  ["coupling", (r) => r.coupling ?? "own-part"],
  ["adapter", (r) => adapterName(r) || "unknown"],
];

/** The ` k=v` parts of `record` whose values differ within `group` (configuration hash aside). */
function variantParts(record: CaseIdentity, group: readonly CaseIdentity[]): string[] {
  const varies = (get: (r: CaseIdentity) => unknown) =>
    new Set(group.map((r) => String(get(r)))).size > 1;
  const parts = VARIANT_FIELDS.filter(([, get]) => varies(get)).map(([name, get]) =>
    `${name}=${get(record)}`
  );
  const params = [...new Set(group.flatMap((r) => Object.keys(r.handlerParams ?? {})))].sort();
  for (const p of params) {
    const get = (r: CaseIdentity) => r.handlerParams?.[p];
    if (varies(get)) parts.push(`${p}=${get(record) ?? "–"}`);
  }
  return parts;
}

/**
 * ` steps=400 seed=3` …: what tells `record` apart from the other cases of its group
 * ({@link caseGroupKey}) in `among` (a leading space), naming only the fields whose values differ
 * there: steps, dt, seed, coupling, adapter, each handler parameter, and, where none of those does, the
 * configuration hash (`config=` its first 12 hex digits). "" when no other case shares its group.
 */
export function caseVariant(record: CaseIdentity, among: readonly CaseIdentity[]): string {
  const key = caseGroupKey(record);
  const group = among.filter((r) => caseGroupKey(r) === key);
  if (!group.some((r) => recordKey(r) !== recordKey(record))) return "";
  const parts = variantParts(record, group);
  const text = parts.join(" ");
  const twin = group.some((r) =>
    r.configHash !== record.configHash && variantParts(r, group).join(" ") === text
  );
  if (twin) parts.push(`config=${(record.configHash ?? "").slice(0, 12)}`);
  return parts.length ? ` ${parts.join(" ")}` : "";
}

/**
 * `scene × handler` with its sweep values, then with `among` (the cases shown beside it) the
 * {@link caseVariant} that tells it apart from the other cases of its group, or else the
 * record's own `variant` where it carries one, and ` (scale)` when `withScale` is set. Plain
 * text: escape it for HTML.
 */
export function caseLabel(
  record: CaseIdentity & { variant?: string },
  options: { withScale?: boolean; among?: readonly CaseIdentity[] } = {},
): string {
  const variant = options.among ? caseVariant(record, options.among) : record.variant ?? "";
  return `${record.scene} × ${record.handler}${sweepText(record.sweep)}${variant}${
    options.withScale ? ` (${record.scale})` : ""
  }`;
}

/**
 * The records with one record per case and adapter ({@link recordKey}): of each, the last of
 * those that ran longest in simulated time (a re-run of the same configuration on the same adapter
 * replaces it; the same case on another adapter is kept beside it, labelled by its adapter). Runs that differ in
 * steps, time step, seed, handler parameters, coupling or configuration hash are different cases
 * and all kept: a shorter run of a case (such as the 200-step scale stage of `deno task
 * gpu-check` after the default suite) is shown beside the whole run, labelled by
 * {@link caseVariant}, and never replaces it.
 */
export function latestCases(records: readonly CaseRecord[]): CaseRecord[] {
  const byKey = new Map<string, CaseRecord>();
  const span = (r: CaseRecord) => (r.steps ?? 0) * (r.dt ?? 0);
  for (const r of records) {
    const key = recordKey(r);
    const held = byKey.get(key);
    if (held && span(r) < span(held)) continue;
    byKey.set(key, r);
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
