/**
 * Generic DOF (meta-particle) map on WebGPU: per-particle values summed per DOF over the CSR member
 * list, and per-DOF values read back per particle (gpu/README.md; Truong et al. 2021 Eqs. 1–3:
 * a meta-particle carries the summed quantities of its members; Eqs. 6–7: members follow it).
 *
 * ```ts
 * const map = new DofMap(device, { count: n });
 * const scatter = map.bindScatter({ memberStart, memberList, src: force, dst: dofForce });
 * const pass = encoder.beginComputePass({ label: "forces to DOFs" });
 * map.encodeScatterToDofs(pass, scatter);
 * pass.end();
 * ```
 *
 * Sums run in ascending member order, one thread per DOF slot, without atomics: bit-reproducible.
 *
 * @module
 */

import { defineStruct, type StructLayout } from "../runtime/struct_layout.ts";

/** WGSL source of the DOF map kernels (`gpu/state/dof_map.wgsl`). */
export const DOF_MAP_WGSL: string = Deno.readTextFileSync(
  new URL("./dof_map.wgsl", import.meta.url),
);

/** Uniform `DofMapParams` of `dof_map.wgsl`: the number of slots (= particles) processed. */
export const DOF_MAP_PARAMS_STRUCT: StructLayout = defineStruct("DofMapParams", [["count", "u32"]]);

/** Options of {@link DofMap}. */
export interface DofMapOptions {
  /** Particles = DOF slots N (≥ 1). */
  count: number;
  /** `override WORKGROUP_SIZE` (1..256, default 64). */
  workgroupSize?: number;
  /** Label prefix of every GPU object (default "dofMap"). */
  label?: string;
}

/** Buffers of {@link DofMap.bindScatter} (all with `GPUBufferUsage.STORAGE`). */
export interface DofScatterBuffers {
  /** `array<u32>`, N + 1 entries: members of DOF d are `memberList[memberStart[d] .. memberStart[d+1])`. */
  memberStart: GPUBuffer;
  /** `array<u32>`, N particle indices, ascending within a DOF. */
  memberList: GPUBuffer;
  /** `array<vec4f>`, N per-particle values. */
  src: GPUBuffer;
  /** Output `array<vec4f>`, N per-DOF sums (0 for non-live slots). Must not alias `src`. */
  dst: GPUBuffer;
}

/** Buffers of {@link DofMap.bindGather} (all with `GPUBufferUsage.STORAGE`). */
export interface DofGatherBuffers {
  /** `array<u32>`, N: DOF of each particle. */
  dof: GPUBuffer;
  /** `array<vec4f>`, N per-DOF values. */
  src: GPUBuffer;
  /** Output `array<vec4f>`, N per-particle values `src[dof[i]]`. Must not alias `src`. */
  dst: GPUBuffer;
}

type Role = "uniform" | "read-only-storage" | "storage";

const SCATTER_BINDINGS: ReadonlyArray<[number, Role]> = [
  [0, "uniform"],
  [2, "read-only-storage"],
  [3, "read-only-storage"],
  [4, "read-only-storage"],
  [5, "storage"],
];
const GATHER_BINDINGS: ReadonlyArray<[number, Role]> = [
  [0, "uniform"],
  [1, "read-only-storage"],
  [4, "read-only-storage"],
  [5, "storage"],
];

/**
 * Scatter (per-particle → per-DOF sum) and gather (per-DOF → per-particle) kernels with explicit
 * layouts. Encode methods record one dispatch into a caller's compute pass.
 */
export class DofMap {
  /** Device of the pipelines. */
  readonly device: GPUDevice;
  /** Particles = DOF slots processed. */
  readonly count: number;
  /** Workgroup size of both kernels. */
  readonly workgroupSize: number;
  /** Label prefix. */
  readonly label: string;
  readonly #params: GPUBuffer;
  readonly #scatterLayout: GPUBindGroupLayout;
  readonly #gatherLayout: GPUBindGroupLayout;
  readonly #scatter: GPUComputePipeline;
  readonly #gather: GPUComputePipeline;

