/**
 * Collision detection rules of paper §5.1 (Eqs. 21–22) and a brute-force O(N²) reference
 * detector that every GPU detector is tested against.
 *
 * @module
 */
import { assertParticle, assertPositive, type Particle } from "../particle.ts";
import { dot, norm2, sub } from "../vec3.ts";

/** The outcome of testing one pair with Collision Rules 1 and 2. */
export interface CollisionTest {
  /** Rule 1: |x2 − x1| < r1 + r2 (Eq. 21). */
  intersect: boolean;
  /** Rule 2: n · (v2 − v1) < 0 with n = x2 − x1 (Eq. 22). */
  approaching: boolean;
  /** Both rules hold: the pair is merged in stage 1. */
  collide: boolean;
  /**
   * Intersecting but separating: not merged in stage 1, merged in stage 2 if the pair
   * approaches at the end of stage 1 (two-stage integration, §5.1).
   */
  marked: boolean;
}

/**
 * Applies Collision Rules 1 and 2 (Eqs. 21–22) to a pair of particles with collision radii.
 */
export function collides(p1: Particle, r1: number, p2: Particle, r2: number): CollisionTest {
  assertParticle(p1, "p1");
  assertPositive(r1, "r1");
  assertParticle(p2, "p2");
  assertPositive(r2, "r2");
  const n = sub(p2.x, p1.x);
  const intersect = norm2(n) < (r1 + r2) * (r1 + r2); // Eq. 21
  const approaching = dot(n, sub(p2.v, p1.v)) < 0; // Eq. 22
  return {
    intersect,
    approaching,
    collide: intersect && approaching,
    marked: intersect && !approaching,
  };
}

/** An unordered particle pair as [i, j] with i < j. */
export type Pair = readonly [number, number];

/** A key for an unordered pair, for sets of bonded pairs. */
export function pairKey(i: number, j: number): string {
  return i < j ? `${i},${j}` : `${j},${i}`;
}

/** Options of {@link findCollisions}. */
export interface FindCollisionsOptions {
  /** Collision radius per particle, or one radius for all. */
  radius: number | ArrayLike<number>;
  /**
   * Pairs joined by a spring or bond: never collisions (paper §5.1, last paragraph), whether
   * or not they intersect.
   */
  bonded?: Iterable<Pair>;
  /** Body id per particle; with `selfCollision`, decides which same-body pairs are tested. */
  body?: ArrayLike<number>;
  /**
   * Whether two particles of the same body may collide (default: true for every body, as in
   * the paper, where solids collide with themselves except across springs). Return false for
   * bodies whose own solver handles their internal interactions (e.g. SPH fluid).
   */
  selfCollision?: (body: number) => boolean;
}

/** Colliding and marked pairs, each sorted lexicographically by (i, j), i < j. */
export interface CollisionPairs {
  pairs: Pair[];
  marked: Pair[];
}

/**
 * Finds all colliding and marked pairs by testing every pair (O(N²)); the reference for the
 * grid-accelerated GPU detector.
 */
export function findCollisions(
  particles: readonly Particle[],
  options: FindCollisionsOptions,
): CollisionPairs {
  if (!Array.isArray(particles)) throw new TypeError("particles must be an array of particles");
  const n = particles.length;
  const radius = (i: number): number =>
    typeof options.radius === "number" ? options.radius : options.radius[i];
  for (let i = 0; i < n; i++) {
    assertParticle(particles[i], `particles[${i}]`);
    assertPositive(radius(i), `options.radius[${i}]`);
  }
  if (options.body !== undefined && options.body.length !== n) {
    throw new RangeError(`options.body has ${options.body.length} entries for ${n} particles`);
  }
  const bonded = new Set<string>();
  for (const [i, j] of options.bonded ?? []) bonded.add(pairKey(i, j));
  const pairs: Pair[] = [];
  const marked: Pair[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (options.body && options.selfCollision && options.body[i] === options.body[j]) {
        if (!options.selfCollision(options.body[i])) continue;
      }
      if (bonded.has(pairKey(i, j))) continue;
      const t = collides(particles[i], radius(i), particles[j], radius(j));
      if (t.collide) pairs.push([i, j]);
      else if (t.marked) marked.push([i, j]);
    }
  }
  return { pairs, marked };
}
