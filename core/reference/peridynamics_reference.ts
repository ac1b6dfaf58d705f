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
 * Optional partial-volume correction (Parks, Lehoucq, Plimpton & Silling 2008, "Implementing
 * peridynamics within a molecular dynamics code", Comput. Phys. Commun. 179; Seleson 2014,
 * "Improved one-point quadrature algorithms for two-dimensional peridynamic models", Comput. Methods
 * Appl. Mech. Eng. 282): the cell of a neighbour near the horizon's edge lies only partly inside
 * the horizon, so its volume is weighted by β = (δ + h/2 − |ξ|) / h for δ − h/2 < |ξ| < δ + h/2
 * (1 inside, 0 beyond), a linear ramp centred on the horizon; families then extend to δ + h/2.
 * On a simple cubic lattice with δ = 3h this brings the interior strain energy of a uniform
 * dilatation from +12.1 % to +6.2 % of the continuum value (½ K (3ε)²); truncating the same ramp
 * at δ would give −10 %. β multiplies the bond's stiffness: k_ij = c β V_i V_j / L.
 *
 * Stiffness (Jacobian) products use the geometric-stiffness clamp of `core/reference/cloth_reference.ts`
 * (factor max(0, 1 − L/l)), so the implicit matrix stays symmetric positive definite.
 *
 * @module
 */

import type { Spring } from "../model/spring.ts";
import { type SpringTable, SpringTableBuilder } from "../model/spring_table.ts";
import { ColumnBuilder } from "../model/column_builder.ts";

/**
 * Bonds as structure of arrays (one entry per bond, `i.length` bonds), in the deterministic order
 * of {@link buildBonds}: ascending i, then ascending j, with i < j.
 */
export interface Bonds {
  /** First end (particle index), i < j. */
  i: Uint32Array;
  /** Second end (particle index). */
  j: Uint32Array;
  /** Reference length L = |ξ| = |X_j − X_i| (> 0). */
  restLength: Float64Array;
  /** Partial-volume factor β in (0, 1] (1 without volume correction). */
  volumeFactor: Float64Array;
  /** Body id of both ends (bonds never join two bodies). */
  body: Uint32Array;
  /** 1 once the bond has broken (irreversible, {@link updateBroken}); 0 while intact. */
  broken: Uint8Array;
}

/** A value for every body, or one value per body id (indexed by the body id). */
export type PerBody<T> = T | ArrayLike<T>;

/** Options of {@link buildBonds}. */
export interface BuildBondsOptions {
  /** Horizon δ (> 0), one for all bodies or per body id. */
  horizon: PerBody<number>;
  /** Body id per particle (integers ≥ 0; default: all particles in body 0). */
  body?: ArrayLike<number>;
  /**
   * Partial-volume correction (module doc): the lattice spacing h (> 0), one or per body id. When
   * given, families reach δ + h/2 and bonds get β = min(1, (δ + h/2 − |ξ|)/h); omitted: β = 1 and
   * families reach δ.
   */
  volumeCorrection?: { spacing: PerBody<number> };
}

/** Relative tolerance of the horizon test, so lattice neighbours exactly at δ are bonded. */
export const HORIZON_TOLERANCE = 1e-9;

function particleCountOf(positions: ArrayLike<number>, fn: string): number {
  if (positions.length % 3 !== 0) {
    throw new RangeError(`${fn}: positions has length ${positions.length}, not a multiple of 3`);
  }
  return positions.length / 3;
}

function perBodyValue(
  value: PerBody<number>,
  b: number,
  name: string,
  fn: string,
): number {
  if (typeof value === "number") return value;
  if (b >= value.length) {
    throw new RangeError(`${fn}: ${name} has ${value.length} entries, body id ${b} has none`);
  }
  return value[b];
}

function checkPerBody(
  value: PerBody<number> | undefined,
  name: string,
  fn: string,
  ok: (v: number) => boolean,
  what: string,
): void {
  if (value === undefined) return;
  if (typeof value === "number") {
    if (!ok(value)) throw new RangeError(`${fn}: ${name} must be ${what}, got ${value}`);
    return;
  }
  if (typeof value !== "object" || value === null || typeof value.length !== "number") {
    throw new TypeError(`${fn}: ${name} must be a number or an array per body id`);
  }
  for (let b = 0; b < value.length; b++) {
    if (!ok(value[b])) {
      throw new RangeError(`${fn}: ${name}[${b}] must be ${what}, got ${value[b]}`);
    }
  }
}

