/**
 * mergesplit: a reproducible benchmark harness for collision handling in particle-based
 * simulation, after "Particle Merging-and-Splitting" (Truong et al., IEEE TVCG 2021).
 *
 * @module
 */
export * from "./core/mod.ts";
export * from "./scenes/mod.ts";
export * from "./gpu/mod.ts";
export * from "./bench/mod.ts";
