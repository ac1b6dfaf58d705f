/**
 * The plan of `deno task gpu-check` (`bench/tools/gpu_check.ts`): its stages in priority order and the
 * budget arithmetic that decides, from the seconds already spent, whether a stage starts, when it
 * is interrupted and when it is killed. Pure functions, no GPU and no process: the runner calls
 * them and the tests check them with made-up times.
 *
 * A stage starts when the seconds left before the report reserve, the stop grace and the final
 * margin are at least its {@link Stage.minSeconds}; it is interrupted (SIGINT: the bench keeps
 * every finished case) when that window has passed, and killed (SIGKILL) a grace later. The report
 * gets what is left, and is killed at the budget less the final margin.
 *
 * @module
 */
import type { Scale } from "../../core/scene/scene.ts";

/**
 * A scene file a stage runs: a catalogue scene at one scale with a real brittle material, as
 * `deno task scene --scene <scene> --scale <scale> --material <material>` writes it
 * (`bench/tools/scene_export.ts`). The runner writes it into the stage's folder before the stage starts
 * and passes it to the bench as one more `--scene`.
 */
export interface StageSceneFile {
  scene: string;
  scale: Scale;
  material: string;
}

/** One stage of the check: a run of `bench/main.ts` with these arguments. */
export interface Stage {
  /** Short name; also the stage's folder under `stages/` in the output folder. */
  id: string;
  /** What the stage measures, for the summary. */
  title: string;
  /**
   * `adapters`: `--list-adapters`, its output saved to `adapters.txt`; `bench`: cases, whose
   * records go to the check's `results.jsonl`.
   */
  kind: "adapters" | "bench";
  /** Arguments of `bench/main.ts`, without `--out`, `--timeout` and `--adapter` (the runner's). */
  args: readonly string[];
  /** The fewest seconds worth starting the stage with; with less it is skipped. */
  minSeconds: number;
  /** Scene files written before the stage and run by it (bench stages). */
  sceneFiles?: readonly StageSceneFile[];
}

/** Options of {@link planStages}. */
export interface PlanOptions {
  /** Runs every bench stage at this one scale instead of its own (tests: `tiny`). */
  scale?: Scale;
  /** Steps per case of every bench stage instead of its own (tests). */
  steps?: number;
}

/** The first stage of every plan: the adapters this machine offers. */
export const ADAPTERS_STAGE: Stage = {
  id: "adapters",
  title: "the adapters this machine offers (--list-adapters)",
  kind: "adapters",
  args: ["--list-adapters"],
  minSeconds: 5,
};

/**
 * A Table I scene's whole run at `paper` on an NVIDIA H100: its steps (the scene's duration / dt,
 * what `bench/runner.ts` runs when no `--steps` is given, 20 of them warm-up) and the host's wall
 * clock per step measured there (`docs/gpu-check.md`, "First rows on a GPU", 200-step runs of the
 * final engine and the re-measured rows after the fidelity work), about the larger reading of each.
 */
export interface WholeRunRate {
  scene: string;
  /** Steps of the whole run at `paper` (duration / dt). */
  steps: number;
  /** ms per step to size it by. */
  msPerStep: number;
}

/**
 * Table I's six scenes' whole runs at `paper`, sized at the H100's rates (`docs/gpu-check.md`):
 * fig6-wall's steps grew from 15 to 74 ms as the projectile broke the wall, sized at the 74 ms
 * worst (measured before the fidelity work made its step 3× shorter; its first 200 steps now read 10.5 ms,
 * host wall 17.2); fig9-flip-peridynamics 40 ms (host wall 40.3 after it), fig9-flip-cloth
 * 97 (96.8), fig8-cloth-tori 7.9 (7.92), fig8-dam-break-wall 7.3 (7.30), fig8-bowl 13.8 (13.8).
 * Only fig6's growth over a run was measured; the others' rates are of their first 200 steps.
 */
