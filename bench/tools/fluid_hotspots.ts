/**
 * `deno task hotspots`: where a fluid's worst density errors and fastest particles are.
 *
 * Steps one case on the GPU and, every `--every` steps, reads the positions and velocities back (a
 * diagnostic: never in `deno task bench`) and computes on the host, in f64, the compression error
 * of every fluid particle by the fluid metrics' rule (`gpu/metrics/fluid_metrics.ts`: the poly6
 * estimate with h = 4r over the particle's own body, against the rest density of the body's
 * lattice, compression only). Each sample reports the worst particle and the fastest fluid
 * particle with where they are: beside another body (within h of a cloth or solid particle),
 * beside a domain wall (within h of one), or free; and how many particles are past the target
 * error ({@link DENSITY_ERROR_TARGET}) in each place. This tells whether a run's worst density
 * error is an impact on a sheet, a splash on the domain's floor or a jet in the open.
 *
 * ```
 * deno task hotspots --scene fig11-nlimit-inf --scale small [--seed 7] [--every 50] [--json f]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import type { Scale, Scene } from "../../core/scene/scene.ts";
import { buildParticles, type ParticleSet } from "../../core/scene/scene_builder.ts";
import { latticeRestDensity } from "../../core/model/sph_params.ts";
import { poly6 } from "../../core/model/sph_kernels.ts";
import { getScene } from "../../scenes/catalog.ts";
import { FLUID_KERNEL_RADII } from "../../gpu/metrics/fluid_metrics.ts";
import { type DiagnosticRun, startDiagnostic } from "./diagnostic_run.ts";
import { type Point, PointGrid } from "./point_grid.ts";
import { particleAt } from "./sheet_sides.ts";
import { writeFileAtomic } from "../../core/io/write_file_atomic.ts";
import { readOptionNumber } from "../../core/option_text.ts";
import { mainOrUsageError, readSeed, readSteps } from "./tool_options.ts";

/** The worst SPH density error the fidelity targets allow in every scene: 3 % (claim x). */
export const DENSITY_ERROR_TARGET = 0.03;

/** Where a fluid particle is: within h of another body's particle, of a domain wall, or neither. */
export type HotspotPlace = "body" | "wall" | "free";

/** The places in the order a particle is classed by (the first that holds). */
export const HOTSPOT_PLACES: readonly HotspotPlace[] = ["body", "wall", "free"];

/** A fluid body as the estimate sees it. */
export interface HotspotFluid {
  name: string;
  start: number;
  count: number;
  /** Its rest density: the estimate of an interior particle of its lattice (kg/m³). */
  rho0: number;
}

/** What {@link fluidHotspots} needs of a scene. */
export interface HotspotSetup {
  /** Particle radius r (m); h = {@link FLUID_KERNEL_RADII}·r. */
  radius: number;
  domain: { min: Point; max: Point };
  fluids: HotspotFluid[];
  /** Particle masses (kg), every particle. */
  mass: ArrayLike<number>;
  /** The particles of every other body (cloth, solid): "body" is within h of one of them. */
  others: number[];
}

/** A fluid particle and where it is. */
export interface FluidSpot {
  particle: number;
  body: string;
  /** Compression error max(ρ/ρ0 − 1, 0). */
  error: number;
  /** Speed (m/s) and velocity. */
  speed: number;
  velocity: [number, number, number];
  position: [number, number, number];
  place: HotspotPlace;
  /** Distance to the nearest domain wall, in radii. */
  wallRadii: number;
  /** Distance to the nearest particle of another body, in radii; null when none is within h. */
  bodyRadii: number | null;
  /** Fluid particles of its body within h, itself included. */
  neighbours: number;
}

/** One sample: the worst and the fastest fluid particle, and the particles past the target. */
export interface HotspotSample {
  step: number;
  time: number;
  worst: FluidSpot;
  fastest: FluidSpot;
  /** Mean compression error over every fluid particle. */
  meanError: number;
  /** Fluid particles past {@link DENSITY_ERROR_TARGET}, by place. */
  over: Record<HotspotPlace, number>;
  /** Every fluid particle, by place. */
  all: Record<HotspotPlace, number>;
}

