/**
 * Grid-accelerated collision detection on WebGPU: Collision Rules 1 and 2 of paper §5.1
 * (Eqs. 21–22), with the exclusions of `findCollisions` in `core/grouping/collision_rules.ts` (its f64,
 * brute-force reference): bonded pairs (springs, bonds) and same-body pairs of bodies without
 * self-collision (e.g. a fluid) are never collisions.
 *
 * Per step, after the neighbor grid has been built from the member positions (gpu/README.md):
 *
 * ```ts
 * const detect = new CollisionDetection(device, { capacity, maxPerParticle: 16, grid });
 * const out = detect.createOutputs();
 * const bindings = detect.bind({ pos, vel, body, selfCollision, bondStart, bondList,
 *   cellStart, sorted, ...out });
 * detect.setCount(n);                  // queue.writeBuffer of the uniform; no host sync
 * detect.encode(encoder, bindings);    // contacts, then pairs / marked
 * ```
 *
 * Outputs, per particle i, in the fixed-capacity slot `[i·K, i·K + count)` (K =
 * `maxPerParticle`), sorted ascending by partner index (entries past `count` are unspecified):
 *
 * - `contacts` / `contactCount`: every partner j ≠ i (j < i and j > i) with Rule 1 that is not
 *   excluded;
 * - `pairs` / `pairCount`: the contacts j > i that also satisfy Rule 2, n · (v_j − v_i) < 0 with
 *   n = x_j − x_i (merged in stage 1);
 * - `marked` / `markedCount`: the contacts j > i that do not (merged in stage 2 if they approach
 *   at the end of stage 1);
 * - `overflow`: the number of partners dropped because a contact slot was full, added to the
 *   counter (it accumulates across encodes; see {@link CollisionEncodeOptions.resetOverflow}) by
 *   {@link CollisionDetection.encodeOverflow}, which moves the walks' drops there: encode it
 *   before reading `overflow`.
 *
 * When a particle has more than K contacts the slot keeps the K smallest partner indices (not the
 * nearest K), so the output stays deterministic; `pairs` and `marked` are split from the kept
 * contacts, so they may then miss partners j > i that were dropped (the overflow counts them).
 * A full slot also breaks the symmetry j ∈ contacts(i) ⇔ i ∈ contacts(j). Choose K so that
 * `overflow` stays 0, and check it in batches.
 *
 * @module
 */

import { BOND_BROKEN_BIT } from "./bond_flags.ts";
import { withGridNeighbors } from "./grid_cell.ts";
import {
  type BindingKind,
  bindKernel,
  createKernel,
  dispatch,
  type Kernel,
} from "../runtime/kernel.ts";
import { defineStruct, type StructLayout } from "../runtime/struct_layout.ts";
import collisionDetectionWgsl from "./collision_detection.wgsl" with { type: "text" };

/** WGSL source of the detector (`gpu/state/collision_detection.wgsl` after the grid preludes). */
export const COLLISION_DETECTION_WGSL: string = withGridNeighbors(collisionDetectionWgsl);

/** Uniform `CollisionParams` of `collision_detection.wgsl`: the grid (gpu/README.md) and count. */
export const COLLISION_PARAMS_STRUCT: StructLayout = defineStruct("CollisionParams", [
  ["gridMin", "vec3f"],
  ["cellSize", "f32"],
  ["dims", "vec4u"],
  ["count", "u32"],
  ["maxRadius", "f32"],
]);

/**
 * Uniform neighbor grid (gpu/README.md): the box `[gridMin, gridMin + cellSize · dims)`; the same
 * shape as `GridGeometry` of `gpu/state/neighbor_grid.ts`. The cell edge must be ≥ 2 · (largest
 * collision radius), so that every intersecting pair lies in adjacent cells.
 */
