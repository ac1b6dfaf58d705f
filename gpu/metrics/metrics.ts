/**
 * Metrics (docs/design.md) computed on the GPU, written every k steps into a samples buffer that
 * is read back once per batch: pass-through, deep overlaps, max penetration depth, speeds,
 * energies, NaN count, sheet deflection, fluid rebound speed, fragments, and the merge/split
 * conservation errors (Eqs. 2 and 4). Kernel: `metrics.wgsl`; each metric's definition, and the
 * assumption behind the pass-through count (no particle moves farther than the sample travel
 * relative to a sheet between two samples), in `docs/metrics.md`.
 *
 * @module
 */
import {
  FAST_REBOUND_FRACTION,
  FLUNG_GAIN_SHARE,
  HANDLER_SAMPLE_FIELDS,
  SAMPLE_FIELDS,
} from "../../core/result.ts";
import { defineStruct, type StructLayout } from "../runtime/struct_layout.ts";
import { BOND_ENERGY_WGSL } from "./bond_energy.ts";
import {
  bindKernel,
  createKernel,
  dispatch,
  type Kernel,
  readBuffer,
  storageBuffer,
} from "../runtime/kernel.ts";
import { KIND_BITS } from "../state/particle_state.ts";
import { type HandlerStatistics, statisticConstant } from "../state/handler_statistics.ts";
import { BOND_BROKEN_BIT } from "../state/bond_flags.ts";
import { FLUID_FIELDS, FluidMetrics, type FluidRange } from "./fluid_metrics.ts";
import { BUDGET_FIELDS, type BudgetField } from "./step_budget.ts";
import { FRAGMENT_RESULT, Fragments } from "./fragments.ts";
import { SolidPenetration } from "./solid_penetration.ts";
import { SAMPLE_TRAVEL_MARGIN, type Sheet, SheetCrossing } from "./sheet_crossing.ts";
import type { Scene } from "../../core/scene/scene.ts";
import { isBreakableSolid, type ParticleSet } from "../../core/scene/scene_builder.ts";
import metricsWgsl from "./metrics.wgsl" with { type: "text" };

/** WGSL source of the metrics kernel. */
export const METRICS_WGSL: string = [
  BOND_ENERGY_WGSL,
  metricsWgsl,
].join("\n");

