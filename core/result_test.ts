import assert from "node:assert/strict";
import { CASE_STATUSES, parseResults, readResults, recordLine, SCHEMA_VERSION } from "./result.ts";

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

/** A complete record line with `fields` replaced (a field set to undefined is left out). */
function line(fields: Record<string, unknown> = {}): string {
  const phase = {
    unit: "ms/step",
    median: 1,
    mad: 0.1,
    ci95: [0.9, 1.1],
    min: 0.8,
    max: 1.2,
    n: 3,
    samples: [0.9, 1, 1.1],
  };
  return JSON.stringify({
    schemaVersion: SCHEMA_VERSION,
    scene: "s",
    sceneSource: "catalog",
    handler: "merge-split",
    handlerParams: { nMax: "Infinity", alpha: 1 },
    scale: "tiny",
    seed: 1,
    steps: 10,
    dt: 1e-3,
    particles: { solid: 1, fluid: 2 },
    status: "ok",
    error: null,
    protocol: { warmupSteps: 1, repeats: 1, timeoutSeconds: "Infinity" },
    timings: {
      source: "timestamp",
      phases: { merging: phase, total: phase },
      transfer: { bytes: 0, ms: 0 },
      wall: { steps: 9, msPerStep: 1.5 },
    },
    metrics: {
      summary: { passThroughMax: 0, exploded: false, firstFracture: null },
      series: { every: 5, fields: ["time"], rows: [[0.005], [0.01]] },
    },
    stateHash: "a".repeat(64),
    repeatable: true,
    hostSyncsPerStep: 0.1,
    env: null,
    configHash: "0".repeat(64),
    startedAt: new Date(0).toISOString(),
    wallSeconds: 1,
    ...fields,
  });
}