export const TABLE_ONE_WHOLE_RUNS: readonly WholeRunRate[] = [
  { scene: "fig6-wall", steps: 2_849, msPerStep: 74 },
  { scene: "fig9-flip-peridynamics", steps: 2_678, msPerStep: 40 },
  { scene: "fig9-flip-cloth", steps: 2_542, msPerStep: 97 },
  { scene: "fig8-cloth-tori", steps: 23_100, msPerStep: 7.9 },
  { scene: "fig8-dam-break-wall", steps: 32_725, msPerStep: 7.3 },
  { scene: "fig8-bowl", steps: 29_954, msPerStep: 13.8 },
];

/** Seconds to build a Table I scene at `paper` and upload it (30–60 s measured; the worst). */
export const PAPER_BUILD_SECONDS = 60;

/**
 * The most seconds a Table I stage is estimated at: with `--budget 600` (one 10-minute command on
 * a lent machine) a stage run alone (`--only`) gets a window of 556 s (600 less the report's 30,
 * the grace's 12 and the margin's 2: {@link budgetPolicy}), so 480 leaves 76 s for the rates'
 * error.
 */
export const TABLE_ONE_STAGE_SECONDS = 480;

/**
 * Estimated seconds of the whole runs of `scenes` at `paper` on an H100: per scene
 * {@link PAPER_BUILD_SECONDS} plus its steps × ms per step ({@link TABLE_ONE_WHOLE_RUNS}), the sum
 * rounded up. The timing summaries after a run add little: about 1.3 s per phase for 32,705
 * measured steps on a two-core machine, eight phases.
 */
export function wholeRunSeconds(scenes: readonly string[]): number {
  let seconds = 0;
  for (const scene of scenes) {
    const run = TABLE_ONE_WHOLE_RUNS.find((r) => r.scene === scene);
    if (!run) throw new RangeError(`no whole-run rate for ${scene}`);
    seconds += PAPER_BUILD_SECONDS + (run.steps * run.msPerStep) / 1000;
  }
  return Math.ceil(seconds);
}

/**
 * Table I's stages: its six scenes' whole runs at `paper`, grouped so that each stage is
 * estimated at no more than {@link TABLE_ONE_STAGE_SECONDS} ({@link wholeRunSeconds}: 60 s of
 * build per scene plus steps × the H100's ms per step):
 * - `table1-fig6-fig9-pd`: fig6-wall 60 + 2,849 × 74 ms = 271 s, fig9-flip-peridynamics
 *   60 + 2,678 × 40 ms = 167 s: 438 s;
 * - `table1-fig9-cloth`: 60 + 2,542 × 97 ms = 307 s;
 * - `table1-fig8-tori`: 60 + 23,100 × 7.9 ms = 243 s;
 * - `table1-fig8-wall`: 60 + 32,725 × 7.3 ms = 299 s (with the cloth tori, 541 s: over
 *   480 at 60 s a build, so a stage of its own);
 * - `table1-fig8-bowl`: 60 + 29,954 × 13.8 ms = 474 s.
 */
export const TABLE_ONE_STAGES: readonly { id: string; scenes: readonly string[] }[] = [
  { id: "table1-fig6-fig9-pd", scenes: ["fig6-wall", "fig9-flip-peridynamics"] },
  { id: "table1-fig9-cloth", scenes: ["fig9-flip-cloth"] },
  { id: "table1-fig8-tori", scenes: ["fig8-cloth-tori"] },
  { id: "table1-fig8-wall", scenes: ["fig8-dam-break-wall"] },
  { id: "table1-fig8-bowl", scenes: ["fig8-bowl"] },
];

/**
 * The stages of the check in priority order: the adapters; the default suite at `small`; Fig. 4
 * (fluid on cloth) under merge-split at `small`, `medium` and `paper`, 200 steps; the SPH dam break
 * at `paper`, 200 steps; then Table I's six scenes under merge-split at `paper`, whole runs (no
 * `--steps`: each scene's duration / dt, 20 warm-up), in {@link TABLE_ONE_STAGES}, each starting
 * only with the seconds of its estimate. `scale` and `steps` replace every bench stage's own (a
 * quick run of the same plan).
 *
 * Table I gives averages per step over whole runs, and the first 200 steps are not that: fig6-wall's
 * steps grow from 15 to 74 ms on an H100 as the wall breaks, after its first 200. Its stages come
 * last, after the short dam break: a whole run that overruns its estimate is cut only at its
 * window's end, which would leave a later stage nothing. A default check (900 s) reaches the first
 * (438 s) after the short stages; each stage fits `--only <id> --budget 600` alone.
 *
 * The 200-step stages run 200 steps (20 of them warm-up) because a GPU that sat idle while a
 * `paper` scene was built runs its first steps slower: on an NVIDIA H100 the SPH dam break's steps
 * 20–40 took 4.6 ms, the later ones 1.0 ms, and a 20-step run of Fig. 8 top read 16.9 ms against
 * 7.2 ms from 200.
 */
