/**
 * The records of a whole clean run of the hardware suite at `small`, for the tests of the
 * submissions' writer, checker and table: each figure's case once, under the paper's setup, of one
 * case list and one clean commit, finished `ok`.
 *
 * @module
 */
import type { CaseRecord, Environment } from "../core/result.ts";
import { recordFixture } from "../core/result_fixture.ts";
import { HARDWARE_FIGURES } from "../core/hardware/hardware_suite.ts";
import { PAPER_SETUP } from "../core/setups.ts";

/** The environment of every record: a clean commit, one adapter. */
export const SUBMISSION_ENV: Environment = {
  deno: "2.9.6",
  os: { platform: "linux", release: "6", arch: "x64" },
  cpu: { model: "cpu", cores: 2 },
  memoryBytes: 1e9,
  adapter: {
    vendor: "v",
    architecture: "",
    device: "0",
    description: "an adapter",
    backend: "vulkan",
    isFallbackAdapter: false,
    features: [],
    limits: {},
  },
  git: { commit: "c".repeat(40), dirty: false },
  webgpuBackend: null,
};

/** The hardware suite's records as a clean run at small makes them. */
export function suiteRecords(): CaseRecord[] {
  return HARDWARE_FIGURES.map((f, index) =>
    recordFixture({
      scene: f.scene,
      handler: f.handler,
      handlerParams: { ...PAPER_SETUP.handlerParams?.[f.handler] },
      scale: "small",
      steps: 200,
      setup: "paper",
      coupling: "whole",
      case: { index, of: HARDWARE_FIGURES.length, list: "0123456789abcdef", shard: null },
      env: structuredClone(SUBMISSION_ENV),
    })
  );
}
