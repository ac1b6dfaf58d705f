// run_tests: one implementation (re-bundles the report page's client with deno bundle; no WebGPU)
import assert from "node:assert/strict";
import { join } from "node:path";
import { bundleReportClient, CLIENT_BUNDLE } from "./report_client_bundle.ts";

Deno.test("the committed report client bundle is the bundle of report_client.ts", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mergesplit-report-client-" });
  try {
    const fresh = join(dir, "report_client.bundle.js");
    await bundleReportClient(fresh);
    const committed = await Deno.readTextFile(CLIENT_BUNDLE);
    assert.ok(
      committed === await Deno.readTextFile(fresh),
      "reports/page/report_client.bundle.js differs from a bundle of reports/page/report_client.ts; " +
        "run deno task report-client (and commit the bundle)",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the report client bundle is one classic script: no import or export", async () => {
  const text = await Deno.readTextFile(CLIENT_BUNDLE);
  assert.match(text, /^\(\(\) => \{\n/, "an IIFE (deno bundle --format iife)");
  assert.doesNotMatch(text, /^\s*(import|export)\s/m);
  assert.doesNotMatch(text, /npm:|chart\.js@/, "library types only, erased");
});
