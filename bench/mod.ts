/**
 * `bench/`: the runner behind `deno task bench` (see DESIGN.md for what this layer holds).
 * {@link runBench} runs a suite and writes `results.jsonl`; `cli.ts` writes the report after it.
 * {@link profileCase} times one case kernel by kernel (`deno task profile`).
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
} from "./profile.ts";
