/**
 * The fidelity tables of the report: how each brittle solid broke and how each fluid kept its
 * density, volume and (dam breaks) Martin & Moyce's surge front and column, per scene × handler
 * with its scales side by side (smallest first), so that whether a statistic converges with
 * resolution reads down the rows, and over the seeds a case ran at, so that its spread reads
 * across one cell (fragment statistics per scene and scale, density errors per scene and
 * scale, the dam-break comparison per scale).
 *
 * A row holds every record of one scene, handler (with its sweep values and handler parameters),
 * scale, step count, time step and coupling; its values are the range (least, most) over the
 * records that finished `ok` with metrics and did not explode ({@link usable}), as the claims
 * read them; the others are counted in its statuses. A value past its fidelity target (the claims'
 * thresholds, `reports/claims/claims.ts`) is flagged: an SPH fluid's worst density error past
 * {@link SPH_DENSITY_ERROR_MAX}, a FLIP fluid's volume past {@link FLIP_VOLUME_DRIFT_MAX}, a dam
 * break's front or column past {@link SURGE_FRONT_ERROR_MAX} / {@link COLUMN_HEIGHT_ERROR_MAX}.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import { caseGroupKey, distinct, paramsText, scaleRank, sweepText } from "../case_key.ts";
import { summaryMetric, usable } from "../claims/case_status.ts";
import {
  COLUMN_HEIGHT_ERROR_MAX,
  FLIP_VOLUME_DRIFT_MAX,
  type FractureReading,
  fractureReading,
  SPH_DENSITY_ERROR_MAX,
  SURGE_FRONT_ERROR_MAX,
} from "../claims/claims.ts";

/** The two fidelity tables: brittle solids, fluids. */
export type FidelityKind = "fracture" | "fluid";

/** How a column's values are shown: a fraction as a percentage, a count, a number, seconds. */
export type FidelityUnit = "percent" | "count" | "number" | "seconds";

/** A fluid system, which picks the targets that apply. */
export type FluidSystem = "SPH" | "FLIP";

/** One column of a fidelity table. */
export interface FidelityColumn {
  /** The summary metric (`bench/case_metrics.ts` `CaseMetrics`). */
  field: string;
  /** Short heading. */
  head: string;
  /** What it is, for the heading's tooltip and the caption. */
  title: string;
  unit: FidelityUnit;
  /**
   * The fidelity target where one applies: |value| at most `max` for the fluid systems named (every
   * row of the table when absent).
   */
  target?: { max: number; systems?: readonly FluidSystem[] };
}

/** The brittle solids' table's columns (breakable bodies only: an unbreakable ball is none). */
export const FRACTURE_COLUMNS: readonly FidelityColumn[] = [
  {
    field: "brokenFraction",
    head: "bonds broken",
    title: "broken bonds at the end over the breakable bonds",
    unit: "percent",
  },
  {
    field: "fragments",
    head: "fragments",
    title: "fragments of the breakable bodies at the end (components of intact bonds)",
    unit: "count",
  },
  {
    field: "significantFragments",
    head: "pieces ≥ 1 %",
    title: "fragments holding at least 1 % of the breakable bodies' particles",
    unit: "count",
  },
  {
    field: "largestFragmentShare",
    head: "largest share",
    title: "the largest fragment's share of the breakable bodies' particles",
    unit: "number",
  },
  {
    field: "firstFracture",
    head: "first fracture",
    title: "time of the first sample with a broken bond (s)",
    unit: "seconds",
  },
];

/** The columns of the fluids' table. */
export const FLUID_COLUMNS: readonly FidelityColumn[] = [
  {
    field: "densityErrorMax",
    head: "worst density error",
    title: "the largest compression ρ/ρ0 − 1 of any particle at any sample",
    unit: "percent",
    target: { max: SPH_DENSITY_ERROR_MAX, systems: ["SPH"] },
  },
  {
    field: "densityErrorMean",
    head: "mean density error",
    title: "the largest mean compression over the particles at any sample",
    unit: "percent",
  },
  {
    field: "volumeChange",
    head: "volume change",
    title: "the fluid's relative volume change at the end",
    unit: "percent",
    target: { max: FLIP_VOLUME_DRIFT_MAX, systems: ["FLIP"] },
  },
  {
    field: "surgeFrontError",
    head: "front vs experiment",
    title: "dam breaks: the largest |relative error| of the surge front against Martin & Moyce's",
    unit: "percent",
    target: { max: SURGE_FRONT_ERROR_MAX },
  },
  {
    field: "columnHeightError",
    head: "column vs experiment",
    title:
      "dam breaks: the largest |relative error| of the residual column's height against Martin & Moyce's",
    unit: "percent",
    target: { max: COLUMN_HEIGHT_ERROR_MAX },
  },
];

