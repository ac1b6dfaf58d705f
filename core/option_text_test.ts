import assert from "node:assert/strict";
import {
  controlCharacterProblem,
  escapedText,
  hasControlCharacter,
  parseOptionNumber,
} from "./option_text.ts";

Deno.test("parseOptionNumber: decimal, inf and -inf alike; no hex, no separators", () => {
  const good: [string, number][] = [
    ["0.5", 0.5],
    [" 12 ", 12],
    ["-2", -2],
    ["+3", 3],
    [".5", 0.5],
    ["5.", 5],
    ["1e-3", 1e-3],
    ["2E+2", 200],
    ["inf", Infinity],
    ["-inf", -Infinity],
    ["+Inf", Infinity],
    ["Infinity", Infinity],
    ["-infinity", -Infinity],
    ["-0", 0],
  ];
  for (const [text, n] of good) assert.equal(parseOptionNumber(text), n, text);
  assert.ok(Object.is(parseOptionNumber("-0"), 0), "-0 reads as 0");
  const bad = [
    "",
    " ",
    "0x1",
    "0X1",
    "0b1",
    "0o7",
    "1_000",
    "1,5",
    "NaN",
    "e3",
    "1e",
    "--1",
    "1e999",
  ];
  for (const text of bad) assert.equal(parseOptionNumber(text), null, text);
});

Deno.test("parseOptionNumber: integers are sign and digits only", () => {
  assert.equal(parseOptionNumber("42", { integer: true }), 42);
  assert.equal(parseOptionNumber("+7", { integer: true }), 7);
  for (const text of ["1e3", "2.5", "inf", "0x10", ""]) {
    assert.equal(parseOptionNumber(text, { integer: true }), null, text);
  }
});

Deno.test("control characters: found, and shown escaped on one line", () => {
  for (
    const c of [
      "\n",
      "\r",
      "\t",
      "\x00",
      "\x1b",
      "\x7f",
      "\x9b",
      "\u202e",
      "\u2066",
      "\u200b",
      "\u2028",
    ]
  ) {
    assert.ok(hasControlCharacter(`a${c}b`), JSON.stringify(c));
  }
  for (const ok of ["fig4-fluid-cloth", "Fig. 4 (left)", "élan", "水"]) {
    assert.ok(!hasControlCharacter(ok), ok);
  }
  assert.equal(escapedText('a\n"b\u202e\\'), '"a\\n\\"b\\u{202e}\\\\"');
  assert.equal(controlCharacterProblem("fig4", "--scene"), null);
  const message = controlCharacterProblem("x\nmergesplit: all ok", "--scene")!;
  assert.match(message, /^--scene "x\\nmergesplit: all ok" holds a control or formatting/);
  assert.ok(!/[\n\u202e]/.test(message));
});
