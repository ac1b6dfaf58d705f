// run_tests: one implementation (gpu-check's arguments and its stage process: no kernel tested)
import assert from "node:assert/strict";
import { join } from "node:path";
import { GpuCheckUsageError, MAX_BUDGET, parseGpuCheckArgs, runGpuCheck } from "./gpu_check.ts";

Deno.test("gpu-check: a budget past a timer's reach (2^31 - 1 ms, 24.8 days) is refused", async () => {
  for (const budget of ["2200000", "1e9", String(MAX_BUDGET + 1)]) {
    assert.throws(
      () => parseGpuCheckArgs(["--budget", budget]),
      (e: unknown) =>
        e instanceof GpuCheckUsageError &&
        e.message === `--budget must be at most 864000 seconds (10 days), got "${budget}"`,
    );
  }
  assert.equal(parseGpuCheckArgs(["--budget", String(MAX_BUDGET)]).budget, MAX_BUDGET);
  await assert.rejects(
    () => runGpuCheck({ budget: 3e6, stages: [], out: "/nonexistent/never-made", echo: false }),
    /budget must be in \(0, 864000\] seconds, got 3000000/,
  );
});

/** Whether process `pid` runs (a zombie, ended but not yet reaped, does not). */
function running(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

Deno.test({
  name: "gpu-check: a stage's bench ends when the check is killed (SIGKILL)",
  ignore: Deno.build.os !== "linux",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = Deno.makeTempDirSync({ prefix: "mergesplit-gpu-check-" });
    const fixture = new URL("./gpu_check_parent_fixture.ts", import.meta.url).pathname;
    const parent = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", fixture, dir],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    let stage = 0;
    try {
      const reader = parent.stdout.getReader();
      const { value } = await reader.read();
      stage = Number(new TextDecoder().decode(value).trim());
      assert.ok(stage > 0 && running(stage), "the stage runs");
      // the stage has claimed its folder: it is in its run (past its start-up)
      const end = Date.now() + 60_000;
      const claimed = () => {
        try {
          return [...Deno.readDirSync(join(dir, "stage"))].some((e) => e.name.endsWith(".lock"));
        } catch {
          return false;
        }
      };
      while (!claimed() && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      parent.kill("SIGKILL");
      await parent.status;
      reader.releaseLock();
      await parent.stdout.cancel();
      const gone = Date.now() + 45_000;
      while (running(stage) && Date.now() < gone) await new Promise((r) => setTimeout(r, 200));
      assert.equal(running(stage), false, "the stage outlived its check");
    } finally {
      if (stage > 0 && running(stage)) Deno.kill(stage, "SIGKILL");
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
