/**
 * `deno task test`: the test suite on every WebGPU implementation this machine has, each test
 * file in a process of its own.
 *
 * - Implementations (`IMPLEMENTATIONS`): Mesa llvmpipe through GL, Mesa lavapipe through Vulkan
 *   and SwiftShader through Vulkan (Debian's `chromium` ships it). They are three independent
 *   compilers and runtimes: SwiftShader runs workgroups on several threads and has no
 *   loop-iteration cap, llvmpipe and lavapipe stop a loop after 65,535 iterations. The GPU test
 *   files (those whose imports reach `gpu/runtime/device.ts`, or that start processes) run on
 *   each implementation found; the others once. A GPU test file that tests the bench's tools (its
 *   command line, results files, shards, diagnostics, the browser pages: what it asserts does not
 *   depend on the WebGPU implementation, whose kernels and engine the other files test on each),
 *   or that holds the engine's long runs to rest (`gpu/engine_rest_test.ts`: minutes per
 *   implementation, of kernels the other files run on each), says so in a line
 *   `// run_tests: one implementation (why)` ({@link ONE_IMPLEMENTATION}) and
 *   runs once, on {@link ONCE_IMPLEMENTATION} where present. A missing implementation is reported
 *   as skipped with the packages that bring it; `--require` makes that a failure (CI). On lavapipe every
 *   device asks for WebGPU's guaranteed 8 storage buffers per stage (`MERGESPLIT_STORAGE_BUFFERS`),
 *   so a default-path layout that binds more fails every test that builds it.
 * - One process per test file (at most `--jobs` at a time): a WebGPU instance is never torn
 *   down beside another one's threads. `deno test --parallel` runs the files as threads of one
 *   process, whose exit aborted now and then in glibc ("corrupted size vs. prev_size") after
 *   every test had passed.
 * - On llvmpipe (GL) a file's tests run on the process's main thread (`testing/run_test_file.ts`, the
 *   same tests with `deno test`'s meaning and summary line): under `deno test` they run on a
 *   worker thread, whose EGL state libglvnd 1.6.0 frees twice when that thread finishes exiting
 *   during the main thread's `exit()` ("double free or corruption", 2 aborts in some 170 GL
 *   processes of two loaded CI runs, every test passed). The Vulkan implementations use
 *   `deno test`.
 * - The files are type-checked once, then run with `--no-check`.
 *
 * Prints Deno's summary line (`ok | N passed (M steps) | F failed (…)`) at the end; exits 1 on
 * any failure, including a process that passed its tests and then died.
 *
 * ```sh
 * deno task test                      # every implementation found
 * deno task test --impl llvmpipe      # one (comma list)
 * deno task test gpu/runtime/         # files under a path (or a file)
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { quietMesa } from "../gpu/runtime/adapter_request.ts";

/** A WebGPU implementation the GPU tests run on: the environment that selects it. */
export interface Implementation {
  id: string;
  /** Environment of the test processes. */
  env: Record<string, string>;
  /** A file that must exist for the implementation to be present (its ICD or driver). */
  needs: readonly string[];
  /** What installs it (for the "skipped" message). */
  install: string;
  /**
   * How a test file runs: `deno test`, or on the main thread (`testing/run_test_file.ts`: the GL
   * backend, whose libglvnd 1.6.0 double-frees a worker thread's EGL state at exit).
   */
  runner: "deno-test" | "main-thread";
}

/** The runner of test files on the main thread (see `testing/run_test_file.ts`). */
const MAIN_THREAD_RUNNER = new URL("./run_test_file.ts", import.meta.url).pathname;

/** The implementations, in the order they run. */
export const IMPLEMENTATIONS: readonly Implementation[] = [
  {
    id: "llvmpipe",
    env: { DENO_WEBGPU_BACKEND: "gl" },
    needs: ["/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so"],
    install: "apt-get install libgl1-mesa-dri libegl1",
    runner: "main-thread",
  },
  {
    id: "lavapipe",
    env: {
      DENO_WEBGPU_BACKEND: "vulkan",
      VK_ICD_FILENAMES: "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json",
      // every device at WebGPU's guaranteed 8 storage buffers per stage: each test runs the
      // kernels' default paths here (the faster ones that bind more run on the other two)
      MERGESPLIT_STORAGE_BUFFERS: "8",
    },
    needs: ["/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"],
    install: "apt-get install libvulkan1 mesa-vulkan-drivers",
    runner: "deno-test",
  },
  {
    id: "swiftshader",
    env: {
      DENO_WEBGPU_BACKEND: "vulkan",
      VK_ICD_FILENAMES: "/usr/lib/chromium/vk_swiftshader_icd.json",
    },
    needs: ["/usr/lib/chromium/vk_swiftshader_icd.json"],
    install: "apt-get install libvulkan1 chromium",
    runner: "deno-test",
  },
];

/** Options of {@link runTests}. */
export interface RunTestsOptions {
  /** Implementation ids to run the GPU tests on (default: all). */
  implementations?: readonly string[];
  /** Processes at a time (default: the CPU count). */
  jobs?: number;
  /** Only test files under these paths (default: all). */
  paths?: readonly string[];
  /** A missing implementation fails the run instead of being skipped. */
  require?: boolean;
}

