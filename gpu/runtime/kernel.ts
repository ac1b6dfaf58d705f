/**
 * A compute kernel: one WGSL entry point with explicit bind group layouts (no `layout: "auto"`),
 * every object labelled, `override` constants passed at pipeline creation. The one way the
 * pipelines of gpu/ are built and bound; keeps the host code of each pipeline owner short without
 * hiding WebGPU.
 *
 * Per device, shader modules are cached by source, bind group layouts by their entries and
 * pipelines by module, entry point, constants and group layouts: the cases of a bench run share
 * one device, and a kernel a case asks for again (with any label) reuses the pipeline an earlier
 * case compiled ({@link pipelineStats} counts both; the pipeline keeps the label it was created
 * with unless {@link keepPipelineLabels}). Pipelines are created synchronously: under
 * Deno 2.9.6 `createComputePipelineAsync` compiles inside the call and returns a settled promise
 * (llvmpipe, 40 distinct pipelines, six rounds each: sync 100–330 ms, `Promise.all` of async
 * 140–220 ms, every async call returning only once its pipeline was compiled), so creating them
 * in parallel brings nothing here, and `createKernel` stays callable from constructors. (A
 * driver may also compile lazily, at a pipeline's first dispatch: llvmpipe does, which the
 * seconds of {@link pipelineStats} do not see.)
 *
 * ```ts
 * // Dense group 0 (bindings 0, 1, 2):
 * const k = createKernel(device, {
 *   label, code, entryPoint, bindings: ["uniform", "read-only-storage", "storage"],
 * });
 * const bind = bindKernel(device, k, [params, src, dst]);
 * dispatch(pass, k, { bindGroup: bind, invocations: n, workgroupSize: 64 });
 * // Sparse bindings, a second group shared by kernels, a map of buffers by binding number:
 * const shared = createGroupLayout(device, "params", ["uniform"]);
 * const k2 = createKernel(device, {
 *   label, code, entryPoint, groups: [[[3, "read-only-storage"], [7, "storage"]], shared],
 * });
 * const g0 = bindKernel(device, k2, new Map([[3, src], [7, dst]]));
 * const g1 = bindKernel(device, k2, [params], { group: 1 });
 * dispatch(pass, k2, { bindGroup: [g0, g1], workgroups: Math.ceil(n / 64) });
 * ```
 *
 * @module
 */

/** How a binding is used by the kernel. */
export type BindingKind = "uniform" | "storage" | "read-only-storage";

/** Layout of a buffer binding: its kind, or its kind with a dynamic offset and/or a minimum size. */
export type BindingLayout = BindingKind | {
  readonly type: BindingKind;
  readonly hasDynamicOffset?: boolean;
  readonly minBindingSize?: number;
};

/**
 * One binding of a bind group: `[binding, layout]` names its number; a layout alone takes the
 * number after the previous entry's (0 for the first), so `["uniform", "storage"]` is bindings
 * 0 and 1. Numbers must ascend.
 */
export type BindingEntry = BindingLayout | readonly [binding: number, layout: BindingLayout];

/** The explicit layout of one bind group, from {@link createGroupLayout}; kernels may share it. */
export interface GroupLayout {
  readonly label: string;
  readonly layout: GPUBindGroupLayout;
  /** Binding numbers, ascending. */
  readonly bindings: readonly number[];
  /** The kind of each binding, in the order of `bindings`. */
  readonly kinds: readonly BindingKind[];
}

/** One group of a kernel: its bindings, or a layout shared with other kernels. */
export type GroupBindings = readonly BindingEntry[] | GroupLayout;

/** Options of {@link createKernel}. */
export interface KernelOptions {
  /** Label of the pipeline; the layouts get derived labels. */
  label: string;
  /** WGSL source (a whole `.wgsl` file, possibly after a prelude). */
  code: string;
  entryPoint: string;
  /** Group 0 (of a kernel with one group). */
  bindings?: GroupBindings;
  /** Instead of `bindings`: groups 0, 1, ... */
  groups?: readonly GroupBindings[];
  /** Values of `override` constants. */
  constants?: Record<string, number>;
}

