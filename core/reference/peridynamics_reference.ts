/**
 * f64 reference of bond-based peridynamics for brittle solids (the prototype microelastic brittle
 * "PMB" material): bonds within a horizon, their forces, stiffness (Jacobian) products, energy,
 * breaking past a critical stretch, and fragments. It is the reference the GPU kernels of
 * `gpu/systems/peridynamics/` are tested against; all per-bond and per-particle data are
 * structure-of-arrays (positions xyz-interleaved, 3N).
 *
 * Model (Silling 2000, "Reformulation of elasticity theory for discontinuities and long-range
 * forces", J. Mech. Phys. Solids 48; Silling & Askari 2005, "A meshfree method based on the
 * peridynamic model of solid mechanics", Comput. Struct. 83; used for graphics by Levine et al.
 * 2014, "A peridynamic perspective on spring-mass fracture", SCA, the paper's reference [1]):
 *
 * - Particles sample the body on a lattice of spacing h, each with volume V_i (h³ on a simple
 *   cubic lattice) and mass m_i = ρ V_i.
 * - A bond joins every pair (i, j) of the same body whose reference distance |ξ| = |X_j − X_i| is
 *   at most the horizon δ (typically δ ≈ 3h); bonds are found once, in the reference
 *   configuration ({@link buildBonds}).
 * - Bond stretch s = (|η + ξ| − |ξ|) / |ξ| = (l − L) / L, with l the current and L = |ξ| the rest
 *   length (Silling & Askari 2005, PMB material).
 * - Pairwise force density f = c s ê, ê = (x_j − x_i)/l, with the micromodulus of a 3D solid of
 *   bulk modulus K: c = 18 K / (π δ⁴) (Silling & Askari 2005). In the one-point quadrature the force
 *   on i from bond (i, j) is F_i = c s V_i V_j ê and F_j = −F_i.
 * - Equivalently (Levine et al. 2014): **every bond is a Hookean spring** of rest length L = |ξ|
 *   and stiffness k_ij = c V_i V_j / L, since c s V_i V_j = k_ij (l − L). The elastic energy is
 *   E = Σ_bonds ½ k_ij (l − L)², whose gradient gives the forces above; {@link bondsAsSprings}
 *   turns the intact bonds into `Spring`s (`core/model/spring.ts`), so `backwardEulerStep`
 *   (Baraff & Witkin 1998 linearised backward Euler, on DOFs) performs the implicit peridynamic
 *   step that the paper uses ("peridynamics [1] with implicit integration").
 * - Breaking (Silling & Askari 2005): a bond breaks, irreversibly, when its stretch exceeds the
 *   critical stretch s0 = √(5 G0 / (9 K δ)), G0 the fracture energy (J/m²). A body flagged
 *   unbreakable never breaks (the paper's "high threshold that prevents fracturing", Fig. 3).
 * - Bond-based peridynamics fixes Poisson's ratio at ν = 1/4 (Silling 2000), so E = 3K(1 − 2ν) =
 *   1.5 K and μ = 0.6 K.
 *
 * Bonds, their stiffness and damping, their spring table and the scene-level constants are the
 * model's (`core/model/peridynamic_bonds.ts`, with the optional partial-volume correction, and
 * `core/model/peridynamic_constants.ts`); this module computes with them.
 *
 * Stiffness (Jacobian) products use the geometric-stiffness clamp of `core/reference/cloth_reference.ts`
 * (factor max(0, 1 − L/l)), so the implicit matrix stays symmetric positive definite.
 *
 * @module
 */
import type { Spring } from "../model/spring.ts";
import {
  type BondDampingOptions,
  type BondMaterial,
  type Bonds,
  bondSpringTable,
  checkBonds,
  dampingOf,
  distance,
  stiffnessOf,
} from "../model/peridynamic_bonds.ts";
import {
  checkPerBody,
  particleCountOf,
  type PerBody,
  perBodyValue,
  perParticle,
} from "../model/peridynamic_inputs.ts";

