/**
 * Test fixture shared by the metrics tests (`metrics_test.ts`, `fluid_metrics_test.ts`): one
 * sample of {@link Metrics} on a fresh software device over particles given as rows, checked for
 * validation errors. For tests only.
 *
 * @module
 */
import assert from "node:assert/strict";
import { acquireGpu } from "../runtime/device.ts";
import { kernelStorageBuffers, storageBuffer } from "../runtime/kernel.ts";
import { Metrics, type MetricsOptions, type MetricsSample } from "./metrics.ts";

/** The bond lists of `MetricsBuffers` (`bondStart`, `bondList`, `bondClass`, `springClasses`). */
export interface FixtureBonds {
  bondStart: Uint32Array;
  bondList: Uint32Array;
  bondClass: Uint32Array;
  springClasses: Float32Array;
}

/** Options of {@link sampleMetrics}: the metrics' own, the particles in place of the buffers. */
export interface MetricsFixtureOptions extends Omit<MetricsOptions, "count" | "buffers"> {
  /** Positions (xyz rows) at the start: the rest positions, and the sampled ones until `after`. */
  before: readonly (readonly number[])[];
  /** Positions of the sample, written after the start is recorded; default `before`. */
  after?: readonly (readonly number[])[];
  /** Velocities (xyz rows); default 0. */
  vel?: readonly (readonly number[])[];
  mass: Float32Array;
  /** Body-kind bits per particle (`KIND_BITS`). */
  kind: Uint32Array;
  /** The bonds; default none. */
  bonds?: FixtureBonds;
  /** Record the start (`encodeInit` on `before`) before sampling; default true. */
  init?: boolean;
  /** Time of the sample (s); default 1. */
  time?: number;
  /**
   * The handler's statistics (u32 words) and the word of each handler column (`handlerStats` of
   * {@link MetricsOptions}); default none.
   */
  stats?: { words: Uint32Array; sampled: NonNullable<MetricsOptions["handlerStats"]>["sampled"] };
  /** Storage buffers per stage to ask of the device (`acquireGpu`); default what it asks. */
  storageBuffers?: number;
  /** Called with the storage buffers each kernel binds (`kernelStorageBuffers`) at the end. */
  onKernels?: (storageBuffers: Record<string, number>) => void;
}

/**
 * Builds {@link Metrics} over the particles (N = `before.length`, positions' w = `radius`), records
 * the start on `before` (unless `init` is false), moves the particles to `after`, takes one
 * sample and returns its row; asserts that no validation error occurred.
 */
export async function sampleMetrics(options: MetricsFixtureOptions): Promise<MetricsSample> {
  const { after, ...rest } = options;
  const [row] = await sampleMetricsPath({ ...rest, path: [after] });
  return row;
}

/** Rows of xyz per particle, one entry per sample (`undefined`: they stay as they were). */
type PerSample = readonly (readonly (readonly number[])[] | undefined)[];

/**
 * Like {@link sampleMetrics}, with one sample per entry of `path` (the positions of that sample;
 * `undefined`: the positions stay) and of `velPath` (its velocities, likewise), in order, each in
 * a submit of its own (sample k at time `time` + k·`interval`, the start at 0); returns their
 * rows. `capacity` must hold them.
 */
export async function sampleMetricsPath(
  options: Omit<MetricsFixtureOptions, "after"> & {
    path: PerSample;
    velPath?: PerSample;
    /** Simulated time between two samples (s); default 1. */
    interval?: number;
  },
): Promise<MetricsSample[]> {
  const {
    before,
    path,
    velPath = [],
    interval = 1,
    vel,
    mass,
    kind,
    bonds,
    init = true,
    time = 1,
    stats,
    storageBuffers,
    onKernels,
    ...metricsOptions
  } = options;
  const { device } = await acquireGpu({ adapter: "software", storageBuffers });
  device.pushErrorScope("validation");
  const n = before.length;
  const vec4 = (rows: readonly (readonly number[])[], w = 0) =>
    Float32Array.from(rows.flatMap((p) => [p[0], p[1], p[2], w]));
  const buf = (label: string, data: ArrayBufferView) =>
    storageBuffer(device, { label, size: data.byteLength, data });
  const pos = buf("pos", vec4(before, options.radius));
  const velBuffer = buf("vel", vel ? vec4(vel) : new Float32Array(4 * n));
  const metrics = new Metrics(device, {
    ...metricsOptions,
    count: n,
    buffers: {
      pos,
      vel: velBuffer,
      mass: buf("mass", mass),
      kind: buf("kind", kind),
      rest: buf("rest", vec4(before, options.radius)),
      bondStart: buf("bondStart", bonds?.bondStart ?? new Uint32Array(n + 1)),
      bondList: buf("bondList", bonds?.bondList ?? new Uint32Array(4)),
      bondClass: buf("bondClass", bonds?.bondClass ?? new Uint32Array(4)),
      springClasses: buf("springClasses", bonds?.springClasses ?? new Float32Array(4)),
    },
    ...(stats
      ? { handlerStats: { buffer: buf("handler statistics", stats.words), sampled: stats.sampled } }
      : {}),
  });
  if (init) {
    const enc = device.createCommandEncoder({ label: "init" });
    metrics.encodeInit(enc);
    device.queue.submit([enc.finish()]);
  }
  path.forEach((after, k) => {
    if (after) device.queue.writeBuffer(pos, 0, vec4(after, options.radius));
    const v = velPath[k];
    if (v) device.queue.writeBuffer(velBuffer, 0, vec4(v));
    const enc = device.createCommandEncoder({ label: `sample ${k}` });
    metrics.encodeSample(enc, { time: time + k * interval });
    device.queue.submit([enc.finish()]);
  });
  const rows = await metrics.read();
  assert.equal(await device.popErrorScope(), null);
  onKernels?.(kernelStorageBuffers(device));
  metrics.destroy();
  device.destroy();
  return rows;
}