/** Outcome of one test file on one implementation. */
export interface FileOutcome {
  file: string;
  implementation: string;
  passed: number;
  failed: number;
  steps: number;
  code: number;
  seconds: number;
  output: string;
}

const SKIP_DIRS = new Set(["node_modules", ".git", "out"]);

/**
 * The line by which a GPU test file asks to run on one implementation: `// run_tests: one
 * implementation (why)`, the reason in the parentheses. For files that test the bench's tools, not
 * the kernels or the engine (those run on every implementation).
 */
export const ONE_IMPLEMENTATION = /^\/\/ run_tests: one implementation \(.+\)$/m;

/**
 * Where a {@link ONE_IMPLEMENTATION} file runs: lavapipe, the adapter `deno task bench` gets on a
 * machine with the Vulkan packages (at WebGPU's guaranteed 8 storage buffers); else the first
 * implementation present.
 */
export const ONCE_IMPLEMENTATION = "lavapipe";

/** Whether a test file carries the {@link ONE_IMPLEMENTATION} line. */
export function runsOnce(file: string): boolean {
  return ONE_IMPLEMENTATION.test(Deno.readTextFileSync(file));
}

/** Every `*_test.ts` under `root`, sorted. */
export function findTestFiles(root = "."): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.name.startsWith(".") || SKIP_DIRS.has(e.name)) continue;
      const path = dir === "." ? e.name : `${dir}/${e.name}`;
      if (e.isDirectory) walk(path);
      else if (e.isFile && e.name.endsWith("_test.ts")) out.push(path);
    }
  };
  walk(root);
  return out.sort();
}

