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