/** A compute pipeline with its bind group layouts. */
export interface Kernel {
  label: string;
  pipeline: GPUComputePipeline;
  /** Layout of group 0 (`groups[0].layout`). */
  layout: GPUBindGroupLayout;
  /** Layouts of groups 0, 1, ... */
  groups: readonly GroupLayout[];
}

/** Throws a `RangeError` naming `label` when it binds more storage buffers than `device` allows. */
function checkStorageBuffers(device: GPUDevice, label: string, storage: number): void {
  const allowed = device.limits.maxStorageBuffersPerShaderStage;
  if (storage <= allowed) return;
  // WebGPU's own error names neither the kernel nor what to do
  throw new RangeError(
    `${label}: binds ${storage} storage buffers, more than the device's ` +
      `maxStorageBuffersPerShaderStage (${allowed}); WebGPU guarantees ${DEFAULT_STORAGE_BUFFERS}: ` +
      "give this entry point a layout of only the bindings it uses, or pack buffers that travel " +
      "together, or gate the kernel on the limit with a fallback",
  );
}

/** Creates an explicit bind group layout of buffer bindings (see {@link BindingEntry}). */
export function createGroupLayout(
  device: GPUDevice,
  label: string,
  entries: readonly BindingEntry[],
): GroupLayout {
  const layoutEntries: GPUBindGroupLayoutEntry[] = [];
  let next = 0;
  for (const entry of entries) {
    const [binding, layout] = Array.isArray(entry)
      ? entry as readonly [number, BindingLayout]
      : [next, entry as BindingLayout];
    if (!Number.isInteger(binding) || binding < next) {
      throw new RangeError(`${label}: binding ${binding} is not ascending (next is >= ${next})`);
    }
    next = binding + 1;
    layoutEntries.push({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: typeof layout === "string" ? { type: layout } : { ...layout },
    });
  }
  checkStorageBuffers(
    device,
    label,
    layoutEntries.filter((e) => e.buffer!.type !== "uniform").length,
  );
  // one layout object per distinct entries on a device, so that kernels (and the pipelines they
  // share through the cache) built from equal entries take each other's bind groups
  const signature = JSON.stringify(layoutEntries.map((e) => [
    e.binding,
    e.buffer!.type,
    e.buffer!.hasDynamicOffset ?? false,
    e.buffer!.minBindingSize ?? 0,
  ]));
  const cache = deviceCache(device);
  let layout = cache.groupLayouts.get(signature);
  if (!layout) {
    layout = device.createBindGroupLayout({ label, entries: layoutEntries });
    cache.groupLayouts.set(signature, layout);
  }
  return Object.freeze({
    label,
    layout,
    bindings: Object.freeze(layoutEntries.map((e) => e.binding)),
    kinds: Object.freeze(layoutEntries.map((e) => e.buffer!.type as BindingKind)),
  });
}

/** What one device has cached: modules by source, layouts by entries, pipelines by key. */
interface DeviceCache {
  modules: Map<string, GPUShaderModule>;
  groupLayouts: Map<string, GPUBindGroupLayout>;
  /** By module, then by entry point, constants and group layout ids (and label: `byLabel`). */
  pipelines: Map<GPUShaderModule, Map<string, GPUComputePipeline>>;
  /** Whether a pipeline is reused only under its own label ({@link keepPipelineLabels}). */
  byLabel: boolean;
}

const caches = new WeakMap<GPUDevice, DeviceCache>();

function deviceCache(device: GPUDevice): DeviceCache {
  let cache = caches.get(device);
  if (!cache) {
    caches.set(
      device,
      cache = { modules: new Map(), groupLayouts: new Map(), pipelines: new Map(), byLabel: false },
    );
  }
  return cache;
}

/** A number per bind group layout object (the pipeline key names layouts by identity). */
const layoutIds = new WeakMap<GPUBindGroupLayout, number>();
let nextLayoutId = 0;

function layoutId(layout: GPUBindGroupLayout): number {
  let id = layoutIds.get(layout);
  if (id === undefined) layoutIds.set(layout, id = nextLayoutId++);
  return id;
}

