/**
 * f64 reference of the FLIP density correction: a position-level correction, after advection, that
 * keeps every FLIP particle's density at or below its rest density, as position-based fluids do
 * (Macklin & Müller 2013, "Position based fluids", ACM TOG 32(4), Eqs. 1–11), restricted to
 * compression (a unilateral constraint: a free-surface particle that misses neighbours is not
 * pulled back, Macklin & Müller's tensile-instability remark, §4). It undoes FLIP's volume drift:
 * the MAC velocity that moves the particles is divergence-free on the grid but its trilinear
 * interpolation is not, so particles bunch below the cell scale and the fluid loses volume over
 * time (Kugelstadt et al. 2019, "Implicit density projection for volume conserving liquids", IEEE
 * TVCG 27(6), §1 and §3, who correct it on positions too, after advection, without touching the
 * velocities). `gpu/systems/flip/flip_density_correction.ts` is tested against it.
 *
 * Definitions (i, j FLIP particles, h the kernel support, W poly6 and ∇W the spiky gradient of
 * Müller et al. 2003 Eqs. 20–21, `core/model/sph_kernels.ts`):
 * - density ρ_i = Σ_j m_j W(|x_i − x_j|, h), j over the FLIP particles, i itself included;
 * - rest density ρ0_i: what ρ_i reads for an interior particle of the body's initial lattice,
 *   m_i Σ_{n ∈ ℤ³} W(|n| s, h) with s the body's spacing (`latticeRestDensity` of `core/model/sph_params.ts`): the body was
 *   built at rest, and the kernel sum is not the kernel integral (the same rest density the fluid
 *   metrics read, `gpu/metrics/fluid_metrics.ts`);
 * - constraint C_i = ρ_i / ρ0_i − 1 (Macklin & Müller Eq. 1), active only where C_i > 0;
 * - its gradients ∇_{x_i} C_i = Σ_{j≠i} m_j ∇W_ij / ρ0_i, ∇_{x_j} C_i = −m_j ∇W_ij / ρ0_i (Eq. 8,
 *   with masses), ∇W_ij = ∇_{x_i} W(x_i − x_j);
 * - contacts: a FLIP particle with another system's particle (restDensity 0) closer than h is held
 *   in place (inverse mass w_i = 0, as PBD holds a fixed particle): its neighbourhood is the
 *   collision handler's business, and a correction blind to the other bodies would push fluid
 *   through them (a cloth, fig9-flip-cloth). Every other FLIP particle has w_i = 1/m_i
 *   ({@link densityWeights});
 * - the mass-weighted position-based step (Müller et al. 2007, "Position based dynamics", Eq. 9 with
 *   inverse masses w): λ_i = −C_i / Σ_k w_k |∇_{x_k} C_i|² (Eq. 11 with ε = 0); written with
 *   μ_i = λ_i / ρ0_i = −C_i ρ0_i / (w_i |Σ_j m_j ∇W_ij|² + Σ_j w_j m_j² |∇W_ij|²) (0 where C_i ≤ 0
 *   or the denominator is 0);
 * - the displacement Δx_i = w_i Σ_{j≠i} (μ_i m_j + μ_j m_i) ∇W_ij (Eq. 12 with masses; between two
 *   free particles m_j Δx_j sums to zero over the pair, so the correction moves no centre of mass
 *   away from contacts), then the domain walls: x_i clamped to [min + r_i, max − r_i] per axis, as
 *   the engine's position update clamps it;
 * - the domain walls in the sums: every FLIP particle j (i itself too) also enters ρ_i, its
 *   gradients and Δx_i through its mirror images across the walls within h of x_i
 *   (`forEachMirrorImage` of `core/model/sph_walls.ts`: the ghost particles of Randles & Libersky
 *   1996, as the SPH fluid's walls), with j's mass, inverse mass and μ_j. Without them a particle
 *   at a wall misses the neighbours it would have beyond it, reads under-dense and is never moved,
 *   so the wall's layer packs (the dam break's back wall held 30 % more particles than the SPH's);
 *   with them it reads the density of one inside, and where that is too dense the images push it
 *   off the wall.
 *
 * One iteration is a Jacobi sweep: every μ from the current positions, then every Δx, then all
 * positions at once (Macklin & Müller §5, a few iterations per step). Velocities are not changed.
 *
 * @module
 */
