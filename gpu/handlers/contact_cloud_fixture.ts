/**
 * Test fixture shared by the contact handlers' kernel tests (impulse, penalty, SPH coupling,
 * velocity projection): random particle clouds with bodies and bonds, contact slots built on the
 * CPU from the f64 contact set (as `CollisionDetection` writes them), and buffers uploaded, run
 * and read back on one device. For tests only.
 *
 * @module
 */
import assert from "node:assert/strict";
import { findContacts } from "../../core/baselines.ts";
import type { FindCollisionsOptions, Pair } from "../../core/grouping/collision_rules.ts";
import type { Particle } from "../../core/particle.ts";
import type { Rng } from "../../core/rng.ts";
import type { Vec3 } from "../../core/vec3.ts";

const f32 = Math.fround;

/** Lattice steps per metre of {@link latticeCloud} and {@link isolatedPairs}: 1/64 m. */
const LATTICE = 64;

/** A cloud of particles and the options the f64 references take for it. */
export interface ContactCloud {
  /** Particle count. */
  n: number;
  particles: Particle[];
  options: FindCollisionsOptions & { radius: number[] };
}

/** The bodies of a random cloud: how many, and which collide with themselves. */
export interface CloudBodies {
  /** Edge of the cube the positions lie in: lattice steps for a lattice cloud, m otherwise. */
  side: number;
  /** Body count; body b holds the particles ⌊b·n/bodies⌋ .. ⌊(b+1)·n/bodies⌋ − 1. */
  bodies: number;
  /** Whether a body collides with itself (`FindCollisionsOptions.selfCollision`). */
  selfCollision: (body: number) => boolean;
}

/**
 * A cloud of `n` particles drawn one by one by `draw`, split into contiguous bodies, with a bond
 * between particles 2k and 2k + 1 of the same body.
 */
function bondedCloud(
  n: number,
  options: CloudBodies & { draw: () => { particle: Particle; radius: number } },
): ContactCloud {
  const particles: Particle[] = [];
  const radius: number[] = [];
  const body: number[] = [];
  for (let i = 0; i < n; i++) {
    const { particle, radius: r } = options.draw();
    particles.push(particle);
    radius.push(r);
    body.push(Math.floor((options.bodies * i) / n));
  }
  const bonded: Pair[] = [];
  for (let i = 0; i + 1 < n; i += 2) if (body[i] === body[i + 1]) bonded.push([i, i + 1]);
  return {
    n,
    particles,
    options: { radius, body, bonded, selfCollision: options.selfCollision },
  };
}

/**
 * A random cloud on the 1/64 lattice (collision rules exact in f32, as in f64): positions in
 * [0, side)/64 m, velocities in [−1, 1] m/s, masses 0.5..3 (f32), radii 3/64..6/64 m, bodies in
 * contiguous index ranges, bonds between same-body pairs (2k, 2k + 1).
 */
export function latticeCloud(rng: Rng, n: number, options: CloudBodies): ContactCloud {
  return bondedCloud(n, {
    ...options,
    draw: () => {
      const c = () => rng.int(0, options.side - 1) / LATTICE;
      const v = () => rng.int(-64, 64) / LATTICE;
      const particle = {
        mass: f32(rng.uniform(0.5, 3)),
        x: [c(), c(), c()] as Vec3,
        v: [v(), v(), v()] as Vec3,
      };
      return { particle, radius: rng.int(3, 6) / LATTICE };
    },
  });
}

/**
 * A random f32 cloud in [0, side)³ m: velocities in [−1, 1) m/s, unit masses, radii 0.04..0.08 m,
 * bodies in contiguous index ranges, bonds between same-body pairs (2k, 2k + 1).
 */
export function uniformCloud(rng: Rng, n: number, options: CloudBodies): ContactCloud {
  return bondedCloud(n, {
    ...options,
    draw: () => {
      const c = () => f32(rng.uniform(0, options.side));
      const v = () => f32(rng.uniform(-1, 1));
      const particle = { mass: 1, x: [c(), c(), c()] as Vec3, v: [v(), v(), v()] as Vec3 };
      return { particle, radius: f32(rng.uniform(0.04, 0.08)) };
    },
  });
}

