/**
 * Turns a validated {@link Scene} into particle arrays (structure of arrays, f64), the springs of
 * its cloths and the bonds of its peridynamic solids: the initial state every system and handler
 * starts from.
 *
 * @module
 */
import { buildClothSprings } from "../model/cloth_springs.ts";
import { bondSpringTable, buildBonds } from "../model/peridynamic_bonds.ts";
import { type PeridynamicConstants, peridynamicConstants } from "../model/peridynamic_constants.ts";
import { Rng } from "../rng.ts";
import { SpringTable, SpringTableBuilder } from "../model/spring_table.ts";
import type { Body, ClothBody, FluidBody, Scene, SolidBody } from "./scene.ts";
import { solidShapeBounds, solidShapeContains } from "./solid_shape.ts";
import type { Vec3 } from "../vec3.ts";

/** Which kind of body a range of particles is (the body's `kind`). */
export type SystemKind = "cloth" | "fluid" | "solid";

/** A body's particles: `[start, start + count)` in the global arrays. */
export interface BodyRange {
  name: string;
  kind: SystemKind;
  start: number;
  count: number;
  /** For cloths: the grid, so particle (r, c) is `start + r * cols + c`. */
  rows?: number;
  cols?: number;
  /** For solids: the lattice spacing h (m). */
  spacing?: number;
  /**
   * For solids: whether its bonds can break (the body's `breakable`). Fragment statistics count
   * the particles of breakable bodies only: an unbreakable projectile is no fragment.
   */
  breakable?: boolean;
}

/**
 * Whether `body` is a breakable solid: the bodies whose particles the fragment statistics and the
 * snapshots' fragment labels count (an unbreakable projectile, cloth and fluid are no fragment).
 */
export function isBreakableSolid(body: BodyRange | undefined): boolean {
  return body?.kind === "solid" && body.breakable === true;
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
  /**
   * Springs of every cloth and the bonds of every solid, in body order, as columns
   * (`breakStretch` set on breakable bodies' bonds), in global particle indices.
   */
  springs: SpringTable;
}

/**
 * The RNG streams of the bodies' placements: above any body index, which the fluids' per-sample
 * jitter uses as its stream, so a placement never reuses a fluid's draws.
 */
const PLACEMENT_STREAM = 1 << 20;

/**
 * The seeded rigid displacement of body `index` of `scene` (m): x and z each uniform in
 * ±`scene.placementJitter`·radius, y zero (a drop height, a resting contact, are kept); zero for a
 * fluid (jittered per sample instead) and for a body with pinned particles (a pinned cloth's or
 * wall's place is the scene's frame).
 */
export function placementOffset(scene: Scene, index: number): Vec3 {
  const b = scene.bodies[index];
  const jitter = scene.placementJitter ?? 0;
  const pinned = b.kind === "fluid" || (b.kind === "cloth" ? b.pinned !== "none" : b.pinned);
  if (jitter === 0 || pinned) return [0, 0, 0];
  const rng = new Rng(scene.seed, { stream: PLACEMENT_STREAM + index });
  const draw = () => jitter * scene.radius * (2 * rng.nextFloat() - 1);
  const dx = draw();
  return [dx, 0, draw()];
}

