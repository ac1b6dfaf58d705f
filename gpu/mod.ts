/**
 * `gpu/`: WebGPU device acquisition, the WGSL kernels of every system and handler with the host
 * code that owns their pipelines, and the engine that runs a scene under a handler.
 * Loading these modules reads the `.wgsl` files beside them (`--allow-read`).
 *
 * @module
 */
export * from "./device.ts";
export * from "./engine.ts";
export * from "./handlers.ts";
export * from "./metrics.ts";
export * from "./struct_layout.ts";
