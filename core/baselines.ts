/**
 * The collision-handling baselines that paper §6.1 compares merging-and-splitting with, as f64
 * references for the GPU kernels `gpu/handlers/penalty/penalty_force.ts`, `gpu/handlers/kernel-repulsion/kernel_repulsion.ts` and
 * `gpu/handlers/impulse/impulse.ts`. Brute force O(N²); the contact set is that of {@link findCollisions}
 * (Collision Rule 1, Eq. 21, minus bonded pairs and same-body pairs without self-collision).
 *
 * Formulas (x⃗_ij = x_i − x_j, d = |x⃗_ij|, n̂_ij = x⃗_ij / d points from j to i):
 *
 * - **Penalty force** (distance-based, paper refs [6] Terzopoulos et al. 1989, [8] Tonnesen
 *   1991): for every contact (d < r_i + r_j, not excluded, d > 0) a linear spring on the
 *   penetration depth δ = r_i + r_j − d plus an optional dashpot on the normal relative velocity
 *   v_n = (v_i − v_j) · n̂_ij, clamped so that it never pulls:
 *   f_ij = max(k δ − c v_n, 0) · n̂_ij, f_i = Σ_j f_ij. The scalar is symmetric in i and j and
 *   n̂_ji = −n̂_ij, so f_ji = −f_ij and Σ_i f_i = 0. k (N/m) is the stiffness, c (N·s/m) the
 *   damping (default 0). Coincident particles (d = 0) exert no force (no direction).
 * - **Kernel repulsion** (a smooth penalty shaped by the SPH spiky kernel; not the SPH-based
 *   coupling of the literature, which is Akinci et al. 2012 in `core/reference/akinci_reference.ts`: this
 *   force ignores the fluid's own density and pressure): between particles of
 *   different bodies within the SPH support h, the symmetric SPH pressure force with a constant
 *   pressure at the rest density ρ0, f_i = −Σ_{j: body_j ≠ body_i} k m_i m_j / ρ0² · ∇W(x⃗_ij, h)
 *   with the spiky kernel gradient ∇W(x⃗, h) = −45 / (π h⁶) (h − r)² x⃗ / r (Müller et al. 2003,
 *   Eq. 21), so f_i = Σ_j k m_i m_j / ρ0² · 45 / (π h⁶) (h − d)² n̂_ij, repulsive. k (Pa) is
 *   the contact pressure: the SPH pressure term m_i m_j (p_i/ρ_i² + p_j/ρ_j²) ∇W evaluated at
 *   ρ_i = ρ_j = ρ0 with p_i = p_j = k/2. Antisymmetric, so Σ_i f_i = 0.
 * - **Impulse-based collisions** (paper refs [39]–[43]; Hahn 1988, Mirtich & Canny 1995): for
 *   every contact whose particles approach (Rule 2, Eq. 22, with n̂ = (x_j − x_i)/d), the
 *   velocity change of a two-body collision with restitution e along n̂,
 *   Δv_i^j = (1 + e) m_j / (m_i + m_j) · ((v_j − v_i) · n̂) n̂, and
 *   v_i' = v_i + (1/a_i) Σ_j Δv_i^j with a_i the number of approaching contacts of i (Jacobi
 *   averaging, as in the constraint averaging of Macklin et al. 2014 "Unified particle
 *   physics"): every contact is resolved from the same pre-collision velocities, so summing the
 *   full corrections of simultaneous contacts over-corrects (a particle squeezed between two
 *   approaching ones would receive both full impulses); averaging keeps every update a convex
 *   combination of single-pair resolutions. An isolated pair (a_i = a_j = 1) conserves momentum
 *   exactly and, for e = 1 and equal masses, exchanges the normal velocities; with a_i ≠ a_j
 *   momentum is not exactly conserved. No position correction (paper §6.1).
 *
 * @module
 */
import {
  findCollisions,
  type FindCollisionsOptions,
  type Pair,
} from "./grouping/collision_rules.ts";
import { assertInRange, assertParticle, assertPositive, type Particle } from "./particle.ts";
import { add, addScaled, dot, norm, scale, sub, type Vec3, ZERO } from "./vec3.ts";

/** A particle with a collision radius, for the pairwise baseline formulas. */
export interface Sphere extends Particle {
  /** Collision radius r (> 0). */
  readonly radius: number;
}

