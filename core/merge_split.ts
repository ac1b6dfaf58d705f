/**
 * Particle merging-and-splitting: the f64 reference of paper §3–§4 (Eqs. 1–16 and 20).
 *
 * Merging (Eqs. 1–5) replaces two colliding particles by one meta-particle with their total
 * mass, centre of mass and momentum, and stores the kinetic energy lost by this inelastic
 * merge, ΔE (Eq. 4), in a virtual bond. During the step the constituents follow the meta
 * rigidly (Eqs. 6–7). Splitting (Eqs. 8–16, with Eq. 20 when two integrators were coupled)
 * returns momentum-conserving velocities that restore αΔE + βΔĒk of kinetic energy and always
 * separate the pair (Eq. 14).
 *
 * More than two particles merge recursively; {@link mergeAll} folds left in array order and
 * {@link splitAll} splits in the reverse order of merging (end of paper §3).
 *
 * @module
 */
import { MERGE_SPLIT_SCHEMA } from "./handler_schemas/merge_split_schema.ts";
import { assertInRange, assertParticle, type Particle } from "./particle.ts";
import { add, addScaled, assertVec3, dot, norm, norm2, scale, sub, type Vec3 } from "./vec3.ts";

/** A meta-particle: two merged nodes (particles or meta-particles), itself a particle. */
export interface MetaParticle extends Particle {
  /** m12 = m1 + m2 (Eq. 1). */
  readonly mass: number;
  /** x12 = (m1 x1 + m2 x2) / m12 (Eq. 2). */
  readonly x: Vec3;
  /** v12 = (m1 v1 + m2 v2) / m12 (Eq. 3). */
  readonly v: Vec3;
  /** ΔE = m1 m2 / (2 m12) · (v1 − v2)², the energy stored in the virtual bond (Eq. 4). */
  readonly deltaE: number;
  /** n = x2 − x1, from the first child's centre to the second's at merge time (Eq. 5). */
  readonly n: Vec3;
  /**
   * The collision direction n̂ used by the split (Eq. 12): of the vector between the two colliding
   * particles (Eq. 5), n / |n| where a and b are those particles themselves. When it is zero it
   * falls back to the direction of v1 − v2 (along which the pair
   * approaches), then to +x; this case is outside the paper, which assumes |n| > 0.
   */
  readonly nHat: Vec3;
  /** The merged nodes, first (a) and second (b). */
  readonly children: readonly [MergeNode, MergeNode];
}

/** A node of a merge tree: a particle or a meta-particle. */
export type MergeNode = Particle | MetaParticle;

/** True when `node` is a meta-particle (has children). */
export function isMeta(node: MergeNode): node is MetaParticle {
  return "children" in node;
}

/** Options of {@link split} and {@link splitAll}. */
export interface SplitOptions {
  /** Restitution of the merge energy ΔE, α ∈ [0, 1] (Eq. 9); default and range: `MERGE_SPLIT_SCHEMA` (1). */
  alpha?: number;
  /** Restored fraction of the synchronisation energy ΔĒk, β ∈ [0, 1] (Eq. 20); default: `MERGE_SPLIT_SCHEMA` (0). */
  beta?: number;
  /** ΔĒk of Eq. 19 stored in this meta's bond by velocity synchronisation. Default 0. */
  deltaEk?: number;
}

/** Which solution of the split was taken. */
export type SplitBranch = "root" | "closest";

/** The full result of one split (Eqs. 10–16). */
export interface SplitResult {
  /** v1′, the first child's velocity. */
  v1: Vec3;
  /** v2′ = (m12 v12′ − m1 v1′) / m2, from momentum conservation (Eq. 8). */
  v2: Vec3;
  /** μ of Eq. 12. */
  mu: number;
  /** ε of Eq. 12 (zero on the root branch, Eq. 16 on the closest-point branch). */
  epsilon: Vec3;
  /** s of Eqs. 11/20: the radius of the sphere of valid v1′. */
  s: number;
  /** `root`: smaller real root of Eq. 13 with ε = 0; `closest`: Eqs. 15–16. */
  branch: SplitBranch;
}

