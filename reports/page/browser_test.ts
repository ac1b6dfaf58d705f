// run_tests: one implementation (the report in Chromium, whose WebGPU is its own)
/**
 * Opens a generated report in headless Chromium and checks it as a person would see it: the page
 * runs its self-test (`#selftest`: no console errors, every chart canvas drawn, the 3D view
 * non-empty) and writes a JSON verdict that `--dump-dom` returns; then screenshots are saved under
 * `reports/out/test-screenshots/` (their paths are printed).
 *
 * Chromium is looked up at $CHROMIUM when set, else /usr/bin/chromium, /usr/bin/chromium-browser;
 * without it the test is skipped with a message (Debian: `apt-get install -y chromium`). WebGL runs on
 * SwiftShader (software), so no GPU is needed.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { CaseRecord } from "../../core/result.ts";
import { fakeRecord, fakeSnapshots } from "../fake_record.ts";
import { renderReport } from "./report.ts";
import { screenshot } from "./screenshot.ts";
import {
  CHROMIUM_CANDIDATES as CANDIDATES,
  findChromium,
  runChromium as runChromiumAt,
} from "./chromium.ts";

const chromium = findChromium();
const SCREENSHOT_DIR = new URL("../out/test-screenshots/", import.meta.url);

/**
 * Inputs exercising every part of the page: snapshots (the first case, the viewer's default, with
 * a breaking solid so it opens coloured by fragment), a failed case, a scale sweep (the scaling
 * section, with a size that is not ok), a comparison.
 */
function inputs(): { label: string; records: CaseRecord[] }[] {
  const handlers = ["merge-split", "penalty-weak", "penalty-strong", "impulse"];
  const first = handlers.map((handler, k) =>
    fakeRecord({
      handler,
      summary: { passThroughMax: k === 1 ? 12 : 0, maxRebound: 2 + k },
      snapshots: k < 2
        ? fakeSnapshots({ n: 20, fluid: 400, frames: 4, solid: k === 0 ? 216 : 0 })
        : undefined,
    })
  );
  first.push(
    fakeRecord({
      scene: "fig10-alpha-beta-00",
      handler: "merge-split",
      status: "failed",
      error: "device lost <script>alert(1)</script>",
      metrics: null,
      timings: null,
    }),
  );
  // A sweep of the dam break: merge-split at three sizes, penalty-weak unstable at the second.
  (["tiny", "small", "medium"] as const).forEach((scale, k) => {
    const n = 432 * 8 ** k;
    first.push(
      fakeRecord({
        scene: "dam-break-sph",
        scale,
        particles: { solid: 0, fluid: n },
        timeScale: n ** 0.9 / 400,
      }),
    );
    if (k < 2) {
      first.push(
        fakeRecord({
          scene: "dam-break-sph",
          handler: "penalty-weak",
          scale,
          status: k ? "unstable" : "ok",
          particles: { solid: 0, fluid: n },
          timeScale: n / 300,
        }),
      );
    }
  });
  const second = handlers.map((handler, k) =>
    fakeRecord({ handler, timeScale: 1 + 0.3 * k, summary: { passThroughMax: k === 1 ? 9 : 0 } })
  );
  return [{ label: "machine A", records: first }, { label: "machine B", records: second }];
}

/** Chromium on the report, with the found binary. */
function runChromium(args: string[], options: { profile: string }): Promise<string> {
  return runChromiumAt(chromium!, args, options);
}

function unescapeHtml(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}

