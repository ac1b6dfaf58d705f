/**
 * `deno task leaks`: which particles pass through a cloth, when, and in what geometry.
 *
 * Steps one case on the GPU, reads the positions back after every step (a diagnostic: one host
 * sync per step, never in `deno task bench`) and tracks every other particle's side of every
 * cloth as the pass-through metric does (`gpu/metrics/sheet_crossing.wgsl`): the side is observed
 * by the local normal of the nearest interior sheet particle closer than the reach, when the
 * particle lies within the sheet's spacing of it laterally, and kept otherwise. Each change of
 * side is an event with the step, the particle, the sheet particle it was observed against and
 * the geometry that says why it got there: the distance (in radii; 2 is contact), how far the
 * offset is from the normal (|cos| near 0: the particle sits in the sheet's plane, squeezed
 * between its particles), the local strain of the sheet (√2 − 1 ≈ 0.41 opens holes a particle
 * passes through without touching) and how far the particle moved in that step (in radii; more
 * than the contact distance would be tunnelling).
 *
 * ```
 * deno task leaks --scene fig7-mass-100 --scale medium --seed 7 [--handler merge-split] [--json f]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import type { Scale, Scene } from "../../core/scene/scene.ts";
import { buildParticles } from "../../core/scene/scene_builder.ts";
import { getScene } from "../../scenes/catalog.ts";
import { type DiagnosticRun, startDiagnostic } from "./diagnostic_run.ts";
import {
  particleAt as at,
  SheetSides,
  type SideObservation,
  type TracedSheet,
} from "./sheet_sides.ts";
import { writeFileAtomic } from "../../core/io/write_file_atomic.ts";
import { OptionValueError, readOptionNumber } from "../../core/option_text.ts";
import { mainOrUsageError, readSeed, readSteps } from "./tool_options.ts";

/** A particle's observation kept until its next one: where it was seen, and when. */
export interface PreviousObservation {
  /** The step after which it was seen (−1: at the start). */
  step: number;
  side: 1 | -1;
  sheetParticle: [number, number];
  distanceRadii: number;
  normalCosine: number;
  position: [number, number, number];
}

function previousOf(
  seen: SideObservation,
  { step, position, radius }: { step: number; position: [number, number, number]; radius: number },
): PreviousObservation {
  return {
    step,
    side: seen.side,
    sheetParticle: [seen.row, seen.col],
    distanceRadii: seen.distance / radius,
    normalCosine: seen.normalCosine,
    position,
  };
}

/** A change of a particle's side of a sheet. */
export interface LeakEvent {
  /** The step after which it was seen (0-based) and its time (s). */
  step: number;
  time: number;
  particle: number;
  /** The body the particle belongs to. */
  body: string;
  sheet: string;
  /**
   * `through`: now on the other side than at the start; `back`: returned to it; `round`: seen on
   * the other side after it was seen outside the sheet's outline (it came round the edge: its
   * sides are re-seeded, as the pass-through metric does, and it does not count as through).
   */
  to: "through" | "back" | "round";
  /** The sheet particle it was observed against, [row, col]. */
  sheetParticle: [number, number];
  /** Distance in radii (2: contact). */
  distanceRadii: number;
  normalCosine: number;
  strain: number;
  /** How far the particle moved in that step, in radii. */
  movedRadii: number;
  /**
   * Steps since the particle was last observed by this sheet before this one (0: seen the step
   * before). Many steps mean it was out of the sheet's reach, e.g. round the sheet's edge,
   * rather than pushed through it.
   */
  unseenSteps: number;
  /**
   * The particle's observation before this one (null: never observed before), which tells whether
   * it crossed at the same sheet particle or its nearest sheet particle changed.
   */
  previous: PreviousObservation | null;
  /** The particle's longest move in one step up to this event, in radii, and its step. */
  largestMove: { radii: number; step: number };
  /**
   * The last step before this one at which the particle, not observed, lay outside the sheet's
   * outline (the quadrilateral of its corner particles, along its normal); −1: never. A particle
   * that went round the sheet's edge has been outside it.
   */
  outsideOutlineStep: number;
  /** The particle's position (m) at that step; null when never outside. */
  outsideOutlinePosition: [number, number, number] | null;
  /** The particle's and the sheet particle's positions (m) when the change was seen. */
  position: [number, number, number];
  sheetPosition: [number, number, number];
}