/**
 * Merges two particles (or meta-particles) into a meta-particle (Eqs. 1–5). `n` is Eq. 5's
 * vector, from a's colliding particle to b's, whose direction n̂ the split takes; absent, from a's
 * centre to b's (two particles: the same). The meta's `n` is always the centres' (Eqs. 6–7).
 *
 * Momentum is conserved exactly; the kinetic energy lost, ΔE (Eq. 4), is kept in `deltaE`.
 */
export function merge(a: MergeNode, b: MergeNode, n?: Vec3): MetaParticle {
  assertParticle(a, "a");
  assertParticle(b, "b");
  if (n !== undefined) assertVec3(n, "n");
  const m1 = a.mass;
  const m2 = b.mass;
  const m12 = m1 + m2; // Eq. 1
  const x = scale(add(scale(a.x, m1), scale(b.x, m2)), 1 / m12); // Eq. 2
  const v = scale(add(scale(a.v, m1), scale(b.v, m2)), 1 / m12); // Eq. 3
  const dv = sub(a.v, b.v);
  const deltaE = (m1 * m2 / (2 * m12)) * norm2(dv); // Eq. 4
  const centres = sub(b.x, a.x); // Eqs. 6–7 recover the positions along it
  // Eq. 5's direction: "the vector connecting the centers of the two colliding particles", given
  // where a and b collide through particles of theirs (mergeAlongPairs), else their centres'
  const nHat = collisionDirection(n ?? centres, dv);
  return { mass: m12, x, v, deltaE, n: centres, nHat, children: [a, b] };
}

function collisionDirection(n: Vec3, v1MinusV2: Vec3): Vec3 {
  return unitOrNull(n) ?? unitOrNull(v1MinusV2) ?? [1, 0, 0];
}

/** a / |a|, computed after scaling by the largest component so that tiny vectors survive. */
function unitOrNull(a: Vec3): Vec3 | null {
  const big = Math.max(Math.abs(a[0]), Math.abs(a[1]), Math.abs(a[2]));
  if (!(big > 0)) return null;
  const b: Vec3 = [a[0] / big, a[1] / big, a[2] / big];
  return scale(b, 1 / norm(b));
}

/**
 * Splits a meta-particle into its two children's velocities (Eqs. 8–16, 20).
 *
 * With ε = 0 the smaller real root μ of Eq. 13 is taken; when Eq. 13 has no real root the
 * closest point of the line v1 + μn̂ to the sphere of Eq. 10 is used (Eqs. 15–16). Either way
 * momentum (Eq. 8) and energy (Eq. 9 with αΔE + βΔĒk) are conserved and the result separates
 * the pair, (v2′ − v1′)·n̂ ≥ 0 (Eq. 14).
 *
 * @param meta the meta-particle from {@link merge}
 * @param vAfter v12′, the meta's velocity at the end of the step
 * @returns `[v1′, v2′]` for `meta.children[0]` and `meta.children[1]`
 */
export function split(meta: MetaParticle, vAfter: Vec3, options: SplitOptions = {}): [Vec3, Vec3] {
  const r = splitDetailed(meta, vAfter, options);
  return [r.v1, r.v2];
}