export interface CollisionGrid {
  /** Lower corner (xyz). */
  gridMin: readonly number[];
  /** Cell edge (> 0, ≥ 2 · max radius). */
  cellSize: number;
  /** Cells per axis (xyz, positive integers). */
  dims: readonly number[];
  /**
   * The largest particle radius (default cellSize / 2): a particle's partners lie within its
   * radius plus this, so only the cells that sphere overlaps are visited (8 instead of 27 when
   * the cell is twice that reach, as in the fluid scenes whose cell is the fluid kernel's support
   * 4r).
   */
  maxRadius?: number;
}

/** Options of {@link CollisionDetection}. */
export interface CollisionDetectionOptions {
  /** Largest particle count; sizes the checks on bound buffers. */
  capacity: number;
  /** K: slot size of `contacts`, `pairs` and `marked` per particle (1..1024, default 16). */
  maxPerParticle?: number;
  /** Neighbor grid; may be given later with {@link CollisionDetection.setGrid}. */
  grid?: CollisionGrid;
  /** Particles processed by the next encode; default `capacity`. */
  count?: number;
  /** `override WORKGROUP_SIZE` of the kernels (1..256, default 64). */
  workgroupSize?: number;
  /** Label prefix of every GPU object; default "collision detection". */
  label?: string;
  /**
   * Skip the particles that can have no contact (`collide_contacts_pruned`): a pass first marks
   * which bodies each cell holds, and a particle whose cells hold only its own body, which does not
   * collide with itself (the interior of a fluid), walks no cell. The same output. Default true
   * where the device offers the 9 storage buffers per stage it binds (llvmpipe offers 16); the
   * default walk (`collide_contacts`) binds 8, WebGPU's guaranteed limit.
   */
  pruneCells?: boolean;
}

/** The output buffers (all `storage`); {@link CollisionDetection.createOutputs} makes a set. */
export interface CollisionOutputs {
  /** `array<u32>`, capacity · K: contact partners of i in `[i·K, i·K + contactCount[i])`. */
  contacts: GPUBuffer;
  /** `array<u32>`, capacity. */
  contactCount: GPUBuffer;
  /** `array<u32>`, capacity · K: partners j > i satisfying Rules 1 and 2. */
  pairs: GPUBuffer;
  /** `array<u32>`, capacity. */
  pairCount: GPUBuffer;
  /** `array<u32>`, capacity · K: partners j > i satisfying Rule 1 but not Rule 2. */
  marked: GPUBuffer;
  /** `array<u32>`, capacity. */
  markedCount: GPUBuffer;
  /** `atomic<u32>` (4 bytes): partners dropped because a slot was full (accumulates). */
  overflow: GPUBuffer;
}

/**
 * Buffers the kernels read (gpu/README.md layouts; all need `GPUBufferUsage.STORAGE`) and write.
 * N = capacity.
 */
export interface CollisionDetectionBuffers extends CollisionOutputs {
  /** `array<vec4f>`, N: xyz member position, w collision radius. */
  pos: GPUBuffer;
  /** `array<vec4f>`, N: xyz member velocity (Rule 2). */
  vel: GPUBuffer;
  /** `array<u32>`, N: body id. */
  body: GPUBuffer;
  /** `array<u32>`, one per body: 0 = pairs inside the body are never collisions. */
  selfCollision: GPUBuffer;
  /** `array<u32>`, N + 1: CSR offsets of the bonded partners of each particle. */
  bondStart: GPUBuffer;
  /**
   * `array<u32>` (≥ 1 entry): bonded partners of i, ascending, in
   * `bondList[bondStart[i] .. bondStart[i + 1])`; a bond may be listed under either particle or
   * both.
   */
  bondList: GPUBuffer;
  /** `array<u32>`, cellCount + 1: exclusive prefix sum of the cell counts. */
  cellStart: GPUBuffer;
  /** `array<u32>`, N: particle indices grouped by cell, ascending within a cell. */
  sorted: GPUBuffer;
}

