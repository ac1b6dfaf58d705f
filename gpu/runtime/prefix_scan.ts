/**
 * Exclusive prefix sum of a `u32` array on the GPU, in place (kernels in `prefix_scan.wgsl`): a
 * multi-level workgroup scan over the sums of runs of ITEMS consecutive elements. One kernel sums
 * each run (one invocation per run); level 0 is those sums (the data itself when ITEMS = 1); each
 * further level holds the block totals (WG elements per block) of the one below, until a level
 * fits in one workgroup; one kernel then writes each run's exclusive sums. The number of
 * dispatches is `2·levels + 1` (`2·levels − 1` when ITEMS = 1) with
 * `levels = ⌈log_WG(n / ITEMS)⌉` (2 levels up to 4.2M elements at WG = 256 and ITEMS = 64),
 * except that one level with ITEMS > 1 (n ≤ WG·ITEMS) is one dispatch, `scan_single` (the dispatch
 * budget of a small scene's neighbour grid): it
 * does not grow with the data in practice, and no invocation loops over more than ITEMS
 * elements. The result is exact (integer sums) and the same on every run.
 *
 * @module
 */
import { onFallbackAdapter } from "./device.ts";
import { bindKernel, createKernel, dispatch, type Kernel } from "./kernel.ts";
import { defineStruct, type StructLayout } from "./struct_layout.ts";
import prefixScanWgsl from "./prefix_scan.wgsl" with { type: "text" };

/** WGSL source of the scan kernels. */
export const PREFIX_SCAN_WGSL: string = prefixScanWgsl;

/** Layout of the `ScanParams` uniform (one per level) in `prefix_scan.wgsl`. */
export const SCAN_PARAMS: StructLayout = defineStruct("ScanParams", [["n", "u32"]]);

/** Options of {@link PrefixScan}. */
export interface PrefixScanOptions {
  /** Label prefix of the GPU objects. */
  label: string;
  /** The `array<u32>` scanned in place (usage STORAGE); at least `n` elements. */
  data: GPUBuffer;
  /** Elements scanned: `data[0 .. n)`. */
  n: number;
  /** Workgroup size: a power of two in [32, 256]. Default 256. */
  workgroupSize?: number;
  /**
   * Consecutive elements summed by one invocation (`override ITEMS`), 1..64; default
   * {@link scanItemsPerInvocation} of the device. More items mean fewer workgroup barriers per
   * element (what a CPU adapter pays for) and fewer levels, but fewer invocations to fill a GPU.
   */
  itemsPerInvocation?: number;
  /**
   * Most levels of workgroup scans: the elements per invocation are raised (up to
   * {@link MAX_SCAN_ITEMS}) until `⌈n / ITEMS⌉ ≤ WG^maxLevels`, so the scan takes at most
   * `2·maxLevels + 1` dispatches (2 levels: 5 dispatches up to 16.7M elements at WG = 256).
   * Default: no bound.
   */
  maxLevels?: number;
}

/** Most elements one invocation sums when {@link PrefixScanOptions.maxLevels} raises them. */
export const MAX_SCAN_ITEMS = 256;

/** The dispatches of a scan of `n` elements (`PrefixScan.encode`), for counting in tests. */
export function scanDispatches(n: number, items: number, workgroupSize = 256): number {
  if (items > 1 && Math.ceil(n / items) <= workgroupSize) return 1;
  let level = items > 1 ? Math.ceil(n / items) : n;
  let levels = 1;
  while (level > workgroupSize) {
    level = Math.ceil(level / workgroupSize);
    levels++;
  }
  return items > 1 ? 2 * levels + 1 : 2 * levels - 1;
}

interface Level {
  n: number;
  bindGroup: GPUBindGroup;
}

/**
 * The default elements per invocation on `device`: 64 on a fallback (CPU) adapter, 16 otherwise.
 * On llvmpipe (2 cores) every workgroup barrier suspends each invocation, so fewer, fuller blocks
 * win: measured at WG 256, 121,501 elements take 2.3 ms with 16 items and 1.6 ms with 64; 1M take
 * 13–15 ms and 7.4 ms (one element per invocation took 17.2 and 132 ms). On a GPU, 16 keeps
 * enough workgroups (64 per million elements) to fill the device. The sums are exact, so the
 * choice never changes a result.
 */
export function scanItemsPerInvocation(device: GPUDevice): number {
  return onFallbackAdapter(device) ? 64 : 16;
}

/** A fixed-size exclusive prefix sum of one buffer, encoded into a compute pass. */
export class PrefixScan {
  /** Elements scanned. */
  readonly n: number;
  /** Workgroup size of the kernels. */
  readonly workgroupSize: number;
  /** Elements per invocation of `sum_items` and `spread_items` (1: those kernels are skipped). */
  readonly itemsPerInvocation: number;
  /** `array<u32>` of one element: the sum of all `n` elements after {@link PrefixScan.encode}. */
  readonly total: GPUBuffer;
  readonly #kernels: Record<
    "scanBlocks" | "addOffsets" | "sumItems" | "spreadItems" | "single",
    Kernel
  >;
  readonly #levels: Level[] = [];
  /** The runs of ITEMS elements: `n` = runs, bind group (params n = data length, data, sums). */
  readonly #runs: Level | undefined;
  /** The one-dispatch scan where the runs fit one workgroup (params n = data length, data, total). */
  readonly #single: GPUBindGroup | undefined;
  readonly #own: GPUBuffer[] = [];

