/// <reference lib="dom" />
/**
 * chart.js as the report page has it: the UMD build's global `Chart` (inlined or from a CDN by
 * report_page.ts), typed by the chart.js package's own types, and the charts made.
 *
 * @module
 */
// The types only (erased from the bundle): the page loads chart.js as a UMD script, and
// reports/page/vendor_libraries.ts imports the same package by the same specifier.
// deno-lint-ignore no-import-prefix
import type { Chart, ChartConfiguration, ChartType } from "npm:chart.js@^4.6.1";

export type { ChartConfiguration };

/** The global `Chart` of chart.js's UMD build; undefined when it did not load (a `--cdn` offline). */
export function chartJs(): typeof Chart | undefined {
  return (globalThis as { Chart?: typeof Chart }).Chart;
}

/** Every chart made on the page. */
export const chartsMade: Chart[] = [];

/**
 * Draws a chart of `config` on `canvas` (nothing without the canvas or chart.js); a chart that
 * throws is reported as a console error (the self-test's verdict lists it).
 */
export function makeChart<TType extends ChartType, TData>(
  canvas: HTMLElement | null,
  config: ChartConfiguration<TType, TData>,
): void {
  if (!canvas) return;
  const ChartJs = chartJs();
  if (!ChartJs) return;
  try {
    chartsMade.push(new ChartJs(canvas as HTMLCanvasElement, config) as unknown as Chart);
  } catch (e) {
    console.error("chart " + canvas.id + " failed: " + (e && (e as Error).message));
  }
}