/** Bind groups of one set of {@link CollisionDetectionBuffers}, from {@link CollisionDetection.bind}. */
export interface CollisionBindings {
  readonly buffers: Readonly<CollisionDetectionBuffers>;
  /** `collide_contacts`, or `collide_contacts_pruned` where cells are pruned. */
  readonly contacts: GPUBindGroup;
  /** `collide_overflow`: the walk's dropped partners into `overflow`. */
  readonly overflow: GPUBindGroup;
  readonly classify: GPUBindGroup;
  /** `collide_keys` (where cells are not pruned: `collide_cells` writes the keys). */
  readonly keys?: GPUBindGroup;
  /** `collide_cells` and its per-cell body words (where cells are pruned). */
  readonly cells?: GPUBindGroup;
  readonly cellBodies?: GPUBuffer;
}

/** Options of the encode methods. */
export interface CollisionEncodeOptions {
  /** Timestamp writes of the compute pass (device feature `timestamp-query`). */
  timestampWrites?: GPUComputePassTimestampWrites;
  /** Clear `overflow` (encoder.clearBuffer) before detecting; default false (it accumulates). */
  resetOverflow?: boolean;
}

type Entry = "keys" | "contacts" | "contactsPruned" | "cells" | "overflow" | "classify";

const ENTRY_POINTS: Record<Entry, string> = {
  keys: "collide_keys",
  contacts: "collide_contacts",
  contactsPruned: "collide_contacts_pruned",
  cells: "collide_cells",
  overflow: "collide_overflow",
  classify: "collide_classify",
};

/** Binding of the detector's scratch (`Work` of the WGSL: drop counter and collision keys). */
const WORK_BINDING = 16;

/** Binding number, element size in bytes, and element count ("N", "N+1", "NK" or a minimum). */
const USER_BINDINGS: Record<keyof CollisionDetectionBuffers, [number, number, string]> = {
  pos: [1, 16, "N"],
  body: [2, 4, "N"],
  selfCollision: [3, 4, "1"],
  bondStart: [4, 4, "N+1"],
  bondList: [5, 4, "1"],
  cellStart: [6, 4, "2"],
  sorted: [7, 4, "N"],
  contacts: [8, 4, "NK"],
  contactCount: [9, 4, "N"],
  overflow: [10, 4, "1"],
  vel: [11, 16, "N"],
  pairs: [12, 4, "NK"],
  pairCount: [13, 4, "N"],
  marked: [14, 4, "NK"],
  markedCount: [15, 4, "N"],
};

/**
 * Bindings of the contact walk (binding 0 is the uniform): `pos`, the bond lists, the grid, the
 * contact slots and the scratch (keys and drop counter): 8 storage buffers, WebGPU's guaranteed
 * `maxStorageBuffersPerShaderStage`.
 */
const CONTACT_BINDINGS: [number, BindingKind][] = [
  [0, "uniform"],
  [1, "read-only-storage"],
  [4, "read-only-storage"],
  [5, "read-only-storage"],
  [6, "read-only-storage"],
  [7, "read-only-storage"],
  [8, "storage"],
  [9, "storage"],
  [WORK_BINDING, "storage"],
];

/** Bindings of each entry point with their buffer binding type (binding 0 is the uniform). */
const ENTRY_BINDINGS: Record<Entry, [number, BindingKind][]> = {
  keys: [
    [0, "uniform"],
    [2, "read-only-storage"],
    [3, "read-only-storage"],
    [WORK_BINDING, "storage"],
  ],
  contacts: CONTACT_BINDINGS,
  contactsPruned: [...CONTACT_BINDINGS, [18, "read-only-storage"]],
  cells: [
    [0, "uniform"],
    [1, "read-only-storage"],
    [2, "read-only-storage"],
    [3, "read-only-storage"],
    [WORK_BINDING, "storage"],
    [17, "storage"],
  ],
  overflow: [[10, "storage"], [WORK_BINDING, "storage"]],
  classify: [
    [0, "uniform"],
    [1, "read-only-storage"],
    [8, "storage"],
    [9, "storage"],
    [11, "read-only-storage"],
    [12, "storage"],
    [13, "storage"],
    [14, "storage"],
    [15, "storage"],
  ],
};

/** Storage buffers `collide_contacts_pruned` binds (9: the pruned path's gate on the device). */
const PRUNED_STORAGE_BUFFERS = ENTRY_BINDINGS.contactsPruned.filter(([, k]) => k !== "uniform")
  .length;

