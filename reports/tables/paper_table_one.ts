/**
 * The paper's Table I ("Average computation times per time step", Truong et al. 2021) as data, and
 * its comparison with measured cases: per Table I scene, the paper's particle counts and phase
 * times beside the measured ones (merge-split, ms/step), the ratio measured / paper per column, and
 * each phase's share of the step in both, with the scale and adapter of the measurement. The paper
 * averages over whole runs, so the measured figure is the mean ms/step where the record keeps it
 * (else the median, which a run whose steps slow down, fig6-wall's breaking wall, understates), and
 * the caption says per scene whether the case ran the scene's whole duration or only its first
 * steps. The paper's total is more than the sum of its listed phases (neighbour search and the rest
 * of a step are not listed), so shares are of the total.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import { escapeHtml } from "../page/escape_html.ts";
import { formatNumber } from "../page/format_number.ts";

/** The phase columns of Table I, as the measured records name them (`bench/case_metrics.ts`). */
export const PAPER_PHASES = [
  "collisionDetection",
  "merging",
  "integrationStage1",
  "integrationStage2",
  "splitting",
  "total",
] as const;

/** A Table I phase column. */
export type PaperPhase = typeof PAPER_PHASES[number];

/** Headings of the phase columns, as the paper prints them. */
export const PAPER_PHASE_LABELS: Readonly<Record<PaperPhase, string>> = {
  collisionDetection: "Collision Detection",
  merging: "Particle Merging",
  integrationStage1: "Integration Stage-1",
  integrationStage2: "Integration Stage-2",
  splitting: "Particle Splitting",
  total: "Total Time",
};

/** One column of Table I: the paper's figure and the catalogue scene that reproduces it. */
export interface PaperTableOneColumn {
  /** The scene id in this harness. */
  scene: string;
  /** The column heading of the paper. */
  figure: string;
  solid: number;
  fluid: number;
  /**
   * Simulated seconds of the catalogue scene at every scale: its whole run is duration / dt steps
   * at a record's dt (`bench/runner.ts` runs that many when no `--steps` is given).
   */
  duration: number;
  /** ms per step. */
  ms: Readonly<Record<PaperPhase, number>>;
}

/** Table I of the paper, column by column (times converted to ms per step). */
export const PAPER_TABLE_ONE: readonly PaperTableOneColumn[] = [
  {
    scene: "fig6-wall",
    figure: "Fig. 6",
    solid: 247_900,
    fluid: 0,
    duration: 0.2,
    ms: {
      collisionDetection: 53,
      merging: 3.1,
      integrationStage1: 800,
      integrationStage2: 700,
      splitting: 0.4,
      total: 3500,
    },
  },
  {
    scene: "fig8-cloth-tori",
    figure: "Fig. 8 top",
    solid: 102_000,
    fluid: 845_000,
    duration: 0.6,
    ms: {
      collisionDetection: 73,
      merging: 34.0,
      integrationStage1: 500,
      integrationStage2: 400,
      splitting: 0.4,
      total: 1600,
    },
  },
  {
    scene: "fig8-dam-break-wall",
    figure: "Fig. 8 middle",
    solid: 112_500,
    fluid: 655_000,
    duration: 1,
    ms: {
      collisionDetection: 270,
      merging: 66.5,
      integrationStage1: 2600,
      integrationStage2: 1900,
      splitting: 8.9,
      total: 5300,
    },
  },
  {
    scene: "fig8-bowl",
    figure: "Fig. 8 bottom",
    solid: 121_900,
    fluid: 6_500_000,
    duration: 1,
    ms: {
      collisionDetection: 392,
      merging: 222.6,
      integrationStage1: 12_900,
      integrationStage2: 12_100,
      splitting: 18.2,
      total: 27_400,
    },
  },
  {
    scene: "fig9-flip-cloth",
    figure: "Fig. 9 top",
    solid: 191_000,
    fluid: 1_400_000,
    duration: 0.3,
    ms: {
      collisionDetection: 42,
      merging: 40.5,
      integrationStage1: 4500,
      integrationStage2: 4200,
      splitting: 10.4,
      total: 10_600,
    },
  },
  {
    scene: "fig9-flip-peridynamics",
    figure: "Fig. 9 bottom",
    solid: 191_000,
    fluid: 1_400_000,
    duration: 0.2,
    ms: {
      collisionDetection: 43,
      merging: 37.0,
      integrationStage1: 2200,
      integrationStage2: 2100,
      splitting: 9.7,
      total: 6400,
    },
  },
];

