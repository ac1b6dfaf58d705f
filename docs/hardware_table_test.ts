import assert from "node:assert/strict";
import { recordFixture } from "../core/result_fixture.ts";
import { formatRate, hardwareTable } from "./hardware_table.ts";
import type { Submission, SubmissionSystem } from "./read_submission.ts";

Deno.test("rates read in k, M and G to three digits", () => {
  assert.deepEqual(
    [12, 4560, 1_234_567, 2.5e9, null].map(formatRate),
    ["12.0", "4.56 k", "1.23 M", "2.50 G", "–"],
  );
});

Deno.test("one row per submission: adapter, backend, driver, scale, each figure, date, commit", () => {
  const r = recordFixture({ scene: "dam-break-sph", particles: { solid: 0, fluid: 3000 } });
  const system = {
    adapter: { description: "llvmpipe (LLVM 15.0.6, 256 bits)", backend: "vulkan" },
    driver: "Mesa 22.3.6",
    scales: ["medium"],
    date: { from: "2026-12-02T17:00:00Z", to: "2026-12-02T17:10:00Z" },
    commits: ["1a1eabb0123"],
  } as unknown as SubmissionSystem;
  const sub: Submission = {
    dir: "docs/hardware/lavapipe",
    system,
    text: "",
    records: [r],
    skipped: [],
  };
  const lines = hardwareTable([sub]).split("\n");
  assert.equal(lines.length, 5);
  assert.match(lines[0], /^Particle-steps per second of each figure/);
  assert.match(lines[2], /\| merge-split \| date \| commit \|$/);
  assert.equal(
    lines[4],
    "| [lavapipe](hardware/lavapipe/) | llvmpipe (LLVM 15.0.6, 256 bits) | vulkan | Mesa 22.3.6 | " +
      "medium | – | – | 3.00 M | – | – | 2026-12-02 | `1a1eabb` |",
  );
  assert.match(hardwareTable([]), /No submission committed/);
});
