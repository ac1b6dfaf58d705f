/**
 * The report's tables for publishing (`deno task report … --format md|csv|tex`), as a neutral
 * model that the writers of reports/tables/table_writers.ts print: a header and rows of cells, each cell
 * text or a number with an optional 95% confidence interval. Built once per table from the
 * records: Table I (particles, median ms/step per phase with its CI, ns per particle-step), the
 * claims (reports/claims/claims_table.ts), the scene × handler matrix (reports/sections/scene_matrix.ts), the
 * fidelity tables (reports/sections/fidelity_table.ts) and, for several inputs, the comparison of timings
 * (reports/sections/comparison.ts).
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import { type CaseIdentity, caseVariant, distinct, latestCases, sweepText } from "../case_key.ts";
import { claimColumns } from "../claims/claims_table.ts";
import { ablation, moved, statusText } from "../claims/ablation.ts";
import { compareInputs, type Comparison } from "../sections/comparison.ts";
import { nsPerParticleStep } from "../sections/scaling_fit.ts";
import { caseSeverity, MATRIX_METRICS } from "../sections/scene_matrix.ts";
import {
  caseFractureReading,
  FIDELITY_COLUMNS,
  type FidelityColumn,
  fidelityGroups,
  type FidelityKind,
  fluidSystem,
  inFidelityTable,
} from "../sections/fidelity_table.ts";
import { summaryMetric } from "../claims/case_status.ts";
import { phaseNames } from "./table_one.ts";
import { comparePaperTableOne, PAPER_PHASE_LABELS, PAPER_PHASES } from "./paper_table_one.ts";

/** A text cell. */
export interface TextCell {
  text: string;
}

/** A number cell (null: no value), with its 95% confidence interval [low, high] where it has one. */
export interface NumberCell {
  value: number | null;
  ci95?: readonly [number, number] | null;
}

/** One cell of a published table. */
export type TableCell = TextCell | NumberCell;

/** The published tables, by the stem of their file name (`table1.md`, `claims.csv`, …). */
export type PublishTableName =
  | "table1"
  | "table1-paper"
  | "claims"
  | "ablation"
  | "matrix"
  | "fracture"
  | "fluid"
  | "comparison";

/** A table to publish: a title, a header and rows with one cell per header column. */
export interface PublishTable {
  name: PublishTableName;
  /** What the table shows, with its units (a caption). */
  title: string;
  header: string[];
  rows: TableCell[][];
}

/** Whether `cell` is a {@link NumberCell}. */
export function isNumberCell(cell: TableCell): cell is NumberCell {
  return "value" in cell;
}

const text = (value: string | null | undefined): TextCell => ({ text: value ?? "" });
const num = (value: unknown, ci95?: unknown): NumberCell => ({
  value: typeof value === "number" && !Number.isNaN(value) ? value : null,
  ci95: Array.isArray(ci95) && ci95.length === 2 && ci95.every((x) => typeof x === "number")
    ? [ci95[0], ci95[1]]
    : null,
});

/**
 * `handler k=v …`: the handler with the values of the sweep the case ran at, then what tells the
 * case apart from the other cases of its scene, handler and scale in `among` (` seed=3`,
 * reports/case_key.ts `caseVariant`), or the `variant` a comparison row carries.
 */
const handlerText = (
  r: CaseIdentity & { variant?: string },
  among?: readonly CaseIdentity[],
) => `${r.handler}${sweepText(r.sweep)}${among ? caseVariant(r, among) : r.variant ?? ""}`;

/** Records grouped by scene and scale in first-seen order (as Table I shows them). */
function tableOneOrder(records: readonly CaseRecord[]): CaseRecord[] {
  const groups = distinct(records.map((r) => `${r.scene}|${r.scale}`));
  return groups.flatMap((g) => records.filter((r) => `${r.scene}|${r.scale}` === g));
}

type Inputs = readonly { label: string; records: readonly CaseRecord[] }[];

/** The leading `input` column's header and cell, present only for several inputs. */
function inputColumn(inputs: Inputs): { head: string[]; cell: (label: string) => TableCell[] } {
  return inputs.length > 1
    ? { head: ["input"], cell: (label) => [text(label)] }
    : { head: [], cell: () => [] };
}

function tableOne(inputs: Inputs): PublishTable {
  const phases = phaseNames(inputs.flatMap((i) => i.records));
  const input = inputColumn(inputs);
  return {
    name: "table1",
    title:
      "Table I: particles, median ms per step of each phase [95% bootstrap CI of the median], and ns per particle-step (median step time × 10⁶ / (solid + fluid))",
    header: [
      ...input.head,
      "scene",
      "scale",
      "handler",
      "status",
      "solid",
      "fluid",
      ...phases,
      "ns/particle-step",
    ],
    rows: inputs.flatMap(({ label, records }) =>
      tableOneOrder(records).map((r) => [
        ...input.cell(label),
        text(r.scene),
        text(r.scale),
        text(handlerText(r, records)),
        text(r.status),
        num(r.particles?.solid),
        num(r.particles?.fluid),
        ...phases.map((p) => {
          const t = r.timings?.phases[p];
          return t ? num(t.median, t.ci95) : num(null);
        }),
        num(
          nsPerParticleStep(
            r.timings?.phases.total?.median,
            (r.particles?.solid ?? 0) + (r.particles?.fluid ?? 0),
          ),
        ),
      ])
    ),
  };
}

