/**
 * `deno run -A testing/run_test_file.ts <file_test.ts>`: runs one test file's `Deno.test` definitions on
 * the process's main thread, with `deno test`'s meaning (tests in order, `t.step` nested and
 * awaited, `ignore`, a failed step fails its test) and its summary line
 * (`ok | 3 passed (12 steps) | 0 failed (1s)`), which `testing/run_tests.ts` reads.
 *
 * Why: `deno test` runs a test file's JavaScript on a worker thread of its runtime. On the GL
 * backend every EGL call then comes from that thread, and libglvnd 1.6.0 (Debian 12) frees the
 * thread's EGL state twice when the thread finishes exiting while the main thread already runs
 * `exit()`: once in its library destructor (`__eglFini` → `__eglCurrentTeardown`, which frees the
 * state of every thread), once in the thread's own key destructor (`OnThreadDestroyed`). The
 * process then aborts with "double free or corruption" after every test passed (2 of some 170
 * llvmpipe test processes in two loaded CI runs). libglvnd 1.7.0 deletes the key first
 * (commit 1f9aff1), which narrows but does not close the race. With the tests on the main
 * thread, as `deno task bench` runs its cases, the destructor alone frees that state: the main
 * thread's key destructors do not run at `exit()`.
 *
 * @module
 */

/** A test or step definition, as `Deno.test` and `t.step` take it. */
interface Definition {
  name: string;
  fn: (t: StepContext) => void | Promise<void>;
  ignore?: boolean;
}

/** The context a test or step function gets (the part of `Deno.TestContext` the tests use). */
interface StepContext {
  name: string;
  step(
    nameOrDef: string | Definition,
    fn?: (t: StepContext) => void | Promise<void>,
  ): Promise<boolean>;
}

/** Counts of one file's run. */
export interface FileRun {
  passed: number;
  failed: number;
  ignored: number;
  steps: { passed: number; failed: number; ignored: number };
}

function definition(
  a: string | Definition | ((t: StepContext) => void | Promise<void>),
  b?: unknown,
  c?: unknown,
): Definition {
  if (typeof a === "function") return { name: a.name || "(anonymous)", fn: a };
  if (typeof a === "string") {
    if (typeof b === "function") return { name: a, fn: b as Definition["fn"] };
    return { ...(b as object), name: a, fn: c as Definition["fn"] } as Definition;
  }
  return a;
}

const ms = (t0: number) => `${Math.round(performance.now() - t0)}ms`;

/**
 * Imports `file` with `Deno.test` collecting its definitions, then runs them in order on this
 * thread, printing each result as `deno test` does; returns the counts.
 */
export async function runTestFile(file: string): Promise<FileRun> {
  const tests: Definition[] = [];
  const original = Deno.test;
  Object.defineProperty(Deno, "test", {
    value: (a: never, b?: unknown, c?: unknown) => void tests.push(definition(a, b, c)),
    configurable: true,
    writable: true,
  });
  try {
    await import(new URL(file, `file://${Deno.cwd()}/`).href);
  } finally {
    Object.defineProperty(Deno, "test", { value: original, configurable: true, writable: true });
  }
  const run: FileRun = {
    passed: 0,
    failed: 0,
    ignored: 0,
    steps: { passed: 0, failed: 0, ignored: 0 },
  };
  const errors: { name: string; error: unknown }[] = [];
  /** Runs one test or step; true when it and every step in it passed. */
  const execute = async (def: Definition, depth: number, path: string): Promise<boolean> => {
    const pad = "  ".repeat(depth);
    const counts = depth === 0 ? run : run.steps;
    if (def.ignore) {
      console.log(`${pad}${def.name} ... ignored (0ms)`);
      counts.ignored++;
      return true;
    }
    if (depth === 0) console.log(`${def.name} ...`);
    const t0 = performance.now();
    let stepFailed = false;
    const context: StepContext = {
      name: def.name,
      step: async (nameOrDef, fn) => {
        const step = typeof nameOrDef === "string" ? { name: nameOrDef, fn: fn! } : nameOrDef;
        const ok = await execute(step, depth + 1, `${path} ... ${step.name}`);
        if (!ok) stepFailed = true;
        return ok;
      },
    };
    let ok = true;
    try {
      await def.fn(context);
      if (stepFailed) ok = false;
    } catch (error) {
      ok = false;
      errors.push({ name: path, error });
    }
    const verdict = ok ? "ok" : stepFailed ? "FAILED (due to a failed step)" : "FAILED";
    console.log(
      `${pad}${depth === 0 ? `${def.name} ... ` : `${def.name} ... `}${verdict} (${ms(t0)})`,
    );
    if (ok) counts.passed++;
    else counts.failed++;
    return ok;
  };
  const t0 = performance.now();
  for (const def of tests) await execute(def, 0, def.name);
  if (errors.length) {
    console.log("\n ERRORS \n");
    for (const { name, error } of errors) {
      console.log(`${name} => ${file}`);
      console.log(
        `error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`,
      );
    }
    console.log(" FAILURES \n");
    for (const { name } of errors) console.log(`${name} => ${file}`);
  }
  const stepText = (n: number) => (n ? ` (${n} step${n === 1 ? "" : "s"})` : "");
  console.log(
    `\n${run.failed ? "FAILED" : "ok"} | ${run.passed} passed${
      stepText(run.steps.passed)
    } | ${run.failed} failed${stepText(run.steps.failed)}${
      run.ignored ? ` | ${run.ignored} ignored` : ""
    } (${ms(t0)})`,
  );
  return run;
}

if (import.meta.main) {
  const [file, ...rest] = Deno.args;
  if (!file || rest.length) {
    console.error("usage: deno run -A testing/run_test_file.ts <file_test.ts>");
    Deno.exit(2);
  }
  // an unhandled rejection fails the file, as under deno test
  globalThis.addEventListener("unhandledrejection", (e) => {
    e.preventDefault();
    console.error(`error: unhandled rejection: ${e.reason?.stack ?? e.reason}`);
    Deno.exit(1);
  });
  const run = await runTestFile(file);
  Deno.exit(run.failed ? 1 : 0);
}