/** Pipelines a device created and reused, and the time spent creating them. */
export interface PipelineStats {
  /** Pipelines created (each compiled once). */
  created: number;
  /** Kernels that took a cached pipeline instead. */
  reused: number;
  /** Seconds spent in `createShaderModule` and `createComputePipeline`. */
  seconds: number;
}

const stats = new WeakMap<GPUDevice, PipelineStats>();

/**
 * The pipelines `device` created and reused so far, and the seconds spent creating them and their
 * shader modules (cumulative: subtract an earlier reading for the share of one case).
 */
export function pipelineStats(device: GPUDevice): PipelineStats {
  return { ...(stats.get(device) ?? { created: 0, reused: 0, seconds: 0 }) };
}

/**
 * Forgets the shader modules, bind group layouts and pipelines cached for `device`: the next
 * kernels are created anew. For a build that failed validation, whose objects may be invalid.
 */
export function clearKernelCache(device: GPUDevice): void {
  const byLabel = caches.get(device)?.byLabel ?? false;
  caches.delete(device);
  if (byLabel) keepPipelineLabels(device);
}

/**
 * From now on, kernels created on `device` reuse a cached pipeline only under the same label, so
 * that every pipeline's label names its kernel: the kernel profiler attributes dispatches by
 * pipeline label (one engine's kernels share pipelines otherwise, e.g. the prefix scans of the
 * neighbour grid and of grouping).
 */
export function keepPipelineLabels(device: GPUDevice): void {
  deviceCache(device).byLabel = true;
}

/**
 * Starts a new record of the kernels created on `device`: from now on
 * {@link kernelWorkgroupSizes} and {@link kernelStorageBuffers} list only the kernels created
 * after this call (whether their pipelines were cached or not), so that one case's record does
 * not carry the kernels of the cases that ran before it on the same device.
 */
export function beginKernelRecord(device: GPUDevice): void {
  workgroupSizes.delete(device);
  storageBuffersUsed.delete(device);
}

const workgroupSizes = new WeakMap<GPUDevice, Map<string, number>>();

/** Names of the `override` constants that set a kernel's workgroup size in this project. */
const WORKGROUP_SIZE_CONSTANTS = ["WG", "WORKGROUP_SIZE"] as const;

/** `override` constants that set how much work one invocation does (recorded as `<label> NAME`). */
const SHAPE_CONSTANTS = ["ITEMS"] as const;

/**
 * The workgroup size each kernel created on `device` was given through an `override` constant
 * (`WG` or `WORKGROUP_SIZE`), by kernel label, and the elements per invocation of kernels that
 * take several (`ITEMS`, as `<label> ITEMS`): the dispatch shapes a run used, for its record.
 * Kernels whose size is a literal in their WGSL are not listed.
 */
export function kernelWorkgroupSizes(device: GPUDevice): Record<string, number> {
  return Object.fromEntries(workgroupSizes.get(device) ?? []);
}

/** `maxStorageBuffersPerShaderStage` that WebGPU guarantees on every adapter (its default limit). */
export const DEFAULT_STORAGE_BUFFERS = 8;

const storageBuffersUsed = new WeakMap<GPUDevice, Map<string, number>>();

/**
 * The storage buffers each kernel created on `device` binds (over all its groups), by kernel
 * label: what the stage limit `maxStorageBuffersPerShaderStage` is checked against.
 */
export function kernelStorageBuffers(device: GPUDevice): Record<string, number> {
  return Object.fromEntries(storageBuffersUsed.get(device) ?? []);
}

/**
 * Creates a compute kernel with explicit layouts, labelled `options.label`; its pipeline is the
 * device's cached one when a kernel of the same code, entry point, constants and group layouts
 * was created before on the device (the pipeline then keeps the label it was created with).
 * Throws a `RangeError` naming the kernel when its layout binds more storage buffers than the
 * device allows per stage.
 */
