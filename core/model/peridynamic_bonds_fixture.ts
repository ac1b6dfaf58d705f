/**
 * Particle lattices and random block scenes of several bodies for the tests of peridynamic bonds
 * and of the f64 peridynamics reference.
 *
 * @module
 */
import fc from "fast-check";
import { Rng } from "../rng.ts";

/** An nx × ny × nz simple cubic lattice (x fastest), jittered by ±jitter·h with a seeded Rng. */
export function lattice(
  dims: readonly [number, number, number],
  h: number,
  options: { jitter?: number; seed?: number } = {},
): Float64Array {
  const [nx, ny, nz] = dims;
  const rng = new Rng(options.seed ?? 1);
  const j = options.jitter ?? 0;
  const out = new Float64Array(3 * nx * ny * nz);
  let k = 0;
  for (let z = 0; z < nz; z++) {
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++) {
        out[k++] = (x + j * rng.uniform(-1, 1)) * h;
        out[k++] = (y + j * rng.uniform(-1, 1)) * h;
        out[k++] = (z + j * rng.uniform(-1, 1)) * h;
      }
    }
  }
  return out;
}

/** Random block scenes: a jittered lattice split into 1–3 bodies, with a horizon of 1–3.2 h. */
export const sceneArb: fc.Arbitrary<SceneParams> = fc.record({
  nx: fc.integer({ min: 2, max: 5 }),
  ny: fc.integer({ min: 2, max: 5 }),
  nz: fc.integer({ min: 1, max: 4 }),
  h: fc.double({ min: 0.01, max: 2, noNaN: true }),
  ratio: fc.double({ min: 1, max: 3.2, noNaN: true }),
  jitter: fc.double({ min: 0, max: 0.2, noNaN: true }),
  bodies: fc.integer({ min: 1, max: 3 }),
  seed: fc.integer({ min: 0, max: 0xffffffff }),
});

/** The parameters of a random block scene ({@link sceneArb}). */
export interface SceneParams {
  nx: number;
  ny: number;
  nz: number;
  h: number;
  ratio: number;
  jitter: number;
  bodies: number;
  seed: number;
}

/**
 * The scene of `p`: a jittered lattice, a body per particle, a horizon, a micromodulus per body and
 * a volume per particle, and the Rng that drew them.
 */
export function makeScene(p: SceneParams): {
  x: Float64Array;
  n: number;
  body: Uint32Array;
  horizon: number[];
  micro: number[];
  volume: Float64Array;
  rng: Rng;
} {
  const x = lattice([p.nx, p.ny, p.nz], p.h, { jitter: p.jitter, seed: p.seed });
  const n = x.length / 3;
  const rng = new Rng(p.seed, { stream: 3 });
  const body = Uint32Array.from({ length: n }, () => rng.int(0, p.bodies - 1));
  const horizon = Array.from({ length: p.bodies }, (_, b) => p.ratio * p.h * (1 + 0.1 * b));
  const micro = Array.from({ length: p.bodies }, (_, b) => 1e3 * (1 + b));
  const volume = Float64Array.from({ length: n }, () => p.h ** 3 * rng.uniform(0.5, 1.5));
  return { x, n, body, horizon, micro, volume, rng };
}
