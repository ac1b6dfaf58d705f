// run_tests: one implementation (the browser bench in Chromium, whose WebGPU is its own)
/**
 * The browser bench from a fresh build: `deno task web`'s folder, opened in headless Chromium on
 * SwiftShader, runs `fig4-fluid-cloth` at `tiny` under merge-split, the record it offers passes
 * the result schema and reads as a Deno run's does (`deno task report`'s reader), and it renders the
 * report. Skipped without Chromium. The whole default suite against the Deno bench is
 * `deno task web-check` (CI).
 *
 * @module
 */
import assert from "node:assert/strict";
import { parseResults } from "../core/result.ts";
import { findChromium } from "../reports/page/chromium.ts";
import { buildPage } from "./build_page.ts";
import { runPageInChromium } from "./chromium_page.ts";

Deno.test({
  name: "browser bench: the built page runs fig4 × merge-split at tiny; its record is a result",
  ignore: !findChromium(),
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "mergesplit-web-" });
    try {
      const build = await buildPage(out);
      const outcome = await runPageInChromium(out, {
        query: "suite=&scenes=fig4-fluid-cloth&handlers=merge-split&scale=tiny&steps=6&report=1",
        timeoutMs: 240_000,
      });
      assert.equal(outcome.error, null);
      assert.equal(outcome.lines.length, 1);
      const [record] = parseResults(outcome.lines.join("\n"));
      assert.equal(record.scene, "fig4-fluid-cloth");
      assert.equal(record.handler, "merge-split");
      assert.equal(record.status, "ok", record.error ?? "");
      assert.equal(record.steps, 6);
      assert.match(record.stateHash ?? "", /^[0-9a-f]{64}$/);
      assert.ok(record.env?.browser?.userAgent.includes("Chrome"), "the browser is recorded");
      assert.equal(record.env?.adapter.backend, undefined, "the browser names no backend");
      assert.equal(record.env?.git.commit, build.commit);
      assert.ok((record.timings?.phases.total.median ?? 0) > 0, "steps were timed");
      assert.ok(outcome.claims.length > 0, "the page evaluated the claims");
      // the report, with chart.js and three.js inlined from the build's libraries.json
      assert.ok(outcome.reportChars > 500_000, `a report of ${outcome.reportChars} characters`);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});