export function createKernel(device: GPUDevice, options: KernelOptions): Kernel {
  const { label } = options;
  if ((options.bindings === undefined) === (options.groups === undefined)) {
    throw new TypeError(`${label}: give either bindings or groups`);
  }
  const cache = deviceCache(device);
  const counts = stats.get(device) ?? { created: 0, reused: 0, seconds: 0 };
  stats.set(device, counts);
  const t0 = performance.now();
  let module = cache.modules.get(options.code);
  if (!module) {
    module = device.createShaderModule({ label: `${label} module`, code: options.code });
    cache.modules.set(options.code, module);
  }
  counts.seconds += (performance.now() - t0) / 1000;
  const groups = (options.groups ?? [options.bindings!]).map((g, k) =>
    "layout" in g
      ? g
      : createGroupLayout(device, `${label} ${k ? `group ${k} ` : ""}bind group layout`, g)
  );
  const storage = groups.reduce((sum, g) => sum + g.kinds.filter((k) => k !== "uniform").length, 0);
  checkStorageBuffers(device, label, storage);
  let most = storageBuffersUsed.get(device);
  if (!most) storageBuffersUsed.set(device, most = new Map());
  most.set(label, storage);
  const constants = options.constants ?? {};
  const key = JSON.stringify([
    cache.byLabel ? label : "",
    options.entryPoint,
    Object.keys(constants).sort().map((
      k,
    ) => [k, Object.is(constants[k], -0) ? "-0" : constants[k]]),
    groups.map((g) => layoutId(g.layout)),
  ]);
  let byKey = cache.pipelines.get(module);
  if (!byKey) cache.pipelines.set(module, byKey = new Map());
  let pipeline = byKey.get(key);
  if (pipeline) counts.reused++;
  else {
    const t1 = performance.now();
    pipeline = device.createComputePipeline({
      label,
      layout: device.createPipelineLayout({
        label: `${label} layout`,
        bindGroupLayouts: groups.map((g) => g.layout),
      }),
      compute: { module, entryPoint: options.entryPoint, constants },
    });
    counts.seconds += (performance.now() - t1) / 1000;
    counts.created++;
    byKey.set(key, pipeline);
  }
  const recorded: [string, string][] = [
    ...WORKGROUP_SIZE_CONSTANTS.map((name): [string, string] => [name, label]),
    ...SHAPE_CONSTANTS.map((name): [string, string] => [name, `${label} ${name}`]),
  ];
  for (const [name, key] of recorded) {
    const value = options.constants?.[name];
    if (value === undefined) continue;
    let sizes = workgroupSizes.get(device);
    if (!sizes) workgroupSizes.set(device, sizes = new Map());
    sizes.set(key, value);
  }
  return { label, pipeline, layout: groups[0].layout, groups: Object.freeze(groups) };
}

/** A binding: a whole buffer, or a range of it. */
export type BindingResource = GPUBuffer | { buffer: GPUBuffer; offset?: number; size?: number };

/**
 * The resources of one bind group: in binding order (one per binding of the group), or by binding
 * number (entries the group does not bind are ignored, so one map may serve several kernels).
 */
export type BindingResources =
  | readonly BindingResource[]
  | ReadonlyMap<number, BindingResource>;

/** Options of {@link bindKernel}. */
export interface BindOptions {
  /** The group bound (default 0). */
  group?: number;
  /** Label of the bind group (default `<kernel label> bind group`, `... group <g> bind group`). */
  label?: string;
}

