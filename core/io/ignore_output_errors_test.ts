import assert from "node:assert/strict";
import { ignoreOutputErrors, writeIgnoringErrors } from "./ignore_output_errors.ts";

/** A console whose every write fails as one to /dev/full does, counting the tries. */
function fullConsole() {
  const tries: string[] = [];
  const fail = (name: string) => (...args: unknown[]) => {
    tries.push(`${name}: ${args.join(" ")}`);
    throw new Error("No space left on device (os error 28)");
  };
  return {
    tries,
    target: {
      log: fail("log"),
      error: fail("error"),
      warn: fail("warn"),
      info: fail("info"),
      debug: fail("debug"),
    },
  };
}

Deno.test("ignoreOutputErrors: a full or closed output drops the line, nothing throws", () => {
  const { tries, target } = fullConsole();
  assert.throws(() => target.log("before"), /No space left/);
  ignoreOutputErrors(target);
  ignoreOutputErrors(target);
  target.log("summary", 1);
  target.error("progress");
  target.warn("w");
  target.info("i");
  target.debug("d");
  assert.deepEqual(tries, [
    "log: before",
    "log: summary 1",
    "error: progress",
    "warn: w",
    "info: i",
    "debug: d",
  ]);
});

Deno.test("writeIgnoringErrors: runs the write, ignores its failure", () => {
  const done: string[] = [];
  writeIgnoringErrors(() => done.push("written"));
  writeIgnoringErrors(() => {
    throw new Deno.errors.BrokenPipe("Broken pipe (os error 32)");
  });
  assert.deepEqual(done, ["written"]);
});