/** The columns of a table by kind. */
export const FIDELITY_COLUMNS: Readonly<Record<FidelityKind, readonly FidelityColumn[]>> = {
  fracture: FRACTURE_COLUMNS,
  fluid: FLUID_COLUMNS,
};

/** A value's least and most over a row's usable records; null where none has a finite one. */
export type FidelityRange = readonly [least: number, most: number] | null;

/** One row of a fidelity table. */
export interface FidelityRow {
  scene: string;
  /**
   * The handler with its sweep values, and the steps, time step, coupling or handler parameters
   * (` k=v`) where they tell the row apart from the other rows of its scene and handler.
   */
  handler: string;
  scale: string;
  /** The seeds of the row's records, in first-seen order (missing seeds left out). */
  seeds: number[];
  /** `3 ok`, `2 ok, 1 unstable`: the row's records by status (exploded counted as such). */
  statuses: string;
  /** How many records the values range over ({@link usable} ones). */
  usable: number;
  /** The fluid's system (fluid table), else null. */
  system: FluidSystem | null;
  /** Per column field, the range of its values over the usable records. */
  values: Record<string, FidelityRange>;
  /** Per column field, whether the range's largest magnitude is past its target. */
  pastTarget: Record<string, boolean>;
  /** Fracture table: each {@link FractureReading} with how many usable records read so. */
  readings: Partial<Record<FractureReading, number>>;
}

/** Whether a record belongs in a table: breakable solids (fracture), fluid particles (fluid). */
export function inFidelityTable(record: CaseRecord, kind: FidelityKind): boolean {
  if (kind === "fracture") return summaryMetric(record, "fragments") > 0;
  return (record.particles?.fluid ?? 0) > 0 &&
    record.metrics?.summary.densityErrorMax !== undefined;
}

/** The fluid system of a record: FLIP where its solvers include FLIP's projection, else SPH. */
export function fluidSystem(record: CaseRecord): FluidSystem {
  return record.solvers?.flip !== undefined ? "FLIP" : "SPH";
}

/** The key of a row: everything of a case's identity but its seed and configuration hash. */
function rowKey(r: CaseRecord): string {
  return [
    caseGroupKey(r),
    `params=${paramsText(r.handlerParams)}`,
    `steps=${r.steps}`,
    `dt=${r.dt}`,
    `coupling=${r.coupling ?? "own-part"}`,
  ].join("|");
}

/** `3 ok`, `2 ok, 1 unstable` … in first-seen order; a record that exploded counts as such. */
function statusText(records: readonly CaseRecord[]): string {
  const label = (r: CaseRecord) =>
    r.status === "ok" && r.metrics?.summary.exploded === true ? "exploded" : r.status;
  const labels = records.map(label);
  return distinct(labels).map((s) => `${labels.filter((l) => l === s).length} ${s}`).join(", ");
}

function range(values: readonly number[]): FidelityRange {
  const finite = values.filter(Number.isFinite);
  return finite.length ? [Math.min(...finite), Math.max(...finite)] : null;
}

/**
 * The records of the `kind` table of `records` in rows: one per scene × handler × scale (and step
 * count, time step, coupling, handler parameters), ordered by scene and handler as first seen, then
 * by scale (smallest first); a row's records (its seeds) in the order read.
 */
export function fidelityGroups(
  records: readonly CaseRecord[],
  kind: FidelityKind,
): CaseRecord[][] {
  const members = records.filter((r) => inFidelityTable(r, kind));
  const groups = new Map<string, CaseRecord[]>();
  for (const r of members) {
    const key = rowKey(r);
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  const sceneOrder = distinct(members.map((r) => r.scene));
  const handlerOrder = distinct(members.map((r) => r.handler));
  const order = (r: CaseRecord) => [
    sceneOrder.indexOf(r.scene),
    handlerOrder.indexOf(r.handler),
    scaleRank(r.scale),
  ];
  return [...groups.values()].map((group) => ({ group, order: order(group[0]) }))
    .sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.order[2] - b.order[2])
    .map((g) => g.group);
}

