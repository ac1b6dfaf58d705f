import assert from "node:assert/strict";
import { parseSummary } from "./run_tests.ts";

const FIXTURE = new URL("./run_test_file_fixture.ts", import.meta.url).pathname;
const RUNNER = new URL("./run_test_file.ts", import.meta.url).pathname;

async function run(file: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-check", RUNNER, file],
    env: { NO_COLOR: "1", MERGESPLIT_FIXTURE_FAIL: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, output: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

Deno.test("run_test_file: deno test's meaning and summary line, on the main thread", async () => {
  const { code, output } = await run(FIXTURE);
  assert.equal(code, 1, output);
  // the fixture: 3 tests (one with 3 steps of which one fails and one is nested, one ignored
  // test, one failing test without steps), as deno test counts them
  assert.deepEqual(parseSummary(output), { passed: 1, failed: 2, steps: 2 });
  assert.match(output, /^FAILED \| 1 passed \(2 steps\) \| 2 failed \(1 step\) \| 1 ignored/m);
  assert.match(output, /steps \.\.\. FAILED \(due to a failed step\)/);
  assert.match(output, /a failing step => .*AssertionError.*1 !== 2/s);
  assert.match(output, /order: a b c/);
});
