/**
 * The sheet metrics of a sample (pass-through, deep overlaps, penetration depth against every
 * cloth sheet; definitions in the header of `metrics.ts`) on a neighbour grid (kernel in
 * `sheet_crossing.wgsl`), so the cost is linear in the particles and no invocation loops over a
 * whole sheet (llvmpipe stops a loop after 65535 iterations; the brute force this replaces
 * visited every sheet particle for every particle, invalid past 65,535 sheet particles).
 *
 * The grid (`SampleGrid`) holds the sheets' particles alone (copied, sheet after sheet, into a
 * buffer of their own before the metrics pass), so a cell's occupancy is that of a surface, not of
 * a volume full of fluid: its cell edge, the reach {@link sheetReach}, may be several radii.
 * Each particle walks the 27 cells around it, once per sheet, and so finds every sheet particle
 * closer than the reach (the clamping of points outside the domain into the border cells keeps
 * neighbouring points in neighbouring cells). The reach is
 *   max(2r, the largest lateral threshold) + the sample travel,
 * the travel being how far a particle may move relative to a sheet between two samples
 * ({@link SAMPLE_TRAVEL_MARGIN} × the scene's CFL reference speed × metricsEvery × dt,
 * `Metrics.forScene`): a particle that crosses the interior of a sheet lies, at the first sample
 * after, at most the travel beyond it, and its nearest sheet particle at most about one lateral
 * threshold aside, within the reach. The 2r term makes the grid find every overlap exactly. The
 * grid covers the scene's domain; its cell is enlarged if the domain would need more than
 * {@link SHEET_GRID_MAX_CELLS} cells, so its memory is bounded whatever the scale (the cloth
 * scenes need 1,700 to 4,500 cells at reaches of 5 to 8 cm, at most 107K at fig3-ball-cloth-low's
 * `paper` reach of 2.1 cm: a 0.4 MiB `cellStart`).
 *
 * Per (sheet, particle) it keeps the initial and the tracked side (`sides`, 2 × i32): see
 * `sheet_crossing.wgsl` for the update rule.
 *
 * @module
 */
import { storageBuffer } from "../runtime/kernel.ts";
import { defineStruct, type StructLayout } from "../runtime/struct_layout.ts";
import { withGridNeighbors } from "../state/grid_cell.ts";
import { gridForDomain } from "../state/neighbor_grid.ts";
import { SampleGrid, type SampleKernel } from "./sample_grid.ts";
import sheetCrossingWgsl from "./sheet_crossing.wgsl" with { type: "text" };

/** WGSL of the kernel (after the grid preludes). */
export const SHEET_CROSSING_WGSL: string = withGridNeighbors(sheetCrossingWgsl);

/** Uniform `SheetParams` of `sheet_crossing.wgsl`. */
export const SHEET_PARAMS: StructLayout = defineStruct("SheetParams", [
  ["gridMin", "vec3f"],
  ["cellSize", "f32"],
  ["dims", "vec4u"],
  ["count", "u32"],
  ["radius", "f32"],
  ["sheetCount", "u32"],
  ["mode", "u32"],
]);

/**
 * Most cells of the sheet grid (its `cellStart` then takes at most 16 MiB): over a larger domain
 * {@link sheetReach} enlarges the cell.
 */
export const SHEET_GRID_MAX_CELLS = 2 ** 22;

/**
 * The sample travel of a scene is this × its CFL reference speed × metricsEvery × dt
 * (`Metrics.forScene`): the fastest particle at the samples of fig4-fluid-cloth, fig9-flip-cloth
 * and fig3-ball-cloth-high at `small` (penalty-weak) moved at 1.12, 1.22 and 1.19 × the reference
 * speed.
 */
export const SAMPLE_TRAVEL_MARGIN = 1.5;

/** A sheet measured for pass-through: a rows × cols grid of particles from `start`. */
export interface Sheet {
  start: number;
  rows: number;
  cols: number;
  /** Rest distance between neighbouring particles (m): a pass-through lies within it laterally. */
  spacing: number;
}

/** What {@link sheetReach} depends on. */
export interface SheetReachOptions {
  /** Collision radius r (m). */
  radius: number;
  /** The sheets (their spacings are the lateral thresholds). */
  sheets: readonly Sheet[];
  /** Most a particle moves relative to a sheet between two samples (m); default 0. */
  travel?: number;
  /** The scene's domain (the grid covers it). */
  domain: { min: readonly [number, number, number]; max: readonly [number, number, number] };
}