/** Parameters of the penalty force. */
export interface PenaltyParams {
  /** Spring stiffness k (N/m, ≥ 0) on the penetration depth r_i + r_j − d. */
  stiffness: number;
  /** Dashpot coefficient c (N·s/m, ≥ 0) on the normal relative velocity; default 0. */
  damping?: number;
}

/** Options of {@link penaltyForces}: the contact set of {@link findCollisions} and the force. */
export interface PenaltyForcesOptions extends FindCollisionsOptions, PenaltyParams {}

/** Parameters of the kernel repulsion. */
export interface KernelRepulsionParams {
  /** SPH support radius h (m, > 0). */
  h: number;
  /** Rest density ρ0 (kg/m³, > 0). */
  rho0: number;
  /** Contact pressure k (Pa, ≥ 0): the pressure of the SPH pressure term at ρ0 (see module). */
  stiffness: number;
}

/** Options of {@link kernelRepulsionForces}. */
export interface KernelRepulsionForcesOptions extends KernelRepulsionParams {
  /** Body id per particle; only particles of different bodies interact. */
  body: ArrayLike<number>;
}

/** Parameters of the impulse-based collision response. */
export interface ImpulseParams {
  /** Coefficient of restitution e in [0, 1]: 1 elastic, 0 perfectly inelastic. */
  restitution: number;
}

/** Options of {@link impulseVelocities}: the contact set of {@link findCollisions} and e. */
export interface ImpulseVelocitiesOptions extends FindCollisionsOptions, ImpulseParams {}

function nonNegative(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`${name} must be a finite number >= 0, got ${value}`);
  }
  return value;
}

function assertSphere(s: unknown, name: string): asserts s is Sphere {
  assertParticle(s, name);
  assertPositive((s as Sphere).radius, `${name}.radius`);
}

function checkPenalty(params: PenaltyParams, name: string): { k: number; c: number } {
  if (!params) throw new TypeError(`${name} is required`);
  return {
    k: nonNegative(params.stiffness, `${name}.stiffness`),
    c: nonNegative(params.damping ?? 0, `${name}.damping`),
  };
}

function checkKernelRepulsion(params: KernelRepulsionParams, name: string): void {
  if (!params) throw new TypeError(`${name} is required`);
  assertPositive(params.h, `${name}.h`);
  assertPositive(params.rho0, `${name}.rho0`);
  nonNegative(params.stiffness, `${name}.stiffness`);
}

/**
 * Penalty force on `a` from `b` (paper refs [6], [8]): max(k δ − c v_n, 0) · n̂ with
 * δ = r_a + r_b − d, n̂ = (x_a − x_b)/d, v_n = (v_a − v_b) · n̂; zero unless the spheres
 * intersect (Rule 1, Eq. 21) and d > 0. Exclusions (bonds, bodies) are the caller's.
 */
export function penaltyPairForce(a: Sphere, b: Sphere, params: PenaltyParams): Vec3 {
  assertSphere(a, "a");
  assertSphere(b, "b");
  const { k, c } = checkPenalty(params, "params");
  const x = sub(a.x, b.x);
  const d = norm(x);
  const reach = a.radius + b.radius;
  if (!(d < reach) || d === 0) return ZERO;
  const n = scale(x, 1 / d);
  const vn = dot(sub(a.v, b.v), n);
  const s = k * (reach - d) - c * vn;
  return s > 0 ? scale(n, s) : ZERO;
}

/** Radius of particle i from a {@link FindCollisionsOptions} radius option. */
function radiusOf(radius: number | ArrayLike<number>, i: number): number {
  return typeof radius === "number" ? radius : radius[i];
}

/** Every contact (Rule 1, not excluded) as [i, j], i < j, sorted: pairs ∪ marked. */
export function findContacts(
  particles: readonly Particle[],
  options: FindCollisionsOptions,
): Pair[] {
  const { pairs, marked } = findCollisions(particles, options);
  return [...pairs, ...marked].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
}

/**
 * Penalty forces f_i = Σ_j f_ij over the contacts of i (see the module comment and
 * {@link penaltyPairForce}); Σ_i f_i = 0.
 */