/** How much of its scene's run a measured case covers. */
export interface RunCoverage {
  /** Steps per repetition the case ran, its warm-up included (the record's `steps`). */
  steps: number;
  /** Untimed warm-up steps at the start of each repetition (`protocol.warmupSteps`). */
  warmup: number;
  /** Repetitions (`protocol.repeats`). */
  repeats: number;
  /** The scene's whole run at the record's dt: its duration / dt steps (at least 1). */
  wholeSteps: number;
  /** Whether the case ran the whole run (`steps` ≥ `wholeSteps`). */
  whole: boolean;
}

/** Which statistic of the measured steps the comparison shows. */
export type MeasuredStatistic = "mean" | "median";

/** One Table I scene compared: the paper's column and a measured merge-split case of it. */
export interface PaperComparison {
  paper: PaperTableOneColumn;
  /** The measured case (merge-split, the latest at the largest scale that has timings). */
  scale: string;
  adapter: string;
  solid: number | null;
  fluid: number | null;
  /**
   * `mean` when the record's total has a mean (the paper's average per step), else `median`
   * (records written before the mean was kept).
   */
  statistic: MeasuredStatistic;
  /** The case's steps against the scene's whole run. */
  coverage: RunCoverage;
  /** Measured ms/step per phase, the {@link statistic} (null where the record has none). */
  ms: Record<PaperPhase, number | null>;
  /** measured / paper per phase (null where either is missing). */
  ratio: Record<PaperPhase, number | null>;
  /** Each phase's share of the step (phase / total), paper and measured. */
  share: { paper: Record<PaperPhase, number>; measured: Record<PaperPhase, number | null> };
}

const SCALE_ORDER = ["tiny", "small", "medium", "paper"];

/**
 * Compares `records` with Table I: per Table I scene with a merge-split record that finished with
 * timings, the one at the largest scale (the last such record at that scale).
 */
export function comparePaperTableOne(records: readonly CaseRecord[]): PaperComparison[] {
  const out: PaperComparison[] = [];
  for (const paper of PAPER_TABLE_ONE) {
    const candidates = records.filter((r) =>
      r.scene === paper.scene && r.handler === "merge-split" && r.timings?.phases.total &&
      !(r.sweep && Object.keys(r.sweep).length)
    );
    if (!candidates.length) continue;
    const rank = (r: CaseRecord) => SCALE_ORDER.indexOf(r.scale);
    const best = Math.max(...candidates.map(rank));
    const r = candidates.filter((c) => rank(c) === best).at(-1)!;
    const phases = r.timings!.phases;
    const statistic: MeasuredStatistic = typeof phases.total.mean === "number" ? "mean" : "median";
    const ms = Object.fromEntries(
      PAPER_PHASES.map((p) => [p, phases[p]?.[statistic] ?? null]),
    ) as Record<PaperPhase, number | null>;
    const ratio = Object.fromEntries(
      PAPER_PHASES.map((p) => [p, ms[p] === null ? null : ms[p]! / paper.ms[p]]),
    ) as Record<PaperPhase, number | null>;
    const total = ms.total;
    out.push({
      paper,
      scale: r.scale,
      adapter: `${r.env?.adapter.description || r.env?.adapter.device || "unknown adapter"}${
        r.env?.adapter.backend ? ` (${r.env.adapter.backend})` : ""
      }`,
      solid: r.particles?.solid ?? null,
      fluid: r.particles?.fluid ?? null,
      statistic,
      coverage: runCoverage(r, paper.duration),
      ms,
      ratio,
      share: {
        paper: Object.fromEntries(
          PAPER_PHASES.map((p) => [p, paper.ms[p] / paper.ms.total]),
        ) as Record<
          PaperPhase,
          number
        >,
        measured: Object.fromEntries(
          PAPER_PHASES.map((p) => [p, ms[p] === null || !total ? null : ms[p]! / total]),
        ) as Record<PaperPhase, number | null>,
      },
    });
  }
  return out;
}

/**
 * How much of a scene of `duration` simulated seconds the record `r` ran: its steps against
 * duration / dt at its dt, rounded as `bench/runner.ts` rounds a whole run's steps.
 */
export function runCoverage(
  r: Pick<CaseRecord, "steps" | "dt" | "protocol">,
  duration: number,
): RunCoverage {
  const wholeSteps = Math.max(1, Math.round(duration / r.dt));
  return {
    steps: r.steps,
    warmup: r.protocol?.warmupSteps ?? 0,
    repeats: r.protocol?.repeats ?? 1,
    wholeSteps,
    whole: Number.isFinite(wholeSteps) && r.steps >= wholeSteps,
  };
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * What a comparison's measured figures are, in words: the statistic, over which steps, and whether
 * they are the scene's whole run (as the paper's averages are) or only its first steps.
 */