import { forEachMirrorImage, type SphWalls } from "./model/sph_walls.ts";
import { poly6, spikyGradient } from "./model/sph_kernels.ts";

/** Particles of {@link flipDensityCorrection}: positions, masses, radii and rest densities. */
export interface DensityCorrectionParticles {
  /** Positions, xyz interleaved (3N). */
  x: ArrayLike<number>;
  /** Masses m_i (N, > 0 for FLIP particles). */
  m: ArrayLike<number>;
  /** Collision radius r_i (N): the distance kept from the domain walls. */
  radius: ArrayLike<number>;
  /** Rest density ρ0_i (N); 0 marks a particle that is not FLIP (neither moved nor counted). */
  restDensity: ArrayLike<number>;
}

/** Options of {@link flipDensityCorrection}. */
export interface DensityCorrectionOptions {
  /** Kernel support h (m, > 0). */
  h: number;
  /** Jacobi iterations (an integer ≥ 0). */
  iterations: number;
  /** The domain box the particles stay in (its walls). */
  domain: { min: readonly number[]; max: readonly number[] };
}

function checkParticles(p: DensityCorrectionParticles): number {
  const n = p.m.length;
  if (p.x.length !== 3 * n || p.radius.length !== n || p.restDensity.length !== n) {
    throw new RangeError(
      `flipDensityCorrection: particles.x must have 3N and radius, restDensity N entries ` +
        `(N = m.length = ${n}), got ${p.x.length}, ${p.radius.length}, ${p.restDensity.length}`,
    );
  }
  for (let i = 0; i < n; i++) {
    if (p.restDensity[i] > 0 && !(p.m[i] > 0)) {
      throw new RangeError(
        `flipDensityCorrection: particles.m[${i}] must be > 0 for a FLIP particle ` +
          `(restDensity > 0), got ${p.m[i]}`,
      );
    }
  }
  return n;
}

/**
 * Inverse masses w_i of the correction (module doc): 1/m_i for a FLIP particle with no other
 * system's particle closer than h, 0 otherwise (held in place; non-FLIP particles never move).
 */
export function densityWeights(p: DensityCorrectionParticles, h: number): Float64Array {
  const n = checkParticles(p);
  const { x, m, restDensity } = p;
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (!(restDensity[i] > 0)) continue;
    let contact = false;
    for (let j = 0; j < n && !contact; j++) {
      if (restDensity[j] > 0) continue;
      const r2 = [0, 1, 2].reduce((s, a) => s + (x[3 * i + a] - x[3 * j + a]) ** 2, 0);
      contact = r2 < h * h;
    }
    w[i] = contact ? 0 : 1 / m[i];
  }
  return w;
}

/**
 * Visits the pair terms of particle i and j at positions x: (x_i − y, |x_i − y|²) for y = x_j
 * (unless j = i) and for each of x_j's mirror images across the walls within h of x_i.
 */