Deno.test({
  name: chromium
    ? "report in headless Chromium"
    : "report in headless Chromium (SKIPPED: no chromium at " + CANDIDATES.join(", ") +
      "; install it with `apt-get install -y chromium`)",
  ignore: !chromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const dir = await Deno.makeTempDir({ prefix: "mergesplit-browser-" });
    try {
      const file = join(dir, "report.html");
      Deno.writeTextFileSync(file, renderReport(inputs(), { title: "browser test" }));
      const url = `file://${file}`;

      await t.step("self-test: no console errors, charts drawn, 3D view rendered", async () => {
        // The verdict is written once three.js has loaded and two frames were drawn; on a loaded
        // machine Chromium can dump the page before that (its virtual-time budget does not cover
        // the module import and SwiftShader's frames), so an absent verdict is retried, twice.
        let dom = "";
        let m: RegExpExecArray | null = null;
        for (let attempt = 1; attempt <= 3 && !m?.[1].trim(); attempt++) {
          if (attempt > 1) console.log(`no self-test verdict yet: attempt ${attempt} of 3`);
          dom = await runChromium(["--dump-dom", `${url}#selftest`], {
            profile: join(dir, `profile-${attempt}`),
          });
          m = /<pre id="selftest"[^>]*>([^<]*)<\/pre>/.exec(dom);
        }
        assert.ok(
          m && m[1].trim(),
          `no self-test verdict in the page (title: ${/<title>([^<]*)/.exec(dom)?.[1]})`,
        );
        const verdict = JSON.parse(unescapeHtml(m![1]));
        assert.deepEqual(verdict.errors, [], "console errors");
        assert.equal(verdict.chartJs, true);
        // Phases and phase shares ×2 inputs; 4 series charts per scene and scale: fig4 and the
        // dam break at 3 scales in input A, fig4 in input B; the comparison; input A's scaling.
        assert.equal(verdict.charts.total, 2 + 2 + 4 * 4 + 4 + 1 + 1);
        assert.deepEqual(verdict.charts.undrawn, []);
        assert.deepEqual(verdict.charts.blank, []);
        assert.equal(verdict.viewer.rendered, true, `viewer: ${verdict.viewer.error}`);
        assert.ok(
          verdict.viewer.inkPixels > 100,
          `3D view almost empty: ${verdict.viewer.inkPixels}`,
        );
        // The first case has fragments: it opens coloured by fragment, both modes draw.
        assert.equal(verdict.viewer.colorMode, "fragment");
        for (const mode of ["fragment", "body"]) {
          assert.equal(verdict.viewer.colorModes[mode]?.shown, mode, mode);
          assert.ok(verdict.viewer.colorModes[mode].inkPixels > 100, `${mode} colours: empty view`);
        }
        // The middle frame (step 40) shows 3 fragments, labelled at the sample of step 30.
        assert.match(verdict.viewer.caption, /step 40\), 3 fragments \(as of step 30\)$/);
        assert.equal(verdict.ok, true);
        // The malicious error message stayed text.
        assert.ok(!dom.includes("<script>alert(1)"));
      });

      await t.step("screenshots", async () => {
        Deno.mkdirSync(SCREENSHOT_DIR, { recursive: true });
        const shots: Array<[string, string]> = [
          ["report-top.png", ""],
          ["report-views.png", "#only=viewer-section,series,comparison"],
          ["report-scaling.png", "#only=table-1,scaling"],
        ];
        for (const [name, hash] of shots) {
          const path = new URL(name, SCREENSHOT_DIR).pathname;
          await runChromium(
            ["--window-size=1400,2000", `--screenshot=${path}`, `${url}${hash}`],
            { profile: join(dir, `profile-${name}`) },
          );
          const png = Deno.readFileSync(path);
          assert.deepEqual([...png.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47], `${path} is not a PNG`);
          assert.ok(png.length > 20_000, `${path} is suspiciously small (${png.length} bytes)`);
          console.log(`screenshot: ${path}`);
        }
      });

      await t.step("deno task screenshot: one scene's 3D view at its last frame", async () => {
        const path = new URL("report-viewer-last.png", SCREENSHOT_DIR).pathname;
        const first = inputs()[0].records.find((r) => r.snapshots)!;
        await screenshot(file, path, { case: first.scene, frame: "last", size: [900, 700] });
        const png = Deno.readFileSync(path);
        assert.deepEqual([...png.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47], `${path} is not a PNG`);
        assert.ok(png.length > 10_000, `${path} is suspiciously small (${png.length} bytes)`);
        console.log(`screenshot: ${path}`);
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

if (!chromium) {
  console.warn(
    `browser_test: skipped, no chromium at ${
      CANDIDATES.join(", ")
    } (Debian: apt-get update && apt-get install -y chromium)`,
  );
}