/**
 * `count` isolated pairs of radius 0.3 m on a 2 m grid in z = 0, each hitting head-on-ish: the
 * first at a grid point moving +x, the second 0.5 m along x (jittered on the lattice in y, z)
 * moving −x, masses 0.2..5 (f32). `afterPair` runs after each pair's draws (to draw more per
 * pair from the same `rng`).
 */
export function isolatedPairs(
  rng: Rng,
  count: number,
  options: { afterPair?: (pair: number) => void } = {},
): ContactCloud {
  const particles: Particle[] = [];
  const radius: number[] = [];
  for (let p = 0; p < count; p++) {
    const o: Vec3 = [2 * (p % 10), 2 * Math.floor(p / 10), 0];
    const m = () => f32(rng.uniform(0.2, 5));
    const jitter = () => rng.int(-8, 8) / LATTICE;
    const v = () => rng.int(-32, 32) / LATTICE;
    particles.push({ mass: m(), x: o, v: [1, v(), v()] });
    particles.push({
      mass: m(),
      x: [o[0] + 0.5, o[1] + jitter(), o[2] + jitter()],
      v: [-1, v(), v()],
    });
    radius.push(0.3, 0.3);
    options.afterPair?.(p);
  }
  return { n: 2 * count, particles, options: { radius } };
}

/** The contact partners of each of the cloud's particles (f64 `findContacts`), ascending. */
export function contactLists(cloud: ContactCloud): number[][] {
  const lists: number[][] = Array.from({ length: cloud.n }, () => []);
  for (const [i, j] of findContacts(cloud.particles, cloud.options)) {
    lists[i].push(j);
    lists[j].push(i);
  }
  return lists;
}

/**
 * Contact slots of `maxPerParticle` entries per particle for `capacity` particles, partners
 * ascending, and the count per particle (particles past `lists` have none); asserts that no
 * particle has more than `maxPerParticle` contacts.
 */
export function contactSlots(
  lists: readonly (readonly number[])[],
  options: { capacity: number; maxPerParticle: number },
): { slots: Uint32Array<ArrayBuffer>; counts: Uint32Array<ArrayBuffer>; maxCount: number } {
  const k = options.maxPerParticle;
  const slots = new Uint32Array(options.capacity * k);
  const counts = new Uint32Array(options.capacity);
  lists.forEach((l, i) => {
    assert.ok(l.length <= k, `particle ${i} has ${l.length} contacts > K = ${k}`);
    slots.set([...l].sort((a, b) => a - b), i * k);
    counts[i] = l.length;
  });
  return { slots, counts, maxCount: Math.max(0, ...lists.map((l) => l.length)) };
}

/** How many of `pairs` each particle is in (particles in none are absent). */
export function pairCounts(pairs: Iterable<Pair>): Map<number, number> {
  const hits = new Map<number, number>();
  for (const [i, j] of pairs) {
    hits.set(i, (hits.get(i) ?? 0) + 1);
    hits.set(j, (hits.get(j) ?? 0) + 1);
  }
  return hits;
}

/**
 * The cloud packed for `capacity` particles: `pos` (xyz, w the radius), `vel` (xyz, w = i + 0.5
 * with `markVelocity`, which a kernel must copy, else 0) and `mass`.
 */
function packCloud(
  cloud: ContactCloud,
  options: { capacity: number; markVelocity?: boolean },
): {
  pos: Float32Array<ArrayBuffer>;
  vel: Float32Array<ArrayBuffer>;
  mass: Float32Array<ArrayBuffer>;
} {
  const cap = options.capacity;
  const pos = new Float32Array(4 * cap);
  const vel = new Float32Array(4 * cap);
  const mass = new Float32Array(cap);
  cloud.particles.forEach((p, i) => {
    pos.set([...p.x, cloud.options.radius[i]], 4 * i);
    vel.set([...p.v, options.markVelocity ? i + 0.5 : 0], 4 * i);
    mass[i] = p.mass;
  });
  return { pos, vel, mass };
}