/** The trace of one case. */
export interface LeakTrace {
  scene: string;
  scale: Scale;
  seed: number;
  handler: string;
  steps: number;
  events: LeakEvent[];
  /** Particles on the other side of some sheet than at the start, after the last step. */
  through: number[];
  /** Moves longer than {@link JUMP_RADII} in one step (the first 10,000), and how many in all. */
  jumps: Jump[];
  jumpCount: number;
}

/**
 * A move longer than the contact distance 2r in one step: a particle that could skip a contact
 * (the scenes' CFL step allows 0.5 r at the reference speed).
 */
export const JUMP_RADII = 2;

/** One particle's move of more than {@link JUMP_RADII} radii in one step. */
export interface Jump {
  step: number;
  particle: number;
  body: string;
  movedRadii: number;
  from: [number, number, number];
  to: [number, number, number];
}

/** A followed particle's place after a step: where, and its nearest particle of each sheet. */
export interface FollowedPoint {
  step: number;
  particle: number;
  position: [number, number, number];
  /** Per sheet: the nearest sheet particle within the reach (border ones too), or null. */
  nearest: ({ sheet: string; row: number; col: number; distanceRadii: number } | null)[];
  /** Per sheet: whether the particle is outside the sheet's outline. */
  outside: boolean[];
}

/** Options of {@link traceLeaks}: the case, and what to report as it runs. */
export interface TraceOptions extends DiagnosticRun {
  /** Called with each event as it is seen (a long trace reports before it ends). */
  onEvent?: (event: LeakEvent) => void;
  /** Called with each jump (a move longer than {@link JUMP_RADII} in one step) as it is seen. */
  onJump?: (jump: Jump) => void;
  /** Particles whose path is reported every `followEvery` steps (default 10) to `onFollow`. */
  follow?: readonly number[];
  followEvery?: number;
  onFollow?: (point: FollowedPoint) => void;
  /** Called after every `progressEvery` steps (default 1000) with the steps done. */
  onProgress?: (stepsDone: number) => void;
  progressEvery?: number;
}

/** A sheet as traced: each other particle's starting and current side, and what was last seen. */
interface TrackedSheet {
  sheet: TracedSheet;
  /** Each particle's side at the start (re-seeded when it comes back from round the edge). */
  initial: Map<number, 1 | -1>;
  /** Each particle's side now. */
  now: Map<number, 1 | -1>;
  /** Each particle's last observation and its step (−1: at the start). */
  lastSeen: Map<number, PreviousObservation>;
  /** Seen outside the outline while not observed, since the last observation (or the start). */
  marked: Set<number>;
}

/** What a trace has seen so far: its events and jumps, and each particle's moves. */
interface TraceState {
  scene: Scene;
  options: TraceOptions;
  /** The body of particle `i`. */
  bodyOf: (i: number) => { name: string };
  tracked: TrackedSheet[];
  events: LeakEvent[];
  /** The first 10,000 jumps. */
  jumps: Jump[];
  jumpCount: number;
  /** Each particle's largest move in one step (radii), and its step (−1: none yet). */
  largest: Float64Array;
  largestStep: Int32Array;
  /** Per sheet, each particle's last step outside its outline while not observed, and where. */
  lastOutside: Int32Array[];
  lastOutsideAt: Float64Array[];
  /** This step's move of each particle, in radii. */
  moves: Float64Array;
}

/** Runs `scene` and records every change of side of every particle of every cloth. */
export async function traceLeaks(scene: Scene, options: TraceOptions): Promise<LeakTrace> {
  const built = buildParticles(scene);
  const sheets = tracedSheets(scene, built.bodies);
  const bodyOf = (i: number) => built.bodies.find((b) => i >= b.start && i < b.start + b.count)!;
  const { engine, steps } = await startDiagnostic(scene, options);
  try {
    let pos = await engine.readPositions();
    const count = pos.length / 4;
    const state: TraceState = {
      scene,
      options,
      bodyOf,
      tracked: sheets.map((s) => trackSheet(s, pos, scene.radius)),
      events: [],
      jumps: [],
      jumpCount: 0,
      largest: new Float64Array(count),
      largestStep: new Int32Array(count).fill(-1),
      lastOutside: sheets.map(() => new Int32Array(count).fill(-1)),
      lastOutsideAt: sheets.map(() => new Float64Array(3 * count)),
      moves: new Float64Array(count),
    };
    for (let step = 0; step < steps; step++) {
      const before = pos;
      await engine.run(1);
      pos = await engine.readPositions();
      recordMoves(state, before, pos, step);
      // each sheet's side test on this step's positions, for the events and the followed particles
      const views = state.tracked.map((t) =>
        new SheetSides(t.sheet, pos, { reach: sheetReach(t.sheet, scene.radius) })
      );
      observeSides(state, views, pos, step);
      if ((step + 1) % (options.followEvery ?? 10) === 0) reportFollowed(state, views, pos, step);
      if ((step + 1) % (options.progressEvery ?? 1000) === 0) options.onProgress?.(step + 1);
    }
    const through = new Set<number>();
    for (const t of state.tracked) {
      for (const [i, side] of t.now) if (side !== t.initial.get(i)) through.add(i);
    }
    return {
      scene: scene.id,
      scale: scene.scale,
      seed: scene.seed,
      handler: options.handler,
      steps,
      events: state.events,
      through: [...through].sort((a, b) => a - b),
      jumps: state.jumps,
      jumpCount: state.jumpCount,
    };
  } finally {
    engine.destroy();
  }
}