  /** Creates the two pipelines and the uniform (see {@link DofMapOptions}). */
  constructor(device: GPUDevice, options: DofMapOptions) {
    if (!device) throw new TypeError("DofMap: device is required");
    const count = options?.count;
    if (!Number.isInteger(count) || count < 1) {
      throw new RangeError(`DofMap: options.count must be an integer >= 1, got ${count}`);
    }
    const wg = options.workgroupSize ?? 64;
    if (!Number.isInteger(wg) || wg < 1 || wg > 256) {
      throw new RangeError(`DofMap: options.workgroupSize must be an integer in 1..256, got ${wg}`);
    }
    if (Math.ceil(count / wg) > 65535) {
      throw new RangeError(
        `DofMap: options.count ${count} needs more than 65535 workgroups of ${wg}`,
      );
    }
    this.device = device;
    this.count = count;
    this.workgroupSize = wg;
    const label = this.label = options.label ?? "dofMap";
    this.#params = device.createBuffer({
      label: `${label} params`,
      size: Math.max(16, DOF_MAP_PARAMS_STRUCT.size),
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(this.#params, 0, DOF_MAP_PARAMS_STRUCT.pack({ count }));
    const module = device.createShaderModule({
      label: `${label} dof_map.wgsl`,
      code: DOF_MAP_WGSL,
    });
    const make = (name: string, entries: ReadonlyArray<[number, Role]>, entryPoint: string) => {
      const layout = device.createBindGroupLayout({
        label: `${label} ${name} bind group layout`,
        entries: entries.map(([binding, type]) => ({
          binding,
          visibility: GPUShaderStage.COMPUTE,
          buffer: { type },
        })),
      });
      const pipeline = device.createComputePipeline({
        label: `${label} ${name} pipeline`,
        layout: device.createPipelineLayout({
          label: `${label} ${name} pipeline layout`,
          bindGroupLayouts: [layout],
        }),
        compute: { module, entryPoint, constants: { WORKGROUP_SIZE: wg } },
      });
      return [layout, pipeline] as const;
    };
    [this.#scatterLayout, this.#scatter] = make("scatter", SCATTER_BINDINGS, "scatter_to_dofs");
    [this.#gatherLayout, this.#gather] = make("gather", GATHER_BINDINGS, "gather_from_dofs");
  }

  #check(method: string, name: string, buffer: GPUBuffer | undefined, bytes: number): GPUBuffer {
    if (!buffer) throw new TypeError(`DofMap.${method}: buffers.${name} is missing`);
    if (!(buffer.usage & GPUBufferUsage.STORAGE)) {
      throw new TypeError(`DofMap.${method}: buffers.${name} needs GPUBufferUsage.STORAGE`);
    }
    if (buffer.size < bytes) {
      throw new RangeError(
        `DofMap.${method}: buffers.${name} has ${buffer.size} bytes, needs at least ${bytes}`,
      );
    }
    return buffer;
  }

  /** Bind group of {@link encodeScatterToDofs}; reuse it across steps. */
  bindScatter(buffers: DofScatterBuffers): GPUBindGroup {
    const n = this.count;
    const byBinding = new Map<number, GPUBuffer>([
      [0, this.#params],
      [2, this.#check("bindScatter", "memberStart", buffers?.memberStart, 4 * (n + 1))],
      [3, this.#check("bindScatter", "memberList", buffers?.memberList, 4 * n)],
      [4, this.#check("bindScatter", "src", buffers?.src, 16 * n)],
      [5, this.#check("bindScatter", "dst", buffers?.dst, 16 * n)],
    ]);
    if (buffers.dst === buffers.src) {
      throw new TypeError("DofMap.bindScatter: buffers.dst aliases buffers.src");
    }
    return this.#group("scatter", this.#scatterLayout, SCATTER_BINDINGS, byBinding);
  }

  /** Bind group of {@link encodeGatherFromDofs}; reuse it across steps. */
  bindGather(buffers: DofGatherBuffers): GPUBindGroup {
    const n = this.count;
    const byBinding = new Map<number, GPUBuffer>([
      [0, this.#params],
      [1, this.#check("bindGather", "dof", buffers?.dof, 4 * n)],
      [4, this.#check("bindGather", "src", buffers?.src, 16 * n)],
      [5, this.#check("bindGather", "dst", buffers?.dst, 16 * n)],
    ]);
    if (buffers.dst === buffers.src) {
      throw new TypeError("DofMap.bindGather: buffers.dst aliases buffers.src");
    }
    return this.#group("gather", this.#gatherLayout, GATHER_BINDINGS, byBinding);
  }

  #group(
    name: string,
    layout: GPUBindGroupLayout,
    entries: ReadonlyArray<[number, Role]>,
    byBinding: Map<number, GPUBuffer>,
  ): GPUBindGroup {
    return this.device.createBindGroup({
      label: `${this.label} ${name} bind group`,
      layout,
      entries: entries.map(([binding]) => ({
        binding,
        resource: { buffer: byBinding.get(binding)! },
      })),
    });
  }

  /** Records `dst[d] = Σ src[members of d]` (ascending members) into `pass`. */
  encodeScatterToDofs(pass: GPUComputePassEncoder, bindGroup: GPUBindGroup): void {
    pass.setPipeline(this.#scatter);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(Math.ceil(this.count / this.workgroupSize));
  }

  /** Records `dst[i] = src[dof[i]]` into `pass`. */
  encodeGatherFromDofs(pass: GPUComputePassEncoder, bindGroup: GPUBindGroup): void {
    pass.setPipeline(this.#gather);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(Math.ceil(this.count / this.workgroupSize));
  }

  /** Destroys the uniform buffer. */
  destroy(): void {
    this.#params.destroy();
  }
}