/**
 * The paper's Table I beside the measured merge-split cases of its scenes (`paper_table_one.ts`):
 * per scene three rows, the paper's figures, the measured ones (ms/step) and measured / paper.
 */
function paperTableOne(inputs: Inputs): PublishTable {
  const input = inputColumn(inputs);
  return {
    name: "table1-paper",
    title:
      "Table I of the paper beside the measured merge-split cases: particles and ms per step (the paper's averages over its whole runs on the authors' machine; measured: the mean of the measured steps where the record has it, else the median, at the scale and on the adapter named, the row saying which and over which steps), and measured / paper",
    header: [
      ...input.head,
      "scene",
      "figure",
      "row",
      "solid",
      "fluid",
      ...PAPER_PHASES.map((p) => PAPER_PHASE_LABELS[p]),
    ],
    rows: inputs.flatMap(({ label, records }) =>
      comparePaperTableOne(records).flatMap((c) => {
        const lead = [...input.cell(label), text(c.paper.scene), text(c.paper.figure)];
        const over = (a: number | null, b: number) => (a === null || !b ? null : a / b);
        return [
          [
            ...lead,
            text("paper"),
            num(c.paper.solid),
            num(c.paper.fluid),
            ...PAPER_PHASES.map((p) => num(c.paper.ms[p])),
          ],
          [
            ...lead,
            text(
              `measured (${c.statistic}, ${
                c.coverage.whole
                  ? "whole run"
                  : `first ${c.coverage.steps} of ${c.coverage.wholeSteps} steps`
              }; ${c.scale}, ${c.adapter})`,
            ),
            num(c.solid),
            num(c.fluid),
            ...PAPER_PHASES.map((p) => num(c.ms[p])),
          ],
          [
            ...lead,
            text("measured / paper"),
            num(over(c.solid, c.paper.solid)),
            num(over(c.fluid, c.paper.fluid)),
            ...PAPER_PHASES.map((p) => num(c.ratio[p])),
          ],
        ];
      })
    ),
  };
}

function claimsTable(inputs: Inputs): PublishTable {
  const columns = claimColumns(inputs);
  const input = inputColumn(inputs);
  const claims = columns[0]?.results.map((r) => r.claim) ?? [];
  return {
    name: "claims",
    title:
      "Claims of the paper: status and measured values per input and scale (reports/claims/claims.ts)",
    header: ["id", "claim", "paper", "sentence", ...input.head, "scale", "status", "measured"],
    rows: claims.flatMap((claim, k) =>
      columns.map((c) => [
        text(claim.id),
        text(claim.text),
        text(claim.paper),
        text(claim.quote?.quote ?? ""),
        ...input.cell(c.label),
        text(c.scale),
        text(c.results[k].result.status),
        text(c.results[k].result.measured),
      ])
    ),
  };
}

/** The ablation: each claim's status per setup (paper, then each variant run), per input and scale. */
function ablationTable(inputs: Inputs): PublishTable {
  const input = inputColumn(inputs);
  const setups = distinctSetups(inputs);
  return {
    name: "ablation",
    title:
      "Ablation: each claim's status under the paper's setup and under each variant, the paper's choices with one changed (core/setups.ts)",
    header: ["id", ...input.head, "scale", ...setups],
    rows: inputs.flatMap((i) => {
      const a = ablation(i.records);
      if (!a) return [];
      return a.rows.map((row) => [
        text(row.claim.id),
        ...input.cell(i.label),
        text(row.scale),
        ...setups.map((id) => {
          const k = a.setups.indexOf(id);
          return text(k < 0 ? "" : `${statusText(row, k)}${moved(row, k) ? " ◆" : ""}`);
        }),
      ]);
    }),
  };
}

/** The setups of every input's ablation, paper first, each once. */
function distinctSetups(inputs: Inputs): string[] {
  return distinct(inputs.flatMap((i) => ablation(i.records)?.setups ?? []));
}

function matrixTable(inputs: Inputs): PublishTable {
  const input = inputColumn(inputs);
  return {
    name: "matrix",
    title:
      "Scene × handler: status, severity (ok, warn, bad), pass-through (particles), penetration (radii), max speed (× the reference speed), energy ratio end / start",
    header: [
      ...input.head,
      "scene",
      "scale",
      "handler",
      "status",
      "severity",
      ...MATRIX_METRICS.map(([, label]) => label),
      "exploded",
      "error",
    ],
    rows: inputs.flatMap(({ label, records }) =>
      tableOneOrder(records).map((r) => {
        const s = r.metrics?.summary;
        const exploded = s?.exploded;
        return [
          ...input.cell(label),
          text(r.scene),
          text(r.scale),
          text(handlerText(r, records)),
          text(r.status),
          text(caseSeverity(r)),
          ...MATRIX_METRICS.map(([k]) => num(s?.[k])),
          text(typeof exploded === "boolean" ? (exploded ? "yes" : "no") : ""),
          text(r.error),
        ];
      })
    ),
  };
}

