/**
 * The HTML report as `deno task report` and `deno task bench` write it: {@link renderReportPage}
 * with chart.js and three.js read from node_modules (`vendor_libraries.ts`). The page itself
 * (`report_page.ts`) renders wherever it runs, the browser bench included.
 *
 * @module
 */
import { type RenderReportOptions, renderReportPage, type ReportInput } from "./report_page.ts";
import { vendorLibraries } from "./vendor_libraries.ts";

export type { PublishedFile, RenderReportOptions, ReportInput } from "./report_page.ts";

/**
 * Renders the report of `inputs` (each a result file's records, read with `readResults`) as one
 * HTML document (`renderReportPage`). Throws when chart.js or three.js cannot be read from
 * node_modules.
 */
export function renderReport(
  inputs: readonly ReportInput[],
  options: RenderReportOptions = {},
): string {
  return renderReportPage(inputs, { ...options, libraries: vendorLibraries() });
}