export function coverageText(c: Pick<PaperComparison, "paper" | "statistic" | "coverage">): string {
  const { steps, warmup, repeats, wholeSteps, whole } = c.coverage;
  const measured = `the ${c.statistic} over steps ${count(warmup + 1)}–${count(steps)} (after ${
    count(warmup)
  } warm-up${repeats > 1 ? `, ${repeats} repetitions` : ""})`;
  const run = whole
    ? `the whole run (${count(steps)} steps, ${c.paper.duration} s)`
    : `only its first ${count(steps)} of ${
      count(wholeSteps)
    } steps (the whole run: ${c.paper.duration} s)`;
  const median = c.statistic === "median"
    ? "; the record predates the mean, so the median, not the paper's average"
    : "";
  return `${c.paper.scene}: ${run}, ${measured}${median}`;
}

/** A share as a percentage with one decimal, or – . */
function percent(v: number | null): string {
  return v === null || !Number.isFinite(v) ? "–" : `${(100 * v).toFixed(1)} %`;
}

/** Renders the comparison with Table I (HTML), or a note when no Table I scene was measured. */
export function renderPaperTableOne(records: readonly CaseRecord[]): string {
  const rows = comparePaperTableOne(records);
  if (!rows.length) {
    return `<p class="muted">No Table I scene under merge-split in this run (<code>deno task bench --suite table1</code> runs them).</p>`;
  }
  const head = `<tr><th>scene</th><th></th><th class="num">solid</th><th class="num">fluid</th>${
    PAPER_PHASES.map((p) => `<th class="num">${escapeHtml(PAPER_PHASE_LABELS[p])}</th>`).join("")
  }</tr>`;
  const num = (v: number | null) =>
    `<td class="num">${v === null ? "–" : escapeHtml(formatNumber(v))}</td>`;
  const body = rows.map((c) => {
    const label = `${escapeHtml(c.paper.scene)} <span class="muted">(${
      escapeHtml(c.paper.figure)
    })</span>`;
    const ratioCount = (a: number | null, b: number) => (a === null || !b ? null : a / b);
    return [
      `<tr class="group"><th class="row" rowspan="5">${label}</th><td>paper (ms/step)</td>${
        num(c.paper.solid)
      }${num(c.paper.fluid)}${PAPER_PHASES.map((p) => num(c.paper.ms[p])).join("")}</tr>`,
      `<tr><td>measured (${c.statistic} ms/step; ${escapeHtml(c.scale)}, ${
        escapeHtml(c.adapter)
      })</td>${num(c.solid)}${num(c.fluid)}${PAPER_PHASES.map((p) => num(c.ms[p])).join("")}</tr>`,
      `<tr><td>measured / paper</td>${num(ratioCount(c.solid, c.paper.solid))}${
        num(ratioCount(c.fluid, c.paper.fluid))
      }${PAPER_PHASES.map((p) => num(c.ratio[p])).join("")}</tr>`,
      `<tr><td>share of the step, paper</td><td></td><td></td>${
        PAPER_PHASES.map((p) => `<td class="num">${percent(c.share.paper[p])}</td>`).join("")
      }</tr>`,
      `<tr><td>share of the step, measured</td><td></td><td></td>${
        PAPER_PHASES.map((p) => `<td class="num">${percent(c.share.measured[p])}</td>`).join("")
      }</tr>`,
    ].join("\n");
  }).join("\n");
  const statistics = new Set(rows.map((c) => c.statistic));
  const figure = statistics.size === 1 && statistics.has("median")
    ? "median ms/step of its measured steps (these records predate the mean)"
    : statistics.size === 1
    ? "mean ms/step of its measured steps"
    : "mean ms/step of its measured steps, or the median where a record predates the mean";
  const covered = rows.map((c) => escapeHtml(coverageText(c))).join("; ");
  return `<p class="muted">Table I of the paper (average times per step over its whole runs, on the authors' machine) beside the measured merge-split case of the same scene (the ${figure}, at the largest scale run, on the adapter named). Measured: ${covered}.${
    rows.some((c) => !c.coverage.whole)
      ? " A case of only its first steps is not the paper's whole-run average (fig6-wall's steps slow down as its wall breaks): <code>deno task gpu-check</code>'s Table I stages run whole runs."
      : ""
  } Ratios are measured / paper; compare scales before ratios: the paper's counts are those of <code>--scale paper</code>. The paper's total includes work its phases do not list (neighbour search, the rest of the step).</p>
<div class="scroll"><table class="table-one paper"><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}