/** The scene's cloth sheets, as the trace follows them; throws when it has none. */
function tracedSheets(
  scene: Scene,
  bodies: ReturnType<typeof buildParticles>["bodies"],
): TracedSheet[] {
  const sheets: TracedSheet[] = bodies.filter((b) => b.kind === "cloth").map((b) => {
    const body = scene.bodies.find((s) => s.name === b.name);
    return {
      name: b.name,
      start: b.start,
      rows: b.rows!,
      cols: b.cols!,
      spacing: body?.kind === "cloth" ? body.spacing : 2 * scene.radius,
    };
  });
  if (sheets.length === 0) {
    throw new RangeError(`traceLeaks: scene ${scene.id} has no cloth body to pass through`);
  }
  return sheets;
}

/** How far from a sheet a particle is observed: a diameter, or the sheet's spacing if larger. */
function sheetReach(s: TracedSheet, radius: number): number {
  return Math.max(2 * radius, s.spacing);
}

/**
 * A sheet's tracking at the start (positions `pos`): each other particle's starting side, its
 * observation where it is seen, and the unseen ones outside the outline marked.
 */
function trackSheet(s: TracedSheet, pos: Float32Array, radius: number): TrackedSheet {
  const count = pos.length / 4;
  const others = Array.from({ length: count }, (_, i) => i).filter((i) =>
    i < s.start || i >= s.start + s.rows * s.cols
  );
  const sides = new SheetSides(s, pos, { reach: sheetReach(s, radius) });
  const initial = new Map(others.map((i) => [i, sides.initialSide(at(pos, i))]));
  // each particle's last observation and its step (−1: at the start)
  const lastSeen = new Map<number, PreviousObservation>();
  for (const i of others) {
    const seen = sides.observe(at(pos, i));
    if (seen) {
      lastSeen.set(i, previousOf(seen, { step: -1, position: at(pos, i), radius }));
    }
  }
  // seen outside the outline while not observed, since the last observation (or the start)
  const marked = new Set(
    others.filter((i) => !lastSeen.has(i) && sides.outsideOutline(at(pos, i))),
  );
  return { sheet: s, initial, now: new Map(initial), lastSeen, marked };
}

/**
 * Records each particle's move over `step` (from `before` to `pos`, in radii): its largest move so
 * far, and a jump where it moved more than {@link JUMP_RADII} (reported to `onJump`).
 */
function recordMoves(state: TraceState, before: Float32Array, pos: Float32Array, step: number) {
  const { scene, largest, largestStep, moves } = state;
  for (let i = 0; i < moves.length; i++) {
    const j = 4 * i;
    const dx = pos[j] - before[j],
      dy = pos[j + 1] - before[j + 1],
      dz = pos[j + 2] - before[j + 2];
    const moved = Math.sqrt(dx * dx + dy * dy + dz * dz) / scene.radius;
    moves[i] = moved;
    if (moved > largest[i]) [largest[i], largestStep[i]] = [moved, step];
    if (moved > JUMP_RADII) {
      state.jumpCount++;
      const jump = {
        step,
        particle: i,
        body: state.bodyOf(i).name,
        movedRadii: moved,
        from: at(before, i),
        to: at(pos, i),
      };
      if (state.jumps.length < 10_000) state.jumps.push(jump);
      state.options.onJump?.(jump);
    }
  }
}

