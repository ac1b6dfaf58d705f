/**
 * The generated block of `docs/hardware.md`: one row per committed hardware submission
 * (`docs/hardware/<name>/`, `./read_submission.ts`), with the adapter, its backend and driver, the
 * scale, the particle-steps per second of each figure of the hardware suite
 * (`core/hardware/figure_rates.ts`, computed from the records, not taken from `system.json`), the
 * run's date and the harness commit. `deno task docs` writes it; a committed submission the checker
 * refuses (`./check_submission.ts`) stops the task instead of becoming a row.
 *
 * @module
 */
import { figureRates } from "../core/hardware/figure_rates.ts";
import { HARDWARE_FIGURES } from "../core/hardware/hardware_suite.ts";
import { type Submission, SUBMISSIONS_DIR } from "./read_submission.ts";

/** `12.3 M`, `456 k`: a rate of particle-steps per second to three significant digits. */
export function formatRate(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return "–";
  const [div, unit] = v >= 1e9
    ? [1e9, " G"]
    : v >= 1e6
    ? [1e6, " M"]
    : v >= 1e3
    ? [1e3, " k"]
    : [1, ""];
  return `${(v / div).toPrecision(3)}${unit}`;
}

/** A table cell's text with the characters that would break a pipe table escaped. */
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The row of one submission. */
function row(s: Submission): string {
  const name = s.dir.split("/").filter(Boolean).at(-1)!;
  const rates = figureRates(s.records);
  const commit = s.system.commits?.[0]?.slice(0, 7) ?? "–";
  return `| [${name}](hardware/${name}/) | ${cell(s.system.adapter.description)} | ${
    cell(s.system.adapter.backend ?? "–")
  } | ${cell(s.system.driver)} | ${s.system.scales.join(", ")} | ${
    HARDWARE_FIGURES.map((f) => formatRate(rates[f.id])).join(" | ")
  } | ${s.system.date.to.slice(0, 10)} | \`${commit}\` |`;
}

/** The block: the table of `submissions`, or a line saying there is none. */
export function hardwareTable(submissions: readonly Submission[]): string {
  if (submissions.length === 0) return `No submission committed under \`${SUBMISSIONS_DIR}\` yet.`;
  const heads = [
    "submission",
    "adapter",
    "backend",
    "driver",
    "scale",
    ...HARDWARE_FIGURES.map((f) => f.label),
    "date",
    "commit",
  ];
  const align = heads.map((_, k) => (k >= 5 && k < 5 + HARDWARE_FIGURES.length ? "--:" : "---"));
  return [
    "Particle-steps per second of each figure (k: 10³, M: 10⁶, G: 10⁹).",
    "",
    `| ${heads.join(" | ")} |`,
    `| ${align.join(" | ")} |`,
    ...submissions.map(row),
  ].join("\n");
}
