// run_tests: one implementation (signals to a child process that takes no device)
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

/** Starts the fixture, sends it `signal` once it listens; returns its status and stderr. */
async function stopWith(signal: Deno.Signal): Promise<{ code: number; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", fileURLToPath(new URL("./interrupt_fixture.ts", import.meta.url))],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  assert.match(new TextDecoder().decode(value), /ready/);
  reader.releaseLock();
  child.kill(signal);
  const { code, stderr } = await child.output();
  return { code, stderr: new TextDecoder().decode(stderr) };
}

Deno.test({
  name: "SIGHUP (a closed terminal) stops a run like SIGTERM: a notice and exit 129, not death",
  ignore: Deno.build.os === "windows",
  async fn() {
    const hup = await stopWith("SIGHUP");
    assert.equal(hup.code, 129, hup.stderr);
    assert.match(hup.stderr, /interrupt \(SIGHUP\): stopping after writing the finished cases/);
    const term = await stopWith("SIGTERM");
    assert.equal(term.code, 143, term.stderr);
  },
});