export function planStages(options: PlanOptions = {}): Stage[] {
  const { scale, steps } = options;
  const scales = (own: string) => ["--scale", scale ?? own];
  const stepsArg = (own: number | undefined) => {
    const n = steps ?? own;
    return n === undefined ? [] : ["--steps", String(n)];
  };
  const tableOne = TABLE_ONE_STAGES.map(({ id, scenes }): Stage => ({
    id,
    title: `Table I's ${scenes.join(" and ")} under merge-split at paper, whole runs (${
      scenes.map((s) =>
        TABLE_ONE_WHOLE_RUNS.find((r) => r.scene === s)!.steps.toLocaleString("en-US")
      )
        .join(" and ")
    } steps)`,
    kind: "bench",
    args: [
      "--scene",
      scenes.join(","),
      "--handler",
      "merge-split",
      ...scales("paper"),
      ...stepsArg(undefined),
    ],
    minSeconds: wholeRunSeconds(scenes),
  }));
  return [
    ADAPTERS_STAGE,
    {
      id: "default-small",
      title: "the default suite at small",
      kind: "bench",
      args: ["--suite", "default", ...scales("small"), ...stepsArg(undefined)],
      minSeconds: 30,
    },
    mergeSplit(
      "fig4-scales",
      "fig4-fluid-cloth under merge-split at small, medium and paper, 200 steps",
      "fig4-fluid-cloth",
      [...scales("small,medium,paper"), ...stepsArg(200)],
    ),
    mergeSplit(
      "dam-break-sph-paper",
      "the SPH dam break at paper, 200 steps",
      "dam-break-sph",
      [...scales("paper"), ...stepsArg(200)],
    ),
    mergeSplit(
      "dam-break-sph-paper-k1",
      "the SPH dam break at paper, 200 steps, one step per submit: what batching saves",
      "dam-break-sph",
      [...scales("paper"), ...stepsArg(200), "--steps-per-submit", "1"],
    ),
    mergeSplit(
      "small-one-workgroup",
      "fig4 and fig9-flip-cloth at small, 200 steps, the index-order grouping in one workgroup: whether it pays (fig4-scales has fig4's dispatched pass)",
      "fig4-fluid-cloth,fig9-flip-cloth",
      [...scales("small"), ...stepsArg(200), "--one-workgroup-grouping"],
    ),
    ...tableOne,
    {
      ...mergeSplit(
        "groupings-paper",
        "Figs. 8 top and 6 at paper, 200 steps, under both groupings: merging's share of a step with the paper's index-order pass and with the compact rounds (a workgroup per component)",
        "fig8-cloth-tori,fig6-wall",
        [...scales("paper"), ...stepsArg(200), "--variant", "compact-grouping"],
      ),
      // four cases (the two scenes under each grouping) of 60 s build and 200 steps at ≤ 15 ms
      minSeconds: GROUPINGS_STAGE_SECONDS,
    },
  ];
}

/**
 * The estimate of stage `groupings-paper` on an H100: four cases of 60 s build and 200 steps at
 * most 15 ms each (fig6-wall's first steps; Fig. 8 top 7.9 ms).
 */
export const GROUPINGS_STAGE_SECONDS = 4 * Math.ceil(PAPER_BUILD_SECONDS + 200 * 0.015);

/** A bench stage of `scenes` (a comma list) under merge-split with `args`, 30 s at least to start. */
function mergeSplit(id: string, title: string, scenes: string, args: readonly string[]): Stage {
  return {
    id,
    title,
    kind: "bench",
    args: ["--scene", scenes, "--handler", "merge-split", ...args],
    minSeconds: 30,
  };
}

