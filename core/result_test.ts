import assert from "node:assert/strict";
import { CASE_STATUSES, parseResults, recordLine, SCHEMA_VERSION } from "./result.ts";

const schema = JSON.parse(Deno.readTextFileSync(new URL("./result.schema.json", import.meta.url)));

Deno.test("result schema", async (t) => {
  await t.step("the JSON Schema requires exactly the fields a record has", () => {
    const rec = {
      schemaVersion: SCHEMA_VERSION,
      scene: "s",
      sceneSource: "catalog",
      handler: "merge-split",
      handlerParams: { nMax: Infinity },
      scale: "tiny",
      seed: 1,
      steps: 10,
      dt: 1e-3,
      particles: { solid: 1, fluid: 1 },
      status: "ok",
      error: null,
      protocol: { warmupSteps: 0, repeats: 1, timeoutSeconds: 1 },
      timings: null,
      metrics: null,
      stateHash: null,
      repeatable: null,
      hostSyncsPerStep: null,
      env: null,
      configHash: "0".repeat(64),
      startedAt: new Date(0).toISOString(),
      wallSeconds: 0,
    };
    assert.deepEqual([...schema.required].sort(), Object.keys(rec).sort());
    const back = parseResults(recordLine(rec as never) + "\n" + recordLine(rec as never));
    assert.equal(back.length, 2);
    assert.equal(back[0].handlerParams.nMax, Infinity);
  });
  await t.step("every status is in the JSON Schema, and an unknown one is named", () => {
    assert.deepEqual(schema.properties.status.enum, [...CASE_STATUSES]);
    const line = (status: string) =>
      JSON.stringify({
        schemaVersion: 1,
        scene: "s",
        handler: "h",
        scale: "tiny",
        status,
        configHash: "x",
      });
    assert.equal(parseResults(line("gpu-timeout"))[0].status, "gpu-timeout");
    assert.throws(
      () => parseResults(line("hung")),
      /line 1: status "hung" is not ok, unstable, failed, timeout or gpu-timeout/,
    );
  });
  await t.step("malformed lines and newer versions are named", () => {
    assert.throws(() => parseResults('{"a":1}\n{'), /line 1: field "schemaVersion"/);
    assert.throws(() => parseResults("not json"), /line 1 is not JSON/);
    const v2 = {
      schemaVersion: 2,
      scene: "s",
      handler: "h",
      scale: "tiny",
      status: "ok",
      configHash: "x",
    };
    assert.throws(() => parseResults(JSON.stringify(v2)), /schemaVersion 2 is newer/);
  });
});
