/**
 * The contact stage of every step: the neighbour grid by counting sort, then collision detection
 * (Rules 1–2, Eqs. 21–22; bonded pairs never collide; marked pairs) over the shared particle
 * state. Owns the grid, the detector and their outputs.
 *
 * @module
 */
import type { Scene } from "../../core/scene/scene.ts";
import {
  type CollisionBindings,
  CollisionDetection,
  type CollisionOutputs,
} from "./collision_detection.ts";
import { boundedGrid } from "./bounded_grid.ts";
import { type GridGeometry, NeighborGrid } from "./neighbor_grid.ts";
import type { ParticleState } from "./particle_state.ts";

/** The neighbour grid a kernel reads: geometry and the sorted cell lists (gpu/README.md). */
export interface GridView {
  geometry: GridGeometry;
  cellStart: GPUBuffer;
  sorted: GPUBuffer;
}

/** Neighbour grid and collision detection of one scene. */
export class Contacts {
  /** The grid (cell edge ≥ the largest neighbour radius asked for). */
  readonly grid: GridView;
  /** Detection outputs: contacts, pairs, marked pairs, overflow. */
  readonly outputs: CollisionOutputs;
  readonly #state: ParticleState;
  readonly #neighbor: NeighborGrid;
  readonly #collision: CollisionDetection;
  readonly #bind: CollisionBindings;

  /**
   * @param device the GPU device
   * @param options.state the particles; options.scene its domain; options.reach the neighbour
   *   radius the kernels need (m); options.maxPerParticle slots per particle of the lists
   */
  constructor(
    device: GPUDevice,
    options: {
      state: ParticleState;
      scene: Scene;
      reach: number;
      maxPerParticle: number;
      /** The largest particle radius (collision detection visits only the cells it needs). */
      maxRadius: number;
    },
  ) {
    const { state, scene } = options;
    const n = state.count;
    this.#state = state;
    // cells of the reach, larger where the domain would need more than one cellStart binding
    const geometry = boundedGrid(device, scene.domain, options.reach);
    this.#neighbor = new NeighborGrid(device, { capacity: n, ...geometry, label: "neighbor grid" });
    this.grid = { geometry, cellStart: this.#neighbor.cellStart, sorted: this.#neighbor.sorted };
    this.#collision = new CollisionDetection(device, {
      capacity: n,
      maxPerParticle: options.maxPerParticle,
      grid: { ...geometry, maxRadius: options.maxRadius },
    });
    this.outputs = this.#collision.createOutputs();
    this.#collision.setCount(n);
    const b = state.buffers;
    this.#bind = this.#collision.bind({
      ...this.outputs,
      pos: b.pos,
      vel: b.vel,
      body: b.body,
      selfCollision: b.selfCollision,
      bondStart: b.bondStart,
      bondList: b.bondList,
      cellStart: this.grid.cellStart,
      sorted: this.grid.sorted,
    });
  }

  /** Encodes the grid build and the detection, each pass with its own timestamp writes. */
  encode(
    encoder: GPUCommandEncoder,
    timestamps: {
      grid?: GPUComputePassTimestampWrites;
      detection?: GPUComputePassTimestampWrites;
    } = {},
  ): void {
    this.encodeGrid(encoder, timestamps.grid);
    this.encodeDetection(encoder, timestamps.detection);
  }

  /** Encodes the neighbour grid build (its own pass). */
  encodeGrid(encoder: GPUCommandEncoder, timestampWrites?: GPUComputePassTimestampWrites): void {
    this.#neighbor.encode(encoder, {
      pos: this.#state.buffers.pos,
      count: this.#state.count,
      timestampWrites,
    });
  }

  /** Encodes collision detection on the last grid (its own pass). */
  encodeDetection(
    encoder: GPUCommandEncoder,
    timestampWrites?: GPUComputePassTimestampWrites,
  ): void {
    this.#collision.encode(encoder, this.#bind, { timestampWrites });
  }

  /** Moves the partners the detections dropped into `outputs.overflow` (before reading it). */
  encodeOverflow(encoder: GPUCommandEncoder): void {
    this.#collision.encodeOverflow(encoder, this.#bind);
  }

  /** Frees the grid, the detector and the outputs. */
  destroy(): void {
    this.#collision.destroy();
    for (const b of Object.values(this.outputs)) b.destroy();
    this.#neighbor.destroy();
  }
}