/**
 * Stretch s = (l − L) / L of every bond at `positions` (Silling & Askari 2005), broken bonds
 * included.
 */
export function bondStretch(bonds: Bonds, positions: ArrayLike<number>): Float64Array {
  const n = particleCountOf(positions, "bondStretch");
  const m = checkBonds(bonds, n, "bondStretch");
  const s = new Float64Array(m);
  for (let b = 0; b < m; b++) {
    const i = bonds.i[b], j = bonds.j[b];
    const l = distance(positions, i, j);
    s[b] = (l - bonds.restLength[b]) / bonds.restLength[b];
  }
  return s;
}

/** Options of {@link bondForces}. */
export interface BondForcesOptions extends BondMaterial, BondDampingOptions {
  /** Velocities (3N); with them, each bond adds kd ((v_j − v_i)·ê) ê to F_i. Default: none. */
  velocities?: ArrayLike<number>;
}

/**
 * Per-particle bond forces (3N, N) over intact bonds: F_i = Σ_j c β s V_i V_j ê = Σ_j k_ij (l − L) ê
 * (Silling & Askari 2005 PMB force in one-point quadrature), F_j = −F_i, plus the spring damping
 * kd ((v_j − v_i)·ê) ê when `velocities` are given (Baraff & Witkin 1998 §4). Bonds of zero current
 * length exert nothing. Forces are central and antisymmetric, so Σ F = 0 and Σ x × F = 0.
 */
export function bondForces(
  bonds: Bonds,
  positions: ArrayLike<number>,
  options: BondForcesOptions,
): Float64Array {
  const fn = "bondForces";
  const n = particleCountOf(positions, fn);
  const ks = stiffnessOf(bonds, n, options, fn);
  const v = options.velocities;
  if (v !== undefined && v.length !== 3 * n) {
    throw new RangeError(`${fn}: options.velocities has length ${v.length}, expected ${3 * n}`);
  }
  const kd = v ? dampingOf(bonds, n, ks, options, fn) : undefined;
  const f = new Float64Array(3 * n);
  for (let b = 0; b < ks.length; b++) {
    if (bonds.broken[b]) continue;
    const i = bonds.i[b], j = bonds.j[b];
    const dx = positions[3 * j] - positions[3 * i];
    const dy = positions[3 * j + 1] - positions[3 * i + 1];
    const dz = positions[3 * j + 2] - positions[3 * i + 2];
    const l = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (l === 0) continue;
    let t = ks[b] * (l - bonds.restLength[b]);
    if (v && kd) {
      t += kd[b] *
        ((v[3 * j] - v[3 * i]) * dx + (v[3 * j + 1] - v[3 * i + 1]) * dy +
          (v[3 * j + 2] - v[3 * i + 2]) * dz) /
        l;
    }
    const sc = t / l;
    f[3 * i] += sc * dx;
    f[3 * i + 1] += sc * dy;
    f[3 * i + 2] += sc * dz;
    f[3 * j] -= sc * dx;
    f[3 * j + 1] -= sc * dy;
    f[3 * j + 2] -= sc * dz;
  }
  return f;
}

/** Options of {@link bondStiffnessProduct}. */
export interface BondStiffnessProductOptions extends BondMaterial {
  /** The vector p (3N) to multiply. */
  direction: ArrayLike<number>;
  /**
   * Clamp the geometric-stiffness factor 1 − L/l at 0 for compressed bonds (default true), as the
   * springs of `core/reference/cloth_reference.ts` do, so the product is positive semi-definite; false gives
   * the exact −∂f/∂x.
   */
  clampCompression?: boolean;
}

/**
 * The stiffness product −(∂F/∂x) p (3N) of the elastic bond forces over intact bonds: with
 * u = ê, per bond K = k_ij [u uᵀ + γ (I − u uᵀ)], γ = max(0, 1 − L/l) (clamped; exact 1 − L/l when
 * `clampCompression` is false), it adds K (p_i − p_j) to i and K (p_j − p_i) to j (Baraff & Witkin
 * 1998 §4–5; the spring Jacobian of `springForce` in core/reference/cloth_reference.ts).
 */
