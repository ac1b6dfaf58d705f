/**
 * Velocity projection, the fluid–solid penetration prevention of Gao et al. 2018 ("An efficient
 * FLIP and shape matching coupled method for fluid–solid and two-phase fluid simulations", The
 * Visual Computer; §5.2, Eqs. 19–20), as the f64 reference
 * of the `velocity-projection` baseline handler (`gpu/handlers/velocity-projection/`).
 *
 * The paper, after the positions and velocities are updated: for each fluid particle p and each
 * solid particle c colliding with it, v_rel = v_p − v_c; when v_rel · n_c < 0 (the fluid moves
 * into the solid) the fluid's normal relative velocity is removed,
 *
 *   v_p^new = v_p − (v_rel · n_c) n_c                                               (Eq. 19)
 *
 * and, "to conserve momentum", the solid receives the force f = m_p (v_rel · n_c) n_c / Δt
 * (Eq. 20), i.e. over the step the velocity change Δv_c = f Δt / m_c = (m_p/m_c)(v_rel · n_c) n_c.
 *
 * Generalised to particles (Collision Rules 1–2 of the merging-splitting paper, Eqs. 21–22): a
 * pair is **processed** when one particle is fluid (p, not pinned) and the other is not (c, of a
 * cloth or solid body), |x_p − x_c| < r_p + r_c (Rule 1), it is not excluded (bonds, bodies
 * without self-collision: {@link findCollisions}) and it approaches (Rule 2). The normal is the
 * unit vector from the solid particle to the fluid particle, n̂ = (x_p − x_c)/|x_p − x_c| (the
 * solid's outward normal n_c of the paper, for a solid sampled by particles); w = v_rel · n̂ < 0.
 * Fluid–fluid and solid–solid pairs are not touched (the fluid's own solver and another handler
 * deal with them).
 *
 * **Several contacts (a deterministic gather, no float atomics on the GPU).** Every processed pair
 * is resolved from the same velocities (a Jacobi sweep). With a_p the number of processed pairs of
 * fluid particle p:
 *
 *   v_p' = v_p − (1/a_p) Σ_c w_pc n̂_pc                        (mean of Eq. 19 over its contacts)
 *   v_c' = v_c + Σ_p (m_p / (a_p m_c)) w_pc n̂_pc             (sum of Eq. 20's momentum, Δt f / m_c)
 *
 * The fluid takes the mean of its projections (summing them would remove the normal velocity
 * once per contact, over-correcting a particle resting on several sheet particles; the mean is
 * the constraint averaging of Macklin et al. 2014, as in the impulse baseline), and each solid
 * particle receives exactly the momentum its fluid partners lost through it, so every pair's
 * momentum, and the total, is conserved for any contact counts. A pinned solid particle is
 * treated as infinitely heavy: the fluid is projected against it, it receives nothing. A pinned
 * fluid particle processes no pair.
 *
 * Consequences of the paper's one-sided scheme with a single particle as "the solid": after an
 * isolated pair is processed, the fluid moves with the solid's old normal velocity and the solid
 * recoils, so the pair separates at (m_p/m_c)·|w| — perfectly inelastic for m_c ≫ m_p (the
 * paper's case: a shape-matched body of many particles), an elastic exchange of the normal
 * velocities for equal masses, and a gain of kinetic energy when m_p > m_c. No position
 * correction.
 *
 * @module
 */
import { findCollisions, type FindCollisionsOptions } from "../grouping/collision_rules.ts";
import { assertParticle, type Particle } from "../particle.ts";
import { add, dot, scale, sub, type Vec3, ZERO } from "../vec3.ts";

/** Options of {@link velocityProjection}: the contact set of {@link findCollisions} and kinds. */
export interface VelocityProjectionOptions extends FindCollisionsOptions {
  /** Per particle: true for a particle of a fluid body, false for cloth or solid. */
  fluid: ArrayLike<boolean>;
  /** Per particle: true when pinned (infinitely heavy, its velocity never changes); default none. */
  pinned?: ArrayLike<boolean>;
}

