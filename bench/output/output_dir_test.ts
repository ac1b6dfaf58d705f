// run_tests: one implementation (the output folder; its child processes take no device)
import assert from "node:assert/strict";
import { join } from "node:path";
import { OutputDirError, prepareOutputDir } from "./output_dir.ts";
import { defaultOutDir } from "../main.ts";

const linux = Deno.build.os === "linux";

Deno.test("the bench's output folder", async (t) => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-out-" });
  try {
    await t.step("a missing folder is created with its parents and left empty", () => {
      const out = join(dir, "a", "b", "c");
      prepareOutputDir(out);
      assert.ok(Deno.statSync(out).isDirectory);
      assert.deepEqual([...Deno.readDirSync(out)], [], "the probe file is removed");
    });

    await t.step("an earlier run's results are refused unless appended to", () => {
      Deno.writeTextFileSync(join(dir, "results.jsonl"), "{}\n");
      assert.throws(
        () => prepareOutputDir(dir),
        (e: unknown) =>
          e instanceof OutputDirError &&
          e.message ===
            `${dir} already holds results.jsonl of an earlier run (1 lines); pass --append to add ` +
              "this run's cases to it, or another --out",
      );
      assert.throws(() => prepareOutputDir(""), /empty path; pass --out a folder/);
    });

    await t.step("an existing folder keeps its files", () => {
      prepareOutputDir(dir, { append: true });
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
        "a",
        "results.jsonl",
      ]);
      assert.equal(Deno.readTextFileSync(join(dir, "results.jsonl")), "{}\n");
    });

    await t.step("a results file that is a directory or a FIFO is refused before any case", () => {
      const odd = join(dir, "odd");
      Deno.mkdirSync(join(odd, "results.jsonl"), { recursive: true });
      for (const append of [false, true]) {
        assert.throws(
          () => prepareOutputDir(odd, { append }),
          (e: unknown) =>
            e instanceof OutputDirError &&
            e.message === `the results file ${join(odd, "results.jsonl")} is a directory; ` +
                "remove it or pass another --out",
        );
      }
      Deno.removeSync(join(odd, "results.jsonl"));
      if (!linux) return;
      const made = new Deno.Command("mkfifo", { args: [join(odd, "results.jsonl")] }).outputSync();
      assert.ok(made.success);
      assert.throws(
        () => prepareOutputDir(odd, { append: true }),
        /^OutputDirError: the results file .*results\.jsonl is a FIFO \(named pipe\); remove it/,
      );
      Deno.removeSync(join(odd, "results.jsonl"));
      Deno.symlinkSync("/dev/null", join(odd, "results.jsonl"));
      assert.throws(() => prepareOutputDir(odd), /results\.jsonl is a device; remove it/);
      Deno.removeSync(join(odd, "results.jsonl"));
      // a link to a missing file: the first case's write would fail after it ran
      Deno.symlinkSync(join(odd, "gone", "results.jsonl"), join(odd, "results.jsonl"));
      assert.throws(
        () => prepareOutputDir(odd, { append: true }),
        /results\.jsonl is a symbolic link to a missing file \(.*gone\/results\.jsonl\); remove it/,
      );
      Deno.removeSync(join(odd, "results.jsonl"));
    });

    await t.step({
      name: "a results file that cannot be appended to (not as root)",
      ignore: Deno.build.os === "windows" || Deno.uid() === 0,
      fn: () => {
        const ro = join(dir, "ro-results");
        Deno.mkdirSync(ro);
        Deno.writeTextFileSync(join(ro, "results.jsonl"), "{}\n", { mode: 0o444 });
        assert.throws(
          () => prepareOutputDir(ro, { append: true }),
          /cannot append to the results file .*ro-results\/results\.jsonl: .*os error/,
        );
      },
    });

    await t.step("a path under a file, or a file: the path and the system's error", () => {
      const file = join(dir, "results.jsonl");
      for (const path of [join(file, "sub"), file]) {
        assert.throws(
          () => prepareOutputDir(path),
          (e: unknown) => {
            assert.ok(e instanceof OutputDirError);
            assert.ok(e.message.startsWith(`cannot create the output folder ${path}: `), e.message);
            assert.match(e.message, /\(os error \d+\).*; pass --out a folder that can be created/);
            assert.ok(!e.message.includes("\n"), "one line");
            return true;
          },
        );
      }
    });

    await t.step({
      name: "/proc: a folder that cannot be created, one that cannot be written",
      ignore: !linux,
      fn: () => {
        assert.throws(
          () => prepareOutputDir("/proc/mergesplit-test"),
          /^OutputDirError: cannot create the output folder \/proc\/mergesplit-test: .*os error/,
        );
        // /proc exists, but not even root can create a file in it
        assert.throws(
          () => prepareOutputDir("/proc"),
          /cannot write a file in the output folder \/proc: .*os error/,
        );
      },
    });

    await t.step({
      name: "a read-only folder (not as root, who may write anywhere)",
      ignore: Deno.build.os === "windows" || Deno.uid() === 0,
      fn: () => {
        const ro = join(dir, "read-only");
        Deno.mkdirSync(ro, { mode: 0o555 });
        try {
          assert.throws(
            () => prepareOutputDir(ro),
            /cannot write a file in the output folder .*read-only: .*os error/,
          );
          assert.throws(
            () => prepareOutputDir(join(ro, "sub")),
            /cannot create the output folder .*read-only\/sub: /,
          );
        } finally {
          Deno.chmodSync(ro, 0o755);
        }
      },
    });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("runs without --out started at once get folders of their own", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-fresh-" });
  try {
    const name = join(dir, "reports", "out", "2026-12-02T16-44-18.123");
    const made = [0, 1, 2].map(() => prepareOutputDir(name, { fresh: true }));
    assert.deepEqual(made, [name, `${name}-2`, `${name}-3`]);
    // four processes at the same instant: each mkdir either makes its folder or fails, so no two
    // get the same one
    const url = new URL("./output_dir.ts", import.meta.url).href;
    const code = `import { createNewDir } from "${url}"; console.log(createNewDir(Deno.args[0]));`;
    const together = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const out = await new Deno.Command(Deno.execPath(), {
          args: ["eval", code, `${name}.x`],
          stderr: "inherit",
        }).output();
        return new TextDecoder().decode(out.stdout).trim();
      }),
    );
    assert.equal(new Set(together).size, 4, together.join(", "));
    assert.equal(prepareOutputDir(join(dir, "given")), join(dir, "given"), "--out as it is");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
  const [a, b] = [new Date("2026-12-02T16:44:18.123Z"), new Date("2026-12-02T16:44:18.124Z")];
  assert.equal(defaultOutDir(a), "reports/out/2026-12-02T16-44-18.123");
  assert.notEqual(defaultOutDir(a), defaultOutDir(b), "millisecond resolution");
});
