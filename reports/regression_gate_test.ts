import assert from "node:assert/strict";
import type { CaseRecord } from "../core/result.ts";
import { recordLine } from "../core/result.ts";
import { recordFixture } from "../core/result_fixture.ts";
import { Rng } from "../core/rng.ts";
import { findRegressions, TIME_SLOWDOWN } from "./regression_gate.ts";
import { main } from "./main.ts";

/**
 * A run of two cases whose 180 step times are `ms` × (1 ± `noise`, uniform) drawn from `seed`,
 * with the given leak and split energy error.
 */
function run(
  seed: number,
  o: { ms?: number; noise?: number; leak?: number; energyError?: number } = {},
): CaseRecord[] {
  const rng = new Rng(seed);
  return ["merge-split", "penalty-weak"].map((handler) => {
    const samples = Array.from(
      { length: 180 },
      () => (o.ms ?? 10) * (1 + (o.noise ?? 0.05) * (2 * rng.nextFloat() - 1)),
    );
    const sorted = [...samples].sort((a, b) => a - b);
    const r = recordFixture({ handler, steps: 200 });
    r.timings!.phases.total = {
      ...r.timings!.phases.total,
      median: (sorted[89] + sorted[90]) / 2,
      samples,
      n: samples.length,
    };
    r.metrics!.summary = {
      passThroughFraction: o.leak ?? 0.02,
      energyError: o.energyError ?? 0.001,
    };
    return r;
  });
}

Deno.test("a planted 20 % slowdown is a regression of every case's step time", () => {
  const found = findRegressions(run(1), run(2, { ms: 12 }));
  assert.deepEqual(found.map((r) => `${r.case} ${r.metric}`), [
    "fig4-fluid-cloth × merge-split (tiny) time",
    "fig4-fluid-cloth × penalty-weak (tiny) time",
  ]);
  assert.match(found[0].detail, /speed-up 0\.8\d+, 95% interval \[0\.\d+, 0\.8\d+\] \(bootstrap\)/);
});

Deno.test("a re-run of the same code, other noise, is no regression", () => {
  assert.deepEqual(findRegressions(run(1), run(2)), []);
  assert.deepEqual(findRegressions(run(1), run(1)), []);
});

Deno.test("the time is judged on the interval: a small or noisy slowdown does not alarm", () => {
  assert.deepEqual(findRegressions(run(1), run(2, { ms: 10.5 })), []);
  // 12 % slower on the medians, but so noisy the interval reaches below the threshold
  const noisy = findRegressions(run(1, { noise: 0.6 }), run(2, { ms: 11.2, noise: 0.6 }));
  assert.deepEqual(noisy, []);
  const clean = findRegressions(
    run(1, { noise: 0.01 }),
    run(2, { ms: 10 * (1.02 + TIME_SLOWDOWN), noise: 0.01 }),
  );
  assert.equal(clean.length, 2);
});

Deno.test("leak and split energy error regress upwards beyond their thresholds", () => {
  const found = findRegressions(run(1), run(1, { leak: 0.05, energyError: 0.1 }));
  assert.deepEqual(found.map((r) => r.metric), ["leak", "energy-error", "leak", "energy-error"]);
  assert.match(found[0].detail, /passThroughFraction 0\.0200 → 0\.0500/);
  assert.deepEqual(findRegressions(run(1), run(1, { leak: 0.025, energyError: 0.005 })), []);
  assert.deepEqual(findRegressions(run(1), run(1, { leak: 0, energyError: 0 })), []);
});

Deno.test("only the same case is judged: other steps are another case", () => {
  const other = run(2, { ms: 20 }).map((r) => ({ ...r, steps: 400 }));
  assert.deepEqual(findRegressions(run(1), other), []);
});

Deno.test("report --fail-on-regression: exit 1 naming case and metric, 0 on a re-run", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-gate-" });
  const lines: string[] = [];
  const { error, log } = console;
  console.error = console.log = (...a: unknown[]) => lines.push(a.join(" "));
  try {
    const write = (name: string, records: CaseRecord[]) => {
      Deno.mkdirSync(`${dir}/${name}`);
      Deno.writeTextFileSync(`${dir}/${name}/results.jsonl`, records.map(recordLine).join(""));
      return `${dir}/${name}/results.jsonl`;
    };
    const base = write("base", run(1));
    const slow = write("slow", run(2, { ms: 12 }));
    const again = write("again", run(3));
    const out = ["--out", `${dir}/c.html`];
    assert.equal(main([base, slow, "--fail-on-regression", ...out]), 1);
    assert.ok(
      lines.some((l) => /regression: fig4-fluid-cloth × merge-split \(tiny\): time: /.test(l)),
      lines.join("\n"),
    );
    assert.equal(main([base, again, "--fail-on-regression", ...out]), 0);
    assert.equal(main([base, slow, ...out]), 0, "without the flag a slowdown is only shown");
    assert.equal(main([base, "--fail-on-regression", ...out]), 2);
  } finally {
    Object.assign(console, { error, log });
    Deno.removeSync(dir, { recursive: true });
  }
});
