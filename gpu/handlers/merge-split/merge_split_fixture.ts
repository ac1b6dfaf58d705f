/**
 * Test fixture of merge-split's kernels: random pair lists, the engine buffers they need, the
 * kernels built on a software adapter, and a one-pass run.
 *
 * @module
 */
import { acquireGpu } from "../../runtime/device.ts";
import { readBuffer, storageBuffer } from "../../runtime/kernel.ts";
import { KIND_BITS } from "../../state/particle_state.ts";
import { MergeSplitKernels } from "./merge_split.ts";
import { MERGE_SPLIT_STATS } from "./merge_split_stats.ts";
import type { GroupingMethod } from "../../../core/grouping/index_order_grouping.ts";
import type { MergeOrder } from "../../../core/merge_orders.ts";
import type { Pair } from "../../../core/grouping/collision_rules.ts";
import { Rng } from "../../../core/rng.ts";

/** Words of merge-split's statistics. */
export const STATS = MERGE_SPLIT_STATS.words;

/** Slots per particle of the pair lists. */
export const K = 8;

/** Particles (vec4 positions and velocities, masses) and their pair lists. */
export interface Case {
  n: number;
  x: Float32Array; // vec4 per particle
  v: Float32Array;
  m: Float32Array;
  pairs: Pair[];
  marked: Pair[];
}

/** Random sparse pair lists (partners within 12 indices above), j > i, at most K per list. */
export function randomCase(seed: number, n: number): Case {
  const rng = new Rng(seed);
  const x = new Float32Array(4 * n);
  const v = new Float32Array(4 * n);
  const m = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      x[4 * i + k] = rng.uniform(-1, 1);
      v[4 * i + k] = rng.uniform(-1, 1);
    }
    x[4 * i + 3] = 0.05;
    m[i] = rng.uniform(0.5, 2);
  }
  // random sparse pair lists, j > i, at most K per particle per list, no duplicates
  const pairs: Pair[] = [];
  const marked: Pair[] = [];
  for (let i = 0; i < n; i++) {
    const used = new Set<number>();
    for (const list of [pairs, marked]) {
      const c = rng.int(0, 3);
      for (let t = 0; t < c; t++) {
        const j = Math.min(n - 1, i + 1 + rng.int(0, 12));
        if (j <= i || used.has(j)) continue;
        used.add(j);
        list.push([i, j]);
      }
    }
  }
  return { n, x, v, m, pairs, marked };
}

/** Pairs as the engine's per-particle lists: counts and K ascending slots each. */
export function packLists(
  n: number,
  list: readonly Pair[],
): { count: Uint32Array; items: Uint32Array } {
  const count = new Uint32Array(n);
  const items = new Uint32Array(n * K);
  const sorted = [...list].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (const [i, j] of sorted) items[i * K + count[i]++] = j;
  return { count, items };
}

/** Body-kind bits: every third particle is a sheet (cloth) particle. */
export function sheetKinds(n: number): Uint32Array {
  return Uint32Array.from({ length: n }, (_, i) => (i % 3 === 0 ? KIND_BITS.sheet : 0));
}

/** The kernels and buffers of case `c` on a software adapter (validation scope pushed). */
export async function setup(
  c: Case,
  options: {
    maxRounds?: number;
    localLimit?: number;
    localBudget?: number;
    smallGrouping?: boolean;
    /** The grouping method (default compact). */
    grouping?: GroupingMethod;
    /** Loop budget of the index-order pass. */
    floodBudget?: number;
    /** The merge order (default colliding-pairs). */
    mergeOrder?: MergeOrder;
    /** Storage buffers per stage of the device (default: what acquireGpu asks for). */
    storageBuffers?: number;
  } = {},
) {
  const { device } = await acquireGpu({
    adapter: "software",
    storageBuffers: options.storageBuffers,
  });
  device.pushErrorScope("validation");
  const n = c.n;
  const pl = packLists(n, c.pairs);
  const ml = packLists(n, c.marked);
  const buf = (label: string, size: number, data?: ArrayBufferView) =>
    storageBuffer(device, { label, size, data });
  const buffers = {
    pos: buf("pos", 16 * n, c.x),
    vel: buf("vel", 16 * n, c.v),
    mass: buf("mass", 4 * n, c.m),
    pairCount: buf("pairCount", 4 * n, pl.count),
    pairs: buf("pairs", 4 * n * K, pl.items),
    markedCount: buf("markedCount", 4 * n, ml.count),
    marked: buf("marked", 4 * n * K, ml.items),
    dof: buf("dof", 4 * n),
    memberStart: buf("memberStart", 4 * (n + 1)),
    memberList: buf("memberList", 8 * n),
    offset: buf("offset", 16 * n),
    dofX: buf("dofX", 16 * n),
    dofV: buf("dofV", 16 * n),
    dofM: buf("dofM", 4 * n),
    level: buf("level", 16 * n),
    levelParent: buf("levelParent", 16 * n),
    kind: buf("kind", 4 * n, sheetKinds(n)),
    syncEnergy: buf("syncEnergy", 4 * n),
    velOut: buf("velOut", 16 * n),
    stats: buf("stats", 4 * MERGE_SPLIT_STATS.length),
  };
  const ms = new MergeSplitKernels(device, {
    capacity: n,
    maxPerParticle: K,
    buffers,
    maxRounds: options.maxRounds,
    localLimit: options.localLimit,
    localBudget: options.localBudget,
    smallGrouping: options.smallGrouping,
    grouping: options.grouping,
    floodBudget: options.floodBudget,
    mergeOrder: options.mergeOrder,
  });
  return { device, buffers, ms };
}

/** Encodes `f` into one compute pass and submits it. */
export function run(device: GPUDevice, f: (pass: GPUComputePassEncoder) => void): void {
  const enc = device.createCommandEncoder({ label: "test encoder" });
  const pass = enc.beginComputePass({ label: "test pass" });
  f(pass);
  pass.end();
  device.queue.submit([enc.finish()]);
}

/** A buffer read back as u32 words. */
export const u32 = async (d: GPUDevice, b: GPUBuffer) => new Uint32Array(await readBuffer(d, b));
/** A buffer read back as f32 words. */
export const f32 = async (d: GPUDevice, b: GPUBuffer) => new Float32Array(await readBuffer(d, b));