/**
 * Observes each tracked particle's side of each sheet after `step` (`views`: the sheets' side
 * tests on this step's positions); records an event (reported to `onEvent`) where it changed:
 * through, back, or round the edge.
 */
function observeSides(state: TraceState, views: SheetSides[], pos: Float32Array, step: number) {
  const { scene, lastOutside, lastOutsideAt } = state;
  for (const [k, t] of state.tracked.entries()) {
    const sides = views[k];
    for (const [i, side] of t.now) {
      const seen = sides.observe(at(pos, i));
      if (!seen) {
        if (sides.outsideOutline(at(pos, i))) {
          t.marked.add(i);
          lastOutside[k][i] = step;
          lastOutsideAt[k].set(at(pos, i), 3 * i);
        }
        continue;
      }
      const last = t.lastSeen.get(i) ?? null;
      t.lastSeen.set(i, previousOf(seen, { step, position: at(pos, i), radius: scene.radius }));
      const round = t.marked.delete(i);
      // back from round the edge: both sides re-seeded with the observed one (the metric's rule)
      if (round) t.initial.set(i, seen.side);
      if (seen.side === side) continue;
      t.now.set(i, seen.side);
      const event: LeakEvent = {
        step,
        time: (step + 1) * scene.dt,
        particle: i,
        body: state.bodyOf(i).name,
        sheet: t.sheet.name,
        to: round ? "round" : seen.side === t.initial.get(i) ? "back" : "through",
        sheetParticle: [seen.row, seen.col],
        distanceRadii: seen.distance / scene.radius,
        normalCosine: seen.normalCosine,
        strain: seen.strain,
        movedRadii: state.moves[i],
        unseenSteps: step - (last?.step ?? -2) - 1,
        previous: last,
        largestMove: { radii: state.largest[i], step: state.largestStep[i] },
        outsideOutlineStep: lastOutside[k][i],
        outsideOutlinePosition: lastOutside[k][i] < 0
          ? null
          : [...lastOutsideAt[k].subarray(3 * i, 3 * i + 3)] as [number, number, number],
        position: at(pos, i),
        sheetPosition: at(pos, t.sheet.start + seen.row * t.sheet.cols + seen.col),
      };
      state.events.push(event);
      state.options.onEvent?.(event);
    }
  }
}

/** Reports where each followed particle is after `step`: its nearest sheet particles, and sides. */
function reportFollowed(state: TraceState, views: SheetSides[], pos: Float32Array, step: number) {
  for (const i of state.options.follow ?? []) {
    const x = at(pos, i);
    state.options.onFollow?.({
      step,
      particle: i,
      position: x,
      nearest: views.map((v) => {
        const near = v.nearest(x);
        return near && {
          sheet: v.sheet.name,
          row: near.row,
          col: near.col,
          distanceRadii: near.distance / state.scene.radius,
        };
      }),
      outside: views.map((v) => v.outsideOutline(x)),
    });
  }
}

/** Usage text of `deno task leaks`. */
export const LEAKS_USAGE = `deno task leaks --scene <id> [options]

  --scene <id>        catalogue scene with a cloth (required)
  --scale <name>      tiny | small | medium | paper (default small)
  --seed <n>          seed (default the scene's)
  --handler <id>      handler (default merge-split)
  --param <name=v>    override a parameter of the handler (repeatable)
  --steps <n>         steps (default the scene's duration / dt)
  --follow <i,j,...>  report these particles' positions and nearest cloth particles every 10 steps
  --sound-speed-factor <F>  SPH speed of sound c = max(F·v, √(F·g·H)) (default 10; SPH scenes)
  --json <path>       also write the trace as JSON
`;

/** Formats a trace as a table of its events and a summary line. */
export function formatTrace(trace: LeakTrace): string {
  const head = `${trace.scene} × ${trace.handler} at ${trace.scale}, seed ${trace.seed}, ` +
    `${trace.steps} steps: ${trace.through.length} particles through at the end, ` +
    `${trace.events.length} changes of side, ${trace.jumpCount} moves longer than ` +
    `${JUMP_RADII} r in one step`;
  const rows = trace.events.map(formatEvent);
  return [head, ...(rows.length ? [LEAK_EVENT_HEADER, ...rows] : [])].join("\n");
}

/** The column heads of {@link formatEvent}'s rows. */
export const LEAK_EVENT_HEADER =
  "  step     time particle body     to       sheet particle    d/r" +
  "   |cos|  strain  moved/r  unseen  particle at (m)          sheet particle at (m)";

