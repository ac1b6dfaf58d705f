// run_tests: one implementation (two bench runs as subprocesses sharing an output folder)
import assert from "node:assert/strict";
import { join } from "node:path";
import { CLAIM_NAME, claimOutputDir, pidAlive } from "./output_claim.ts";
import { OutputDirError } from "./output_dir.ts";

const claims = (dir: string) =>
  [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.startsWith(CLAIM_NAME.prefix))
    .sort();

Deno.test("claimOutputDir: a live run's folder is refused without --append, shared with it", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-claim-" });
  try {
    const first = claimOutputDir(dir, { pid: 101, alive: () => true });
    assert.deepEqual(claims(dir), [".mergesplit-run-101.lock"]);
    assert.throws(
      () => claimOutputDir(dir, { pid: 102, alive: () => true }),
      (e: unknown) =>
        e instanceof OutputDirError && !e.message.includes("\n") &&
        e.message.startsWith(`${dir} is being written by another bench run (pid 101 on `) &&
        e.message.includes("pass --append to add to its results, or give another --out"),
    );
    assert.deepEqual(claims(dir), [".mergesplit-run-101.lock"], "the refused run's claim is gone");
    const appending = claimOutputDir(dir, { pid: 103, append: true, alive: () => true });
    assert.deepEqual(claims(dir), [".mergesplit-run-101.lock", ".mergesplit-run-103.lock"]);
    appending.release();
    first.release();
    first.release();
    assert.deepEqual(claims(dir), []);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("claimOutputDir: a --resume run shares its folder with no other run", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-claim-" });
  const alive = () => true;
  try {
    const first = claimOutputDir(dir, { pid: 301, append: true, resume: true, alive });
    for (const second of [{ resume: true }, { resume: false }]) {
      assert.throws(
        () => claimOutputDir(dir, { pid: 302, append: true, ...second, alive }),
        (e: unknown) =>
          e instanceof OutputDirError && e.message.includes("(pid 301 on ") &&
          e.message.includes("a --resume run shares its folder with no other run") &&
          !e.message.includes("pass --append"),
        "a second --resume, or an --append beside one, would run or mix the same cases",
      );
    }
    first.release();
    const appending = claimOutputDir(dir, { pid: 303, append: true, alive });
    assert.throws(
      () => claimOutputDir(dir, { pid: 304, append: true, resume: true, alive }),
      /this one runs the cases the results file does not yet hold/,
    );
    appending.release();
    assert.deepEqual(claims(dir), []);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("claimOutputDir: a killed run's claim (its pid no longer running) is taken over", () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-claim-" });
  try {
    claimOutputDir(dir, { pid: 201, alive: () => true }); // never released: killed
    const next = claimOutputDir(dir, { pid: 202, alive: (pid) => pid !== 201 });
    assert.deepEqual(claims(dir), [".mergesplit-run-202.lock"]);
    next.release();
    assert.equal(pidAlive(Deno.pid), true);
    assert.equal(pidAlive(2 ** 22 + 12345), false, "beyond Linux's largest pid");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

const BENCH = new URL("../main.ts", import.meta.url).pathname;
const dec = new TextDecoder();

/** Starts the bench on a case that runs for minutes, into `out`. */
function longRun(out: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", BENCH, ...LONG_CASE, "--out", out],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
}

const LONG_CASE = [
  ...["--scene", "fig4-fluid-cloth", "--handler", "merge-split", "--scale", "tiny"],
  ...["--adapter", "software", "--steps", "1000000", "--warmup", "5"],
];

/** Waits until `ok()` holds (polling), or fails after `seconds`. */
async function until(ok: () => boolean, seconds: number, what: string): Promise<void> {
  const end = Date.now() + seconds * 1000;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

Deno.test({
  name: "bench: a second run into a running one's --out is refused (exit 2); SIGTERM stops a run",
  ignore: Deno.build.os === "windows",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = Deno.makeTempDirSync({ prefix: "mergesplit-claim-" });
    const out = join(dir, "out");
    const first = longRun(out);
    try {
      await until(
        () => {
          try {
            return claims(out).length > 0;
          } catch {
            return false;
          }
        },
        60,
        "the first run's claim",
      );
      const second = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", BENCH, ...LONG_CASE, "--out", out],
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).output();
      const err = dec.decode(second.stderr);
      assert.equal(second.code, 2, err);
      assert.match(err, /^mergesplit bench: .* is being written by another bench run \(pid \d+ /);
      assert.equal(err.trim().split("\n").length, 1, err);
      // the first run is in its case's steps (it has printed its plan): SIGTERM stops it there
      first.kill("SIGTERM");
      const [status, stderr] = await Promise.all([
        first.status,
        new Response(first.stderr).text(),
        first.stdout.cancel(),
      ]);
      assert.equal(status.code, 143, stderr);
      assert.match(stderr, /interrupt \(SIGTERM\): stopping after writing the finished cases/);
      assert.deepEqual(claims(out), [], "the claim is removed at the run's end");
    } finally {
      try {
        first.kill("SIGKILL");
      } catch {
        // ended
      }
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