const IMPORT =
  /(?:import|export)\s[^;]*?from\s*["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/**
 * Whether a test file needs WebGPU: its relative imports reach `gpu/runtime/device.ts`, or it
 * (or a module it imports) mentions `navigator.gpu` or starts a process (`Deno.Command`, a
 * bench run).
 */
export function usesGpu(file: string, memo = new Map<string, boolean>()): boolean {
  const path = new URL(file, `file://${Deno.cwd()}/`).pathname;
  const seen = memo.get(path);
  if (seen !== undefined) return seen;
  memo.set(path, false); // cycles
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch {
    return false;
  }
  let gpu = path.endsWith("/gpu/runtime/device.ts") || /navigator\.gpu|Deno\.Command/.test(text);
  for (const m of text.matchAll(IMPORT)) {
    if (gpu) break;
    const spec = m[1] ?? m[2];
    gpu = usesGpu(new URL(spec, `file://${path}`).pathname, memo);
  }
  memo.set(path, gpu);
  return gpu;
}

/** Deno's summary line of a `deno test` output: counts of passed and failed tests and steps. */
export function parseSummary(output: string): { passed: number; failed: number; steps: number } {
  // deno: "ok | 3 passed (12 steps) | 0 failed (1s)" or "FAILED | 2 passed | 1 failed (3 steps)"
  // deno-lint-ignore no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const lines = plain.split("\n").filter((l) => /^(ok|FAILED) \| \d+ passed/.test(l));
  const last = lines.at(-1);
  if (!last) return { passed: 0, failed: 0, steps: 0 };
  const num = (re: RegExp) => Number(last.match(re)?.[1] ?? 0);
  return {
    passed: num(/(\d+) passed/),
    failed: num(/(\d+) failed/),
    steps: num(/passed \((\d+) steps?\)/),
  };
}

/** Whether an implementation's files are present on this machine. */
export function present(impl: Implementation): boolean {
  return impl.needs.every((f) => {
    try {
      return Deno.statSync(f).isFile;
    } catch {
      return false;
    }
  });
}

async function runFile(file: string, impl: Implementation): Promise<FileOutcome> {
  const t0 = performance.now();
  const env: Record<string, string> = { ...impl.env };
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: impl.runner === "main-thread"
      ? ["run", "-A", "--no-check", MAIN_THREAD_RUNNER, file]
      : ["test", "-A", "--no-check", file],
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  return {
    file,
    implementation: impl.id,
    ...parseSummary(output),
    code,
    seconds: (performance.now() - t0) / 1000,
    output,
  };
}

/**
 * Which test file runs on which implementation: a file that does not use the GPU once, on the
 * first implementation found; a GPU file marked {@link ONE_IMPLEMENTATION} once, on
 * {@link ONCE_IMPLEMENTATION} (else the first found); every other GPU file on each one found.
 */
export function planJobs(
  files: readonly string[],
  found: readonly Implementation[],
): [file: string, impl: Implementation][] {
  const memo = new Map<string, boolean>();
  const jobs: [string, Implementation][] = [];
  const cpuImpl = found[0] ?? IMPLEMENTATIONS[0];
  const onceImpl = found.find((i) => i.id === ONCE_IMPLEMENTATION) ?? cpuImpl;
  for (const f of files) {
    if (!usesGpu(f, memo)) jobs.push([f, cpuImpl]);
    else if (runsOnce(f)) jobs.push([f, onceImpl]);
    else for (const impl of found) jobs.push([f, impl]);
  }
  return jobs;
}

/** Runs the suite; returns the outcomes (the caller prints and sets the exit status). */
export async function runTests(options: RunTestsOptions = {}): Promise<{
  outcomes: FileOutcome[];
  skipped: string[];
  missing: string[];
}> {
  const wanted = options.implementations ?? IMPLEMENTATIONS.map((i) => i.id);
  for (const id of wanted) {
    if (!IMPLEMENTATIONS.some((i) => i.id === id)) {
      throw new RangeError(
        `unknown implementation "${id}"; known: ${IMPLEMENTATIONS.map((i) => i.id).join(", ")}`,
      );
    }
  }
  // one XDG_RUNTIME_DIR for every file's process (Mesa's GL driver complains without one),
  // removed when this process exits
  quietMesa();
  const impls = IMPLEMENTATIONS.filter((i) => wanted.includes(i.id));
  const found = impls.filter(present);
  const missing = impls.filter((i) => !present(i)).map((i) => i.id);
  const skipped = impls.filter((i) => !present(i)).map((i) =>
    `${i.id}: not installed (${i.needs.join(", ")} missing; ${i.install})`
  );
  const files = findTestFiles().filter((f) =>
    !options.paths?.length || options.paths.some((p) => f.startsWith(p.replace(/^\.\//, "")))
  );
  if (files.length === 0) throw new RangeError(`no test files under ${options.paths?.join(", ")}`);
  const jobs = planJobs(files, found);
  const outcomes: FileOutcome[] = [];
  let next = 0;
  const width = Math.max(1, options.jobs ?? navigator.hardwareConcurrency ?? 2);
  const worker = async () => {
    while (next < jobs.length) {
      const [file, impl] = jobs[next++];
      const o = await runFile(file, impl);
      outcomes.push(o);
      const ok = o.code === 0 && o.failed === 0;
      console.log(
        `${ok ? "ok    " : "FAILED"} ${o.implementation.padEnd(11)} ${file} (${o.passed} passed${
          o.failed ? `, ${o.failed} failed` : ""
        }, ${o.seconds.toFixed(1)} s)`,
      );
      if (!ok) {
        console.log(o.output);
        if (o.failed === 0 && o.code !== 0) {
          console.log(
            `${file} on ${o.implementation}: the process exited with status ${o.code} although ` +
              `${o.passed} tests passed and none failed`,
          );
        }
      }
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return { outcomes, skipped, missing };
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: {
      impl: { type: "string" },
      jobs: { type: "string" },
      require: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(
      "deno task test [--impl llvmpipe,lavapipe,swiftshader] [--jobs n] [--require] [paths...]",
    );
    Deno.exit(0);
  }
  const jobs = values.jobs === undefined ? undefined : Number(values.jobs);
  if (jobs !== undefined && !(Number.isInteger(jobs) && jobs > 0)) {
    console.error(`--jobs must be a positive integer, got "${values.jobs}"`);
    Deno.exit(2);
  }
  const t0 = performance.now();
  const files = findTestFiles().filter((f) =>
    !positionals.length || positionals.some((p) => f.startsWith(p.replace(/^\.\//, "")))
  );
  const check = await new Deno.Command(Deno.execPath(), {
    args: ["check", ...files],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (check.code !== 0) {
    console.error("type check failed: no test ran");
    Deno.exit(1);
  }
  let result;
  try {
    result = await runTests({
      implementations: values.impl?.split(",").map((s) => s.trim()).filter(Boolean),
      jobs,
      paths: positionals,
      require: values.require,
    });
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    Deno.exit(2);
  }
  const { outcomes, skipped, missing } = result;
  for (const s of skipped) console.log(`skipped: ${s}`);
  const sum = (k: "passed" | "failed" | "steps") => outcomes.reduce((a, o) => a + o[k], 0);
  const broken = outcomes.filter((o) => o.code !== 0 || o.failed > 0);
  const byImpl = new Map<string, FileOutcome[]>();
  for (const o of outcomes) {
    byImpl.set(o.implementation, [...byImpl.get(o.implementation) ?? [], o]);
  }
  for (const [id, os] of byImpl) {
    console.log(
      `${id}: ${os.length} files, ${os.reduce((a, o) => a + o.passed, 0)} passed, ${
        os.reduce((a, o) => a + o.failed, 0)
      } failed, ${os.reduce((a, o) => a + o.seconds, 0).toFixed(0)} s in processes`,
    );
  }
  const failed = sum("failed") + broken.filter((o) => o.failed === 0).length;
  const requireFailed = values.require && missing.length > 0;
  if (requireFailed) console.log(`--require: missing implementations: ${missing.join(", ")}`);
  const ok = broken.length === 0 && !requireFailed;
  console.log(
    `${ok ? "ok" : "FAILED"} | ${sum("passed")} passed (${
      sum("steps")
    } steps) | ${failed} failed (${((performance.now() - t0) / 1000).toFixed(0)}s)`,
  );
  Deno.exit(ok ? 0 : 1);
}
