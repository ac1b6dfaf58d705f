/**
 * The data the report's page script draws from: per input, each case's identity, status, phase
 * medians, metric time series and snapshots — the records without their raw timing samples and
 * environment, which the page does not need (the HTML tables carry the rest) — plus the phase
 * shares, the scaling charts of a scale sweep and the charts of parameter sweeps.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import type { Snapshots } from "../../core/io/snapshot_codec.ts";
import { caseVariant, sweepText } from "../case_key.ts";
import type { Comparison } from "../sections/comparison.ts";
import type { PhaseShareChart } from "../sections/phase_shares.ts";
import type { ScalingChart } from "../sections/scaling_section.ts";
import type { SweepChart } from "../sections/sweep_section.ts";

/** One case as the page script sees it. */
export interface ClientCase {
  /** Unique in the page: `<input>-<case index>`. */
  id: string;
  scene: string;
  handler: string;
  scale: string;
  /**
   * What tells the case apart from the input's other cases of its scene, handler and scale, with
   * its sweep values (` penalty.stiffness=100 seed=3`); "" when nothing needs telling apart.
   */
  variant: string;
  status: string;
  /** Phase → median ms/step (null when missing). */
  phases: Record<string, number | null> | null;
  series: { every: number; fields: string[]; rows: (number | null)[][] } | null;
  snapshots: Snapshots | null;
}

/** Everything the page script needs (embedded as JSON). */
export interface ReportData {
  title: string;
  /** Phases to stack in the bar charts (Table I's, without `total`). */
  phases: string[];
  /** Handlers in first-seen order over all inputs: the colour of a handler is its index here. */
  handlers: string[];
  inputs: {
    label: string;
    cases: ClientCase[];
    phasesChartId: string;
    /** The phase shares per case (Table I as fractions); null when no case has phases. */
    phaseShares: PhaseShareChart | null;
    /** One chart per scene of a scale sweep; empty when no case ran at several scales. */
    scaling: ScalingChart[];
    /** One chart per scene × handler-parameter sweep (`--sweep`); empty when there is none. */
    sweeps: SweepChart[];
  }[];
  comparison: (Comparison & { chartId: string }) | null;
}

/** A number, or null when it is not finite (JSON has no NaN or Infinity). */
function finite(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/**
 * Reduces one record for the page; `options.among` are the cases shown beside it (its input's),
 * from which its `variant` is found.
 */
export function clientCase(
  record: CaseRecord,
  options: { id: string; among?: readonly CaseRecord[] },
): ClientCase {
  const phases = record.timings
    ? Object.fromEntries(
      Object.entries(record.timings.phases).map(([k, t]) => [k, finite(t?.median)]),
    )
    : null;
  const s = record.metrics?.series;
  return {
    id: options.id,
    scene: record.scene,
    handler: record.handler,
    scale: record.scale,
    variant: `${sweepText(record.sweep)}${caseVariant(record, options.among ?? [record])}`,
    status: record.status,
    phases,
    series: s && Array.isArray(s.fields) && Array.isArray(s.rows)
      ? {
        every: s.every,
        fields: s.fields,
        rows: s.rows.map((row) => row.map(finite)),
      }
      : null,
    snapshots: record.snapshots && Array.isArray(record.snapshots.frames) ? record.snapshots : null,
  };
}