/**
 * The stages of the fidelity measurements that need a GPU (fidelity: brittle fracture from a real
 * material, merge-split's leaks at `medium`), in its priority order, each sized by its first case's
 * steps at an NVIDIA H100's measured rates, so that a stage starts only with time for a whole case.
 * Measured there (2026-11-28): `fig5-wall` of ice at `small` under merge-split 231 s and 204 s
 * (seeds 2021, 7; 5.6 ms a step, 3.3 ms of it stage 2, which runs in most steps once the wall is
 * in pieces), strong kernel repulsion 123 s, strong penalty 115 s; `fig11-nlimit-inf` at `medium`
 * (11,000 steps) 255 s. Fig. 8's scenes at `small` are sized at merge-split's 5.6 ms a step
 * (92,590 steps: 520 s), Fig. 5 at `medium` at 10 ms (not measured):
 * - Fig. 5 of ice at `small` (18,518 steps) under merge-split and the strong baselines: whether
 *   merge-split breaks a real brittle wall into pieces while strong forces pulverise it (items 1–2,
 *   claims p, p2, u2's question on Fig. 5);
 * - Fig. 8's dam break against an ice wall at `small` (92,590 steps): whether the wall cracks at its
 *   foot and breaks into pieces (items 1–2);
 * - Fig. 11's four size limits not yet run at `medium` (11,000 steps each; 4–8 first, the slowest
 *   here): whether merge-split lets nothing through (item 5);
 * - Fig. 5 of ice at `medium` (37,036 steps) and Fig. 8's bowl of ice at `small` (92,590 steps).
 *
 * The adapters first ({@link ADAPTERS_STAGE}). `scale` and `steps` replace every bench stage's own,
 * scene files' scales included (a quick run of the same plan).
 */
export function planFidelityStages(options: PlanOptions = {}): Stage[] {
  const { scale, steps } = options;
  const stepsArg = steps === undefined ? [] : ["--steps", String(steps)];
  const ice = (scene: string, own: Scale): StageSceneFile => ({
    scene,
    scale: scale ?? own,
    material: "ice",
  });
  const bench = (
    id: string,
    title: string,
    args: readonly string[],
    minSeconds: number,
    sceneFiles?: StageSceneFile[],
  ): Stage => ({
    id,
    title,
    kind: "bench",
    args: [...args, ...stepsArg],
    minSeconds,
    ...(sceneFiles ? { sceneFiles } : {}),
  });
  return [
    ADAPTERS_STAGE,
    bench(
      "fig5-ice-small",
      "fig5-wall of ice at small under merge-split, kernel-repulsion-strong and penalty-strong",
      ["--handler", "merge-split,kernel-repulsion-strong,penalty-strong"],
      240,
      [ice("fig5-wall", "small")],
    ),
    bench(
      "fig8-wall-ice-small",
      "fig8-dam-break-wall with an ice wall at small under merge-split",
      ["--handler", "merge-split"],
      540,
      [ice("fig8-dam-break-wall", "small")],
    ),
    bench(
      "fig11-medium",
      "fig11's size limits 4-8, 8-16, 16-32 and 32-64 at medium under merge-split",
      [
        "--scene",
        "fig11-nlimit-4-8,fig11-nlimit-8-16,fig11-nlimit-16-32,fig11-nlimit-32-64",
        "--handler",
        "merge-split",
        "--scale",
        scale ?? "medium",
      ],
      270,
    ),
    bench(
      "fig5-ice-medium",
      "fig5-wall of ice at medium under merge-split",
      ["--handler", "merge-split"],
      400,
      [ice("fig5-wall", "medium")],
    ),
    bench(
      "fig8-bowl-ice-small",
      "fig8-bowl of ice at small under merge-split",
      ["--handler", "merge-split"],
      540,
      [ice("fig8-bowl", "small")],
    ),
  ];
}

/** A plan of `deno task gpu-check --plan <id>`. */
export interface GpuCheckPlan {
  /** What it measures, for `--help`. */
  description: string;
  /** Its stages in priority order. */
  stages(options?: PlanOptions): Stage[];
}