/** Adds `offset` to every point of `xyz` (interleaved), in place. */
function translate(xyz: number[], offset: Vec3): void {
  if (offset[0] === 0 && offset[1] === 0 && offset[2] === 0) return;
  for (let k = 0; k < xyz.length; k++) xyz[k] += offset[k % 3];
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

/**
 * Lattice samples of a solid body (xyz interleaved): the simple cubic lattice of its spacing h
 * centred in the shape's bounding box exactly as {@link sampleFluid} places it (⌊extent/h⌋ samples
 * per axis, y slowest, then z, then x), no jitter; the samples the shape contains
 * (`solid_shape.ts`: all of a box's; a sphere's, torus's or bowl's within it).
 */
export function sampleSolid(body: SolidBody): number[] {
  const s = body.spacing;
  const sh = body.shape;
  const { min, max } = solidShapeBounds(sh);
  const n = [0, 1, 2].map((k) => Math.max(1, Math.floor((max[k] - min[k]) / s + 1e-9)));
  const off = [0, 1, 2].map((k) => min[k] + (max[k] - min[k] - (n[k] - 1) * s) / 2);
  const pts: number[] = [];
  for (let iy = 0; iy < n[1]; iy++) {
    for (let iz = 0; iz < n[2]; iz++) {
      for (let ix = 0; ix < n[0]; ix++) {
        const p: Vec3 = [off[0] + ix * s, off[1] + iy * s, off[2] + iz * s];
        if (sh.type !== "box" && !solidShapeContains(sh, p)) continue;
        pts.push(p[0], p[1], p[2]);
      }
    }
  }
  return pts;
}

/**
 * Constants of a solid body (`peridynamicConstants` of `core/model/peridynamic_constants.ts` with the
 * partial-volume correction the builder uses): micromodulus c = 18 K / (π δ⁴), critical stretch
 * s0 = √(5 G0 / (9 K δ)) (defined even for an unbreakable body, which ignores it), particle volume
 * h³ and mass ρ h³, moduli, wave speed, family size and explicit stable step.
 */
export function solidConstants(
  body: SolidBody,
): PeridynamicConstants & { criticalStretch: number } {
  return peridynamicConstants({
    bulkModulus: body.bulkModulus,
    horizon: body.horizon,
    spacing: body.spacing,
    density: body.density,
    fractureEnergy: body.fractureEnergy,
    volumeCorrection: true,
  }) as PeridynamicConstants & { criticalStretch: number };
}

/**
 * Bonds of a solid body whose particles are `positions` (xyz, local indices from 0) as a spring
 * table in global indices (`first` + local): every pair within the horizon (`buildBonds` with the
 * partial-volume correction at the body's spacing, so within δ + h/2), stiffness c β V² / L,
 * damping from the body's damping ratio (`bondSpringTable`), and `breakStretch` = s0 when the body
 * is breakable. Order: ascending i, then ascending j.
 */
export function solidBonds(
  body: SolidBody,
  positions: ArrayLike<number>,
  first = 0,
): SpringTable {
  const k = solidConstants(body);
  const bonds = buildBonds(positions, {
    horizon: body.horizon,
    volumeCorrection: { spacing: body.spacing },
  });
  const springs = bondSpringTable(bonds, {
    micromodulus: k.micromodulus,
    volume: k.volume,
    dampingRatio: body.dampingRatio,
    masses: k.mass,
    particleCount: positions.length / 3,
  });
  for (let b = 0; b < springs.length; b++) {
    springs.i[b] += first;
    springs.j[b] += first;
  }
  if (body.breakable) springs.breakStretch.fill(k.criticalStretch);
  return springs;
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

/**
 * Builds the particles and springs (cloth springs and solid bonds) of a scene, bodies in scene
 * order.
 */
export function buildParticles(scene: Scene): ParticleSet {
  const xs: number[] = [];
  const vs: number[] = [];
  const mass: number[] = [];
  const body: number[] = [];
  const pinned: number[] = [];
  const ranges: BodyRange[] = [];
  const springs = new SpringTableBuilder();
  scene.bodies.forEach((b: Body, bi) => {
    const start = mass.length;
    if (b.kind === "cloth") {
      const c = clothParticles(b);
      translate(c.x, placementOffset(scene, bi));
      // no spread (push(...)): a cloth at paper scale has more elements than a call takes
      for (const v of c.x) xs.push(v);
      for (const v of c.pinned) pinned.push(v);
      for (let k = 0; k < c.pinned.length; k++) vs.push(0, 0, 0);
      const clothSprings = buildClothSprings({
        rows: b.rows,
        cols: b.cols,
        spacing: b.spacing,
        structural: b.stretch,
        shear: b.shear,
        bend: b.bend,
        damping: b.damping,
        first: start,
      });
      springs.append(SpringTable.from(clothSprings));
    } else if (b.kind === "solid") {
      const pts = sampleSolid(b);
      springs.append(solidBonds(b, pts, start)); // rest lengths of the lattice as sampled
      translate(pts, placementOffset(scene, bi));
      for (const c of pts) xs.push(c); // no spread: solids may hold many particles and bonds
      const box = b.pinned;
      for (let k = 0; k < pts.length; k += 3) {
        vs.push(...b.velocity);
        let pin = box !== undefined;
        for (let a = 0; a < 3 && pin; a++) {
          pin = pts[k + a] >= box!.min[a] && pts[k + a] <= box!.max[a];
        }
        pinned.push(+pin);
      }
    } else {
      const pts = sampleFluid(b, { seed: scene.seed, stream: bi });
      for (const c of pts) xs.push(c); // no spread: a fluid may hold a million particles
      for (let k = 0; k < pts.length / 3; k++) {
        vs.push(...b.velocity);
        pinned.push(0);
      }
    }
    const count = xs.length / 3 - start;
    const m = b.kind === "solid" ? solidConstants(b).mass : b.particleMass;
    for (let k = 0; k < count; k++) {
      mass.push(m);
      body.push(bi);
    }
    ranges.push({
      name: b.name,
      kind: b.kind,
      start,
      count,
      ...(b.kind === "cloth" ? { rows: b.rows, cols: b.cols } : {}),
      ...(b.kind === "solid" ? { spacing: b.spacing, breakable: b.breakable } : {}),
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
    springs: springs.finish(),
  };
}