/** The setup of {@link fluidHotspots} for a scene and its built particles. */
export function hotspotSetup(scene: Scene, built: ParticleSet): HotspotSetup {
  const h = FLUID_KERNEL_RADII * scene.radius;
  const fluids: HotspotFluid[] = [];
  const others: number[] = [];
  for (const b of built.bodies) {
    const body = scene.bodies.find((s) => s.name === b.name);
    if (body?.kind === "fluid") {
      fluids.push({
        name: b.name,
        start: b.start,
        count: b.count,
        rho0: latticeRestDensity(body.particleMass, body.spacing, h),
      });
    } else {
      for (let i = b.start; i < b.start + b.count; i++) others.push(i);
    }
  }
  if (fluids.length === 0) {
    throw new RangeError(`fluidHotspots: scene ${scene.id} has no fluid body`);
  }
  return { radius: scene.radius, domain: scene.domain, fluids, mass: built.mass, others };
}

/**
 * The compression error max(ρ_i/ρ0 − 1, 0) of every particle (0 for non-fluid ones) and the
 * count of its body's particles within h, ρ_i = Σ_j m_j W_poly6(|x_i − x_j|, h) over its own
 * body (self included; Müller et al. 2003, Eq. 3), in f64, on positions in the `array<vec4f>`
 * layout.
 */
export function densityErrors(
  pos: ArrayLike<number>,
  setup: HotspotSetup,
): { error: Float64Array; neighbours: Int32Array } {
  const n = setup.mass.length;
  const h = FLUID_KERNEL_RADII * setup.radius;
  const error = new Float64Array(n);
  const neighbours = new Int32Array(n);
  for (const f of setup.fluids) {
    const particles = Array.from({ length: f.count }, (_, k) => f.start + k);
    const grid = new PointGrid(pos, { cell: h, particles });
    for (const i of particles) {
      let rho = 0, near = 0;
      grid.forEachNear(particleAt(pos, i), (j, d2) => {
        if (d2 < h * h) {
          rho += setup.mass[j] * poly6(d2, h);
          near++;
        }
      });
      error[i] = Math.max(rho / f.rho0 - 1, 0);
      neighbours[i] = near;
    }
  }
  return { error, neighbours };
}

/** The worst and fastest fluid particles of one state, and the counts by place. */
export function fluidHotspots(
  state: { pos: ArrayLike<number>; vel: ArrayLike<number> },
  setup: HotspotSetup,
): Omit<HotspotSample, "step" | "time"> {
  const { pos, vel } = state;
  const r = setup.radius;
  const h = FLUID_KERNEL_RADII * r;
  const { error, neighbours } = densityErrors(pos, setup);
  const othersGrid = new PointGrid(pos, { cell: h, particles: setup.others });
  const { min, max } = setup.domain;
  const spot = (i: number, body: string): FluidSpot => {
    const x = particleAt(pos, i);
    const v = particleAt(vel, i);
    const wall = Math.min(...[0, 1, 2].map((a) => Math.min(x[a] - min[a], max[a] - x[a])));
    const near = othersGrid.nearest(x);
    return {
      particle: i,
      body,
      error: error[i],
      speed: Math.hypot(...v),
      velocity: v,
      position: x,
      place: near ? "body" : wall < h ? "wall" : "free",
      wallRadii: wall / r,
      bodyRadii: near ? near.distance / r : null,
      neighbours: neighbours[i],
    };
  };
  const over = { body: 0, wall: 0, free: 0 };
  const all = { body: 0, wall: 0, free: 0 };
  let worst: [number, string] = [-1, ""], fastest: [number, string] = [-1, ""];
  let worstError = -1, topSpeed = -1, sum = 0, count = 0;
  for (const f of setup.fluids) {
    for (let i = f.start; i < f.start + f.count; i++) {
      const s = spot(i, f.name);
      all[s.place]++;
      if (s.error > DENSITY_ERROR_TARGET) over[s.place]++;
      if (s.error > worstError) [worstError, worst] = [s.error, [i, f.name]];
      if (s.speed > topSpeed) [topSpeed, fastest] = [s.speed, [i, f.name]];
      sum += s.error;
      count++;
    }
  }
  return {
    worst: spot(...worst),
    fastest: spot(...fastest),
    meanError: sum / count,
    over,
    all,
  };
}

/** What {@link traceHotspots} takes beside the scene: the case, and how often to sample it. */
export interface HotspotTraceOptions extends DiagnosticRun {
  /** Steps between samples (default 50); the start is sampled too. */
  every?: number;
  /** Called with each sample as it is taken. */
  onSample?: (sample: HotspotSample) => void;
}