/**
 * Collision detection (paper §5.1, Eqs. 21–22) over a uniform neighbor grid, encoded into a
 * caller's command encoder; see the module comment for the outputs and the overflow policy.
 *
 * Bindings (group 0 of `collision_detection.wgsl`): 0 `params` uniform; 1 `pos`, 2 `body`,
 * 3 `selfCollision`, 4 `bondStart`, 5 `bondList`, 6 `cellStart`, 7 `sorted`, 11 `vel`
 * (read-only storage); 8 `contacts`, 9 `contactCount`, 10 `overflow`, 12 `pairs`,
 * 13 `pairCount`, 14 `marked`, 15 `markedCount` (storage); 16 the detector's scratch (the
 * collision key of each particle, its body with the body's self-collision flag, and the walk's
 * drop counter); 17 and 18 the detector's own per-cell body words. Each entry point binds only
 * what it uses, at most 8 storage buffers (WebGPU's guaranteed limit) on the default path:
 * `collide_keys` 0, 2, 3, 16; `collide_contacts` 0, 1, 4–9, 16 (8); `collide_overflow` 10, 16;
 * `collide_classify` 0, 1, 8, 9, 11–15 (8). With pruning `collide_cells` (0–3, 16, 17) writes the
 * keys, and `collide_contacts_pruned` binds the walk's 8 and 18 (9 storage buffers: the pruned
 * path runs where the device offers them).
 */
export class CollisionDetection {
  /** Device the pipelines live on. */
  readonly device: GPUDevice;
  /** Label prefix of every GPU object. */
  readonly label: string;
  /** Largest particle count. */
  readonly capacity: number;
  /** K, the slot size per particle of `contacts`, `pairs` and `marked`. */
  readonly maxPerParticle: number;
  /** Workgroup size of the kernels. */
  readonly workgroupSize: number;
  /** Whether particles that can have no contact skip the cell walk (`pruneCells`). */
  readonly pruned: boolean;
  readonly #owned: GPUBuffer[] = [];
  #grid: CollisionGrid | undefined;
  #count: number;
  readonly #params: GPUBuffer;
  /** The scratch of binding 16: drop counter, then one key per particle (capacity + 1 words). */
  readonly #work: GPUBuffer;
  readonly #kernels: Record<Entry, Kernel>;

  /** Creates the pipelines and the uniform (see {@link CollisionDetectionOptions}). */
  constructor(device: GPUDevice, options: CollisionDetectionOptions) {
    if (!device) throw new TypeError("CollisionDetection: device is required");
    if (!options) throw new TypeError("CollisionDetection: options are required");
    this.device = device;
    this.label = options.label ?? "collision detection";
    const capacity = options.capacity;
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(
        `CollisionDetection: options.capacity must be an integer >= 1, got ${capacity}`,
      );
    }
    this.capacity = capacity;
    const k = options.maxPerParticle ?? 16;
    if (!Number.isInteger(k) || k < 1 || k > 1024) {
      throw new RangeError(
        `CollisionDetection: options.maxPerParticle must be an integer in 1..1024, got ${k}`,
      );
    }
    if (capacity * k >= 2 ** 32) {
      throw new RangeError(
        "CollisionDetection: options.capacity · options.maxPerParticle must be < 2^32",
      );
    }
    this.maxPerParticle = k;
    const wg = options.workgroupSize ?? 64;
    if (!Number.isInteger(wg) || wg < 1 || wg > 256) {
      throw new RangeError(
        `CollisionDetection: options.workgroupSize must be an integer in 1..256, got ${wg}`,
      );
    }
    this.workgroupSize = wg;
    this.#count = this.#checkCount(options.count ?? capacity, "options.count");
    if (options.grid) this.#grid = this.#checkGrid(options.grid, "options.grid");

