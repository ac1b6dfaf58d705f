/**
 * `bench/`: the runner behind `deno task bench` (docs/design.md "Layers": what it holds).
 * {@link runBench} runs a suite and writes `results.jsonl`; `cli.ts` writes the report after it.
 * {@link profileCase} times one case kernel by kernel (`deno task profile`); {@link traceLeaks}
 * follows the particles that cross a cloth (`deno task leaks`); {@link traceHotspots} finds where a
 * fluid's worst density errors and fastest particles are (`deno task hotspots`).
 *
 * @module
 */
export { type BenchOutcome, defaultOutDir, runBench } from "./main.ts";
export {
  type CaseProfile,
  parseProfileArgs,
  profileCase,
  type ProfileOptions,
  profileTable,
} from "./tools/profile.ts";
export {
  type FollowedPoint,
  formatTrace,
  type Jump,
  type LeakEvent,
  type LeakTrace,
  traceLeaks,
} from "./tools/leak_trace.ts";
export { type DiagnosticRun, startDiagnostic } from "./tools/diagnostic_run.ts";
export { SheetSides, type SideObservation, type TracedSheet } from "./tools/sheet_sides.ts";
export { PointGrid } from "./tools/point_grid.ts";
export {
  DENSITY_ERROR_TARGET,
  densityErrors,
  fluidHotspots,
  type FluidSpot,
  type HotspotPlace,
  type HotspotSample,
  traceHotspots,
} from "./tools/fluid_hotspots.ts";
export { appendResultLine, endsTorn, ResultsWriteError } from "./output/results_file.ts";
export { caseListLabel, type CasePlace, selectShard } from "./cases/shard.ts";
export { checkRunPlan } from "./cases/run_plan_check.ts";
export { checkSceneFile, machineMemoryBytes, systemSchemas } from "./cases/scene_file_check.ts";