/** The xyz of vec4 `i` of `out`. */
export const velOf = (out: Float32Array, i: number): Vec3 => [
  out[4 * i],
  out[4 * i + 1],
  out[4 * i + 2],
];

/** Buffers a test uploads, runs one pass on and reads back, then destroys. */
export interface TestBuffers {
  /**
   * A storage buffer (copy source and destination) labelled `test <label>` holding `data`, of
   * `size` bytes (default the data's, at least 16).
   */
  upload(label: string, data: ArrayBufferView<ArrayBuffer>, size?: number): GPUBuffer;
  /**
   * Encodes `encode`, copies the first `bytes` of `result` to a readback buffer in the same
   * submission, reads them and destroys every buffer this fixture created.
   */
  run(
    encode: (enc: GPUCommandEncoder) => void,
    options: { result: GPUBuffer; bytes: number; label: string },
  ): Promise<Float32Array>;
}

/** A {@link TestBuffers} on `device`. */
export function testBuffers(device: GPUDevice): TestBuffers {
  const created: GPUBuffer[] = [];
  return {
    upload(label, data, size = data.byteLength) {
      const b = device.createBuffer({
        label: `test ${label}`,
        size: Math.max(16, size),
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
      });
      device.queue.writeBuffer(b, 0, data);
      created.push(b);
      return b;
    },
    async run(encode, options) {
      const rb = device.createBuffer({
        label: "test readback",
        size: options.bytes,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      });
      created.push(rb);
      const enc = device.createCommandEncoder({ label: options.label });
      encode(enc);
      enc.copyBufferToBuffer(options.result, 0, rb, 0, options.bytes);
      device.queue.submit([enc.finish()]);
      await rb.mapAsync(GPUMapMode.READ);
      const out = new Float32Array(rb.getMappedRange().slice(0));
      rb.unmap();
      for (const b of created) b.destroy();
      return out;
    },
  };
}

/** The buffers {@link uploadContactCloud} uploads. */
export interface ContactCloudBuffers {
  /** xyz: position, w: radius (`array<vec4f>`). */
  pos: GPUBuffer;
  /** xyz: velocity, w: i + 0.5 with `markVelocity`, else 0 (`array<vec4f>`). */
  vel: GPUBuffer;
  mass: GPUBuffer;
  /** Contact slots, `maxPerParticle` per particle (`array<u32>`), and the count per particle. */
  contacts: GPUBuffer;
  contactCount: GPUBuffer;
}

/**
 * Uploads the cloud ({@link packCloud}) and its contact slots ({@link contactSlots}; by default
 * from {@link contactLists}) through `buffers`, sized for a handler of `capacity` particles.
 */
export function uploadContactCloud(
  buffers: TestBuffers,
  cloud: ContactCloud,
  options: {
    capacity: number;
    maxPerParticle: number;
    markVelocity?: boolean;
    lists?: readonly (readonly number[])[];
  },
): ContactCloudBuffers {
  const { pos, vel, mass } = packCloud(cloud, options);
  const { slots, counts } = contactSlots(options.lists ?? contactLists(cloud), options);
  return {
    pos: buffers.upload("pos", pos),
    vel: buffers.upload("vel", vel),
    mass: buffers.upload("mass", mass),
    contacts: buffers.upload("contacts", slots),
    contactCount: buffers.upload("contactCount", counts),
  };
}

/**
 * Plain storage buffers labelled `test <name>`, one per entry of `sizes` (bytes): for the tests
 * of argument errors in `bind`.
 */
export function storageBuffers<K extends string>(
  device: GPUDevice,
  sizes: Record<K, number>,
): Record<K, GPUBuffer> {
  const out = {} as Record<K, GPUBuffer>;
  for (const name of Object.keys(sizes) as K[]) {
    out[name] = device.createBuffer({
      label: `test ${name}`,
      size: sizes[name],
      usage: GPUBufferUsage.STORAGE,
    });
  }
  return out;
}