/** One event as a row of {@link formatTrace}'s table. */
export function formatEvent(e: LeakEvent): string {
  return [
    String(e.step).padStart(6),
    e.time.toFixed(4).padStart(8),
    String(e.particle).padStart(8),
    e.body.padEnd(8),
    e.to.padEnd(8),
    `${e.sheet}[${e.sheetParticle.join(",")}]`.padEnd(16),
    e.distanceRadii.toFixed(2).padStart(7),
    e.normalCosine.toFixed(2).padStart(6),
    e.strain.toFixed(3).padStart(7),
    e.movedRadii.toFixed(2).padStart(7),
    String(e.unseenSteps).padStart(7),
    ` ${e.position.map((v) => v.toFixed(3)).join(",").padEnd(24)}`,
    e.sheetPosition.map((v) => v.toFixed(3)).join(","),
    e.previous
      ? ` | before: step ${e.previous.step} [${e.previous.sheetParticle.join(",")}] ` +
        `d/r ${e.previous.distanceRadii.toFixed(2)} |cos| ${e.previous.normalCosine.toFixed(2)} ` +
        `at ${e.previous.position.map((v) => v.toFixed(3)).join(",")}`
      : " | never seen before",
    `| largest move ${e.largestMove.radii.toFixed(2)} r at step ${e.largestMove.step}`,
    e.outsideOutlineStep < 0
      ? "| never outside the outline"
      : `| outside the outline at step ${e.outsideOutlineStep}, at ` +
        e.outsideOutlinePosition!.map((v) => v.toFixed(3)).join(","),
  ].join(" ");
}

async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      scene: { type: "string" },
      scale: { type: "string", default: "small" },
      seed: { type: "string" },
      handler: { type: "string", default: "merge-split" },
      param: { type: "string", multiple: true },
      steps: { type: "string" },
      "sound-speed-factor": { type: "string" },
      follow: { type: "string" },
      json: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help || !values.scene) {
    console.log(LEAKS_USAGE);
    return values.help ? 0 : 2;
  }
  const factor = values["sound-speed-factor"];
  let scene = getScene(values.scene, {
    scale: values.scale as Scale,
    soundSpeedFactor: factor === undefined
      ? undefined
      : readOptionNumber("sound-speed-factor", factor),
  });
  if (values.seed !== undefined) scene = { ...scene, seed: readSeed(values.seed) };
  const params = Object.fromEntries((values.param ?? []).map((p) => {
    const [k, v] = p.split("=");
    if (v === undefined) {
      throw new OptionValueError(`--param ${p}: write name=value with a number, e.g. alpha=0.5`);
    }
    return [k, readOptionNumber(`param ${k}`, v)];
  }));
  let jumpsShown = 0;
  const trace = await traceLeaks(scene, {
    handler: values.handler!,
    params,
    steps: values.steps === undefined ? undefined : readSteps(values.steps),
    // Each event on stderr as it is seen, so a trace stopped early still tells what it saw.
    onEvent: (e) => console.error(`seen: ${formatEvent(e)}`),
    onProgress: (done) => console.error(`${done} steps`),
    follow: values.follow?.split(",").map((i) =>
      readOptionNumber("follow", i, { integer: true, min: 0 })
    ),
    onFollow: (f) =>
      console.error(
        `follow: step ${f.step} particle ${f.particle} at ${
          f.position.map((v) => v.toFixed(4)).join(",")
        }` +
          f.nearest.map((n, k) =>
            (n ? ` nearest [${n.row},${n.col}] ${n.distanceRadii.toFixed(2)} r` : " none near") +
            (f.outside[k] ? " outside the outline" : "")
          ).join(""),
      ),
    onJump: (j) => {
      if (++jumpsShown <= 100) {
        console.error(
          `jump: step ${j.step} particle ${j.particle} (${j.body}) ${j.movedRadii.toFixed(2)} r ` +
            `from ${j.from.map((v) => v.toFixed(3))} to ${j.to.map((v) => v.toFixed(3))}`,
        );
      }
    },
  });
  console.log(formatTrace(trace));
  if (values.json) writeFileAtomic(values.json, JSON.stringify(trace, null, 2) + "\n");
  return 0;
}

if (import.meta.main) Deno.exit(await mainOrUsageError(main, Deno.args));
