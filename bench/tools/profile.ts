/**
 * `deno task profile`: where one case's step time goes, kernel by kernel.
 *
 * Runs one catalogue scene under one handler with every dispatch in a timed pass of its own
 * (`gpu/runtime/kernel_profiler.ts`) and prints, per phase and kernel, the dispatches per step,
 * the GPU time per step and per dispatch, and the share of the profiled step. A diagnostic for
 * performance work: the pass per dispatch adds its fixed cost to every kernel, so the figures
 * rank kernels; the step time itself comes from `deno task bench`.
 *
 * ```
 * deno task profile --scene fig4-fluid-cloth --handler merge-split --scale small --steps 30
 * ```
 *
 * @module
 */
import { parseOptionNumber } from "../../core/option_text.ts";
import { parseArgs } from "node:util";
import { getScene, sceneIds } from "../../scenes/catalog.ts";
import { Engine } from "../../gpu/engine.ts";
import { acquireGpu } from "../../gpu/runtime/device.ts";
import { KernelProfiler, type KernelProfileRow } from "../../gpu/runtime/kernel_profiler.ts";
import type { Scale } from "../../core/scene/scene.ts";
import { writeFileAtomic } from "../../core/io/write_file_atomic.ts";

export type { Scale };

/** Usage text of `deno task profile`. */
export const PROFILE_USAGE = `deno task profile --scene <id> [options]

  --scene <id>        catalogue scene (required)
  --handler <id>      handler (default merge-split)
  --scale <name>      tiny | small | medium | paper (default small)
  --steps <n>         profiled steps (default 30)
  --warmup <n>        steps run first and not counted (default 5)
  --adapter <name>    default | software (default default)
  --json <path>       also write the rows as JSON
  --top <n>           rows printed (default 40; all rows go to --json)
`;

/** Options of {@link profileCase}. */
export interface ProfileOptions {
  /** Catalogue scene id. */
  scene: string;
  /** Handler id. */
  handler: string;
  /** Scale of the scene. */
  scale: Scale;
  /** Profiled steps. */
  steps: number;
  /** Steps run first and not counted. */
  warmup: number;
  /** Which adapter to ask for. */
  adapter: "default" | "software";
}

/** A profiled case: rows summed over `steps` steps. */
export interface CaseProfile extends ProfileOptions {
  /** Particles of the scene (all bodies). */
  particles: number;
  /** Per phase and kernel, most time first. */
  rows: KernelProfileRow[];
}

/** Runs the case with a {@link KernelProfiler} and returns its rows. */
export async function profileCase(options: ProfileOptions): Promise<CaseProfile> {
  const scene = getScene(options.scene, { scale: options.scale });
  const gpu = await acquireGpu({ adapter: options.adapter, timestamps: true });
  const profiler = new KernelProfiler(gpu.device);
  const engine = await Engine.create(scene, { handler: options.handler, gpu, profiler });
  try {
    await engine.run(options.warmup);
    engine.resetTimings();
    await engine.run(options.steps);
    return { ...options, particles: engine.count, rows: profiler.rows() };
  } finally {
    engine.destroy();
    profiler.destroy();
    gpu.device.destroy();
  }
}

/** The table `deno task profile` prints: per step figures, most time first. */
export function profileTable(profile: CaseProfile, top = 40): string {
  const total = profile.rows.reduce((a, r) => a + r.ms, 0);
  const n = profile.steps;
  const lines = [
    `${profile.scene} × ${profile.handler} at ${profile.scale} (${profile.particles} particles), ` +
    `${n} steps: ${(total / n).toFixed(2)} ms/step in profiled dispatches`,
    `${"phase".padEnd(20)} ${"kernel".padEnd(44)} ${"disp/step".padStart(9)} ${
      "ms/step".padStart(8)
    } ${"µs/disp".padStart(8)} ${"share".padStart(6)}`,
  ];
  for (const r of profile.rows.slice(0, top)) {
    lines.push(
      `${r.phase.padEnd(20)} ${r.kernel.slice(0, 44).padEnd(44)} ${
        (r.dispatches / n).toFixed(1).padStart(9)
      } ${(r.ms / n).toFixed(3).padStart(8)} ${
        (r.dispatches ? (1000 * r.ms) / r.dispatches : 0).toFixed(1).padStart(8)
      } ${(total ? (100 * r.ms) / total : 0).toFixed(1).padStart(5)}%`,
    );
  }
  const phases = new Map<string, number>();
  for (const r of profile.rows) phases.set(r.phase, (phases.get(r.phase) ?? 0) + r.ms);
  lines.push("", "per phase:");
  for (const [p, ms] of [...phases].sort((a, b) => b[1] - a[1])) {
    lines.push(
      `${p.padEnd(20)} ${(ms / n).toFixed(3).padStart(8)} ms/step ${
        (total ? (100 * ms) / total : 0).toFixed(1).padStart(5)
      }%`,
    );
  }
  return lines.join("\n");
}

/** Parses `deno task profile` arguments; throws a `TypeError` naming a bad one. */
export function parseProfileArgs(args: string[]): ProfileOptions & { json?: string; top: number } {
  const { values } = parseArgs({
    args,
    options: {
      scene: { type: "string" },
      handler: { type: "string", default: "merge-split" },
      scale: { type: "string", default: "small" },
      steps: { type: "string", default: "30" },
      warmup: { type: "string", default: "5" },
      adapter: { type: "string", default: "default" },
      json: { type: "string" },
      top: { type: "string", default: "40" },
    },
  });
  if (!values.scene) throw new TypeError(`--scene is required\n\n${PROFILE_USAGE}`);
  if (!sceneIds().includes(values.scene)) {
    throw new TypeError(
      `--scene ${values.scene}: not a catalogue scene; the scenes are ${sceneIds().join(", ")}`,
    );
  }
  const scales = ["tiny", "small", "medium", "paper"];
  if (!scales.includes(values.scale!)) {
    throw new TypeError(`--scale ${values.scale}: must be one of ${scales.join(", ")}`);
  }
  if (values.adapter !== "default" && values.adapter !== "software") {
    throw new TypeError(`--adapter ${values.adapter}: must be default or software`);
  }
  const count = (name: string, v: string, min: number) => {
    const n = parseOptionNumber(v, { integer: true }) ?? NaN; // the options' one grammar
    if (!Number.isSafeInteger(n) || n < min) {
      throw new TypeError(`--${name} ${v}: must be an integer ≥ ${min}`);
    }
    return n;
  };
  return {
    scene: values.scene,
    handler: values.handler!,
    scale: values.scale as Scale,
    steps: count("steps", values.steps!, 1),
    warmup: count("warmup", values.warmup!, 0),
    adapter: values.adapter,
    json: values.json,
    top: count("top", values.top!, 1),
  };
}

if (import.meta.main) {
  let options;
  try {
    options = parseProfileArgs(Deno.args);
  } catch (e) {
    console.error((e as Error).message);
    Deno.exit(2);
  }
  const profile = await profileCase(options);
  console.log(profileTable(profile, options.top));
  if (options.json) writeFileAtomic(options.json, JSON.stringify(profile, null, 2));
}