/** Creates a bind group of a kernel (group 0 unless `options.group`) from its buffers. */
export function bindKernel(
  device: GPUDevice,
  kernel: Kernel,
  resources: BindingResources,
  options: BindOptions = {},
): GPUBindGroup {
  const g = options.group ?? 0;
  const layout = kernel.groups[g];
  if (!layout) throw new RangeError(`${kernel.label}: no bind group ${g}`);
  const { bindings } = layout;
  const where = g ? ` in group ${g}` : "";
  let pick: (binding: number, k: number) => BindingResource;
  if (Array.isArray(resources)) {
    const list = resources as readonly BindingResource[];
    if (list.length !== bindings.length) {
      throw new RangeError(
        `${kernel.label}: ${bindings.length} bindings expected${where}, ${list.length} given`,
      );
    }
    pick = (_, k) => list[k];
  } else {
    const map = resources as ReadonlyMap<number, BindingResource>;
    pick = (binding) => {
      const r = map.get(binding);
      if (!r) throw new TypeError(`${kernel.label}: binding ${binding}${where} is missing`);
      return r;
    };
  }
  const maxStorage = device.limits.maxStorageBufferBindingSize;
  return device.createBindGroup({
    label: options.label ?? `${kernel.label} ${g ? `group ${g} ` : ""}bind group`,
    layout: layout.layout,
    entries: bindings.map((binding, k) => {
      const r = pick(binding, k);
      const buffer = r instanceof GPUBuffer ? r : r.buffer;
      const size = r instanceof GPUBuffer ? r.size : r.size ?? buffer.size - (r.offset ?? 0);
      if (layout.kinds[k] !== "uniform" && size > maxStorage) {
        // WebGPU's own message names neither the buffer nor the kernel
        throw new RangeError(
          `${kernel.label}: binding ${binding}${where} would bind ${
            (size / 2 ** 20).toFixed(1)
          } MiB of buffer "${buffer.label}", more than the adapter's maxStorageBufferBindingSize (${
            (maxStorage / 2 ** 20).toFixed(1)
          } MiB); the scene is too large for this adapter at this scale: run a smaller scale`,
        );
      }
      return { binding, resource: r instanceof GPUBuffer ? { buffer: r } : r };
    }),
  });
}

/** A binding of a {@link createBoundKernel} entry point: its number, kind and resource. */
export type BoundEntry = readonly [binding: number, kind: BindingKind, resource: BindingResource];

/**
 * One entry point whose layout holds exactly the bindings it uses, built and bound at once: the
 * pipeline (`createKernel`, group 0 from `entries`) and its bind group (`bindKernel`). What a
 * module with several entry points over one buffer set calls per entry point, each within the
 * storage buffers a stage allows.
 */
export function createBoundKernel(
  device: GPUDevice,
  options: Omit<KernelOptions, "bindings" | "groups"> & { entries: readonly BoundEntry[] },
): { kernel: Kernel; bind: GPUBindGroup } {
  const { entries, ...rest } = options;
  const kernel = createKernel(device, {
    ...rest,
    bindings: entries.map(([n, kind]) => [n, kind] as const),
  });
  const resources = new Map<number, BindingResource>(entries.map(([n, , r]) => [n, r]));
  return { kernel, bind: bindKernel(device, kernel, resources) };
}

/** How many workgroups {@link dispatch} runs. */
export type DispatchSize =
  /**
   * `ceil(invocations / workgroupSize)` workgroups as an x·y grid with x ≤ 65535 (for kernels
   * that index with `num_workgroups`).
   */
  | {
    invocations: number;
    workgroupSize: number;
    /** Workgroups per row along x (default 65535); a smaller value exercises 2D grids. */
    rowLength?: number;
  }
  /** Exactly this many along x (kernels indexing with `global_invocation_id.x` alone). */
  | { workgroups: number }
  /**
   * `dispatchWorkgroupsIndirect(indirect, indirectOffset)`. `rewritten`: the arguments are
   * written by an earlier dispatch before every use (a solver's convergence gate), so a dispatch
   * gate may zero them when its region does not run instead of copying them per dispatch.
   */
  | { indirect: GPUBuffer; indirectOffset: number; rewritten?: boolean };

/** Options of {@link dispatch}. */
export type DispatchOptions = DispatchSize & {
  /** Bind group 0, or the bind groups 0, 1, ... */
  bindGroup: GPUBindGroup | readonly GPUBindGroup[];
  /** Dynamic offsets of the groups, by group index (for groups with dynamic-offset bindings). */
  dynamicOffsets?: readonly (readonly number[] | undefined)[];
};

let encoded = 0;
let encodedIndirect = 0;

/**
 * Where the dispatches of a gated region go (`dispatch_gate.ts`): each one becomes an indirect
 * dispatch from the arguments the redirect returns; an indirect one may first encode a copy of
 * its own arguments (with the redirect off).
 */