/** {@link split} with μ, ε, s and the branch taken (for tests and diagnostics). */
export function splitDetailed(
  meta: MetaParticle,
  vAfter: Vec3,
  options: SplitOptions = {},
): SplitResult {
  if (typeof meta !== "object" || meta === null || !isMeta(meta)) {
    throw new TypeError("meta must be a meta-particle returned by merge(a, b)");
  }
  assertVec3(vAfter, "vAfter");
  const { alpha, beta, deltaEk } = resolveSplitOptions(options);
  const [a, b] = meta.children;
  const m1 = a.mass;
  const m2 = b.mass;
  const m12 = meta.mass;
  const v1 = a.v;
  const nHat = meta.nHat;
  // Eqs. 11 / 20: s² = 2(αΔE + βΔĒk) / (m12 · m1/m2).
  const s2 = Math.max(0, 2 * (alpha * meta.deltaE + beta * deltaEk) / (m12 * (m1 / m2)));
  const s = Math.sqrt(s2);
  const d = sub(vAfter, v1); // v12′ − v1
  const bCoef = dot(nHat, d); // half the linear coefficient of Eq. 13 (ε = 0)
  const w = addScaled(d, nHat, -bCoef); // w = v12′ − v1 − (n̂·(v12′ − v1)) n̂, orthogonal to n̂
  // Discriminant of Eq. 13, b² − (|d|² − s²), written as s² − |w|² since |d|² = b² + |w|²:
  // the same value without the cancellation of two large terms.
  const disc = s2 - norm2(w);
  // v1′ is computed as v12′ + u with u = v1′ − v12′, the point on the sphere of Eq. 10 (radius s
  // around v12′). Substituting Eq. 12 gives u = −w − √disc n̂ on the root branch and
  // u = −(s/|w|) w on the closest-point branch (Eqs. 15–16): the same v1′ as v1 + μn̂ + ε, but
  // free of the rounding of v1 + μn̂ that Eq. 8 would amplify by m1/m2.
  let mu: number;
  let epsilon: Vec3;
  let u: Vec3;
  let branch: SplitBranch;
  if (disc >= 0) {
    const root = Math.sqrt(disc);
    mu = bCoef - root; // the smaller root of Eq. 13
    epsilon = [0, 0, 0];
    u = addScaled(scale(w, -1), nHat, -root);
    branch = "root";
  } else {
    mu = bCoef; // Eq. 15
    const wLen = norm(w); // > s ≥ 0 whenever disc < 0
    epsilon = scale(w, (wLen - s) / wLen); // Eq. 16
    u = scale(w, -s / wLen);
    branch = "closest";
  }
  // |u| = s (Eq. 10) to round-off: in exact arithmetic a no-op; the f32 kernel needs it (w keeps a
  // component along n̂ of about ε|v12′ − v1|, which the root branch turns into an energy error),
  // and the reference does the same.
  const uLen = norm(u);
  if (uLen > 0) u = scale(u, s / uLen);
  const v1p = add(vAfter, u); // = v1 + μn̂ + ε (Eq. 12)
  // Eq. 8: m1 v1′ + m2 v2′ = m12 v12′, i.e. v2′ = v12′ − (m1/m2) u.
  const v2p = addScaled(vAfter, u, -m1 / m2);
  return { v1: v1p, v2: v2p, mu, epsilon, s, branch };
}

function resolveSplitOptions(options: SplitOptions): Required<SplitOptions> {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`options must be an object { alpha?, beta?, deltaEk? }, got ${options}`);
  }
  const { alpha: a, beta: b } = MERGE_SPLIT_SCHEMA;
  const alpha = options.alpha ?? a.default;
  const beta = options.beta ?? b.default;
  const deltaEk = options.deltaEk ?? 0;
  assertInRange(alpha, "options.alpha", { lo: a.min, hi: a.max });
  assertInRange(beta, "options.beta", { lo: b.min, hi: b.max });
  assertInRange(deltaEk, "options.deltaEk", { lo: 0, hi: Number.MAX_VALUE });
  return { alpha, beta, deltaEk };
}

/**
 * Recursively merges particles as a left fold in array order, (((p0+p1)+p2)+…) (paper §3,
 * "we recursively merge these particles into larger meta-particles").
 *
 * @returns the root of the merge tree; the particle itself when there is only one.
 */
export function mergeAll(particles: readonly Particle[]): MergeNode {
  if (!Array.isArray(particles) || particles.length === 0) {
    throw new RangeError("particles must be a non-empty array of particles");
  }
  particles.forEach((p, i) => assertParticle(p, `particles[${i}]`));
  let node: MergeNode = particles[0];
  for (let i = 1; i < particles.length; i++) node = merge(node, particles[i]);
  return node;
}

