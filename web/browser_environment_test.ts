import assert from "node:assert/strict";
import { browserEnvironment } from "./browser_environment.ts";
import { parseResults } from "../core/result.ts";
import { fakeRecord } from "../reports/fake_record.ts";

Deno.test("browserEnvironment: a record of the browser bench passes the result schema", () => {
  const adapter = fakeRecord().env!.adapter;
  const env = browserEnvironment(adapter, {
    build: { commit: "abc", dirty: false, builtAt: "2026-11-26T00:00:00Z" },
    navigator: {
      userAgent: "Mozilla/5.0 HeadlessChrome/140",
      hardwareConcurrency: 2,
      deviceMemory: 8,
      userAgentData: { platform: "Linux" },
    },
    origin: "http://127.0.0.1:8000",
  });
  assert.equal(env.deno, undefined);
  assert.deepEqual(env.browser, {
    userAgent: "Mozilla/5.0 HeadlessChrome/140",
    origin: "http://127.0.0.1:8000",
  });
  assert.equal(env.memoryBytes, 8 * 2 ** 30);
  assert.deepEqual(env.git, { commit: "abc", dirty: false });
  const line = JSON.stringify(fakeRecord({ env }));
  const [record] = parseResults(line);
  assert.equal(record.env?.browser?.origin, "http://127.0.0.1:8000");
});