/** One fluid–solid pair resolved by Eqs. 19–20 (see {@link projectionPair}). */
export interface ProjectionPair {
  /** Unit normal n̂ = (x_p − x_c)/|x_p − x_c|, from the solid particle to the fluid particle. */
  normal: Vec3;
  /** Normal relative velocity w = (v_p − v_c) · n̂ (< 0: approaching). */
  normalVelocity: number;
  /** Velocity change of the fluid particle, −w n̂ (Eq. 19). */
  fluid: Vec3;
  /** Velocity change of the solid particle, (m_p/m_c) w n̂ (Eq. 20 times Δt over m_c). */
  solid: Vec3;
}

/**
 * Eqs. 19–20 of Gao et al. 2018 for fluid particle `fluid` and solid particle `solid`: null unless
 * they approach (Rule 2, Eq. 22: (x_p − x_c) · (v_p − v_c) < 0, which also excludes coincident
 * particles). Rule 1, exclusions and the particles' kinds are the caller's.
 */
export function projectionPair(fluid: Particle, solid: Particle): ProjectionPair | null {
  assertParticle(fluid, "fluid");
  assertParticle(solid, "solid");
  const x = sub(fluid.x, solid.x);
  const rel = sub(fluid.v, solid.v);
  const big = Math.max(Math.abs(x[0]), Math.abs(x[1]), Math.abs(x[2]));
  if (!(dot(x, rel) < 0) || big === 0) return null; // Eq. 22 fails (also x = 0)
  // normalised through x / max|x_k|, so that tiny (even subnormal) distances give a unit normal
  const y: Vec3 = [x[0] / big, x[1] / big, x[2] / big];
  const d = Math.hypot(y[0], y[1], y[2]);
  const normal: Vec3 = [y[0] / d, y[1] / d, y[2] / d];
  const w = dot(rel, normal);
  return {
    normal,
    normalVelocity: w,
    fluid: scale(normal, -w),
    solid: scale(normal, (fluid.mass / solid.mass) * w),
  };
}

function flags(
  values: ArrayLike<boolean> | undefined,
  n: number,
  options: { name: string; required: boolean },
): boolean[] {
  const { name } = options;
  if (values == null && !options.required) return new Array<boolean>(n).fill(false);
  if (values == null || typeof values !== "object" || values.length !== n) {
    throw new RangeError(
      `${name} must have one boolean per particle (${n}), got ${
        values != null && typeof values === "object" ? `${values.length} entries` : String(values)
      }; pass an array of booleans`,
    );
  }
  return Array.from(values, (v) => v === true);
}

/**
 * The post-projection velocities of every particle: one Jacobi sweep of Eqs. 19–20 over the
 * processed fluid–solid pairs (see the module comment for which pairs, and how several contacts
 * of one particle combine). Particles in no processed pair keep their velocity.
 */
export function velocityProjection(
  particles: readonly Particle[],
  options: VelocityProjectionOptions,
): Vec3[] {
  if (!Array.isArray(particles)) throw new TypeError("particles must be an array of particles");
  if (!options) throw new TypeError("options are required: { radius, fluid, ... }");
  const n = particles.length;
  const fluid = flags(options.fluid, n, { name: "options.fluid", required: true });
  const pinned = flags(options.pinned, n, { name: "options.pinned", required: false });
  const processed: { p: number; c: number; pair: ProjectionPair }[] = [];
  const count = new Array<number>(n).fill(0);
  for (const [i, j] of findCollisions(particles, options).pairs) {
    if (fluid[i] === fluid[j]) continue; // fluid–fluid or solid–solid
    const [p, c] = fluid[i] ? [i, j] : [j, i];
    if (pinned[p]) continue;
    const pair = projectionPair(particles[p], particles[c]);
    if (!pair) continue;
    processed.push({ p, c, pair });
    count[p]++;
  }
  const dv: Vec3[] = particles.map(() => ZERO);
  for (const { p, c, pair } of processed) {
    dv[p] = add(dv[p], scale(pair.fluid, 1 / count[p]));
    if (!pinned[c]) dv[c] = add(dv[c], scale(pair.solid, 1 / count[p]));
  }
  return particles.map((q, i) => (dv[i] === ZERO ? q.v : add(q.v, dv[i])));
}
