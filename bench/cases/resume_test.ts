import assert from "node:assert/strict";
import { join } from "node:path";
import { parseBenchArgs } from "../cli.ts";
import { planCases } from "../main.ts";
import { specConfigHash } from "../runner.ts";
import { placeCases } from "./resume.ts";
import { UsageError } from "./suite.ts";
import { type AdapterRecord, type CaseRecord, recordLine } from "../../core/result.ts";
import { recordFixture } from "../../core/result_fixture.ts";

/** An adapter as the device reports it. */
function adapter(description: string, backend: string): AdapterRecord {
  return {
    vendor: "mesa",
    architecture: "",
    device: "0",
    description,
    backend,
    isFallbackAdapter: true,
    features: [],
    limits: {},
  };
}

const VULKAN = adapter("llvmpipe (LLVM 15.0.6, 256 bits)", "vulkan");
const GL = adapter("llvmpipe (LLVM 15.0.6, 256 bits)", "gl");

/** The options and cases of `args` (Fig. 4 unless they name a scene; tiny, few steps), into `out`. */
function plan(args: string[], out: string) {
  const scene = args.includes("--scene") ? [] : ["--scene", "fig4-fluid-cloth"];
  const opts = parseBenchArgs([
    ...scene,
    "--handler",
    "merge-split",
    "--scale",
    "tiny",
    "--steps",
    "5",
    "--out",
    out,
    ...args,
  ]);
  return { opts, cases: planCases(opts) };
}

/** The ok record the cases of `args` leave, run on `on`. */
async function recordOf(args: string[], out: string, on: AdapterRecord): Promise<CaseRecord> {
  const { opts, cases } = plan(args, out);
  const [placed] = await placeCases(cases, { ...opts, resume: false }, { out, adapter: on });
  const env = {
    os: { platform: "linux", release: "6.1", arch: "x64" },
    cpu: { model: "test", cores: 2 },
    memoryBytes: 2 ** 30,
    adapter: on,
    git: { commit: null, dirty: null },
    webgpuBackend: null,
  };
  return recordFixture({
    scene: placed.spec.scene.id,
    scale: placed.spec.scene.scale,
    steps: opts.steps!,
    setup: placed.spec.setup,
    configHash: await specConfigHash(placed.spec, opts),
    case: { ...placed.place },
    env,
  });
}

/** Runs `body` with a fresh output folder. */
async function inFolder(body: (out: string) => Promise<void>): Promise<void> {
  const out = Deno.makeTempDirSync({ prefix: "mergesplit-resume-" });
  try {
    await body(out);
  } finally {
    Deno.removeSync(out, { recursive: true });
  }
}

Deno.test("the case list's hash names steps, setup and adapter", async () => {
  await inFolder(async (out) => {
    const list = async (args: string[], on = VULKAN) => {
      const { opts, cases } = plan(args, out);
      return (await placeCases(cases, opts, { out, adapter: on }))[0].place.list;
    };
    const base = await list([]);
    assert.equal(await list([]), base, "the same run, the same list");
    assert.notEqual(await list(["--steps", "6"]), base, "steps");
    assert.notEqual(await list([], GL), base, "the adapter (its backend)");
    assert.notEqual(await list(["--variant", "compact-grouping"]), base, "setup");
    assert.notEqual(await list(["--scale", "small"]), base, "scale");
  });
});

Deno.test("--resume holds a case only on the adapter that recorded it", async () => {
  await inFolder(async (out) => {
    const file = join(out, "results.jsonl");
    Deno.writeTextFileSync(file, recordLine(await recordOf([], out, VULKAN)));
    const { opts, cases } = plan(["--resume"], out);
    const same = await placeCases(cases, opts, { out, adapter: VULKAN });
    assert.equal(same.length, 0, "recorded on Vulkan: nothing left to run there");
    await assert.rejects(
      () => placeCases(cases, opts, { out, adapter: GL }),
      (e: unknown) =>
        e instanceof UsageError &&
        e.message.includes("holds 1 case(s) that are not in this run's case list") &&
        e.message.includes("on llvmpipe (LLVM 15.0.6, 256 bits) (vulkan)") &&
        e.message.includes("(this run: llvmpipe (LLVM 15.0.6, 256 bits) (gl))"),
    );
  });
});

Deno.test("--resume into a folder of another scene set, or other steps, is refused", async () => {
  await inFolder(async (out) => {
    const file = join(out, "results.jsonl");
    const other = await recordOf(["--scene", "fig3-ball-cloth-high"], out, VULKAN);
    Deno.writeTextFileSync(file, recordLine(other));
    const { opts, cases } = plan(["--resume"], out);
    await assert.rejects(
      () => placeCases(cases, opts, { out, adapter: VULKAN }),
      (e: unknown) =>
        e instanceof UsageError && e.message.includes(`list ${other.case!.list}`) &&
        e.message.includes("fig3-ball-cloth-high × merge-split (tiny, 5 steps") &&
        e.message.endsWith("or give another --out"),
    );
    Deno.writeTextFileSync(file, recordLine(await recordOf(["--steps", "7"], out, VULKAN)));
    await assert.rejects(() => placeCases(cases, opts, { out, adapter: VULKAN }), UsageError);
  });
});

Deno.test("--resume: a record that breaks the schema is named, and its case runs again", async () => {
  await inFolder(async (out) => {
    const file = join(out, "results.jsonl");
    const bad = { ...(await recordOf([], out, VULKAN)), steps: -5 };
    Deno.writeTextFileSync(file, recordLine(bad));
    const { opts, cases } = plan(["--resume"], out);
    const errors: string[] = [];
    const error = console.error;
    console.error = (...a: unknown[]) => errors.push(a.join(" "));
    try {
      const left = await placeCases(cases, opts, { out, adapter: VULKAN });
      assert.equal(left.length, 1);
    } finally {
      console.error = error;
    }
    assert.ok(
      errors.some((l) =>
        l.includes(`${file} line 1 skipped: field "steps" must be an integer of at least 1`) &&
        l.endsWith("its case runs again")
      ),
      errors.join("\n"),
    );
  });
});