/**
 * The reach of the sheet metrics, which is the sheet grid's cell edge (m):
 * max(2r, the largest spacing) + travel, enlarged (by 2 % steps) until the grid over the domain
 * has at most {@link SHEET_GRID_MAX_CELLS} cells.
 */
export function sheetReach(options: SheetReachOptions): number {
  const { min, max } = options.domain;
  let reach = Math.max(2 * options.radius, ...options.sheets.map((s) => s.spacing)) +
    (options.travel ?? 0);
  const cells = (h: number) => gridForDomain(min, max, h).dims.reduce((a, b) => a * b, 1);
  while (cells(reach) > SHEET_GRID_MAX_CELLS) reach *= 1.02;
  return reach;
}

/** Options of {@link SheetCrossing}. */
export interface SheetCrossingOptions extends SheetReachOptions {
  /** Particles N. */
  count: number;
  /** Positions (`array<vec4f>`, N; usage STORAGE | COPY_SRC: the sheets' part is copied). */
  pos: GPUBuffer;
  /** The metrics' per-particle results (`array<vec4f>`, N): written to xyz. */
  perParticle: GPUBuffer;
}

/** The sheet pass of the metrics: pass-through, deep overlaps and penetration depth. */
export class SheetCrossing {
  /** The reach (m), the grid's cell edge ({@link sheetReach}). */
  readonly reach: number;
  readonly #opts: SheetCrossingOptions;
  readonly #grid: SampleGrid;
  readonly #kernel: SampleKernel;
  readonly #sheetPos: GPUBuffer;
  readonly #owned: GPUBuffer[];

  /** @param device the GPU device; @param options what to measure ({@link SheetCrossingOptions}) */
  constructor(device: GPUDevice, options: SheetCrossingOptions) {
    this.#opts = options;
    this.reach = sheetReach(options);
    const members = options.sheets.reduce((m, s) => m + s.rows * s.cols, 0);
    this.#sheetPos = device.createBuffer({
      label: "metrics sheet positions",
      size: Math.max(16, 16 * members),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    const table = new Uint32Array(4 * Math.max(1, options.sheets.length));
    options.sheets.forEach((sh, k) => {
      table.set([sh.start, sh.rows, sh.cols], 4 * k);
      new Float32Array(table.buffer, 16 * k + 12, 1)[0] = sh.spacing;
    });
    const sheets = storageBuffer(device, {
      label: "metrics sheets",
      size: table.byteLength,
      data: table,
    });
    const sides = device.createBuffer({
      label: "metrics sheet sides",
      size: Math.max(16, 8 * options.count * options.sheets.length),
      usage: GPUBufferUsage.STORAGE,
    });
    this.#owned = [this.#sheetPos, sheets, sides];
    this.#grid = new SampleGrid(device, {
      count: options.count,
      domain: options.domain,
      cellSize: this.reach,
      pos: options.pos,
      members: { pos: this.#sheetPos, count: members },
      params: SHEET_PARAMS,
      label: "metrics sheet",
    });
    this.#kernel = this.#grid.kernel({
      label: "metrics sheet_crossing",
      code: SHEET_CROSSING_WGSL,
      entryPoint: "sheet_crossing",
      inputs: [sheets],
      outputs: [sides, options.perParticle],
    });
  }

  /** Copies the sheets' positions into the grid's buffer (before the pass of {@link encode}). */
  encodeCopy(encoder: GPUCommandEncoder): void {
    let at = 0;
    for (const s of this.#opts.sheets) {
      const n = s.rows * s.cols;
      encoder.copyBufferToBuffer(this.#opts.pos, 16 * s.start, this.#sheetPos, 16 * at, 16 * n);
      at += n;
    }
  }

  /**
   * Builds the grid and measures into `pass` (mode 0: records the initial sides; 1: a sample),
   * after {@link encodeCopy}. Writes its parameters with `queue.writeBuffer`, so at most one call
   * per submit.
   */
  encode(pass: GPUComputePassEncoder, mode: 0 | 1): void {
    this.#grid.writeParams({
      radius: this.#opts.radius,
      sheetCount: this.#opts.sheets.length,
      mode,
    });
    this.#grid.encode(pass, this.#kernel);
  }

  /** Frees its buffers and grid. */
  destroy(): void {
    for (const b of this.#owned) b.destroy();
    this.#grid.destroy();
  }
}