function forEachPairTerm(
  x: ArrayLike<number>,
  i: number,
  j: number,
  options: { h: number; walls?: SphWalls; visit: (d: number[], r2: number) => void },
): void {
  const { h, walls, visit } = options;
  const xi = [x[3 * i], x[3 * i + 1], x[3 * i + 2]];
  const xj = [x[3 * j], x[3 * j + 1], x[3 * j + 2]];
  const term = (y: readonly number[]) => {
    const d = [xi[0] - y[0], xi[1] - y[1], xi[2] - y[2]];
    visit(d, d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  };
  if (j !== i) term(xj);
  if (walls) forEachMirrorImage(xi, xj, { walls, h, visit: term });
}

/**
 * ρ_i and μ_i of every particle at positions x (module doc): `density` (0 for non-FLIP particles)
 * and `mu` (0 where the constraint is inactive); `w` the inverse masses of {@link densityWeights}.
 * `options.walls`: the domain box whose walls' mirror images enter the sums (none: no walls).
 */
export function densityMultipliers(
  p: DensityCorrectionParticles,
  h: number,
  options: { walls?: SphWalls } = {},
): { density: Float64Array; mu: Float64Array; w: Float64Array } {
  const n = checkParticles(p);
  const { x, m, restDensity } = p;
  const w = densityWeights(p, h);
  const density = new Float64Array(n);
  const mu = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (!(restDensity[i] > 0)) continue;
    let rho = m[i] * poly6(0, h);
    const g = [0, 0, 0];
    let g2 = 0;
    for (let j = 0; j < n; j++) {
      if (!(restDensity[j] > 0)) continue;
      forEachPairTerm(x, i, j, {
        h,
        walls: options.walls,
        visit: (d, r2) => {
          rho += m[j] * poly6(r2, h);
          const r = Math.sqrt(r2);
          if (!(r > 0)) return;
          const s = -spikyGradient(r, h) / r; // ∇W_ij = s · (x_i − x_j)
          for (let a = 0; a < 3; a++) g[a] += m[j] * s * d[a];
          g2 += w[j] * m[j] * m[j] * s * s * r2;
        },
      });
    }
    density[i] = rho;
    const c = rho / restDensity[i] - 1;
    const denom = w[i] * (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) + g2;
    if (c > 0 && denom > 0) mu[i] = -c * restDensity[i] / denom;
  }
  return { density, mu, w };
}

/**
 * Positions after `options.iterations` Jacobi iterations of the density correction (module doc),
 * a new array (3N); non-FLIP particles keep theirs. Throws a RangeError naming the bad option.
 */
export function flipDensityCorrection(
  p: DensityCorrectionParticles,
  options: DensityCorrectionOptions,
): Float64Array {
  const n = checkParticles(p);
  const { h, iterations, domain } = options;
  if (!(h > 0) || !Number.isFinite(h)) {
    throw new RangeError(`flipDensityCorrection: options.h must be finite and > 0, got ${h}`);
  }
  if (!Number.isInteger(iterations) || iterations < 0) {
    throw new RangeError(
      `flipDensityCorrection: options.iterations must be an integer ≥ 0, got ${iterations}`,
    );
  }
  const x = Float64Array.from(p.x);
  const { m, restDensity, radius } = p;
  const walls = { min: domain.min, max: domain.max };
  for (let it = 0; it < iterations; it++) {
    const { mu, w } = densityMultipliers({ ...p, x }, h, { walls });
    const next = Float64Array.from(x);
    for (let i = 0; i < n; i++) {
      if (!(w[i] > 0)) continue;
      const dx = [0, 0, 0];
      for (let j = 0; j < n; j++) {
        if (!(restDensity[j] > 0)) continue;
        forEachPairTerm(x, i, j, {
          h,
          walls,
          visit: (d, r2) => {
            const r = Math.sqrt(r2);
            if (!(r > 0)) return;
            const f = w[i] * (mu[i] * m[j] + mu[j] * m[i]) * (-spikyGradient(r, h) / r);
            for (let a = 0; a < 3; a++) dx[a] += f * d[a];
          },
        });
      }
      for (let a = 0; a < 3; a++) {
        const lo = domain.min[a] + radius[i];
        const hi = domain.max[a] - radius[i];
        next[3 * i + a] = Math.min(Math.max(x[3 * i + a] + dx[a], lo), hi);
      }
    }
    x.set(next);
  }
  return x;
}