/**
 * Merges particles as a left fold in array order, (((p0+p1)+p2)+…), each along a colliding pair
 * (§5.2: "we merge colliding particle pairs recursively"): particle k (k ≥ 1) joins the meta of
 * the particles before it through its colliding partner `via[k]` (< k, an index into
 * `particles`), and Eq. 5's n is "the vector connecting the centers of the two colliding
 * particles", x_k − x_via[k]. A `via[k]` of −1 (no partner known) takes n from the meta's centre,
 * as {@link mergeAll}. `via[0]` is not read.
 */
export function mergeAlongPairs(particles: readonly Particle[], via: ArrayLike<number>): MergeNode {
  if (!Array.isArray(particles) || particles.length === 0) {
    throw new RangeError("particles must be a non-empty array of particles");
  }
  particles.forEach((p, i) => assertParticle(p, `particles[${i}]`));
  let node: MergeNode = particles[0];
  for (let k = 1; k < particles.length; k++) {
    const j = via[k];
    if (!(Number.isInteger(j) && j >= -1 && j < k)) {
      throw new RangeError(
        `via[${k}] must be a particle merged before it (0..${k - 1}) or -1, got ${j}`,
      );
    }
    node = merge(node, particles[k], j < 0 ? undefined : sub(particles[k].x, particles[j].x));
  }
  return node;
}

/**
 * Splits a merge tree in the reverse order of merging and returns every particle's final
 * velocity, in the order of the tree's leaves (the array order given to {@link mergeAll}).
 *
 * `onSplit` sees each pairwise split's {@link SplitResult} (its branch: ε ≠ 0 on `closest`).
 *
 * α applies to every bond. ΔĒk (and β) apply to the root bond only: velocity
 * synchronisation (Eqs. 17–19) stores ΔĒk in "the virtual bond of the meta-particle" — the
 * outermost one — and that energy is restored by the first split.
 */
export function splitAll(
  tree: MergeNode,
  vAfter: Vec3,
  options: SplitOptions & { onSplit?: (r: SplitResult) => void } = {},
): Vec3[] {
  assertVec3(vAfter, "vAfter");
  const { alpha, beta, deltaEk } = resolveSplitOptions(options);
  const out: Vec3[] = [];
  const visit = (node: MergeNode, v: Vec3, root: boolean): void => {
    if (!isMeta(node)) {
      out.push(v);
      return;
    }
    const r = splitDetailed(node, v, root ? { alpha, beta, deltaEk } : { alpha });
    options.onSplit?.(r);
    const [v1, v2] = [r.v1, r.v2];
    visit(node.children[0], v1, false);
    visit(node.children[1], v2, false);
  };
  visit(tree, vAfter, true);
  return out;
}

/**
 * Positions of a merge tree's leaves when its meta-particle has moved to `xAfter`: the
 * constituents follow the meta rigidly, x1′ = x12′ − (m2/m12) n and x2′ = x12′ + (m1/m12) n
 * (Eqs. 6–7), applied recursively; equivalently x_i′ = x_i + (x12′ − x12).
 */
export function followMeta(tree: MergeNode, xAfter: Vec3): Vec3[] {
  assertVec3(xAfter, "xAfter");
  const out: Vec3[] = [];
  const visit = (node: MergeNode, x: Vec3): void => {
    if (!isMeta(node)) {
      out.push(x);
      return;
    }
    const [a, b] = node.children;
    visit(a, addScaled(x, node.n, -b.mass / node.mass)); // Eq. 6
    visit(b, addScaled(x, node.n, a.mass / node.mass)); // Eq. 7
  };
  visit(tree, xAfter);
  return out;
}

/** The leaves of a merge tree in merge order. */
export function leaves(tree: MergeNode): Particle[] {
  const out: Particle[] = [];
  const visit = (node: MergeNode): void => {
    if (isMeta(node)) {
      visit(node.children[0]);
      visit(node.children[1]);
    } else out.push(node);
  };
  visit(tree);
  return out;
}

/** The sum of ΔE over every bond of a merge tree. */
export function totalBondEnergy(tree: MergeNode): number {
  return isMeta(tree)
    ? tree.deltaE + totalBondEnergy(tree.children[0]) + totalBondEnergy(tree.children[1])
    : 0;
}