export interface DispatchRedirect {
  /** The arguments slot of a direct dispatch of `shape` workgroups (x, y). */
  direct(shape: readonly [number, number]): { buffer: GPUBuffer; offset: number };
  /** The arguments slot of an indirect dispatch from `buffer` at `offset`. */
  indirect(
    pass: GPUComputePassEncoder,
    buffer: GPUBuffer,
    options: { offset: number; rewritten?: boolean },
  ): { buffer: GPUBuffer; offset: number };
}

let redirect: DispatchRedirect | undefined;

/**
 * Runs `encode` with every {@link dispatch} it records redirected by `to` (`undefined`: none),
 * then restores the previous redirect. Encoding is synchronous, so a module-level redirect is
 * enough.
 */
export function withDispatchRedirect<T>(to: DispatchRedirect | undefined, encode: () => T): T {
  const previous = setDispatchRedirect(to);
  try {
    return encode();
  } finally {
    redirect = previous;
  }
}

/** Sets the redirect of the {@link dispatch}es that follow; returns the previous one. */
export function setDispatchRedirect(
  to: DispatchRedirect | undefined,
): DispatchRedirect | undefined {
  const previous = redirect;
  redirect = to;
  return previous;
}

/**
 * Dispatches recorded by {@link dispatch} so far in this process (all devices): the engine reads
 * it around each phase it encodes to count a step's dispatches. Indirect dispatches count as
 * recorded, whatever their workgroup count turns out to be on the GPU.
 */
export function dispatchesEncoded(): number {
  return encoded;
}

/**
 * Of {@link dispatchesEncoded}, those recorded as `dispatchWorkgroupsIndirect` (a gated region's
 * included): each costs wgpu 29 a validation dispatch of its own besides (gfx-rs/wgpu#6567), which
 * no count of ours sees otherwise.
 */
export function indirectDispatchesEncoded(): number {
  return encodedIndirect;
}

/**
 * The 2D grid of `groups` workgroups: at most `rowLength` (default 65,535, WebGPU's
 * `maxComputeWorkgroupsPerDimension`) along x, rows along y. Kernels index workgroup
 * w = wid.x + wid.y · nwg.x; the last row may run past `groups` and must do nothing there.
 */
export function dispatchShape(groups: number, rowLength = 65535): [number, number] {
  return [Math.min(groups, rowLength), Math.ceil(groups / rowLength)];
}

/** Records a dispatch of a kernel (nothing when it has 0 workgroups). */
export function dispatch(
  pass: GPUComputePassEncoder,
  kernel: Kernel,
  options: DispatchOptions,
): void {
  let shape: [number, number] | undefined;
  if ("invocations" in options) {
    const groups = Math.ceil(options.invocations / options.workgroupSize);
    shape = dispatchShape(groups, options.rowLength);
  } else if ("workgroups" in options) {
    shape = [options.workgroups, 1];
  }
  if (shape?.[0] === 0) return;
  let gated: { buffer: GPUBuffer; offset: number } | undefined;
  if (redirect) {
    const to = redirect;
    gated = shape ? to.direct(shape) : withDispatchRedirect(undefined, () => {
      const o = options as { indirect: GPUBuffer; indirectOffset: number; rewritten?: boolean };
      return to.indirect(pass, o.indirect, { offset: o.indirectOffset, rewritten: o.rewritten });
    });
  }
  encoded++;
  pass.setPipeline(kernel.pipeline);
  const groups = Array.isArray(options.bindGroup) ? options.bindGroup : [options.bindGroup];
  groups.forEach((group, g) => {
    const offsets = options.dynamicOffsets?.[g];
    if (offsets) pass.setBindGroup(g, group, [...offsets]);
    else pass.setBindGroup(g, group);
  });
  if (gated) {
    encodedIndirect++;
    pass.dispatchWorkgroupsIndirect(gated.buffer, gated.offset);
  } else if (shape) pass.dispatchWorkgroups(shape[0], shape[1]);
  else if ("indirect" in options) {
    encodedIndirect++;
    pass.dispatchWorkgroupsIndirect(options.indirect, options.indirectOffset);
  }
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