/** The WGSL `override` name of a sample row's column: `F_` and the camelCase name in capitals. */
export function columnConstant(field: string): string {
  return `F_${field.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
}

/** The largest finite f32: a speed no particle exceeds (no `fastRebound` counted). */
const F32_MAX = 3.4028234663852886e38;

/** The word of a handler column the handler keeps no statistic for: the column samples 0. */
export const NO_STATISTIC = 0xffffffff;

/**
 * Every constant metrics.wgsl takes from TypeScript, as `override` values (defined once), with
 * the words of the handler's statistics it samples (`stats`).
 */
function wgslConstants(stats: MetricsOptions["handlerStats"]): Record<string, number> {
  return {
    FLAG_CLOTH: KIND_BITS.sheet,
    FLAG_FLUID: KIND_BITS.fluid,
    FLUNG_GAIN_SHARE,
    // the word of each handler column in the handler's statistics (STAT_<COLUMN>)
    STAT_NONE: NO_STATISTIC,
    ...Object.fromEntries(
      HANDLER_SAMPLE_FIELDS.map((f) => [statisticConstant(f), stats?.sampled[f] ?? NO_STATISTIC]),
    ),
    BROKEN_BIT: BOND_BROKEN_BIT,
    FRAGMENT_COUNT: FRAGMENT_RESULT.COUNT,
    FRAGMENT_LARGEST: FRAGMENT_RESULT.LARGEST,
    FRAGMENT_SIGNIFICANT: FRAGMENT_RESULT.SIGNIFICANT,
    // the fluid columns are written by fluid_metrics.wgsl (FluidMetrics) and the budget's by
    // step_budget.wgsl (StepBudget), which take their own
    ...Object.fromEntries(
      SAMPLE_FIELDS.map((f, k) => [columnConstant(f), k])
        .filter((_, k) => !OTHER_WRITERS.includes(SAMPLE_FIELDS[k])),
    ),
  };
}

/**
 * A fragment holding at least this share of the breakable solid bodies' particles is counted in
 * `significantFragments` (a fragment holding at least 1 % of the body).
 */
export const SIGNIFICANT_FRAGMENT_SHARE = 0.01;

/** Columns that other kernels write into the sample rows (not `metrics.wgsl`). */
const OTHER_WRITERS: readonly string[] = [...FLUID_FIELDS, ...BUDGET_FIELDS];

/** Layout of `MetricsParams` in `metrics.wgsl`. */
export const METRICS_PARAMS: StructLayout = defineStruct("MetricsParams", [
  ["count", "u32"],
  ["pad6", "u32"],
  ["solidCount", "u32"],
  ["pad4", "u32"],
  ["pad3", "u32"],
  ["sample", "u32"],
  ["mode", "u32"],
  ["fields", "u32"],
  ["radius", "f32"],
  ["reboundSpeed", "f32"],
  ["time", "f32"],
  ["gravityGain", "f32"],
  ["gravity", "vec3f"],
  ["pad1", "u32"],
  ["origin", "vec3f"],
  ["pad2", "u32"],
]);

/** The fields of one sample row, in buffer order (defined in `core/result.ts`). */
export { SAMPLE_FIELDS };

/** One sample of every metric. */
export type MetricsSample = Record<typeof SAMPLE_FIELDS[number], number>;

/** Buffers the metrics read (owned by the engine). */
export interface MetricsBuffers {
  pos: GPUBuffer;
  vel: GPUBuffer;
  mass: GPUBuffer;
  /** Body-kind bits per particle (`KIND_BITS` of gpu/state/particle_state.ts). */
  kind: GPUBuffer;
  /** Initial positions (`array<vec4f>`). */
  rest: GPUBuffer;
  /**
   * Ascending bond lists (`ParticleState`: each bond once, under its lower index): broken bonds
   * carry `BOND_BROKEN_BIT`.
   */
  bondStart: GPUBuffer;
  bondList: GPUBuffer;
  /** Class of each bond-list entry in `springClasses` (`array<SpringClass>`, spring_csr.ts). */
  bondClass: GPUBuffer;
  springClasses: GPUBuffer;
}

export type { Sheet } from "./sheet_crossing.ts";

/** Options of {@link Metrics}. */
export interface MetricsOptions {
  count: number;
  /**
   * The sheets (cloth bodies) that define pass-through, each a rows × cols particle grid from
   * `start`, with its rest spacing (m); none, one or several.
   */
  sheets: readonly Sheet[];
  /**
   * Most a particle moves relative to a sheet between two samples (m): the reach of the sheet
   * metrics is at least this plus max(2r, spacing) (`sheet_crossing.ts` `sheetReach`); default 0.
   * `forScene` takes `SAMPLE_TRAVEL_MARGIN` (1.5) × the scene's CFL reference speed ×
   * metricsEvery × dt.
   */
  sampleTravel?: number;
  /** The solid bodies (particle ranges) measured for solid–solid penetration; none, one or several. */
  solids: readonly { start: number; count: number }[];
  /**
   * The breakable solid bodies, whose particles the fragment statistics count (fragments, the
   * largest, those of at least {@link SIGNIFICANT_FRAGMENT_SHARE} of these particles); default:
   * every solid. `forScene` passes the breakable ones only, so an unbreakable projectile (Fig. 5's
   * ball) is no fragment.
   */
  fragmentBodies?: readonly { start: number; count: number }[];
  /**
   * The fluid bodies (particle ranges with their lattice), measured for density error and volume
   * change (`fluid_metrics.ts`); none (the default), one or several.
   */
  fluids?: readonly FluidRange[];
  /** The scene's dam-break probe: where frontX and columnHeight are measured (none: 0). */
  damBreak?: { backWallX: number; floorY: number };
  /** The scene's domain: the metrics' neighbour grids cover it. */
  domain: { min: readonly [number, number, number]; max: readonly [number, number, number] };
  radius: number;
  /**
   * A fluid particle moving up faster than this (m/s) counts in the `fastRebound` column
   * (`FAST_REBOUND_FRACTION` × the reference speed for a scene); absent: none counts.
   */
  reboundSpeed?: number;
  gravity: readonly [number, number, number];
  /** Reference point of the potential energy (`forScene`: the lowest particle at the start). */
  origin: readonly [number, number, number];
  /** Most samples the buffer holds. */
  capacity: number;
  buffers: MetricsBuffers;
  /**
   * The handler's statistics and the word sampled into each handler column of a row (a handler's
   * `stats`); none: the handler columns sample 0.
   */
  handlerStats?: Pick<HandlerStatistics, "buffer" | "sampled">;
}

/**
 * The scene's floor for the potential energy: the initial particle lowest along gravity g (the
 * largest g·x); undefined without gravity or particles.
 */
export function floorOf(
  x: ArrayLike<number>,
  gravity: readonly number[],
): [number, number, number] | undefined {
  if (!gravity.some((g) => g !== 0) || x.length < 3) return undefined;
  let best = 0;
  let lowest = -Infinity;
  for (let i = 0; i < x.length / 3; i++) {
    const h = gravity[0] * x[3 * i] + gravity[1] * x[3 * i + 1] + gravity[2] * x[3 * i + 2];
    if (h > lowest) {
      lowest = h;
      best = i;
    }
  }
  return [x[3 * best], x[3 * best + 1], x[3 * best + 2]];
}

/**
 * The metrics' pipelines: the reduction (8 storage buffers, WebGPU's guaranteed limit per stage),
 * then the counters (fragments, handler statistics) copied into the row by a pass of their own,
 * and the per-particle pass.
 */
function metricsKernels(
  device: GPUDevice,
  constants: Record<string, number>,
): { sample: Kernel; counter: Kernel; particle: Kernel } {
  const sample = createKernel(device, {
    label: "metrics sample_metrics",
    code: METRICS_WGSL,
    entryPoint: "sample_metrics",
    bindings: [
      "uniform",
      ...Array(5).fill("read-only-storage"),
      [8, "read-only-storage"],
      "storage",
      "read-only-storage",
    ],
    constants,
  });
  const counter = createKernel(device, {
    label: "metrics counter_metrics",
    code: METRICS_WGSL,
    entryPoint: "counter_metrics",
    bindings: ["uniform", "storage", "read-only-storage", "read-only-storage"],
    constants,
  });
  const particle = createKernel(device, {
    label: "metrics metrics_particle",
    code: METRICS_WGSL,
    entryPoint: "metrics_particle",
    bindings: ["uniform", "read-only-storage", "storage", ...Array(5).fill("read-only-storage")],
    constants,
  });
  return { sample, counter, particle };
}

/**
 * The fragments counted among the breakable solids' particles (default every solid): their
 * membership flags, and the fragment counter over them.
 */
function fragmentsOf(
  device: GPUDevice,
  options: MetricsOptions,
): { member: GPUBuffer; fragments: Fragments } {
  const b = options.buffers;
  const fragmentBodies = options.fragmentBodies ?? options.solids;
  const member = new Uint32Array(options.count);
  for (const so of fragmentBodies) member.fill(1, so.start, so.start + so.count);
  const memberBuffer = storageBuffer(device, {
    label: "metrics fragment members",
    size: 4 * options.count,
    data: member,
  });
  const members = fragmentBodies.reduce((a, so) => a + so.count, 0);
  const fragments = new Fragments(device, {
    count: options.count,
    bondStart: b.bondStart,
    bondList: b.bondList,
    member: memberBuffer,
    label: "metrics fragments",
    significantSize: Math.ceil(SIGNIFICANT_FRAGMENT_SHARE * members),
  });
  return { member: memberBuffer, fragments };
}

/** Samples metrics on the GPU; {@link Metrics.read} maps the samples once. */
export class Metrics {
  readonly device: GPUDevice;
  readonly capacity: number;
  #opts: MetricsOptions;
  #kernel: Kernel;
  #counterKernel: Kernel;
  #counterBind: GPUBindGroup;
  #particleKernel: Kernel;
  #params: GPUBuffer;
  #sheetCrossing?: SheetCrossing;
  #solidPenetration?: SolidPenetration;
  #fluid?: FluidMetrics;
  #member: GPUBuffer;
  #fragments: Fragments;
  #perParticle: GPUBuffer;
  /** Per particle: bond energies (intact, broken), flung speed, speed at the last sample. */
  #particleTerms: GPUBuffer;
  #samples: GPUBuffer;
  /** Bound in place of the handler's statistics when it keeps none (never read). */
  #noStats?: GPUBuffer;
  #bind: GPUBindGroup;
  #particleBind: GPUBindGroup;
  #taken = 0;
  /** Simulated time of the last sample or of the start (s): the flung speed's interval. */
  #lastTime = 0;

  /**
   * The metrics of a scene: pass-through against every sheet (cloth body); enough sample slots
   * for its duration.
   */
  static forScene(
    device: GPUDevice,
    options: {
      scene: Scene;
      particles: ParticleSet;
      buffers: MetricsBuffers;
      handlerStats?: MetricsOptions["handlerStats"];
    },
  ): Metrics {
    const { scene, particles: p } = options;
    const sheets: Sheet[] = [];
    const fluids: FluidRange[] = [];
    p.bodies.forEach((b, k) => {
      const body = scene.bodies[k];
      if (b.rows && b.cols && body.kind === "cloth") {
        sheets.push({ start: b.start, rows: b.rows, cols: b.cols, spacing: body.spacing });
      }
      if (body.kind === "fluid") {
        fluids.push({
          start: b.start,
          count: b.count,
          spacing: body.spacing,
          particleMass: body.particleMass,
        });
      }
    });
    return new Metrics(device, {
      count: p.count,
      sheets,
      sampleTravel: SAMPLE_TRAVEL_MARGIN * scene.cfl.referenceSpeed * scene.metricsEvery * scene.dt,
      solids: p.bodies.filter((b) => b.kind === "solid").map((b) => ({
        start: b.start,
        count: b.count,
      })),
      fragmentBodies: p.bodies.filter(isBreakableSolid).map((b) => ({
        start: b.start,
        count: b.count,
      })),
      fluids,
      damBreak: scene.damBreak,
      domain: scene.domain,
      radius: scene.radius,
      reboundSpeed: FAST_REBOUND_FRACTION * scene.cfl.referenceSpeed,
      gravity: [...scene.gravity] as [number, number, number],
      origin: floorOf(p.x, scene.gravity) ?? [...scene.domain.min] as [number, number, number],
      capacity: Math.ceil(Math.round(scene.duration / scene.dt) / scene.metricsEvery) + 64,
      buffers: options.buffers,
      handlerStats: options.handlerStats,
    });
  }

  /** @param device the GPU device; @param options what to measure and where */
  constructor(device: GPUDevice, options: MetricsOptions) {
    this.device = device;
    this.capacity = options.capacity;
    this.#opts = options;
    const kernels = metricsKernels(device, wgslConstants(options.handlerStats));
    this.#kernel = kernels.sample;
    this.#counterKernel = kernels.counter;
    this.#particleKernel = kernels.particle;
    this.#params = device.createBuffer({
      label: "metrics params",
      size: METRICS_PARAMS.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.#perParticle = device.createBuffer({
      label: "metrics per-particle results",
      size: Math.max(16, 16 * options.count),
      usage: GPUBufferUsage.STORAGE,
    });
    this.#particleTerms = device.createBuffer({
      label: "metrics per-particle bond energies and speeds",
      size: Math.max(16, 16 * options.count),
      usage: GPUBufferUsage.STORAGE,
    });
    this.#samples = device.createBuffer({
      label: "metrics samples",
      size: Math.max(16, 4 * SAMPLE_FIELDS.length * options.capacity),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    });
    const b = options.buffers;
    this.#bind = bindKernel(device, this.#kernel, [
      this.#params,
      b.pos,
      b.vel,
      b.mass,
      b.kind,
      b.rest,
      this.#perParticle,
      this.#samples,
      this.#particleTerms,
    ]);
    const { member, fragments } = fragmentsOf(device, options);
    this.#member = member;
    this.#fragments = fragments;
    if (!options.handlerStats) {
      this.#noStats = storageBuffer(device, { label: "metrics no handler statistics", size: 4 });
    }
    this.#counterBind = bindKernel(device, this.#counterKernel, [
      this.#params,
      this.#samples,
      this.#fragments.result,
      options.handlerStats?.buffer ?? this.#noStats!,
    ]);
    this.#createRegionMetrics(options);
    this.#particleBind = bindKernel(device, this.#particleKernel, [
      this.#params,
      b.pos,
      this.#particleTerms,
      b.bondStart,
      b.bondList,
      b.bondClass,
      b.springClasses,
      b.vel,
    ]);
  }

  /**
   * Creates the metrics of the scene's regions where it has them: the crossings of its sheets,
   * the penetration between its solids (two or more), and its fluids' metrics.
   */
  #createRegionMetrics(options: MetricsOptions): void {
    const device = this.device, b = options.buffers;
    this.#sheetCrossing = options.sheets.length
      ? new SheetCrossing(device, {
        count: options.count,
        sheets: options.sheets,
        radius: options.radius,
        travel: options.sampleTravel,
        domain: options.domain,
        pos: b.pos,
        perParticle: this.#perParticle,
      })
      : undefined;
    this.#solidPenetration = options.solids.length > 1
      ? new SolidPenetration(device, {
        count: options.count,
        solids: options.solids,
        radius: options.radius,
        domain: options.domain,
        pos: b.pos,
        perParticle: this.#perParticle,
      })
      : undefined;
    this.#fluid = options.fluids?.length
      ? new FluidMetrics(device, {
        count: options.count,
        fluids: options.fluids,
        radius: options.radius,
        domain: options.domain,
        probe: options.damBreak,
        pos: b.pos,
        mass: b.mass,
        samples: this.#samples,
        fields: SAMPLE_FIELDS.length,
        columns: Object.fromEntries(
          FLUID_FIELDS.map((f) => [f, SAMPLE_FIELDS.indexOf(f)]),
        ) as Record<typeof FLUID_FIELDS[number], number>,
      })
      : undefined;
  }

  #encode(
    encoder: GPUCommandEncoder,
    mode: 0 | 1,
    time: number,
    timestampWrites?: GPUComputePassTimestampWrites,
  ) {
    const o = this.#opts;
    this.device.queue.writeBuffer(
      this.#params,
      0,
      METRICS_PARAMS.pack({
        count: o.count,
        pad6: 0,
        solidCount: o.solids.length,
        pad4: 0,
        pad3: 0,
        sample: this.#taken,
        mode,
        fields: SAMPLE_FIELDS.length,
        radius: o.radius,
        reboundSpeed: o.reboundSpeed ?? F32_MAX,
        time,
        gravityGain: mode === 1 ? Math.hypot(...o.gravity) * Math.max(0, time - this.#lastTime) : 0,
        gravity: [...o.gravity],
        pad1: 0,
        origin: [...o.origin],
        pad2: 0,
      }),
    );
    // fragments of the solid bodies (its own pass, no host sync), only when sampling
    if (mode === 1 && o.solids.length) this.#fragments.encode(encoder);
    this.#sheetCrossing?.encodeCopy(encoder);
    const pass = encoder.beginComputePass({ label: "metrics pass", timestampWrites });
    dispatch(pass, this.#particleKernel, {
      bindGroup: this.#particleBind,
      invocations: o.count,
      workgroupSize: 64,
    });
    // the sheet pass at the start too: it records the initial sides
    this.#sheetCrossing?.encode(pass, mode);
    // the fluid pass at the start too: it records the initial volume
    this.#fluid?.encode(pass, { mode, sample: this.#taken });
    if (mode === 1) {
      this.#solidPenetration?.encode(pass);
      dispatch(pass, this.#kernel, { bindGroup: this.#bind, workgroups: 1 });
      dispatch(pass, this.#counterKernel, { bindGroup: this.#counterBind, workgroups: 1 });
    }
    pass.end();
    this.#lastTime = time;
  }

  /**
   * Records the initial side of every particle to every sheet and the fluid's initial volume
   * (before the first step).
   */
  encodeInit(encoder: GPUCommandEncoder): void {
    this.#encode(encoder, 0, 0);
  }

  /**
   * Takes a sample at simulated `time`. At most one sample per submit (its parameters are
   * written with queue.writeBuffer). Throws when the buffer is full.
   */
  encodeSample(
    encoder: GPUCommandEncoder,
    options: { time: number; timestampWrites?: GPUComputePassTimestampWrites },
  ): void {
    if (this.#taken >= this.capacity) {
      throw new RangeError(
        `metrics buffer full (${this.capacity} samples): raise capacity or sample less often`,
      );
    }
    this.#encode(encoder, 1, options.time, options.timestampWrites);
    this.#taken++;
  }

  /**
   * Fragment label per particle (`array<u32>`: the smallest particle index of its fragment, i.e.
   * of its component of intact bonds; `NO_FRAGMENT` for particles of no solid body), as of the
   * last sample taken. Read it back with the snapshot, never per step.
   */
  get fragmentLabels(): GPUBuffer {
    return this.#fragments.labels;
  }

  /**
   * The samples buffer (`array<f32>`, {@link SAMPLE_FIELDS} per row) and the column of each budget
   * field: where the step budget (`step_budget.ts`) writes its columns of a row.
   */
  get budgetTarget(): {
    samples: GPUBuffer;
    fields: number;
    columns: Record<BudgetField, number>;
  } {
    return {
      samples: this.#samples,
      fields: SAMPLE_FIELDS.length,
      columns: Object.fromEntries(
        BUDGET_FIELDS.map((f) => [f, SAMPLE_FIELDS.indexOf(f)]),
      ) as Record<
        BudgetField,
        number
      >,
    };
  }

  /** Samples taken so far. */
  get taken(): number {
    return this.#taken;
  }

  /** Reads every sample taken so far (one mapAsync). */
  async read(): Promise<MetricsSample[]> {
    if (this.#taken === 0) return [];
    const n = SAMPLE_FIELDS.length;
    const raw = new Float32Array(
      await readBuffer(this.device, this.#samples, { size: 4 * n * this.#taken }),
    );
    const rows: MetricsSample[] = [];
    for (let s = 0; s < this.#taken; s++) {
      const row = {} as MetricsSample;
      SAMPLE_FIELDS.forEach((f, k) => (row[f] = raw[s * n + k]));
      rows.push(row);
    }
    return rows;
  }

  /** Frees the metrics buffers. */
  destroy(): void {
    this.#params.destroy();
    this.#sheetCrossing?.destroy();
    this.#solidPenetration?.destroy();
    this.#fluid?.destroy();
    this.#member.destroy();
    this.#fragments.destroy();
    this.#perParticle.destroy();
    this.#particleTerms.destroy();
    this.#samples.destroy();
    this.#noStats?.destroy();
  }
}