/** The plans of `deno task gpu-check`, by id (`--plan`); the first is the default. */
export const GPU_CHECK_PLANS: Readonly<Record<string, GpuCheckPlan>> = {
  hardware: {
    description:
      "adapters; default suite at small; fig4 at 3 scales; dam break, Table I's whole runs at paper",
    stages: planStages,
  },
  fidelity: {
    description:
      "fidelity: Figs. 5 and 8 of ice at small; Fig. 11's size limits at medium; more ice",
    stages: planFidelityStages,
  },
};

/** The plan `id`; a `RangeError` names the plans. */
export function getGpuCheckPlan(id: string): GpuCheckPlan {
  const plan = Object.hasOwn(GPU_CHECK_PLANS, id) ? GPU_CHECK_PLANS[id] : undefined;
  if (!plan) {
    throw new RangeError(
      `unknown plan "${id}"; plans: ${Object.keys(GPU_CHECK_PLANS).join(", ")}`,
    );
  }
  return plan;
}

/** How a budget is shared out between the stages, the report and the end (seconds). */
export interface BudgetPolicy {
  /** Kept at the end for the report (it gets more when the stages end early). */
  reportReserve: number;
  /** Between a stage's SIGINT and its SIGKILL. */
  grace: number;
  /** Kept after the report for the summary and the exit. */
  margin: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * The policy for a budget of `budget` seconds: a report reserve of 5 % (10–60 s), a stop grace of
 * 2 % (3–15 s) and a final margin of 2 s. A budget of 480 s: 24, 10 and 2 s.
 */
export function budgetPolicy(budget: number): BudgetPolicy {
  return {
    reportReserve: clamp(Math.round(budget * 0.05), 10, 60),
    grace: clamp(Math.round(budget * 0.02), 3, 15),
    margin: 2,
  };
}

/** What {@link stageWindow} decided for a stage. */
export type StageWindow =
  | {
    start: true;
    /** Seconds the stage may run before its SIGINT; also its `--timeout` per case (floored). */
    seconds: number;
    /** Seconds since the check started at which the stage gets SIGINT. */
    interruptAt: number;
    /** Seconds since the check started at which it gets SIGKILL. */
    killAt: number;
  }
  | {
    start: false;
    /** Why not, e.g. "12 s left, the stage needs 30". */
    reason: string;
  };

/**
 * Whether `stage` starts when `elapsed` seconds of `budget` have passed, and if so its deadlines:
 * it may run until the budget less the policy's report reserve, grace and margin, is interrupted
 * then and killed a grace later. A stage with fewer seconds than its `minSeconds` is skipped.
 */
export function stageWindow(
  stage: Pick<Stage, "minSeconds">,
  times: { budget: number; elapsed: number; policy: BudgetPolicy },
): StageWindow {
  const { budget, elapsed, policy } = times;
  const interruptAt = budget - policy.reportReserve - policy.grace - policy.margin;
  const seconds = interruptAt - elapsed;
  if (seconds < stage.minSeconds) {
    return {
      start: false,
      reason: `${Math.max(0, Math.floor(seconds))} s left, the stage needs ${stage.minSeconds}`,
    };
  }
  return { start: true, seconds, interruptAt, killAt: interruptAt + policy.grace };
}

/** Seconds since the start at which the report is killed: the budget less the final margin. */
export function reportDeadline(budget: number, policy: BudgetPolicy): number {
  return budget - policy.margin;
}

/**
 * A stage's outcome: `complete` (ran every case: exit status 0, or 1 when a case failed or timed
 * out), `cut` (stopped by the budget: interrupted or killed), `reached` (started, then ended on its
 * own without running every case: a crash, an abort, bad arguments), `skipped` (never started:
 * too little time left, or the check was interrupted).
 */
export type StageStatus = "complete" | "cut" | "reached" | "skipped";

/**
 * The status of a stage that started, from its exit status and whether the runner stopped it
 * (`stopped`: it sent SIGINT or SIGKILL, for the budget or an interrupt). Exit status 0 or 1 means
 * every case ran, even when the stop came as the stage was ending.
 */
export function stageStatus(exit: { code: number; stopped: boolean }): StageStatus {
  if (exit.code === 0 || exit.code === 1) return "complete";
  return exit.stopped ? "cut" : "reached";
}