const positiveFinite = (v: number) => v > 0 && Number.isFinite(v);
const nonNegativeFinite = (v: number) => v >= 0 && Number.isFinite(v);

/**
 * Bonds of every pair (i, j), i < j, of the same body with |X_j − X_i| ≤ δ (1 + 1e-9) in the
 * reference configuration `positions` (Silling & Askari 2005: the family of X_i is its horizon
 * ball), found with a uniform cell list of cell size max δ (O(N · neighbours)). With
 * `volumeCorrection`, families reach δ + h/2 and carry the partial-volume factor β (module doc;
 * Parks et al. 2008). Order: ascending i, then ascending j. Coincident particles of one body are a
 * RangeError (a bond needs L > 0).
 */
export function buildBonds(positions: ArrayLike<number>, options: BuildBondsOptions): Bonds {
  const fn = "buildBonds";
  const n = particleCountOf(positions, fn);
  for (let k = 0; k < positions.length; k++) {
    if (!Number.isFinite(positions[k])) {
      throw new RangeError(`${fn}: positions[${k}] = ${positions[k]} is not finite`);
    }
  }
  if (options.horizon === undefined) throw new TypeError(`${fn}: options.horizon is required`);
  checkPerBody(options.horizon, "options.horizon", fn, positiveFinite, "finite and > 0");
  const spacing = options.volumeCorrection?.spacing;
  if (options.volumeCorrection && spacing === undefined) {
    throw new TypeError(`${fn}: options.volumeCorrection.spacing is required`);
  }
  checkPerBody(spacing, "options.volumeCorrection.spacing", fn, positiveFinite, "finite and > 0");
  const body = options.body;
  if (body && body.length !== n) {
    throw new RangeError(`${fn}: options.body has length ${body.length}, expected ${n}`);
  }
  // Per-body search radius and ramp; bodies present only.
  const radius = new Map<number, { delta: number; h: number; reach: number }>();
  for (let i = 0; i < n; i++) {
    const b = body ? body[i] : 0;
    if (radius.has(b)) continue;
    if (!Number.isInteger(b) || b < 0) {
      throw new RangeError(`${fn}: options.body[${i}] = ${b} is not an integer ≥ 0`);
    }
    const delta = perBodyValue(options.horizon, b, "options.horizon", fn);
    const h = spacing === undefined
      ? 0
      : perBodyValue(spacing, b, "options.volumeCorrection.spacing", fn);
    radius.set(b, { delta, h, reach: delta + h / 2 });
  }
  let cell = 0;
  for (const r of radius.values()) cell = Math.max(cell, r.reach * (1 + HORIZON_TOLERANCE));
  // typed columns, outside the JavaScript heap (Table I's solids have up to 20.6M bonds)
  const out = new ColumnBuilder({
    i: Uint32Array,
    j: Uint32Array,
    restLength: Float64Array,
    volumeFactor: Float64Array,
    body: Uint32Array,
  });
  if (n === 0) return toBonds(out);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      lo[a] = Math.min(lo[a], positions[3 * i + a]);
      hi[a] = Math.max(hi[a], positions[3 * i + a]);
    }
  }
  const dims = [0, 1, 2].map((a) => Math.floor((hi[a] - lo[a]) / cell) + 1);
  if (dims[0] * dims[1] * dims[2] > 2 ** 52) {
    throw new RangeError(`${fn}: positions span too many horizons (${dims.join(" × ")} cells)`);
  }
  const cellOf = new Float64Array(3 * n);
  const cells = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const c = [0, 1, 2].map((a) =>
      Math.min(dims[a] - 1, Math.floor((positions[3 * i + a] - lo[a]) / cell))
    );
    for (let a = 0; a < 3; a++) cellOf[3 * i + a] = c[a];
    const key = c[0] + dims[0] * (c[1] + dims[1] * c[2]);
    const list = cells.get(key);
    if (list) list.push(i);
    else cells.set(key, [i]);
  }
  const candidates: number[] = [];
  for (let i = 0; i < n; i++) {
    const b = body ? body[i] : 0;
    const { delta, h, reach } = radius.get(b)!;
    const reach2 = (reach * (1 + HORIZON_TOLERANCE)) ** 2;
    const xi = positions[3 * i], yi = positions[3 * i + 1], zi = positions[3 * i + 2];
    candidates.length = 0;
    const cx = cellOf[3 * i], cy = cellOf[3 * i + 1], cz = cellOf[3 * i + 2];
    for (let dz = -1; dz <= 1; dz++) {
      const z = cz + dz;
      if (z < 0 || z >= dims[2]) continue;
      for (let dy = -1; dy <= 1; dy++) {
        const y = cy + dy;
        if (y < 0 || y >= dims[1]) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const x = cx + dx;
          if (x < 0 || x >= dims[0]) continue;
          const list = cells.get(x + dims[0] * (y + dims[1] * z));
          if (!list) continue;
          for (const j of list) {
            if (j <= i || (body && body[j] !== b)) continue;
            const ex = positions[3 * j] - xi, ey = positions[3 * j + 1] - yi;
            const ez = positions[3 * j + 2] - zi;
            if (ex * ex + ey * ey + ez * ez <= reach2) candidates.push(j);
          }
        }
      }
    }
    candidates.sort((p, q) => p - q);
    for (const j of candidates) {
      const L = distance(positions, i, j);
      if (L === 0) {
        throw new RangeError(`${fn}: particles ${i} and ${j} of body ${b} coincide in positions`);
      }
      let beta = 1;
      if (h > 0 && L > delta - h / 2) {
        beta = Math.min(1, (delta + h / 2 - L) / h);
        if (!(beta > HORIZON_TOLERANCE)) continue;
      }
      out.push({ i, j, restLength: L, volumeFactor: beta, body: b });
    }
  }
  return toBonds(out);
}