Deno.test("readResults: bad lines are skipped and named, the finished cases kept", async (t) => {
  await t.step("a torn last line (a run killed mid-write)", () => {
    const text = `${line()}\n${line({ scene: "b" })}\n${line({ scene: "c" }).slice(0, 57)}`;
    const { records, skipped } = readResults(text);
    assert.deepEqual(records.map((r) => r.scene), ["s", "b"]);
    assert.deepEqual(skipped, [{ line: 3, reason: "not JSON (a torn write?)" }]);
    assert.equal(records[0].handlerParams.nMax, Infinity);
    assert.throws(
      () => parseResults(text),
      /^SyntaxError: results line 3 is not JSON \(a torn write\?\): .*; delete the line, or read the file with readResults to skip it$/,
      "the strict reader still refuses the file",
    );
  });

  await t.step("any bad line, by its number (blank lines count, are not skipped)", () => {
    const text = [line(), "", "garbage", line({ status: "hung" }), "[1]", line(), "null", ""]
      .join("\n");
    const { records, skipped } = readResults(text);
    assert.equal(records.length, 2);
    assert.deepEqual(skipped, [
      { line: 3, reason: "not JSON (a torn write?)" },
      {
        line: 4,
        reason: 'status "hung" is not ok, unstable, failed, timeout or gpu-timeout',
      },
      { line: 5, reason: "not a JSON object but an array" },
      { line: 7, reason: "not a JSON object but null" },
    ]);
    assert.deepEqual(readResults(""), { records: [], skipped: [] });
  });

  await t.step("malformed fields the reports read are named, with what they must be", () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { timings: "garbage" },
        'field "timings" must be an object or null, got the string "garbage"',
      ],
      [{ metrics: 5 }, 'field "metrics" must be an object or null, got the number 5'],
      [{ particles: null }, 'field "particles" must be an object, got null'],
      [{ particles: { solid: 1 } }, 'field "particles.fluid" must be a number, got nothing'],
      [
        { timings: { source: "timestamp", phases: { total: { median: "1" } } } },
        'field "timings.phases.total.median" must be a number or null, got the string "1"',
      ],
      [
        { timings: { source: "timestamp", phases: [] } },
        'field "timings.phases" must be an object',
      ],
      [{ metrics: { series: {} } }, 'field "metrics.summary" must be an object, got nothing'],
      [{ metrics: { summary: { energyRatio: "high" } } }, 'field "metrics.summary.energyRatio"'],
      [{ steps: "10" }, 'field "steps" must be a number, got the string "10"'],
      [
        { handlerParams: { alpha: [1] } },
        'field "handlerParams.alpha" must be a number or a string',
      ],
      [{ sweep: { "scene.dt": "x" } }, 'field "sweep.scene.dt" must be a number'],
      [{ env: { adapter: 1 } }, 'field "env.adapter" must be an object, got the number 1'],
      [{ env: { adapter: { backend: 3 } } }, 'field "env.adapter.backend" must be a string'],
      [{ protocol: { warmupSteps: 1 } }, 'field "protocol.repeats" must be a number'],
      [{ snapshots: {} }, 'field "snapshots.frames" must be an array, got nothing'],
      [{ gpu: { peakBufferBytes: "1 MiB" } }, 'field "gpu.peakBufferBytes" must be a number'],
      [{ gpu: { hostMsPerStep: "0.5 ms" } }, 'field "gpu.hostMsPerStep" must be a number'],
      [{ configHash: undefined }, 'field "configHash" must be a string, got nothing'],
      [
        { timings: { source: "timestamp", phases: { total: { median: 1, mean: "1.2" } } } },
        'field "timings.phases.total.mean" must be a number or null, got the string "1.2"',
      ],
      [{ schemaVersion: 0 }, 'field "schemaVersion" must be 1 (the versions this harness reads)'],
    ];
    for (const [fields, message] of cases) {
      const text = `${line()}\n${line(fields)}\n`;
      const { records, skipped } = readResults(text);
      assert.equal(records.length, 1, message);
      assert.equal(skipped.length, 1, message);
      assert.equal(skipped[0].line, 2);
      assert.ok(skipped[0].reason.startsWith(message), `${skipped[0].reason} ≠ ${message}…`);
      assert.throws(
        () => parseResults(text),
        (e: Error) =>
          e instanceof SyntaxError &&
          e.message.startsWith(`results line 2: ${message}`) &&
          e.message.endsWith(
            "; re-run its case or delete the line, or read the file with readResults to skip it",
          ),
        message,
      );
    }
  });

  await t.step("null timings and metrics (a failed case) and absent optional fields pass", () => {
    const failed = line({ status: "failed", timings: null, metrics: null, env: null });
    const old = JSON.stringify({
      schemaVersion: 1,
      scene: "s",
      handler: "h",
      scale: "tiny",
      status: "ok",
      configHash: "x",
    });
    assert.deepEqual(readResults(`${failed}\n${old}\n${line()}`).skipped, []);
  });

  await t.step("a timing's mean is optional: records written before it was kept still read", () => {
    const phase = (extra: Record<string, unknown>) => ({
      unit: "ms/step",
      median: 1,
      mad: 0.1,
      ci95: [0.9, 1.1],
      min: 0.8,
      max: 1.4,
      n: 3,
      samples: [0.8, 1, 1.4],
      ...extra,
    });
    const timings = (extra: Record<string, unknown>) => ({
      source: "timestamp",
      phases: { total: phase(extra) },
      transfer: { bytes: 0, ms: 0 },
    });
    const withMean = line({ timings: timings({ mean: 16 / 15 }) });
    const before = line({ timings: timings({}) });
    const empty = line({ timings: timings({ mean: null, median: null, n: 0, samples: [] }) });
    const { records, skipped } = readResults(`${withMean}
${before}
${empty}
`);
    assert.deepEqual(skipped, []);
    assert.deepEqual(records.map((r) => r.timings!.phases.total.mean), [16 / 15, undefined, null]);
    assert.ok("mean" in schema.$defs.phaseTiming.properties);
    assert.ok(!schema.$defs.phaseTiming.required.includes("mean"), "optional in the JSON Schema");
  });

  await t.step("a newer schema version says to update", () => {
    const { skipped } = readResults(line({ schemaVersion: 2, timings: 7 }));
    assert.deepEqual(skipped, [{
      line: 1,
      reason: "schemaVersion 2 is newer than this harness reads (1)",
    }]);
    assert.throws(
      () => parseResults(line({ schemaVersion: 2 })),
      /^SyntaxError: results line 1: schemaVersion 2 is newer than this harness reads \(1\); update mergesplit$/,
    );
  });
});