export function penaltyForces(
  particles: readonly Particle[],
  options: PenaltyForcesOptions,
): Vec3[] {
  checkPenalty(options, "options");
  const force: Vec3[] = particles.map(() => ZERO);
  for (const [i, j] of findContacts(particles, options)) {
    const a = { ...particles[i], radius: radiusOf(options.radius, i) };
    const b = { ...particles[j], radius: radiusOf(options.radius, j) };
    const f = penaltyPairForce(a, b, options);
    force[i] = add(force[i], f);
    force[j] = sub(force[j], f);
  }
  return force;
}

/**
 * Kernel repulsion on `a` from `b`:
 * −k m_a m_b / ρ0² · ∇W_spiky(x_a − x_b, h) = k m_a m_b / ρ0² · 45/(π h⁶) (h − d)² n̂,
 * n̂ = (x_a − x_b)/d; zero for d ≥ h or d = 0. Body filtering is the caller's.
 */
export function kernelRepulsionPairForce(
  a: Particle,
  b: Particle,
  params: KernelRepulsionParams,
): Vec3 {
  assertParticle(a, "a");
  assertParticle(b, "b");
  checkKernelRepulsion(params, "params");
  const { h, rho0, stiffness } = params;
  const x = sub(a.x, b.x);
  const d = norm(x);
  if (!(d < h) || d === 0) return ZERO;
  const q = 1 - d / h;
  const grad = (45 / (Math.PI * h * h * h * h)) * q * q; // 45/(π h⁶) (h − d)²
  return scale(x, (stiffness * a.mass * b.mass / (rho0 * rho0)) * grad / d);
}

/**
 * Kernel repulsion forces f_i = Σ_{j: body_j ≠ body_i, d < h} (see {@link kernelRepulsionPairForce});
 * particles of the same body do not interact. Σ_i f_i = 0.
 */
export function kernelRepulsionForces(
  particles: readonly Particle[],
  options: KernelRepulsionForcesOptions,
): Vec3[] {
  if (!Array.isArray(particles)) throw new TypeError("particles must be an array of particles");
  checkKernelRepulsion(options, "options");
  const n = particles.length;
  if (!options.body || options.body.length !== n) {
    throw new RangeError(`options.body must have ${n} entries, got ${options.body?.length}`);
  }
  const force: Vec3[] = particles.map(() => ZERO);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (options.body[i] === options.body[j]) continue;
      const f = kernelRepulsionPairForce(particles[i], particles[j], options);
      force[i] = add(force[i], f);
      force[j] = sub(force[j], f);
    }
  }
  return force;
}

/**
 * Velocity change of `a` in a collision with `b` along n̂ = (x_b − x_a)/d (paper refs
 * [39]–[43]): (1 + e) m_b/(m_a + m_b) · ((v_b − v_a) · n̂) n̂ when the pair approaches
 * (Rule 2, Eq. 22), else zero. Rule 1 and exclusions are the caller's.
 */
export function impulsePairDelta(a: Particle, b: Particle, params: ImpulseParams): Vec3 {
  assertParticle(a, "a");
  assertParticle(b, "b");
  const e = params?.restitution;
  assertInRange(e, "params.restitution", { lo: 0, hi: 1 });
  const x = sub(b.x, a.x);
  const vn = dot(x, sub(b.v, a.v));
  const d = norm(x);
  if (!(vn < 0) || d === 0) return ZERO; // Eq. 22 fails (also d = 0)
  const n = scale(x, 1 / d);
  return scale(n, ((1 + e) * b.mass / (a.mass + b.mass)) * dot(n, sub(b.v, a.v)));
}

/**
 * Post-collision velocities of one Jacobi sweep of impulse-based collisions: v_i + the mean of
 * {@link impulsePairDelta} over the approaching contacts of i (the `pairs` of
 * {@link findCollisions}); particles without one keep their velocity.
 */
export function impulseVelocities(
  particles: readonly Particle[],
  options: ImpulseVelocitiesOptions,
): Vec3[] {
  assertInRange(options?.restitution, "options.restitution", { lo: 0, hi: 1 });
  const sum: Vec3[] = particles.map(() => ZERO);
  const count = new Array<number>(particles.length).fill(0);
  for (const [i, j] of findCollisions(particles, options).pairs) {
    sum[i] = add(sum[i], impulsePairDelta(particles[i], particles[j], options));
    sum[j] = add(sum[j], impulsePairDelta(particles[j], particles[i], options));
    count[i]++;
    count[j]++;
  }
  return particles.map((p, i) => (count[i] > 0 ? addScaled(p.v, sum[i], 1 / count[i]) : p.v));
}
