import assert from "node:assert/strict";
import {
  CASE_STATUSES,
  MAX_CASE_LIST,
  MAX_CASE_SECONDS,
  parseResults,
  readResults,
  recordLine,
  REQUIRED_FIELDS,
} from "./result.ts";
import { SCALES } from "./scene/scene.ts";
import { recordFixture } from "./result_fixture.ts";

const schema = JSON.parse(Deno.readTextFileSync(new URL("./result.schema.json", import.meta.url)));

Deno.test("result schema", async (t) => {
  await t.step("the JSON Schema requires exactly the fields a record has", () => {
    const rec = recordFixture({
      handlerParams: { nMax: Infinity },
      status: "failed",
      timings: null,
      metrics: null,
      stateHash: null,
      repeatable: null,
      hostSyncsPerStep: null,
    });
    assert.deepEqual([...schema.required].sort(), Object.keys(rec).sort());
    const back = parseResults(recordLine(rec as never) + "\n" + recordLine(rec as never));
    assert.equal(back.length, 2);
    assert.equal(back[0].handlerParams.nMax, Infinity);
  });
  await t.step("every status is in the JSON Schema, and an unknown one is named", () => {
    assert.deepEqual(schema.properties.status.enum, [...CASE_STATUSES]);
    assert.equal(parseResults(line({ status: "gpu-timeout" }))[0].status, "gpu-timeout");
    assert.throws(
      () => parseResults(line({ status: "hung" })),
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
  const base = recordFixture();
  const timings = { ...base.timings!, wall: { steps: 9, msPerStep: 1.5 } };
  return JSON.stringify({
    ...base,
    handlerParams: { nMax: "Infinity", alpha: 1 },
    protocol: { ...base.protocol, timeoutSeconds: "Infinity" },
    timings: { ...timings, phases: { merging: timings.phases.total, total: timings.phases.total } },
    metrics: {
      ...base.metrics!,
      summary: { passThroughMax: 0, exploded: false, firstFracture: null },
    },
    scene: "s",
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
      [
        { timings: null },
        'field "timings" must be an object in a case that ran to its end (status ok), got null',
      ],
      [{ metrics: 5 }, 'field "metrics" must be an object or null, got the number 5'],
      [{ particles: null }, 'field "particles" must be an object, got null'],
      [
        { particles: { solid: 1 } },
        'field "particles.fluid" must be an integer of at least 0, got nothing',
      ],
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
      [{ steps: "10" }, 'field "steps" must be an integer of at least 1, got the string "10"'],
      [
        { handlerParams: { alpha: [1] } },
        'field "handlerParams.alpha" must be a number or a string',
      ],
      [{ sweep: { "scene.dt": "x" } }, 'field "sweep.scene.dt" must be a number'],
      [{ env: { adapter: 1 } }, 'field "env.adapter" must be an object, got the number 1'],
      [{ env: { adapter: { backend: 3 } } }, 'field "env.adapter.backend" must be a string'],
      [
        { protocol: { warmupSteps: 1 } },
        'field "protocol.repeats" must be an integer of at least 1',
      ],
      [{ snapshots: {} }, 'field "snapshots.frames" must be an array, got nothing'],
      [
        { gpu: { peakBufferBytes: "1 MiB" } },
        'field "gpu.peakBufferBytes" must be a finite number of at least 0',
      ],
      [
        { gpu: { hostMsPerStep: "0.5 ms" } },
        'field "gpu.hostMsPerStep" must be a finite number of at least 0',
      ],
      [
        { configHash: undefined },
        'field "configHash" is missing; every record of this harness has it',
      ],
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
    const bare = line({ gpu: undefined, sweep: undefined, case: undefined, systems: undefined });
    assert.deepEqual(readResults(`${failed}\n${bare}\n${line()}`).skipped, []);
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

Deno.test("readResults: a record that breaks the schema is skipped, naming the field", async (t) => {
  const hostile: Array<[string, string]> = [
    [line({ steps: -5 }), 'field "steps" must be an integer of at least 1, got the number -5'],
    [line({ metrics: undefined }), 'field "metrics" is missing'],
    [
      line({ stateHash: "not-a-hash" }),
      'field "stateHash" must be a SHA-256 (64 lowercase hex digits), got the string "not-a-hash"',
    ],
    [
      line({ scale: "galactic" }),
      'field "scale" must be one of tiny, small, medium or paper, got the string "galactic"',
    ],
    [
      line().replace('"exploded":false', '"exploded":false,"energyRatio":-1e999'),
      'field "metrics.summary.energyRatio" must be a finite number (or the string "Infinity"), got a number past the range of a double (read as -Infinity)',
    ],
    [line({ seed: 1.5 }), 'field "seed" must be an integer of at least 0, got the number 1.5'],
    [line({ scene: "fig4\u202e-x" }), 'field "scene" "fig4\\u{202e}-x" holds a control'],
    [line({ handler: "a\nok" }), 'field "handler" "a\\nok" holds a control'],
    [line({ dt: 0 }), 'field "dt" must be a finite number above 0, got the number 0'],
    [
      line({ dt: "Infinity" }),
      'field "dt" must be a finite number above 0, got the number Infinity',
    ],
    [line({ particles: { solid: -1, fluid: 0 } }), 'field "particles.solid" must be an integer'],
    [line({ configHash: "C".repeat(64) }), 'field "configHash" must be a SHA-256'],
    [line({ startedAt: "yesterday" }), 'field "startedAt" must be a date and time'],
    [line({ timings: { source: "sundial", phases: {} } }), 'field "timings.source" must be one of'],
    [
      line({ hostSyncsPerStep: -1 }),
      'field "hostSyncsPerStep" must be a finite number of at least 0',
    ],
    [
      line({ case: { index: 3, of: 2, list: "l", shard: null } }),
      'field "case.index" must be below',
    ],
    [
      line({ case: { index: 0, of: 1e12, list: "l", shard: null } }),
      'field "case.of" must be at most',
    ],
    [line({ metrics: null }), 'field "metrics" must be an object in a case that ran to its end'],
    [
      line({
        metrics: {
          summary: { a: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]] },
        },
      }),
      `field "metrics.summary.a${".0".repeat(29)}" is nested deeper than 32 levels`,
    ],
  ];
  for (const [text, reason] of hostile) {
    await t.step(reason, () => {
      const { records, skipped } = readResults(`${line()}\n${text}\n`);
      assert.equal(records.length, 1);
      assert.equal(skipped.length, 1, `${reason}: not skipped`);
      assert.equal(skipped[0].line, 2);
      assert.ok(skipped[0].reason.startsWith(reason), `${skipped[0].reason} ≠ ${reason}…`);
    });
  }
  await t.step('a "__proto__" key stays a field, never the prototype', () => {
    const text = line().replace('"exploded":false', '"exploded":false,"__proto__":"Infinity"');
    const { records } = readResults(text);
    const summary = records[0].metrics!.summary;
    assert.equal(Object.getPrototypeOf(summary), Object.prototype);
    assert.equal(Object.getOwnPropertyDescriptor(summary, "__proto__")?.value, Infinity);
  });
  await t.step("the required fields are the JSON Schema's", () => {
    assert.deepEqual([...REQUIRED_FIELDS].sort(), [...schema.required].sort());
    assert.deepEqual(schema.properties.scale.enum, [...SCALES]);
    assert.equal(schema.properties.case.properties.of.maximum, MAX_CASE_LIST);
    assert.equal(schema.properties.wallSeconds.maximum, MAX_CASE_SECONDS);
  });
});
