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
