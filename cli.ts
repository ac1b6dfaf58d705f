/**
 * The command line behind `deno task bench` (`deno run -A cli.ts [options]`): runs the bench
 * ({@link runBench} in `bench/main.ts`; `--help` lists the options), then writes `report.html`
 * beside `results.jsonl` with `reports/page/write_report.ts`, even when some cases failed or the run was
 * interrupted, and prints the claims' outcomes in a few lines (`claimsSummaryText`). A report
 * that cannot be written (a full disk: the file is written whole or not at all) is reported and
 * makes the exit status 1 where the cases alone would give 0. A stdout or stderr that cannot be
 * written (full, closed) loses its lines, never the run: the cases run and are recorded.
 *
 * Exit status: 0 when every case ran (even if unstable) and the report was written, 1 when any
 * case failed or timed out or the report was not written, 2 for bad arguments or scene files, 130
 * when interrupted.
 *
 * @module
 */
import { runBench } from "./bench/main.ts";
import { writeReport } from "./reports/page/write_report.ts";
import { claimsSummaryText } from "./reports/claims/claims_table.ts";
import { ignoreOutputErrors } from "./core/io/ignore_output_errors.ts";

/** Runs the bench with `args`, then writes its report; returns the exit status. */
export async function main(args: readonly string[]): Promise<number> {
  const { exitCode, outDir, resultsPath } = await runBench(args);
  if (outDir === undefined || resultsPath === undefined) return exitCode;
  const written = writeRunReport(resultsPath, `${outDir}/report.html`);
  return written || exitCode !== 0 ? exitCode : 1;
}

/**
 * Writes the report of the run's `resultsPath` to `out` and prints the claims' summary; returns
 * whether it was written (when not, says why on stderr).
 */
function writeRunReport(resultsPath: string, out: string): boolean {
  try {
    const report = writeReport([resultsPath], { out });
    console.log(claimsSummaryText(report.inputs));
    console.log(`report: ${report.path} (${(report.bytes / 2 ** 20).toFixed(1)} MiB)`);
    return true;
  } catch (e) {
    console.error(
      `mergesplit bench: report not written (${
        (e as Error).message
      }); results are in ${resultsPath}`,
    );
    return false;
  }
}

if (import.meta.main) {
  ignoreOutputErrors();
  Deno.exit(await main(Deno.args));
}
