/**
 * `gpu/`: WebGPU device acquisition, the WGSL kernels of every system and handler with the host
 * code that owns their pipelines, and the engine that runs a scene under a handler.
 * Loading these modules reads the `.wgsl` files beside them (`--allow-read`).
 *
 * @module
 */
export * from "./runtime/device.ts";
export * from "./engine.ts";
export * from "./handlers/registry.ts";
export * from "./metrics/metrics.ts";
export * from "./runtime/struct_layout.ts";
export * from "./systems/registry.ts";
export type * from "./systems/system.ts";
export type * from "./handlers/handler.ts";
export * from "./coupling/coupling.ts";
export * from "./state/particle_state.ts";
export type * from "./state/part_slice.ts";
export * from "./runtime/kernel.ts";
export * from "./metrics/step_budget.ts";
export * from "./runtime/buffer_memory.ts";
export * from "./runtime/kernel_profiler.ts";
export * from "./runtime/local_solve.ts";
export * from "./runtime/adapter_request.ts";
export * from "./runtime/gpu_deadline.ts";