/** How a record's breakable solids read ({@link fractureReading}). */
export function caseFractureReading(record: CaseRecord): FractureReading {
  return fractureReading(
    summaryMetric(record, "significantFragments"),
    summaryMetric(record, "largestFragmentShare"),
  );
}

/**
 * The handler of a row with its sweep values, then what tells the row apart from the other rows of
 * its scene and handler in `members`: the steps, time step or coupling where they differ at its
 * scale, each handler parameter whose value differs among them (` steps=200`, ` alpha=0.5`).
 */
function rowHandler(first: CaseRecord, members: readonly CaseRecord[]): string {
  const same = members.filter((r) => r.scene === first.scene && r.handler === first.handler);
  const atScale = same.filter((r) => caseGroupKey(r) === caseGroupKey(first));
  const varies = (among: readonly CaseRecord[], get: (r: CaseRecord) => unknown) =>
    new Set(among.map((r) => String(get(r)))).size > 1;
  const parts: string[] = [];
  const fields: [string, (r: CaseRecord) => unknown][] = [
    ["steps", (r) => r.steps],
    ["dt", (r) => r.dt],
    ["coupling", (r) => r.coupling ?? "own-part"],
  ];
  for (const [name, get] of fields) {
    if (varies(atScale, get)) parts.push(`${name}=${get(first)}`);
  }
  const params = [...new Set(same.flatMap((r) => Object.keys(r.handlerParams ?? {})))].sort();
  for (const p of params) {
    const get = (r: CaseRecord) => r.handlerParams?.[p];
    if (varies(same, get)) parts.push(`${p}=${get(first) ?? "–"}`);
  }
  return `${first.handler}${sweepText(first.sweep)}${parts.map((p) => ` ${p}`).join("")}`;
}

/** The row of one group of {@link fidelityGroups} among the table's `members`. */
function fidelityRow(
  group: readonly CaseRecord[],
  kind: FidelityKind,
  members: readonly CaseRecord[],
): FidelityRow {
  const first = group[0];
  const ok = group.filter(usable);
  const system = kind === "fluid" ? fluidSystem(first) : null;
  const values: Record<string, FidelityRange> = {};
  const pastTarget: Record<string, boolean> = {};
  for (const c of FIDELITY_COLUMNS[kind]) {
    const v = range(ok.map((r) => summaryMetric(r, c.field)));
    values[c.field] = v;
    const applies = c.target &&
      (!c.target.systems || (system !== null && c.target.systems.includes(system)));
    pastTarget[c.field] = !!applies && v !== null &&
      Math.max(Math.abs(v[0]), Math.abs(v[1])) > c.target!.max;
  }
  const readings: Partial<Record<FractureReading, number>> = {};
  if (kind === "fracture") {
    for (const r of ok) {
      const reading = caseFractureReading(r);
      readings[reading] = (readings[reading] ?? 0) + 1;
    }
  }
  return {
    scene: first.scene,
    handler: rowHandler(first, members),
    scale: first.scale,
    seeds: distinct(group.flatMap((r) => (r.seed === undefined ? [] : [r.seed]))),
    statuses: statusText(group),
    usable: ok.length,
    system,
    values,
    pastTarget,
    readings,
  };
}

/** The rows of the `kind` table of `records` ({@link fidelityGroups}), their seeds pooled. */
export function fidelityRows(records: readonly CaseRecord[], kind: FidelityKind): FidelityRow[] {
  const groups = fidelityGroups(records, kind);
  const members = groups.flat();
  return groups.map((group) => fidelityRow(group, kind, members));
}

/** `in pieces`, or `in pieces 2, pulverised 1` where the seeds read differently; "–" for none. */
export function readingsText(readings: FidelityRow["readings"]): string {
  const entries = Object.entries(readings) as [FractureReading, number][];
  if (!entries.length) return "–";
  return entries.length === 1
    ? entries[0][0]
    : entries.map(([reading, n]) => `${reading} ${n}`).join(", ");
}
