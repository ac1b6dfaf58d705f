/**
 * Checks of a resolved run before anything is built: every case's step count within
 * {@link MAX_STEPS}, an explicit `--warmup` that leaves measured steps, and `--param` overrides
 * that reach a handler of the run. Each failure is a {@link UsageError} (exit status 2) naming the
 * option and the case.
 *
 * @module
 */
import { MAX_STEPS } from "../limits.ts";
import { caseSteps } from "../runner.ts";
import type { CaseSpec } from "./suite.ts";
import { UsageError } from "./suite.ts";

/** What {@link checkRunPlan} reads of the bench's options. */
export interface RunPlanOptions {
  steps?: number;
  duration?: number;
  /** An explicit `--warmup`; undefined: the default warm-up, which always leaves a measured step. */
  warmup?: number;
  /** `--param` overrides per handler id. */
  params?: Record<string, Record<string, number>>;
}

/**
 * Throws a {@link UsageError} when a case would run more than {@link MAX_STEPS} steps (a
 * `--duration` far beyond the scene's dt), when an explicit warm-up leaves a case no measured
 * step, when `--param` names a handler that none of the cases runs (it would be ignored), or sets a
 * parameter that a case's sweep varies (its value would be ignored there).
 */
export function checkRunPlan(cases: readonly CaseSpec[], options: RunPlanOptions): void {
  for (const c of cases) {
    const steps = caseSteps(c, options);
    const label = `${c.scene.id} × ${c.handler}`;
    if (!(steps <= MAX_STEPS)) {
      const why = options.steps === undefined
        ? ` (${options.duration ?? c.scene.duration} s at dt ${c.scene.dt} s)`
        : "";
      throw new UsageError(
        `${label} would run ${steps} steps${why}, more than ${MAX_STEPS.toLocaleString("en")} ` +
          "per repetition; give a shorter --duration or --steps",
      );
    }
    if (options.warmup !== undefined && options.warmup >= steps) {
      throw new UsageError(
        `--warmup ${options.warmup} leaves no measured step: ${label} runs ${steps} steps; ` +
          `give --warmup below ${steps} or more --steps`,
      );
    }
  }
  for (const c of cases) {
    for (const key of Object.keys(c.sweep ?? {})) {
      const [handler, param] = key.split(/\.(.*)/s);
      const set = options.params?.[handler]?.[param];
      if (handler !== "scene" && set !== undefined) {
        throw new UsageError(
          `--param ${key}=${set} and the suite's sweep of ${key} both set it; drop the ` +
            "--param (the sweep runs each value) or run the cases without the suite",
        );
      }
    }
  }
  const running = new Set(cases.map((c) => c.handler));
  for (const id of Object.keys(options.params ?? {})) {
    if (!running.has(id)) {
      throw new UsageError(
        `--param ${id}.…: handler ${id} is not in this run (its handlers: ${
          [...running].join(", ")
        }); add --handler ${id} or drop the --param`,
      );
    }
  }
}