export function bondStiffnessProduct(
  bonds: Bonds,
  positions: ArrayLike<number>,
  options: BondStiffnessProductOptions,
): Float64Array {
  const fn = "bondStiffnessProduct";
  const n = particleCountOf(positions, fn);
  const ks = stiffnessOf(bonds, n, options, fn);
  const p = options.direction;
  if (!p || p.length !== 3 * n) {
    throw new RangeError(`${fn}: options.direction has length ${p?.length}, expected ${3 * n}`);
  }
  const clamp = options.clampCompression ?? true;
  const out = new Float64Array(3 * n);
  for (let b = 0; b < ks.length; b++) {
    if (bonds.broken[b]) continue;
    const i = bonds.i[b], j = bonds.j[b];
    const dx = positions[3 * j] - positions[3 * i];
    const dy = positions[3 * j + 1] - positions[3 * i + 1];
    const dz = positions[3 * j + 2] - positions[3 * i + 2];
    const l = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (l === 0) continue;
    const ux = dx / l, uy = dy / l, uz = dz / l;
    let g = 1 - bonds.restLength[b] / l;
    if (clamp && g < 0) g = 0;
    const wx = p[3 * i] - p[3 * j], wy = p[3 * i + 1] - p[3 * j + 1];
    const wz = p[3 * i + 2] - p[3 * j + 2];
    const uw = (1 - g) * (ux * wx + uy * wy + uz * wz);
    const kx = ks[b] * (uw * ux + g * wx), ky = ks[b] * (uw * uy + g * wy);
    const kz = ks[b] * (uw * uz + g * wz);
    out[3 * i] += kx;
    out[3 * i + 1] += ky;
    out[3 * i + 2] += kz;
    out[3 * j] -= kx;
    out[3 * j + 1] -= ky;
    out[3 * j + 2] -= kz;
  }
  return out;
}

/**
 * Elastic energy E = Σ ½ k_ij (l − L)² over intact bonds (J): the PMB micropotential ½ c s² |ξ|
 * integrated over pairs (Silling & Askari 2005), of which {@link bondForces} is −∇E.
 */
export function elasticEnergy(
  bonds: Bonds,
  positions: ArrayLike<number>,
  options: BondMaterial,
): number {
  const W = energyPerBond(bonds, positions, options, "elasticEnergy");
  let e = 0;
  for (let b = 0; b < W.length; b++) e += W[b];
  return e;
}

function energyPerBond(
  bonds: Bonds,
  positions: ArrayLike<number>,
  options: BondMaterial,
  fn: string,
): Float64Array {
  const n = particleCountOf(positions, fn);
  const ks = stiffnessOf(bonds, n, options, fn);
  const s = bondStretch(bonds, positions);
  const W = new Float64Array(ks.length);
  for (let b = 0; b < ks.length; b++) {
    if (bonds.broken[b]) continue;
    const dl = s[b] * bonds.restLength[b];
    W[b] = 0.5 * ks[b] * dl * dl;
  }
  return W;
}

/**
 * Strain energy density per particle (J/m³, length N): W_i = (1 / V_i) Σ_{intact bonds ∋ i}
 * ½ · ½ k_ij (l − L)², each bond's energy shared equally by its ends — the one-point quadrature of
 * W(x) = ½ ∫_H ½ c s² |ξ| dV' (Silling & Askari 2005). For a uniform dilatation x = (1 + ε) X of
 * the continuum it equals ½ K (3ε)² = (9/2) K ε² at interior points.
 */
export function strainEnergyDensity(
  bonds: Bonds,
  positions: ArrayLike<number>,
  options: BondMaterial,
): Float64Array {
  const fn = "strainEnergyDensity";
  const W = energyPerBond(bonds, positions, options, fn);
  const n = positions.length / 3;
  const V = perParticle(options.volume, n, "options.volume", fn);
  const out = new Float64Array(n);
  for (let b = 0; b < W.length; b++) {
    out[bonds.i[b]] += 0.5 * W[b];
    out[bonds.j[b]] += 0.5 * W[b];
  }
  for (let i = 0; i < n; i++) out[i] /= V(i);
  return out;
}

