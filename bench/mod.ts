/**
 * `bench/`: the runner behind `deno task bench` (see DESIGN.md for what this layer holds).
 * {@link runBench} runs a suite and writes `results.jsonl`; `cli.ts` writes the report after it.
 *
 * @module
 */
export { type BenchOutcome, defaultOutDir, runBench } from "./main.ts";