    const label = this.label;
    this.#params = device.createBuffer({
      label: `${label} params`,
      size: COLLISION_PARAMS_STRUCT.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    const kernel = (key: Entry) =>
      createKernel(device, {
        label: `${label} ${key}`,
        code: COLLISION_DETECTION_WGSL,
        entryPoint: ENTRY_POINTS[key],
        bindings: ENTRY_BINDINGS[key],
        constants: { WORKGROUP_SIZE: wg, MAX_PER_PARTICLE: k, BROKEN_BIT: BOND_BROKEN_BIT },
      });
    this.pruned = (options.pruneCells ?? true) &&
      device.limits.maxStorageBuffersPerShaderStage >= PRUNED_STORAGE_BUFFERS;
    const entries: Entry[] = this.pruned
      ? ["cells", "contactsPruned", "overflow", "classify"]
      : ["keys", "contacts", "overflow", "classify"];
    this.#kernels = Object.fromEntries(entries.map((e) => [e, kernel(e)])) as Record<
      Entry,
      Kernel
    >;
    // zeroed at creation; collide_overflow moves the counter into `overflow` and clears it
    this.#work = device.createBuffer({
      label: `${label} work (drop counter, collision keys)`,
      size: 4 * (capacity + 1),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    this.#owned.push(this.#work);
    this.#writeParams();
  }

  /** Particles processed by the next encodes. */
  get count(): number {
    return this.#count;
  }

  /** The grid set last, if any. */
  get grid(): CollisionGrid | undefined {
    return this.#grid;
  }

  /**
   * Sets the neighbor grid (gpu/README.md); cellSize must be ≥ 2 · the largest radius (not
   * checkable here). Writes the uniform with `queue.writeBuffer`: the value applies to every
   * command buffer submitted afterwards.
   */
  setGrid(grid: CollisionGrid): void {
    this.#grid = this.#checkGrid(grid, "grid");
    this.#writeParams();
  }

  /** Sets the particle count (≤ capacity) of the next submissions; same timing as {@link setGrid}. */
  setCount(count: number): void {
    this.#count = this.#checkCount(count, "count");
    this.#writeParams();
  }

  /**
   * Creates a set of output buffers sized for `capacity` and K, with usage
   * `STORAGE | COPY_SRC | COPY_DST`; `overflow` starts at 0. The caller destroys them.
   */
  createOutputs(): CollisionOutputs {
    const make = (name: string, size: number) =>
      this.device.createBuffer({
        label: `${this.label} ${name}`,
        size,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      });
    const nk = 4 * this.capacity * this.maxPerParticle;
    const n = 4 * this.capacity;
    return {
      contacts: make("contacts", nk),
      contactCount: make("contactCount", n),
      pairs: make("pairs", nk),
      pairCount: make("pairCount", n),
      marked: make("marked", nk),
      markedCount: make("markedCount", n),
      overflow: make("overflow", 4),
    };
  }

  /**
   * Creates the bind groups of a set of buffers; reuse them across steps. Throws a `TypeError`
   * naming a missing buffer or one without `STORAGE` usage and a `RangeError` naming one too
   * small for capacity (and K).
   */
  bind(buffers: CollisionDetectionBuffers): CollisionBindings {
    if (!buffers) throw new TypeError("CollisionDetection.bind: buffers are required");
    const n = this.capacity;
    const byBinding = new Map<number, GPUBuffer>([
      [0, this.#params],
      [WORK_BINDING, this.#work],
    ]);
    for (const [name, [binding, stride, count]] of Object.entries(USER_BINDINGS)) {
      const buffer = buffers[name as keyof CollisionDetectionBuffers];
      if (!buffer) throw new TypeError(`CollisionDetection.bind: buffers.${name} is missing`);
      if (!(buffer.usage & GPUBufferUsage.STORAGE)) {
        throw new TypeError(
          `CollisionDetection.bind: buffers.${name} needs GPUBufferUsage.STORAGE`,
        );
      }
      const elements = count === "N"
        ? n
        : count === "N+1"
        ? n + 1
        : count === "NK"
        ? n * this.maxPerParticle
        : Number(count);
      const need = stride * elements;
      if (buffer.size < need) {
        throw new RangeError(
          `CollisionDetection.bind: buffers.${name} has ${buffer.size} bytes, needs at least ${need}`,
        );
      }
      byBinding.set(binding, buffer);
    }
    const group = (key: Entry) => bindKernel(this.device, this.#kernels[key], byBinding);
    if (!this.pruned) {
      return Object.freeze({
        buffers: Object.freeze({ ...buffers }),
        keys: group("keys"),
        contacts: group("contacts"),
        overflow: group("overflow"),
        classify: group("classify"),
      });
    }
    // the per-cell body words, sized for the grid of now (encode checks it still fits)
    const [x, y, z] = this.#grid?.dims ?? [1, 1, 1];
    const cellBodies = this.device.createBuffer({
      label: `${this.label} cell bodies`,
      size: 4 * x * y * z,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    this.#owned.push(cellBodies);
    byBinding.set(17, cellBodies);
    byBinding.set(18, cellBodies);
    return Object.freeze({
      buffers: Object.freeze({ ...buffers }),
      contacts: group("contactsPruned"),
      overflow: group("overflow"),
      classify: group("classify"),
      cells: group("cells"),
      cellBodies,
    });
  }

  /**
   * Encodes one compute pass: contacts (Rule 1 and exclusions: the collision keys, the walk, its
   * dropped partners into `overflow`), then pairs / marked (Rule 2).
   */
  encode(
    encoder: GPUCommandEncoder,
    bindings: CollisionBindings,
    options: CollisionEncodeOptions = {},
  ): void {
    this.#encode(encoder, bindings, ["contacts", "classify"], options);
  }

  /** Encodes the contact pass alone (`contacts`, `contactCount`, `overflow`). */
  encodeContacts(
    encoder: GPUCommandEncoder,
    bindings: CollisionBindings,
    options: CollisionEncodeOptions = {},
  ): void {
    this.#encode(encoder, bindings, ["contacts"], options);
  }

  /**
   * Encodes the Rule 2 split alone: re-classifies the current `contacts` with the bound `vel`
   * (e.g. the velocities at the end of stage 1, through a second {@link bind} sharing the contact
   * buffers). `resetOverflow` is ignored.
   */
  encodeClassify(
    encoder: GPUCommandEncoder,
    bindings: CollisionBindings,
    options: CollisionEncodeOptions = {},
  ): void {
    this.#encode(encoder, bindings, ["classify"], { ...options, resetOverflow: false });
  }

  /**
   * Moves the partners the walks dropped since the last call (a counter in the detector's
   * scratch) into `overflow` (one dispatch, its own pass): encode it before reading `overflow`,
   * not with every detection, which would cost a dispatch a step for a count read once a run.
   */
  encodeOverflow(encoder: GPUCommandEncoder, bindings: CollisionBindings): void {
    const pass = encoder.beginComputePass({ label: `${this.label} overflow` });
    dispatch(pass, this.#kernels.overflow, { bindGroup: bindings.overflow, workgroups: 1 });
    pass.end();
  }

  /**
   * Destroys the uniform buffer, the scratch and the per-cell words (bound buffers belong to the
   * caller).
   */
  destroy(): void {
    this.#params.destroy();
    for (const b of this.#owned) b.destroy();
  }

  #encode(
    encoder: GPUCommandEncoder,
    bindings: CollisionBindings,
    entries: Entry[],
    options: CollisionEncodeOptions,
  ): void {
    if (!this.#grid) {
      throw new Error("CollisionDetection: no grid; pass options.grid or call setGrid first");
    }
    if (!bindings?.contacts) {
      throw new TypeError("CollisionDetection: bindings must come from CollisionDetection.bind");
    }
    const [x, y, z] = this.#grid.dims;
    const need = 4 * (x * y * z + 1);
    if (bindings.buffers.cellStart.size < need) {
      throw new RangeError(
        `CollisionDetection: buffers.cellStart has ${bindings.buffers.cellStart.size} bytes, the grid needs ${need}`,
      );
    }
    if (options.resetOverflow) {
      encoder.clearBuffer(bindings.buffers.overflow, 0, 4);
      encoder.clearBuffer(this.#work, 0, 4);
    }
    const pruned = entries.includes("contacts") && bindings.cellBodies;
    if (pruned) {
      const cells = need - 4;
      if (bindings.cellBodies.size < cells) {
        throw new RangeError(
          `CollisionDetection: the grid has ${cells / 4} cells, more than when the bindings were ` +
            "made; call bind() again after setGrid",
        );
      }
      encoder.clearBuffer(bindings.cellBodies, 0, cells);
    }
    const pass = encoder.beginComputePass({
      label: `${this.label} pass`,
      timestampWrites: options.timestampWrites,
    });
    const size = { invocations: this.#count, workgroupSize: this.workgroupSize };
    for (const key of entries) {
      if (key === "classify") {
        dispatch(pass, this.#kernels.classify, { bindGroup: bindings.classify, ...size });
        continue;
      }
      // the keys (with pruning: and the cells' bodies), then the walk
      if (pruned) {
        dispatch(pass, this.#kernels.cells, { bindGroup: bindings.cells!, ...size });
        dispatch(pass, this.#kernels.contactsPruned, { bindGroup: bindings.contacts, ...size });
      } else {
        dispatch(pass, this.#kernels.keys, { bindGroup: bindings.keys!, ...size });
        dispatch(pass, this.#kernels.contacts, { bindGroup: bindings.contacts, ...size });
      }
    }
    pass.end();
  }

  #checkCount(count: number, name: string): number {
    if (!Number.isInteger(count) || count < 0 || count > this.capacity) {
      throw new RangeError(
        `CollisionDetection: ${name} must be an integer in 0..${this.capacity} (capacity), got ${count}`,
      );
    }
    return count;
  }

  #checkGrid(grid: CollisionGrid, name: string): CollisionGrid {
    if (
      !grid || !grid.gridMin || grid.gridMin.length !== 3 || !grid.gridMin.every(Number.isFinite)
    ) {
      throw new RangeError(`CollisionDetection: ${name}.gridMin must be 3 finite numbers`);
    }
    if (
      !grid.dims || grid.dims.length !== 3 || !grid.dims.every((d) => Number.isInteger(d) && d >= 1)
    ) {
      throw new RangeError(`CollisionDetection: ${name}.dims must be 3 integers >= 1`);
    }
    if (!(grid.cellSize > 0) || !Number.isFinite(grid.cellSize)) {
      throw new RangeError(
        `CollisionDetection: ${name}.cellSize must be a finite number > 0, got ${grid.cellSize}`,
      );
    }
    const cells = grid.dims[0] * grid.dims[1] * grid.dims[2];
    if (cells >= 2 ** 32 - 1) {
      throw new RangeError(`CollisionDetection: ${name}.dims has too many cells`);
    }
    const maxRadius = grid.maxRadius ?? grid.cellSize / 2;
    if (!(maxRadius > 0) || !(2 * maxRadius <= grid.cellSize * (1 + 1e-6))) {
      throw new RangeError(
        `CollisionDetection: ${name}.maxRadius must be in (0, cellSize / 2], got ${maxRadius} ` +
          `(cellSize ${grid.cellSize})`,
      );
    }
    return {
      gridMin: [...grid.gridMin],
      cellSize: grid.cellSize,
      dims: [...grid.dims],
      maxRadius,
    };
  }

  #writeParams(): void {
    const grid = this.#grid ??
      { gridMin: [0, 0, 0], cellSize: 1, dims: [1, 1, 1], maxRadius: 0.5 };
    const [x, y, z] = grid.dims;
    const data = COLLISION_PARAMS_STRUCT.pack({
      gridMin: grid.gridMin,
      cellSize: grid.cellSize,
      dims: [x, y, z, x * y * z],
      count: this.#count,
      maxRadius: grid.maxRadius ?? grid.cellSize / 2,
    });
    this.device.queue.writeBuffer(this.#params, 0, data);
  }
}
