/**
 * A compute kernel: one WGSL entry point with an explicit bind group layout (no
 * `layout: "auto"`), every object labelled, `override` constants passed at pipeline creation.
 * Keeps the host code of each pipeline owner short without hiding WebGPU.
 *
 * @module
 */

/** How a binding is used by the kernel. */
export type BindingKind = "uniform" | "storage" | "read-only-storage";

/** Options of {@link createKernel}. */
export interface KernelOptions {
  /** Label of the pipeline; the layout and module get derived labels. */
  label: string;
  /** WGSL source (a whole `.wgsl` file). */
  code: string;
  entryPoint: string;
  /** Binding kinds of group 0, in binding order (0, 1, 2, ...). */
  bindings: readonly BindingKind[];
  /** Values of `override` constants. */
  constants?: Record<string, number>;
}

/** A compute pipeline with its bind group layout. */
export interface Kernel {
  label: string;
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
  bindings: readonly BindingKind[];
}

const modules = new WeakMap<GPUDevice, Map<string, GPUShaderModule>>();

/** Creates (and caches the module of) a compute kernel with an explicit layout. */
export function createKernel(device: GPUDevice, options: KernelOptions): Kernel {
  let cache = modules.get(device);
  if (!cache) modules.set(device, cache = new Map());
  let module = cache.get(options.code);
  if (!module) {
    module = device.createShaderModule({ label: `${options.label} module`, code: options.code });
    cache.set(options.code, module);
  }
  const layout = device.createBindGroupLayout({
    label: `${options.label} bind group layout`,
    entries: options.bindings.map((type, binding) => ({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type },
    })),
  });
  const pipeline = device.createComputePipeline({
    label: options.label,
    layout: device.createPipelineLayout({
      label: `${options.label} layout`,
      bindGroupLayouts: [layout],
    }),
    compute: { module, entryPoint: options.entryPoint, constants: options.constants ?? {} },
  });
  return { label: options.label, pipeline, layout, bindings: options.bindings };
}

/** A binding: a whole buffer, or a range of it. */
export type BindingResource = GPUBuffer | { buffer: GPUBuffer; offset?: number; size?: number };

/** Creates the bind group of a kernel from buffers given in binding order. */
export function bindKernel(
  device: GPUDevice,
  kernel: Kernel,
  buffers: readonly BindingResource[],
): GPUBindGroup {
  if (buffers.length !== kernel.bindings.length) {
    throw new RangeError(
      `${kernel.label}: ${kernel.bindings.length} bindings expected, ${buffers.length} given`,
    );
  }
  return device.createBindGroup({
    label: `${kernel.label} bind group`,
    layout: kernel.layout,
    entries: buffers.map((b, binding) => ({
      binding,
      resource: b instanceof GPUBuffer ? { buffer: b } : b,
    })),
  });
}

/** Records a dispatch of `invocations` threads in workgroups of `workgroupSize`. */
export function dispatch(
  pass: GPUComputePassEncoder,
  kernel: Kernel,
  options: { bindGroup: GPUBindGroup; invocations: number; workgroupSize: number },
): void {
  const groups = Math.ceil(options.invocations / options.workgroupSize);
  if (groups === 0) return;
  pass.setPipeline(kernel.pipeline);
  pass.setBindGroup(0, options.bindGroup);
  pass.dispatchWorkgroups(Math.min(groups, 65535), Math.ceil(groups / 65535));
}

/** Creates a labelled storage buffer, optionally filled with data. */
export function storageBuffer(
  device: GPUDevice,
  options: { label: string; size: number; data?: ArrayBufferView; usage?: number },
): GPUBuffer {
  const size = Math.max(16, Math.ceil(options.size / 4) * 4);
  const buffer = device.createBuffer({
    label: options.label,
    size,
    usage: options.usage ??
      (GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST),
    mappedAtCreation: options.data !== undefined,
  });
  if (options.data) {
    const src = new Uint8Array(
      options.data.buffer,
      options.data.byteOffset,
      options.data.byteLength,
    );
    new Uint8Array(buffer.getMappedRange()).set(src);
    buffer.unmap();
  }
  return buffer;
}

/** Reads a buffer back (one mapAsync: for tests and batched readbacks only). */
export async function readBuffer(
  device: GPUDevice,
  buffer: GPUBuffer,
  options: { size?: number; offset?: number } = {},
): Promise<ArrayBuffer> {
  const size = options.size ?? buffer.size;
  const staging = device.createBuffer({
    label: `${buffer.label} readback`,
    size,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const enc = device.createCommandEncoder({ label: `${buffer.label} readback encoder` });
  enc.copyBufferToBuffer(buffer, options.offset ?? 0, staging, 0, size);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = staging.getMappedRange().slice(0);
  staging.unmap();
  staging.destroy();
  return out;
}