  /** Creates the level buffers and pipelines; throws a `RangeError` naming a bad option. */
  constructor(device: GPUDevice, options: PrefixScanOptions) {
    const { label, data, n } = options;
    const wg = options.workgroupSize ?? 256;
    if (!Number.isInteger(wg) || wg < 32 || wg > 256 || (wg & (wg - 1)) !== 0) {
      throw new RangeError(
        `${label}: workgroupSize must be a power of two in [32, 256], got ${wg}`,
      );
    }
    let items = options.itemsPerInvocation ?? scanItemsPerInvocation(device);
    if (options.maxLevels !== undefined) {
      items = Math.max(items, Math.min(MAX_SCAN_ITEMS, Math.ceil(n / wg ** options.maxLevels)));
    }
    if (!Number.isInteger(items) || items < 1 || items > MAX_SCAN_ITEMS) {
      throw new RangeError(
        `${label}: itemsPerInvocation must be an integer in [1, ${MAX_SCAN_ITEMS}], got ${items}`,
      );
    }
    if (!Number.isInteger(n) || n < 1) {
      throw new RangeError(`${label}: n must be a positive integer, got ${n}`);
    }
    if (data.size < 4 * n) {
      throw new RangeError(`${label}: buffer "${data.label}" has ${data.size} bytes, < ${n} u32`);
    }
    this.n = n;
    this.workgroupSize = wg;
    this.itemsPerInvocation = items;
    const kernel = (entryPoint: string) =>
      createKernel(device, {
        label: `${label} ${entryPoint}`,
        code: PREFIX_SCAN_WGSL,
        entryPoint,
        bindings: [{ type: "uniform", minBindingSize: SCAN_PARAMS.size }, "storage", "storage"],
        constants: { WG: wg, ITEMS: items },
      });
    this.#kernels = {
      scanBlocks: kernel("scan_blocks"),
      addOffsets: kernel("add_offsets"),
      sumItems: kernel("sum_items"),
      spreadItems: kernel("spread_items"),
      single: kernel("scan_single"),
    };
    const buffer = (name: string, size: number, usage: number) => {
      const b = device.createBuffer({ label: `${label} ${name}`, size, usage });
      this.#own.push(b);
      return b;
    };
    const params = (name: string, count: number) => {
      const b = buffer(
        `${name} params`,
        Math.max(16, SCAN_PARAMS.size),
        GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      );
      device.queue.writeBuffer(b, 0, SCAN_PARAMS.pack({ n: count }));
      return b;
    };
    const datas: { n: number; data: GPUBuffer }[] = [{ n, data }];
    if (items > 1 && Math.ceil(n / items) <= wg) {
      this.total = buffer("scan total", 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
      this.#single = bindKernel(
        device,
        this.#kernels.single,
        [params("scan", n), data, this.total],
        {
          label: `${label} scan bind group`,
        },
      );
      return;
    }
    if (items > 1) {
      const runs = Math.ceil(n / items);
      const sums = buffer("scan run sums", runs * 4, GPUBufferUsage.STORAGE);
      this.#runs = {
        n: runs,
        bindGroup: bindKernel(
          device,
          this.#kernels.sumItems,
          [params("scan runs", n), data, sums],
          {
            label: `${label} scan runs bind group`,
          },
        ),
      };
      datas[0] = { n: runs, data: sums };
    }
    while (datas[datas.length - 1].n > wg) {
      const m = Math.ceil(datas[datas.length - 1].n / wg);
      datas.push({
        n: m,
        data: buffer(`scan level ${datas.length}`, m * 4, GPUBufferUsage.STORAGE),
      });
    }
    this.total = buffer("scan total", 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
    datas.forEach((level, k) => {
      const sums = k + 1 < datas.length ? datas[k + 1].data : this.total;
      const p = params(`scan level ${k}`, level.n);
      this.#levels.push({
        n: level.n,
        bindGroup: bindKernel(device, this.#kernels.scanBlocks, [p, level.data, sums], {
          label: `${label} scan level ${k} bind group`,
        }),
      });
    });
  }

  /**
   * Dispatches in `pass` (after the writes of `data`, before its reads): `2·levels + 1`
   * (`2·levels − 1` with one item per invocation; 1 where the runs fit one workgroup):
   * {@link scanDispatches}.
   */
  encode(pass: GPUComputePassEncoder): void {
    const workgroupSize = this.workgroupSize;
    if (this.#single) {
      dispatch(pass, this.#kernels.single, { bindGroup: this.#single, workgroups: 1 });
      return;
    }
    const runs = this.#runs;
    if (runs) {
      dispatch(pass, this.#kernels.sumItems, {
        bindGroup: runs.bindGroup,
        invocations: runs.n,
        workgroupSize,
      });
    }
    for (const level of this.#levels) {
      dispatch(pass, this.#kernels.scanBlocks, {
        bindGroup: level.bindGroup,
        invocations: level.n,
        workgroupSize,
      });
    }
    for (let l = this.#levels.length - 2; l >= 0; l--) {
      dispatch(pass, this.#kernels.addOffsets, {
        bindGroup: this.#levels[l].bindGroup,
        invocations: this.#levels[l].n,
        workgroupSize,
      });
    }
    if (runs) {
      dispatch(pass, this.#kernels.spreadItems, {
        bindGroup: runs.bindGroup,
        invocations: runs.n,
        workgroupSize,
      });
    }
  }

  /** Destroys the level buffers (not `data`). */
  destroy(): void {
    for (const b of this.#own) b.destroy();
  }
}