/** {@link bondSpringTable} as `Spring` objects (for the f64 references; small networks). */
export function bondsAsSprings(
  bonds: Bonds,
  options: BondMaterial & BondDampingOptions & { particleCount: number },
): Spring[] {
  return bondSpringTable(bonds, options).toSprings();
}

/** Options of {@link updateBroken}. */
export interface UpdateBrokenOptions {
  /** Critical stretch s0 (> 0), one for all bodies or per body id ({@link criticalStretch}). */
  criticalStretch: PerBody<number>;
  /** Whether bonds of a body may break: one for all or per body id (default true). */
  breakable?: boolean | ArrayLike<boolean | number>;
  /**
   * Silling & Askari's (2005) compression term α ≥ 0 (default 0: a bond breaks past s0 alone): a
   * particle's critical stretch is s0(x) = s00 − α·s_min(x), s_min its intact bonds' smallest
   * stretch, and a bond breaks past min(s0(x), s0(x')) ({@link pointCriticalStretch}). Their
   * examples use α = 0.25.
   */
  compression?: number;
}

/**
 * Each particle's critical stretch under Silling & Askari's (2005) compression rule, s0(x) = s00 −
 * α·s_min(x) with s_min the smallest stretch of x's intact bonds (so a particle in compression,
 * s_min < 0, takes more stretch to break), as max over those bonds of (s00_b − α·s_b) (one s00 per
 * body makes the two the same). A particle with no intact breakable bond gets +∞. `s00(b)` gives a
 * bond's s0 without the term (0: the bond cannot break).
 */
export function pointCriticalStretch(
  bonds: Bonds,
  positions: ArrayLike<number>,
  options: { compression: number; s00: (bond: number) => number },
): Float64Array {
  const n = particleCountOf(positions, "pointCriticalStretch");
  const s0 = new Float64Array(n).fill(Infinity);
  const best = new Float64Array(n).fill(-Infinity);
  for (let b = 0; b < bonds.i.length; b++) {
    const s00 = options.s00(b);
    if (bonds.broken[b] || !(s00 > 0)) continue;
    const i = bonds.i[b], j = bonds.j[b];
    const L = bonds.restLength[b];
    const v = s00 - options.compression * (distance(positions, i, j) - L) / L;
    best[i] = Math.max(best[i], v);
    best[j] = Math.max(best[j], v);
  }
  for (let p = 0; p < n; p++) if (best[p] > -Infinity) s0[p] = best[p];
  return s0;
}

/**
 * Breaks, in place, every intact bond of a breakable body whose stretch exceeds the critical
 * stretch (s > s0; Silling & Askari 2005: μ(ξ, t) = 0 for good once s > s0; with
 * `options.compression` α > 0, s > min(s0(x), s0(x')) of {@link pointCriticalStretch}, computed
 * on the same positions before any bond of this call breaks). Compression never breaks a bond, and
 * a broken bond stays broken whatever the positions. Returns how many bonds broke in this call.
 */
