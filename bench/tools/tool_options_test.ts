import assert from "node:assert/strict";
import { mainOrUsageError, readSeed, readSteps } from "./tool_options.ts";
import { OptionValueError } from "../../core/option_text.ts";

Deno.test("the tools' seed and steps read decimal integers alone, in range", () => {
  assert.equal(readSeed("7"), 7);
  assert.equal(readSteps(" 200 "), 200);
  for (const bad of ["0x1", "1e3", "-1", "4294967296", "", "7.5", "inf"]) {
    assert.throws(() => readSeed(bad), OptionValueError, bad);
  }
  assert.throws(() => readSteps("0"), /--steps must be a decimal integer, ≥ 1 and ≤ 10000000/);
  assert.throws(() => readSteps("1\u202e"), /got "1\\u\{202e\}"/);
});

Deno.test("a tool's refused option is one line and status 2; another error is thrown", async () => {
  const lines: string[] = [];
  const error = console.error;
  console.error = (line: string) => lines.push(line);
  try {
    const refused = await mainOrUsageError(() => Promise.resolve(readSeed("0x10")), []);
    assert.equal(refused, 2);
    assert.deepEqual(lines, ['--seed must be a decimal integer, ≥ 0 and ≤ 4294967295; got "0x10"']);
    const fine = await mainOrUsageError((args) => Promise.resolve(args.length + 1), ["a", "b"]);
    assert.equal(fine, 3, "the tool's own status when nothing is refused");
    await assert.rejects(
      mainOrUsageError(() => Promise.reject(new Error("a bug")), []),
      /a bug/,
    );
  } finally {
    console.error = error;
  }
});
