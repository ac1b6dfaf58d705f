/**
 * The command line behind `deno task bench` (`deno run -A cli.ts [options]`): runs the bench
 * ({@link runBench} in `bench/main.ts`; `--help` lists the options), then writes `report.html`
 * beside `results.jsonl` with `reports/page/write_report.ts`, even when some cases failed or the run was
 * interrupted, and prints the claims' outcomes in a few lines (`claimsSummaryText`). A report
 * that cannot be written is reported and leaves the exit status as it is.
 *
 * Exit status: 0 when every case ran (even if unstable), 1 when any failed or timed out, 2 for bad
 * arguments or scene files, 130 when interrupted.
 *
 * @module
 */
import { runBench } from "./bench/main.ts";
import { writeReport } from "./reports/page/write_report.ts";
import { claimsSummaryText } from "./reports/claims/claims_table.ts";

/** Runs the bench with `args`, then writes its report; returns the exit status. */
export async function main(args: readonly string[]): Promise<number> {
  const { exitCode, outDir, resultsPath } = await runBench(args);
  if (outDir !== undefined && resultsPath !== undefined) {
    try {
      const report = writeReport([resultsPath], { out: `${outDir}/report.html` });
      console.log(claimsSummaryText(report.inputs));
      console.log(`report: ${report.path} (${(report.bytes / 2 ** 20).toFixed(1)} MiB)`);
    } catch (e) {
      console.error(`report not written (${(e as Error).message}); results are in ${resultsPath}`);
    }
  }
  return exitCode;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