export function updateBroken(
  bonds: Bonds,
  positions: ArrayLike<number>,
  options: UpdateBrokenOptions,
): number {
  const fn = "updateBroken";
  const n = particleCountOf(positions, fn);
  const m = checkBonds(bonds, n, fn);
  if (options?.criticalStretch === undefined) {
    throw new TypeError(`${fn}: options.criticalStretch is required`);
  }
  checkPerBody(options.criticalStretch, "options.criticalStretch", fn, (v) => v > 0, "> 0");
  const alpha = options.compression ?? 0;
  if (!(alpha >= 0) || !Number.isFinite(alpha)) {
    throw new RangeError(
      `${fn}: options.compression must be a finite number >= 0 (Silling & Askari use 0.25), ` +
        `got ${alpha}`,
    );
  }
  const br = options.breakable ?? true;
  if (typeof br !== "boolean" && (typeof br !== "object" || br === null)) {
    throw new TypeError(`${fn}: options.breakable must be a boolean or an array per body id`);
  }
  const breakable = (b: number) => {
    if (typeof br === "boolean") return br;
    if (b >= br.length) {
      throw new RangeError(
        `${fn}: options.breakable has ${br.length} entries, body id ${b} has none`,
      );
    }
    return Boolean(br[b]);
  };
  const s00 = (b: number) =>
    breakable(bonds.body[b])
      ? perBodyValue(options.criticalStretch, bonds.body[b], "options.criticalStretch", fn)
      : 0;
  const point = alpha > 0
    ? pointCriticalStretch(bonds, positions, { compression: alpha, s00 })
    : null;
  let count = 0;
  for (let b = 0; b < m; b++) {
    if (bonds.broken[b] || !breakable(bonds.body[b])) continue;
    const i = bonds.i[b], j = bonds.j[b];
    const s0 = point ? Math.min(point[i], point[j]) : s00(b);
    const l = distance(positions, i, j);
    if ((l - bonds.restLength[b]) / bonds.restLength[b] > s0) {
      bonds.broken[b] = 1;
      count++;
    }
  }
  return count;
}

/** Fraction of broken bonds in [0, 1] (0 when there are no bonds): the paper's fracture metric. */
export function brokenFraction(bonds: Pick<Bonds, "broken">): number {
  const m = bonds.broken.length;
  if (m === 0) return 0;
  let k = 0;
  for (let b = 0; b < m; b++) if (bonds.broken[b]) k++;
  return k / m;
}

/** Result of {@link fragments}. */
export interface Fragments {
  /** Number of fragments (connected components of intact bonds among the members). */
  count: number;
  /** Size of the largest fragment (0 when there are no members). */
  largest: number;
  /** Fragment label per particle: 0.. in order of each fragment's lowest index; −1 for non-members. */
  label: Int32Array;
  /** Size of each fragment, indexed by label. */
  sizes: number[];
}

/**
 * Fragments: connected components of the graph of particles joined by intact bonds (union–find
 * with path halving and union by size), a particle without intact bonds being a fragment of its
 * own (docs/design.md "Metrics"). `members` restricts the count to flagged particles (default:
 * all N); bonds touching a non-member are ignored.
 */
export function fragments(
  bonds: Bonds,
  particleCount: number,
  options: { members?: ArrayLike<number | boolean> } = {},
): Fragments {
  const fn = "fragments";
  const n = particleCount;
  if (!Number.isInteger(n) || n < 0) {
    throw new RangeError(`${fn}: particleCount must be an integer ≥ 0, got ${n}`);
  }
  const m = checkBonds(bonds, n, fn);
  const members = options.members;
  if (members && members.length !== n) {
    throw new RangeError(`${fn}: options.members has length ${members.length}, expected ${n}`);
  }
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const size = new Int32Array(n).fill(1);
  const find = (x: number) => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  for (let b = 0; b < m; b++) {
    if (bonds.broken[b]) continue;
    const i = bonds.i[b], j = bonds.j[b];
    if (members && (!members[i] || !members[j])) continue;
    let ri = find(i), rj = find(j);
    if (ri === rj) continue;
    if (size[ri] < size[rj]) [ri, rj] = [rj, ri];
    parent[rj] = ri;
    size[ri] += size[rj];
  }
  const label = new Int32Array(n).fill(-1);
  const rootLabel = new Int32Array(n).fill(-1);
  const sizes: number[] = [];
  for (let i = 0; i < n; i++) {
    if (members && !members[i]) continue;
    const r = find(i);
    if (rootLabel[r] < 0) {
      rootLabel[r] = sizes.length;
      sizes.push(0);
    }
    label[i] = rootLabel[r];
    sizes[label[i]]++;
  }
  let largest = 0;
  for (const z of sizes) largest = Math.max(largest, z);
  return { count: sizes.length, largest, label, sizes };
}
