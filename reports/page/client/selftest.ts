/// <reference lib="dom" />
/**
 * The report page's self-test (URL hash containing "selftest"): console errors, every chart canvas
 * drawn, the 3D view non-empty in both colour modes; the verdict is written as JSON into
 * `#selftest` and the title says passed or failed (read by reports/page/browser_test.ts).
 *
 * @module
 */
import { chartJs } from "./chart_lib.ts";
import { byId, pageGlobal } from "./dom.ts";
import type { ViewerHandle } from "./viewer.ts";

/** Pixels that differ from the background (transparent for charts) by more than a little. */
function inkPixels(canvas: HTMLCanvasElement, background: readonly number[] | null): number {
  const w = canvas.width, h = canvas.height;
  if (!w || !h) return 0;
  const c2 = document.createElement("canvas");
  c2.width = w;
  c2.height = h;
  const ctx = c2.getContext("2d")!;
  ctx.drawImage(canvas, 0, 0);
  const d = ctx.getImageData(0, 0, w, h).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (background) {
      if (
        Math.abs(d[i] - background[0]) > 12 || Math.abs(d[i + 1] - background[1]) > 12 ||
        Math.abs(d[i + 2] - background[2]) > 12
      ) n++;
    } else if (d[i + 3] > 16) n++;
  }
  return n;
}

/** Per colour mode, the mode shown when asked for it and the 3D view's ink in it. */
type ColorModes = Record<string, { shown: string; inkPixels: number }>;

/** Both colour modes of the viewer's case drawn (then back to the one it opened with). */
function colorModes(viewer: ViewerHandle | null): ColorModes {
  const out: ColorModes = {};
  if (!viewer) return out;
  const initial = viewer.colorMode();
  for (const mode of ["fragment", "body"]) {
    viewer.showColorMode(mode);
    out[mode] = {
      shown: viewer.colorMode(),
      inkPixels: inkPixels(viewer.canvas, viewer.background),
    };
  }
  viewer.showColorMode(initial);
  return out;
}

/**
 * Checks the page and writes the verdict into `#selftest`: `wantViewer` when the page has cases
 * with snapshots; `threeError` when three.js did not load.
 */
export function runSelfTest(
  viewer: ViewerHandle | null,
  wantViewer: boolean,
  threeError: string | null,
): void {
  const ChartJs = chartJs();
  const canvases = [...document.querySelectorAll<HTMLCanvasElement>("canvas.chart")];
  const blank: string[] = [];
  const undrawn: string[] = [];
  for (const c of canvases) {
    if (!ChartJs || !ChartJs.getChart(c)) undrawn.push(c.id);
    else if (inkPixels(c, null) < 200) blank.push(c.id);
  }
  const viewerInk = viewer ? inkPixels(viewer.canvas, viewer.background) : 0;
  const modes = colorModes(viewer);
  const errors = pageGlobal.__reportErrors || (pageGlobal.__reportErrors = []);
  const verdict = {
    errors: errors.slice(),
    chartJs: Boolean(ChartJs),
    charts: { total: canvases.length, blank, undrawn },
    viewer: {
      expected: wantViewer,
      rendered: Boolean(viewer),
      inkPixels: viewerInk,
      colorMode: viewer ? viewer.colorMode() : null,
      colorModes: modes,
      caption: viewer ? viewer.caption() : null,
      error: threeError || null,
    },
    ok: false,
  };
  verdict.ok = verdict.errors.length === 0 && verdict.chartJs && canvases.length > 0 &&
    blank.length === 0 && undrawn.length === 0 && (!wantViewer || viewerInk > 100);
  const out = byId("selftest");
  out.textContent = JSON.stringify(verdict);
  out.hidden = false;
  document.title = "selftest " + (verdict.ok ? "passed" : "failed");
}