/**
 * |x_j − x_i| as √(dx² + dy² + dz²), the one formula every function here (and the WGSL `length`)
 * uses, so the stretch is exactly 0 in the reference configuration.
 */
function distance(positions: ArrayLike<number>, i: number, j: number): number {
  const dx = positions[3 * j] - positions[3 * i];
  const dy = positions[3 * j + 1] - positions[3 * i + 1];
  const dz = positions[3 * j + 2] - positions[3 * i + 2];
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

function toBonds(
  out: ColumnBuilder<{
    i: Uint32ArrayConstructor;
    j: Uint32ArrayConstructor;
    restLength: Float64ArrayConstructor;
    volumeFactor: Float64ArrayConstructor;
    body: Uint32ArrayConstructor;
  }>,
): Bonds {
  return { ...out.finish(), broken: new Uint8Array(out.length) };
}

/** Validates a {@link Bonds} object against N particles; returns the bond count. */
function checkBonds(bonds: Bonds, n: number, fn: string): number {
  if (!bonds || !(bonds.i instanceof Uint32Array)) {
    throw new TypeError(`${fn}: bonds must be a Bonds object (from buildBonds)`);
  }
  const m = bonds.i.length;
  for (const name of ["j", "restLength", "volumeFactor", "body", "broken"] as const) {
    if (!bonds[name] || bonds[name].length !== m) {
      throw new RangeError(`${fn}: bonds.${name} has length ${bonds[name]?.length}, expected ${m}`);
    }
  }
  for (let b = 0; b < m; b++) {
    if (bonds.i[b] >= n || bonds.j[b] >= n) {
      throw new RangeError(
        `${fn}: bonds ${b} has ends (${bonds.i[b]}, ${bonds.j[b]}) outside 0..${n - 1}`,
      );
    }
  }
  return m;
}

/** Material of the bonds, shared by the force, stiffness and energy functions. */
export interface BondMaterial {
  /** Micromodulus c (N/m⁶, ≥ 0), one for all bodies or per body id ({@link micromodulus}). */
  micromodulus: PerBody<number>;
  /** Particle volume V_i (m³, > 0): one for all particles or one per particle (length N). */
  volume: number | ArrayLike<number>;
}

/** Bond damping, for {@link bondDamping}, {@link bondForces} and {@link bondsAsSprings}. */
export interface BondDampingOptions {
  /** Damping coefficient kd (N·s/m, ≥ 0) of every bond, or one per bond. Default 0. */
  damping?: number | ArrayLike<number>;
  /**
   * Damping ratio ζ (≥ 0): kd = 2 ζ √(k_ij μ_ij), μ_ij = m_i m_j / (m_i + m_j), the damping of the
   * bond's two-body oscillator relative to critical (ζ = 1). Needs `masses`; added to `damping`.
   */
  dampingRatio?: number;
  /** Particle masses (kg, > 0), one for all or per particle; needed by `dampingRatio`. */
  masses?: number | ArrayLike<number>;
}

function perParticle(
  value: number | ArrayLike<number>,
  n: number,
  name: string,
  fn: string,
): (i: number) => number {
  if (typeof value === "number") {
    if (!positiveFinite(value)) throw new RangeError(`${fn}: ${name} must be > 0, got ${value}`);
    return () => value;
  }
  if (typeof value !== "object" || value === null || value.length !== n) {
    throw new RangeError(`${fn}: ${name} must be a number or have length ${n}`);
  }
  for (let i = 0; i < n; i++) {
    if (!positiveFinite(value[i])) {
      throw new RangeError(`${fn}: ${name}[${i}] must be finite and > 0, got ${value[i]}`);
    }
  }
  return (i) => value[i];
}

function stiffnessOf(bonds: Bonds, n: number, material: BondMaterial, fn: string): Float64Array {
  const m = checkBonds(bonds, n, fn);
  if (!material || material.micromodulus === undefined) {
    throw new TypeError(`${fn}: options.micromodulus is required`);
  }
  if (material.volume === undefined) throw new TypeError(`${fn}: options.volume is required`);
  checkPerBody(material.micromodulus, "options.micromodulus", fn, nonNegativeFinite, "≥ 0");
  const V = perParticle(material.volume, n, "options.volume", fn);
  const ks = new Float64Array(m);
  for (let b = 0; b < m; b++) {
    const c = perBodyValue(material.micromodulus, bonds.body[b], "options.micromodulus", fn);
    ks[b] = (c * bonds.volumeFactor[b] * V(bonds.i[b]) * V(bonds.j[b])) / bonds.restLength[b];
  }
  return ks;
}

/**
 * Spring stiffness of every bond, k_ij = c β V_i V_j / L (N/m): the Hookean spring that the PMB
 * bond force F_i = c s V_i V_j ê equals (module doc; Silling & Askari 2005; Levine et al. 2014).
 * Broken bonds keep their value; the functions that use it skip them.
 */
export function bondStiffness(
  bonds: Bonds,
  options: BondMaterial & { particleCount: number },
): Float64Array {
  return stiffnessOf(bonds, options.particleCount, options, "bondStiffness");
}

function dampingOf(
  bonds: Bonds,
  n: number,
  ks: Float64Array,
  options: BondDampingOptions,
  fn: string,
): Float64Array {
  const m = ks.length;
  const kd = new Float64Array(m);
  const { damping, dampingRatio } = options;
  if (damping !== undefined) {
    if (typeof damping === "number") {
      if (!nonNegativeFinite(damping)) {
        throw new RangeError(`${fn}: options.damping must be finite and ≥ 0, got ${damping}`);
      }
      kd.fill(damping);
    } else {
      if (damping.length !== m) {
        throw new RangeError(`${fn}: options.damping has length ${damping.length}, expected ${m}`);
      }
      for (let b = 0; b < m; b++) {
        if (!nonNegativeFinite(damping[b])) {
          throw new RangeError(`${fn}: options.damping[${b}] must be finite and ≥ 0`);
        }
        kd[b] = damping[b];
      }
    }
  }
  if (dampingRatio !== undefined && dampingRatio !== 0) {
    if (!nonNegativeFinite(dampingRatio)) {
      throw new RangeError(
        `${fn}: options.dampingRatio must be finite and ≥ 0, got ${dampingRatio}`,
      );
    }
    if (options.masses === undefined) {
      throw new TypeError(`${fn}: options.dampingRatio needs options.masses`);
    }
    const mass = perParticle(options.masses, n, "options.masses", fn);
    for (let b = 0; b < m; b++) {
      const mi = mass(bonds.i[b]), mj = mass(bonds.j[b]);
      kd[b] += 2 * dampingRatio * Math.sqrt((ks[b] * mi * mj) / (mi + mj));
    }
  }
  return kd;
}

/**
 * Damping coefficient kd (N·s/m) of every bond from `damping` and `dampingRatio`
 * ({@link BondDampingOptions}): kd = damping + 2 ζ √(k_ij m_i m_j / (m_i + m_j)), the relative
 * damping of a spring (Baraff & Witkin 1998 §4; critical for ζ = 1 on an isolated pair).
 */
export function bondDamping(
  bonds: Bonds,
  options: BondMaterial & BondDampingOptions & { particleCount: number },
): Float64Array {
  const n = options.particleCount;
  const ks = stiffnessOf(bonds, n, options, "bondDamping");
  return dampingOf(bonds, n, ks, options, "bondDamping");
}

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

/**
 * The intact bonds as a spring table (`core/model/spring_table.ts`: i, j, restLength = L,
 * ks = c β V_i V_j / L, kd from {@link bondDamping}, breakStretch 0), in bond order. A PMB bond is exactly such a
 * spring (module doc; Levine et al. 2014), so `backwardEulerStep(bondsAsSprings(...), state, ...)`
 * is the implicit peridynamic step, with the same compression clamp.
 */
export function bondSpringTable(
  bonds: Bonds,
  options: BondMaterial & BondDampingOptions & { particleCount: number },
): SpringTable {
  const fn = "bondsAsSprings";
  const n = options.particleCount;
  if (!Number.isInteger(n) || n < 0) {
    throw new RangeError(`${fn}: options.particleCount must be an integer ≥ 0, got ${n}`);
  }
  const ks = stiffnessOf(bonds, n, options, fn);
  const kd = dampingOf(bonds, n, ks, options, fn);
  const out = new SpringTableBuilder(ks.length);
  for (let b = 0; b < ks.length; b++) {
    if (bonds.broken[b]) continue;
    out.push(bonds.i[b], bonds.j[b], [bonds.restLength[b], ks[b], kd[b], 0]);
  }
  return out.finish();
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

/** Micromodulus c = 18 K / (π δ⁴) (N/m⁶) of a 3D bond-based PMB solid (Silling & Askari 2005). */
export function micromodulus(bulkModulus: number, horizon: number): number {
  if (!positiveFinite(bulkModulus)) {
    throw new RangeError(`micromodulus: bulkModulus must be finite and > 0, got ${bulkModulus}`);
  }
  if (!positiveFinite(horizon)) {
    throw new RangeError(`micromodulus: horizon must be finite and > 0, got ${horizon}`);
  }
  return (18 * bulkModulus) / (Math.PI * horizon ** 4);
}

/**
 * Critical stretch s0 = √(5 G0 / (9 K δ)) of a 3D PMB solid of fracture energy G0 (J/m²), bulk
 * modulus K and horizon δ: the stretch at which breaking every bond across a plane releases G0
 * per unit area (Silling & Askari 2005).
 */
export function criticalStretch(
  fractureEnergy: number,
  options: { bulkModulus: number; horizon: number },
): number {
  const fn = "criticalStretch";
  if (!positiveFinite(fractureEnergy)) {
    throw new RangeError(`${fn}: fractureEnergy must be finite and > 0, got ${fractureEnergy}`);
  }
  for (const name of ["bulkModulus", "horizon"] as const) {
    if (!positiveFinite(options?.[name])) {
      throw new RangeError(`${fn}: options.${name} must be finite and > 0, got ${options?.[name]}`);
    }
  }
  return Math.sqrt((5 * fractureEnergy) / (9 * options.bulkModulus * options.horizon));
}

/** Inputs of {@link peridynamicConstants}. */
export interface PeridynamicConstantsInput {
  /** Bulk modulus K (Pa, > 0). */
  bulkModulus: number;
  /** Horizon δ (m, > 0). */
  horizon: number;
  /** Lattice spacing h (m, > 0) of the simple cubic sampling. */
  spacing: number;
  /** Density ρ (kg/m³, > 0). */
  density: number;
  /** Fracture energy G0 (J/m², > 0); omitted: no critical stretch (an unbreakable body). */
  fractureEnergy?: number;
  /** Whether bonds carry the partial-volume factor (as with `buildBonds` volumeCorrection). */
  volumeCorrection?: boolean;
}

/** Scene-level derived quantities, from {@link peridynamicConstants}. */
export interface PeridynamicConstants {
  /** c = 18 K / (π δ⁴) (N/m⁶). */
  micromodulus: number;
  /** s0 = √(5 G0 / (9 K δ)), or undefined without a fracture energy. */
  criticalStretch?: number;
  /** V = h³ (m³). */
  volume: number;
  /** m = ρ h³ (kg). */
  mass: number;
  /** ν = 1/4, fixed by the bond-based model (Silling 2000). */
  poissonRatio: number;
  /** E = 3 K (1 − 2ν) = 1.5 K (Pa). */
  youngModulus: number;
  /** μ = 3 K (1 − 2ν) / (2 (1 + ν)) = 0.6 K (Pa). */
  shearModulus: number;
  /** P-wave speed √((K + 4μ/3) / ρ) = √(1.8 K / ρ) (m/s). */
  waveSpeed: number;
  /** Bonds per interior particle of the lattice (its family size). */
  familySize: number;
  /** k = c V² / h: stiffness of a nearest-neighbour bond (N/m). */
  nearestBondStiffness: number;
  /**
   * Stable explicit (central-difference / velocity-Verlet) step of an interior lattice particle,
   * Δt = √(2 ρ / Σ_j V_j β_j c / |ξ_j|) (Silling & Askari 2005, von Neumann stability of the PMB
   * model), over its lattice family. Implicit steps may be much larger.
   */
  explicitTimeStep: number;
}

/**
 * Scene-level constants of a PMB solid sampled on a simple cubic lattice (module doc): elastic
 * moduli at ν = 1/4, micromodulus, critical stretch, particle volume and mass, interior family
 * size, and the explicit stability limit of Silling & Askari 2005.
 */
export function peridynamicConstants(input: PeridynamicConstantsInput): PeridynamicConstants {
  const fn = "peridynamicConstants";
  for (const name of ["bulkModulus", "horizon", "spacing", "density"] as const) {
    if (!positiveFinite(input?.[name])) {
      throw new RangeError(`${fn}: input.${name} must be finite and > 0, got ${input?.[name]}`);
    }
  }
  const { bulkModulus: K, horizon: delta, spacing: h, density: rho } = input;
  const c = micromodulus(K, delta);
  const s0 = input.fractureEnergy === undefined
    ? undefined
    : criticalStretch(input.fractureEnergy, { bulkModulus: K, horizon: delta });
  const V = h * h * h;
  // Lattice family of an interior particle: Σ β / |n| and its size.
  const corr = input.volumeCorrection ?? false;
  const reach = (delta + (corr ? h / 2 : 0)) / h;
  const R = Math.ceil(reach);
  let invSum = 0, family = 0;
  for (let a = -R; a <= R; a++) {
    for (let b = -R; b <= R; b++) {
      for (let q = -R; q <= R; q++) {
        const r = Math.hypot(a, b, q);
        if (r === 0 || r > reach * (1 + HORIZON_TOLERANCE)) continue;
        let beta = 1;
        if (corr && r > delta / h - 0.5) beta = Math.min(1, delta / h + 0.5 - r);
        if (!(beta > HORIZON_TOLERANCE)) continue;
        family++;
        invSum += beta / (r * h);
      }
    }
  }
  const mu = 0.6 * K;
  return {
    micromodulus: c,
    criticalStretch: s0,
    volume: V,
    mass: rho * V,
    poissonRatio: 0.25,
    youngModulus: 1.5 * K,
    shearModulus: mu,
    waveSpeed: Math.sqrt((K + (4 / 3) * mu) / rho),
    familySize: family,
    nearestBondStiffness: (c * V * V) / h,
    explicitTimeStep: Math.sqrt((2 * rho) / (V * c * invSum)),
  };
}
