/**
 * The bonds of bond-based peridynamic solids (the prototype microelastic brittle "PMB" material;
 * Silling 2000; Silling & Askari 2005): which particle pairs are bonded, and each bond as the
 * Hookean spring it equals (Levine et al. 2014, the paper's reference [1]). The scene builder
 * gives a solid's bonds to the GPU spring network as a spring table; the f64 reference computes
 * forces, energy and breaking on them.
 *
 * - A bond joins every pair (i, j) of the same body whose reference distance |ξ| = |X_j − X_i| is
 *   at most the horizon δ (typically δ ≈ 3h), found once, in the reference configuration.
 * - The PMB bond force F_i = c s V_i V_j ê (micromodulus c, stretch s = (l − L)/L, L = |ξ|) is a
 *   spring's, k_ij (l − L) with k_ij = c V_i V_j / L.
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
 * @module
 */
import { ColumnBuilder } from "./column_builder.ts";
import { type SpringTable, SpringTableBuilder } from "./spring_table.ts";
import {
  checkPerBody,
  nonNegativeFinite,
  particleCountOf,
  type PerBody,
  perBodyValue,
  perParticle,
  positiveFinite,
} from "./peridynamic_inputs.ts";

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
  /** 1 once the bond has broken (irreversible: `updateBroken` of the f64 reference); 0 while intact. */
  broken: Uint8Array;
}

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
export function distance(positions: ArrayLike<number>, i: number, j: number): number {
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
export function checkBonds(bonds: Bonds, n: number, fn: string): number {
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
  /** Micromodulus c (N/m⁶, ≥ 0), one for all bodies or per body id (`micromodulus` of `core/model/peridynamic_constants.ts`). */
  micromodulus: PerBody<number>;
  /** Particle volume V_i (m³, > 0): one for all particles or one per particle (length N). */
  volume: number | ArrayLike<number>;
}

/** Bond damping, for {@link bondDamping}, {@link bondSpringTable} and the f64 reference's bond forces. */
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

/**
 * The spring stiffness k_ij = c β V_i V_j / L of every bond ({@link bondStiffness}), its errors
 * naming `fn`.
 */
export function stiffnessOf(
  bonds: Bonds,
  n: number,
  material: BondMaterial,
  fn: string,
): Float64Array {
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

/**
 * The damping coefficient of every bond from `options` and the stiffnesses `ks`
 * ({@link bondDamping}), its errors naming `fn`.
 */
export function dampingOf(
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
