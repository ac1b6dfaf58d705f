/**
 * Exclusive prefix sum of a `u32` array on the GPU, in place (kernels in `prefix_scan.wgsl`): a
 * multi-level workgroup scan. Level 0 is the data; each further level holds the block totals of
 * the one below, until a level fits in one workgroup. The number of dispatches is
 * `2·levels − 1` with `levels = ⌈log_WG(n)⌉` (3 levels up to 16.7M elements at WG = 256): it does
 * not grow with the data in practice, and nothing loops over more than one block. The result is
 * exact (integer sums) and the same on every run.
 *
 * @module
 */
import { bindKernel, createKernel, dispatch, type Kernel } from "./kernel.ts";
import { defineStruct, type StructLayout } from "./struct_layout.ts";

/** WGSL source of the scan kernels. */
export const PREFIX_SCAN_WGSL: string = Deno.readTextFileSync(
  new URL("./prefix_scan.wgsl", import.meta.url),
);

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
  /** Workgroup size and block length: a power of two in [32, 256]. Default 256. */
  workgroupSize?: number;
}

interface Level {
  n: number;
  bindGroup: GPUBindGroup;
}

/** A fixed-size exclusive prefix sum of one buffer, encoded into a compute pass. */
export class PrefixScan {
  /** Elements scanned. */
  readonly n: number;
  /** Workgroup size of the kernels. */
  readonly workgroupSize: number;
  /** `array<u32>` of one element: the sum of all `n` elements after {@link PrefixScan.encode}. */
  readonly total: GPUBuffer;
  readonly #kernels: { scanBlocks: Kernel; addOffsets: Kernel };
  readonly #levels: Level[] = [];
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
    if (!Number.isInteger(n) || n < 1) {
      throw new RangeError(`${label}: n must be a positive integer, got ${n}`);
    }
    if (data.size < 4 * n) {
      throw new RangeError(`${label}: buffer "${data.label}" has ${data.size} bytes, < ${n} u32`);
    }
    this.n = n;
    this.workgroupSize = wg;
    const kernel = (entryPoint: string) =>
      createKernel(device, {
        label: `${label} ${entryPoint}`,
        code: PREFIX_SCAN_WGSL,
        entryPoint,
        bindings: [{ type: "uniform", minBindingSize: SCAN_PARAMS.size }, "storage", "storage"],
        constants: { WG: wg },
      });
    this.#kernels = { scanBlocks: kernel("scan_blocks"), addOffsets: kernel("add_offsets") };
    const buffer = (name: string, size: number, usage: number) => {
      const b = device.createBuffer({ label: `${label} ${name}`, size, usage });
      this.#own.push(b);
      return b;
    };
    const datas: { n: number; data: GPUBuffer }[] = [{ n, data }];
    while (datas[datas.length - 1].n > wg) {
      const m = Math.ceil(datas[datas.length - 1].n / wg);
      datas.push({
        n: m,
        data: buffer(`scan level ${datas.length}`, m * 4, GPUBufferUsage.STORAGE),
      });
    }
    this.total = buffer("scan total", 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
    datas.forEach((level, k) => {
      const params = buffer(
        `scan level ${k} params`,
        Math.max(16, SCAN_PARAMS.size),
        GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      );
      device.queue.writeBuffer(params, 0, SCAN_PARAMS.pack({ n: level.n }));
      const sums = k + 1 < datas.length ? datas[k + 1].data : this.total;
      this.#levels.push({
        n: level.n,
        bindGroup: bindKernel(device, this.#kernels.scanBlocks, [params, level.data, sums], {
          label: `${label} scan level ${k} bind group`,
        }),
      });
    });
  }

  /** Dispatches in `pass` (after the writes of `data`, before its reads): `2·levels − 1`. */
  encode(pass: GPUComputePassEncoder): void {
    const workgroupSize = this.workgroupSize;
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
  }

  /** Destroys the level buffers (not `data`). */
  destroy(): void {
    for (const b of this.#own) b.destroy();
  }
}