/** A fidelity column's heading with its unit: `bonds broken (%)`, `first fracture (s)`. */
function fidelityHead(c: FidelityColumn): string {
  return c.unit === "percent" ? `${c.head} (%)` : c.unit === "seconds" ? `${c.head} (s)` : c.head;
}

/**
 * A fidelity table (`reports/sections/fidelity_table.ts`), one row per case in the order of its rows
 * (scene, handler, scale smallest first, then seed), with its status and its values in the
 * column's unit (percentages ×100); the fracture table adds how the case reads.
 */
function fidelityTable(inputs: Inputs, kind: FidelityKind): PublishTable {
  const input = inputColumn(inputs);
  const columns = FIDELITY_COLUMNS[kind];
  const fluid = kind === "fluid";
  return {
    name: kind,
    title: fluid
      ? "Fluids per case: worst and mean density error, volume change at the end, and (dam breaks) the largest error of the surge front and of the residual column against Martin & Moyce's, in %"
      : "Brittle solids per case (breakable bodies only): bonds broken (%), fragments, fragments of ≥ 1 % of the solid, the largest one's share, the time of the first fracture (s), and how it reads (in pieces, pulverised, not in pieces)",
    header: [
      ...input.head,
      "scene",
      "scale",
      "handler",
      "seed",
      "status",
      ...(fluid ? ["system"] : []),
      ...columns.map(fidelityHead),
      ...(fluid ? [] : ["reads"]),
    ],
    rows: inputs.flatMap(({ label, records }) =>
      fidelityGroups(records, kind).flat().map((r) => {
        const value = (c: FidelityColumn) => {
          const v = summaryMetric(r, c.field);
          return num(c.unit === "percent" ? 100 * v : v);
        };
        return [
          ...input.cell(label),
          text(r.scene),
          text(r.scale),
          text(handlerText(r, records)),
          text(r.seed === undefined ? "" : String(r.seed)),
          text(r.status),
          ...(fluid ? [text(fluidSystem(r))] : []),
          ...columns.map(value),
          ...(fluid ? [] : [text(caseFractureReading(r))]),
        ];
      })
    ),
  };
}

function comparisonTable(comparison: Comparison): PublishTable {
  const { labels, phases } = comparison;
  const others = labels.slice(1);
  return {
    name: "comparison",
    title:
      `Comparison of timings: median ms per step of each input, and the speed-up of each over ${
        labels[0]
      } (its median / the other's) [95% CI]; last, each input's geometric mean of its total speed-ups over the matched cases`,
    header: [
      "scene",
      "handler",
      "scale",
      "phase",
      ...labels.map((l) => `${l} ms/step`),
      ...others.map((l) => `speed-up ${l}`),
    ],
    rows: [
      ...comparison.rows.flatMap((r) =>
        phases.map((p) => [
          text(r.scene),
          text(handlerText(r)),
          text(r.scale),
          text(p),
          ...r.medians.map((m) => num(m?.[p])),
          ...r.speedups.slice(1).map((s) => num(s?.[p]?.value, s?.[p]?.ci95)),
        ])
      ),
      ...comparison.summary.map((s, j) => [
        text(`geometric mean over ${s.cases} case(s)`),
        text(""),
        text(""),
        text("total"),
        ...labels.map(() => num(null)),
        ...others.map((_, k) => num(k === j ? s.geometricMean : null)),
      ]),
    ],
  };
}

/**
 * The tables to publish for `inputs` (each a result file's records): `table1`, `claims`, `matrix`,
 * `fracture` and `fluid` where a record belongs in them (`reports/sections/fidelity_table.ts`),
 * `table1-paper` where a Table I scene ran under merge-split, and, for several inputs,
 * `comparison` (from `options.comparison` where the caller has computed it, else
 * {@link compareInputs}). With several inputs, the first three start with an `input`
 * column (the input's label); the last record of a case is used.
 */
export function publishTables(
  inputs: Inputs,
  options: { comparison?: Comparison | null } = {},
): PublishTable[] {
  const sets = inputs.map((i) => ({ label: i.label, records: latestCases(i.records) }));
  const tables = [tableOne(sets), claimsTable(sets), matrixTable(sets)];
  if (sets.some((i) => ablation(i.records))) tables.splice(2, 0, ablationTable(sets));
  for (const kind of ["fracture", "fluid"] as const) {
    if (sets.some((s) => s.records.some((r) => inFidelityTable(r, kind)))) {
      tables.push(fidelityTable(sets, kind));
    }
  }
  if (sets.some((s) => comparePaperTableOne(s.records).length)) tables.push(paperTableOne(sets));
  if (sets.length > 1) tables.push(comparisonTable(options.comparison ?? compareInputs(sets)));
  return tables;
}