/** Runs `scene` and samples its fluid's hot spots every `options.every` steps. */
export async function traceHotspots(
  scene: Scene,
  options: HotspotTraceOptions,
): Promise<HotspotSample[]> {
  const every = options.every ?? 50;
  if (!Number.isInteger(every) || every < 1) {
    throw new RangeError(`traceHotspots: every must be an integer >= 1, got ${every}`);
  }
  const setup = hotspotSetup(scene, buildParticles(scene));
  const { engine, steps } = await startDiagnostic(scene, options);
  const samples: HotspotSample[] = [];
  try {
    for (let step = 0;;) {
      const sample = {
        step,
        time: step * scene.dt,
        ...fluidHotspots(await engine.readState(), setup),
      };
      samples.push(sample);
      options.onSample?.(sample);
      if (step >= steps) break;
      const n = Math.min(every, steps - step);
      await engine.run(n);
      step += n;
    }
  } finally {
    engine.destroy();
  }
  return samples;
}

const fixed = (v: readonly number[], d: number) => v.map((x) => x.toFixed(d)).join(",");

/** A spot as one line: particle, error, speed, place, distances, position. */
export function formatSpot(s: FluidSpot): string {
  return `${s.particle} ${(100 * s.error).toFixed(1)} % ${s.speed.toFixed(2)} m/s ${s.place}` +
    ` wall ${s.wallRadii.toFixed(1)} r` +
    (s.bodyRadii === null ? "" : ` body ${s.bodyRadii.toFixed(2)} r`) +
    ` n ${s.neighbours} at (${fixed(s.position, 3)}) v (${fixed(s.velocity, 2)})`;
}

/** A sample as one line. */
export function formatSample(s: HotspotSample): string {
  const over = HOTSPOT_PLACES.map((p) => `${p} ${s.over[p]}/${s.all[p]}`).join(" ");
  return `step ${s.step} t ${s.time.toFixed(3)} s  mean ${(100 * s.meanError).toFixed(3)} %  ` +
    `over ${(100 * DENSITY_ERROR_TARGET).toFixed(0)} %: ${over}\n` +
    `  worst   ${formatSpot(s.worst)}\n  fastest ${formatSpot(s.fastest)}`;
}

/**
 * The run in a few lines: per place, the samples whose worst particle was there and the largest
 * error seen there; the fastest fluid particle seen, and where.
 */
export function summariseHotspots(samples: readonly HotspotSample[]): string {
  const lines = HOTSPOT_PLACES.map((p) => {
    const there = samples.filter((s) => s.worst.place === p);
    const most = Math.max(0, ...there.map((s) => s.worst.error));
    return `worst particle ${p.padEnd(4)} in ${there.length} of ${samples.length} samples` +
      (there.length ? `, largest ${(100 * most).toFixed(1)} %` : "");
  });
  const top = samples.reduce((a, s) => (s.fastest.speed > a.fastest.speed ? s : a));
  lines.push(`fastest fluid particle: step ${top.step}, ${formatSpot(top.fastest)}`);
  return lines.join("\n");
}

/** `deno task hotspots --help`. */
export const HOTSPOTS_USAGE = `deno task hotspots --scene <id> [options]

Where a fluid's worst density errors and fastest particles are: every --every steps the state is
read back and each fluid particle's compression error computed on the host (the fluid metrics'
rule); the worst and the fastest particle are printed with their place (body: within h of a cloth
or solid particle; wall: within h of a domain wall; free), distances and neighbour count.

  --scene <id>        catalogue scene with a fluid body
  --scale <s>         tiny | small | medium | paper (default small)
  --seed <n>          the scene's seed replaced
  --handler <id>      default merge-split
  --steps <n>         default the scene's duration / dt
  --every <n>         steps between samples (default 50)
  --json <file>       every sample as JSON`;

async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      scene: { type: "string" },
      scale: { type: "string", default: "small" },
      seed: { type: "string" },
      handler: { type: "string", default: "merge-split" },
      steps: { type: "string" },
      every: { type: "string", default: "50" },
      json: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help || !values.scene) {
    console.log(HOTSPOTS_USAGE);
    return values.help ? 0 : 2;
  }
  let scene = getScene(values.scene, { scale: values.scale as Scale });
  if (values.seed !== undefined) scene = { ...scene, seed: readSeed(values.seed) };
  const samples = await traceHotspots(scene, {
    handler: values.handler!,
    steps: values.steps === undefined ? undefined : readSteps(values.steps),
    every: readOptionNumber("every", values.every!, { integer: true, min: 1 }),
    // each sample on stderr as taken, so a run stopped early still tells what it saw
    onSample: (s) => console.error(formatSample(s)),
  });
  console.log(summariseHotspots(samples));
  if (values.json) writeFileAtomic(values.json, JSON.stringify(samples) + "\n");
  return 0;
}

if (import.meta.main) Deno.exit(await mainOrUsageError(main, Deno.args));
