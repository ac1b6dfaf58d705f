/**
 * Turns a validated {@link Scene} into particle arrays (structure of arrays, f64) and the
 * springs of its cloths: the initial state every system and handler starts from.
 *
 * @module
 */
import { buildClothSprings, type Spring } from "./cloth_reference.ts";
import { Rng } from "./rng.ts";
import type { Body, ClothBody, FluidBody, Scene } from "./scene.ts";

/** Which system integrates a body's particles. */
export type SystemKind = "cloth" | "fluid";

/** A body's particles: `[start, start + count)` in the global arrays. */
export interface BodyRange {
  name: string;
  kind: SystemKind;
  start: number;
  count: number;
  /** For cloths: the grid, so particle (r, c) is `start + r * cols + c`. */
  rows?: number;
  cols?: number;
}

/** The initial particle state of a scene. */
export interface ParticleSet {
  count: number;
  /** Positions, xyz interleaved (3N). */
  x: Float64Array;
  /** Velocities, xyz interleaved (3N). */
  v: Float64Array;
  mass: Float64Array;
  /** Collision radius per particle. */
  radius: Float64Array;
  /** Body index per particle. */
  body: Uint32Array;
  /** 1 where the particle is pinned (fixed). */
  pinned: Uint8Array;
  bodies: BodyRange[];
  /** Springs of every cloth, in global particle indices. */
  springs: Spring[];
}

/** Lattice samples of a fluid body, jittered with the scene's seeded RNG. */
export function sampleFluid(body: FluidBody, options: { seed: number; stream: number }): number[] {
  const s = body.spacing;
  const rng = new Rng(options.seed, { stream: options.stream });
  const pts: number[] = [];
  let min: [number, number, number];
  let max: [number, number, number];
  const sh = body.shape;
  if (sh.type === "box") {
    min = [...sh.min];
    max = [...sh.max];
  } else {
    min = [sh.base[0] - sh.radius, sh.base[1], sh.base[2] - sh.radius];
    max = [sh.base[0] + sh.radius, sh.base[1] + sh.height, sh.base[2] + sh.radius];
  }
  const n = [0, 1, 2].map((k) => Math.max(1, Math.floor((max[k] - min[k]) / s + 1e-9)));
  const off = [0, 1, 2].map((k) => min[k] + (max[k] - min[k] - (n[k] - 1) * s) / 2);
  for (let iy = 0; iy < n[1]; iy++) {
    for (let iz = 0; iz < n[2]; iz++) {
      for (let ix = 0; ix < n[0]; ix++) {
        const p = [off[0] + ix * s, off[1] + iy * s, off[2] + iz * s];
        if (sh.type === "cylinder") {
          const dx = p[0] - sh.base[0];
          const dz = p[2] - sh.base[2];
          if (dx * dx + dz * dz > sh.radius * sh.radius) continue;
        }
        for (let k = 0; k < 3; k++) p[k] += body.jitter * s * (2 * rng.nextFloat() - 1);
        pts.push(p[0], p[1], p[2]);
      }
    }
  }
  return pts;
}

function clothParticles(body: ClothBody): { x: number[]; pinned: number[] } {
  const x: number[] = [];
  const pinned: number[] = [];
  for (let r = 0; r < body.rows; r++) {
    for (let c = 0; c < body.cols; c++) {
      x.push(body.origin[0] + c * body.spacing, body.origin[1], body.origin[2] + r * body.spacing);
      const edge = r === 0 || c === 0 || r === body.rows - 1 || c === body.cols - 1;
      const corner = (r === 0 || r === body.rows - 1) && (c === 0 || c === body.cols - 1);
      pinned.push(body.pinned === "edges" ? +edge : body.pinned === "corners" ? +corner : 0);
    }
  }
  return { x, pinned };
}

/** Builds the particles and springs of a scene, bodies in scene order. */
export function buildParticles(scene: Scene): ParticleSet {
  const xs: number[] = [];
  const vs: number[] = [];
  const mass: number[] = [];
  const body: number[] = [];
  const pinned: number[] = [];
  const ranges: BodyRange[] = [];
  const springs: Spring[] = [];
  scene.bodies.forEach((b: Body, bi) => {
    const start = mass.length;
    if (b.kind === "cloth") {
      const c = clothParticles(b);
      xs.push(...c.x);
      pinned.push(...c.pinned);
      for (let k = 0; k < c.pinned.length; k++) vs.push(0, 0, 0);
      springs.push(...buildClothSprings({
        rows: b.rows,
        cols: b.cols,
        spacing: b.spacing,
        structural: b.stretch,
        shear: b.shear,
        bend: b.bend,
        damping: b.damping,
        first: start,
      }));
    } else {
      const pts = sampleFluid(b, { seed: scene.seed, stream: bi });
      xs.push(...pts);
      for (let k = 0; k < pts.length / 3; k++) {
        vs.push(...b.velocity);
        pinned.push(0);
      }
    }
    const count = xs.length / 3 - start;
    for (let k = 0; k < count; k++) {
      mass.push(b.particleMass);
      body.push(bi);
    }
    ranges.push({
      name: b.name,
      kind: b.kind,
      start,
      count,
      ...(b.kind === "cloth" ? { rows: b.rows, cols: b.cols } : {}),
    });
  });
  const n = mass.length;
  return {
    count: n,
    x: Float64Array.from(xs),
    v: Float64Array.from(vs),
    mass: Float64Array.from(mass),
    radius: new Float64Array(n).fill(scene.radius),
    body: Uint32Array.from(body),
    pinned: Uint8Array.from(pinned),
    bodies: ranges,
    springs,
  };
}
