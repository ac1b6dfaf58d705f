/**
 * `reports/`: the HTML report of `results.jsonl` files (one run, or a comparison of several with
 * each run's speed-ups over the first), its tables as Markdown, CSV or LaTeX, the paper's claims
 * evaluated on the records, the fidelity tables (fracture, fluids), the scaling fit of a scale
 * sweep, the working windows and stable time steps of parameter sweeps, and export of the
 * snapshots to PLY/VTK. Reads result records only (through `core/result.ts`'s `readResults`), never live state.
 *
 * @module
 */
export { renderReport, type RenderReportOptions, type ReportInput } from "./page/report.ts";
export {
  readResultsFile,
  ReportOutputError,
  ResultsFileError,
  writeReport,
  type WriteReportOptions,
} from "./page/write_report.ts";
export {
  type NumberCell,
  type PublishTable,
  type PublishTableName,
  publishTables,
  type TableCell,
  type TextCell,
} from "./tables/publish_tables.ts";
export {
  escapeLatex,
  escapeMarkdown,
  parsePublishFormats,
  PUBLISH_FORMATS,
  type PublishFormat,
  TABLE_WRITERS,
} from "./tables/table_writers.ts";
export { geometricMean, type Speedup, speedup } from "./sections/speedup.ts";
export {
  type Claim,
  CLAIM_THRESHOLDS,
  type ClaimResult,
  CLAIMS,
  type ClaimStatus,
  type ClaimThreshold,
  ENERGY_ERROR_MAX,
  evaluateClaims,
  FAST_REBOUND_SHARE_MIN,
  FIG4_SCENE,
  type FractureReading,
  fractureReading,
  judgeClaim,
  LEAK_FRACTION_MIN,
  MOMENTUM_ERROR_MAX,
  recordsBySeed,
  SPEED_SPIKE_RATIO,
} from "./claims/claims.ts";
export { EARLIER_CLAIMS } from "./claims/earlier_claims.ts";
export { type Ablation, ablation, type AblationRow, moved, statusText } from "./claims/ablation.ts";
export {
  ENERGY_RATIO_HIGH,
  ENERGY_RATIO_LOW,
  PENETRATION_WARN,
  SPEED_RATIO_WARN,
} from "./sections/scene_matrix.ts";
export {
  compareInputs,
  type Comparison,
  type ComparisonMismatch,
  type ComparisonSummary,
} from "./sections/comparison.ts";
export {
  nsPerParticleStep,
  type ScalingFit,
  scalingFit,
  type ScalingPoint,
} from "./sections/scaling_fit.ts";
export { type ScalingSeries, scalingSeries } from "./sections/scaling_section.ts";
export {
  type DtSweep,
  type ParamSweep,
  type Sweeps,
  sweepSeries,
} from "./sections/sweep_section.ts";
export {
  DT_TARGET,
  type DtStability,
  dtStability,
  largestStableDt,
  type SweepWindow,
  workingWindow,
} from "./claims/sweep_stats.ts";
export { caseWorks, summaryMetric } from "./claims/case_status.ts";
export { phaseShares } from "./sections/phase_shares.ts";
export {
  EXPORT_FORMATS,
  type ExportFormat,
  exportSnapshots,
  plyText,
  vtkText,
} from "./tables/export.ts";
export { escapeHtml, scriptJson } from "./page/escape_html.ts";
export { main as reportMain } from "./main.ts";
export {
  comparePaperTableOne,
  PAPER_TABLE_ONE,
  type PaperComparison,
  renderPaperTableOne,
} from "./tables/paper_table_one.ts";
export { hasBudget, renderBudgetSection } from "./sections/budget_section.ts";
export { hasGrouping, renderGroupingSection } from "./sections/grouping_section.ts";
export { MERGE_SPLIT_SHARE_MAX, STAGE2_SHARE_MIN, TIMING_CLAIMS } from "./claims/timing_claims.ts";
export {
  FIDELITY_COLUMNS,
  type FidelityColumn,
  type FidelityKind,
  type FidelityRow,
  fidelityRows,
  FLUID_COLUMNS,
  FRACTURE_COLUMNS,
} from "./sections/fidelity_table.ts";
export { hasFidelity, renderFidelitySection } from "./sections/fidelity_section.ts";
export { screenshot, screenshotMain, type ScreenshotOptions } from "./page/screenshot.ts";
export { type CaseCoverage, caseCoverage, coverageLines } from "./sections/case_coverage.ts";
