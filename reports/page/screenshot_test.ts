import assert from "node:assert/strict";
import { screenshotMain, screenshotUrl } from "./screenshot.ts";

Deno.test("deno task screenshot: the page address and bad arguments", async (t) => {
  await t.step("the hash selects sections, case and frame", () => {
    assert.match(screenshotUrl("r.html"), /^file:\/\/\/.*\/r\.html#only=viewer-section$/);
    assert.match(
      screenshotUrl("/tmp/r.html", {
        only: ["viewer-section", "series"],
        case: "fig8-bowl",
        frame: "last",
      }),
      /^file:\/\/\/tmp\/r\.html#only=viewer-section,series&case=fig8-bowl&frame=last$/,
    );
  });
  await t.step("bad arguments exit 2 with a message", async () => {
    const errors: string[] = [];
    const { error } = console;
    console.error = (...a: unknown[]) => errors.push(a.join(" "));
    try {
      assert.equal(await screenshotMain([]), 2);
      assert.match(errors.at(-1)!, /give exactly one report\.html/);
      assert.equal(await screenshotMain(["/nonexistent/report.html"]), 2);
      assert.match(errors.at(-1)!, /cannot read \/nonexistent\/report\.html/);
      const plain = await Deno.makeTempFile();
      assert.equal(await screenshotMain([plain]), 2);
      assert.match(errors.at(-1)!, /name the report file \.html/);
      await Deno.remove(plain);
      const file = await Deno.makeTempFile({ suffix: ".html" });
      assert.equal(await screenshotMain([file, "--frame", "middle"]), 2);
      assert.match(errors.at(-1)!, /--frame middle: must be a frame index/);
      assert.equal(await screenshotMain([file, "--size", "big"]), 2);
      assert.match(errors.at(-1)!, /--size big: must be <width>,<height>/);
      assert.equal(await screenshotMain([file, "--bogus"]), 2);
      await Deno.remove(file);
    } finally {
      console.error = error;
    }
  });
});

Deno.test("a screenshot is written whole or not at all: a failing Chromium leaves the earlier PNG", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "mergesplit-shot-" });
  try {
    Deno.writeTextFileSync(`${dir}/report.html`, "<html></html>");
    Deno.writeTextFileSync(`${dir}/shot.png`, "the earlier screenshot");
    // a stand-in Chromium: writes half a file at --screenshot=, then succeeds or fails ($1)
    const fake = (code: number) => {
      const path = `${dir}/chromium-${code}`;
      Deno.writeTextFileSync(
        path,
        `#!/bin/sh\nfor a in "$@"; do case "$a" in --screenshot=*) printf 'PNG-part' > "\${a#--screenshot=}";; esac; done\nexit ${code}\n`,
      );
      Deno.chmodSync(path, 0o755);
      return path;
    };
    const args = [`${dir}/report.html`, "--out", `${dir}/shot.png`];
    const shoot = (code: number) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", new URL("./screenshot.ts", import.meta.url).pathname, ...args],
        env: { CHROMIUM: fake(code) },
        stdout: "piped",
        stderr: "piped",
      }).output();
    const failed = await shoot(1);
    assert.equal(failed.code, 1);
    assert.equal(Deno.readTextFileSync(`${dir}/shot.png`), "the earlier screenshot");
    const done = await shoot(0);
    assert.equal(done.code, 0, new TextDecoder().decode(done.stderr));
    assert.equal(Deno.readTextFileSync(`${dir}/shot.png`), "PNG-part");
    assert.deepEqual(
      [...Deno.readDirSync(dir)].map((e) => e.name).sort(),
      ["chromium-0", "chromium-1", "report.html", "shot.png"],
      "no temporary file left",
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
