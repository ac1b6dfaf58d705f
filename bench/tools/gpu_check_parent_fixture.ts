/**
 * Test fixture: a stand-in for `deno task gpu-check` that runs one long bench stage with its
 * `runChild` and prints the stage's pid, so that a test can kill this process and watch the stage.
 *
 * `deno run -A bench/tools/gpu_check_parent_fixture.ts <out folder>`
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runChild } from "./gpu_check.ts";

if (import.meta.main) {
  const out = Deno.args[0];
  Deno.mkdirSync(out, { recursive: true });
  const bench = fileURLToPath(new URL("../main.ts", import.meta.url));
  await runChild([
    ...["run", "-A", bench, "--scene", "fig4-fluid-cloth", "--handler", "merge-split"],
    ...["--scale", "tiny", "--adapter", "software", "--steps", "1000000", "--warmup", "5"],
    ...["--out", join(out, "stage")],
  ], {
    log: join(out, "log.txt"),
    echo: false,
    interruptAt: null,
    killAt: performance.now() + 600_000,
    onChild: (child) => child && console.log(child.pid),
  });
}
