import assert from "node:assert/strict";
import {
  formatBytes,
  InputLimitError,
  type LimitedLine,
  readLinesLimited,
  readTextLimited,
} from "./read_text_limited.ts";

Deno.test("readTextLimited: a regular file within the limit is read whole", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-limited-" });
  try {
    Deno.writeTextFileSync(`${dir}/a.json`, "héllo");
    assert.equal(readTextLimited(`${dir}/a.json`, 6), "héllo");
    assert.throws(() => readTextLimited(`${dir}/a.json`, 5), (e) => {
      assert.ok(e instanceof InputLimitError);
      assert.match(
        e.message,
        /^is longer than the limit of 5 bytes \(6 bytes\)$/,
      );
      return true;
    });
    assert.throws(() => readTextLimited(`${dir}/missing.json`, 5), Deno.errors.NotFound);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("readTextLimited: /dev/zero, a directory and a link to a device are refused, not read", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-limited-" });
  try {
    const refused = (path: string, kind: RegExp) =>
      assert.throws(() => readTextLimited(path, 1 << 30), (e) => {
        assert.ok(e instanceof InputLimitError, String(e));
        assert.match(e.message, kind);
        return true;
      });
    refused("/dev/zero", /^is a character device, not a regular file$/);
    refused(dir, /^is a directory, not a regular file/);
    Deno.symlinkSync("/dev/zero", `${dir}/zero.json`);
    refused(`${dir}/zero.json`, /^is a character device/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("readLinesLimited: lines streamed, a line past the limit yielded without its text", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-limited-" });
  try {
    const path = `${dir}/r.jsonl`;
    Deno.writeTextFileSync(path, `one\n${"x".repeat(50)}\n\nthré\nlast`);
    const lines: LimitedLine[] = [...readLinesLimited(path, 10, 4)];
    assert.deepEqual(lines, [
      { line: 1, text: "one" },
      { line: 2, text: null, bytes: 50 },
      { line: 3, text: "" },
      { line: 4, text: "thré" },
      { line: 5, text: "last" },
    ]);
    Deno.writeTextFileSync(path, "a\n");
    assert.deepEqual([...readLinesLimited(path, 10)], [{ line: 1, text: "a" }]);
    assert.throws(() => [...readLinesLimited("/dev/zero", 10)], InputLimitError);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("formatBytes: bytes, then binary units", () => {
  assert.equal(formatBytes(5), "5 bytes");
  assert.equal(formatBytes(16 * 2 ** 20), "16 MiB");
  assert.equal(formatBytes(1536), "1.5 KiB");
});
