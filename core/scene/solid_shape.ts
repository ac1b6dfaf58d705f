/**
 * The regions a peridynamic solid body is sampled in (`SolidBody.shape`): their bounding boxes and
 * membership tests, one place for the builder (`scene_builder.ts` `sampleSolid`) and the
 * validation (`scene.ts`).
 *
 * - `sphere`: centre and radius;
 * - `box`: min and max corners;
 * - `torus`: lying flat (its axis along y, the hole vertical), centre, major radius R (centre to
 *   the tube's centre line) and minor radius a (the tube's), a < R; the Fig. 8 (top) tori;
 * - `bowl`: a hemispherical shell open upward (+y), the centre of its sphere at the rim's plane,
 *   outer radius R and wall thickness t < R; the Fig. 8 (bottom) bowl.
 *
 * @module
 */
import type { Vec3 } from "../vec3.ts";

/** A solid body's region. */
export type SolidShape =
  | { type: "sphere"; center: Vec3; radius: number }
  | { type: "box"; min: Vec3; max: Vec3 }
  | { type: "torus"; center: Vec3; majorRadius: number; minorRadius: number }
  | { type: "bowl"; center: Vec3; radius: number; thickness: number };

/** The shape types, as `shape.type` names them. */
export const SOLID_SHAPE_TYPES: readonly SolidShape["type"][] = ["sphere", "box", "torus", "bowl"];

/** The axis-aligned bounding box of `shape`. */
export function solidShapeBounds(shape: SolidShape): { min: Vec3; max: Vec3 } {
  const around = (c: Vec3, e: Vec3) => ({
    min: [c[0] - e[0], c[1] - e[1], c[2] - e[2]] as Vec3,
    max: [c[0] + e[0], c[1] + e[1], c[2] + e[2]] as Vec3,
  });
  switch (shape.type) {
    case "box":
      return { min: [...shape.min], max: [...shape.max] };
    case "sphere":
      return around(shape.center, [shape.radius, shape.radius, shape.radius]);
    case "torus": {
      const out = shape.majorRadius + shape.minorRadius;
      return around(shape.center, [out, shape.minorRadius, out]);
    }
    case "bowl": {
      const { center: c, radius: R } = shape;
      return { min: [c[0] - R, c[1] - R, c[2] - R], max: [c[0] + R, c[1], c[2] + R] };
    }
  }
}

/** Whether point `p` lies in `shape` (boundaries included). */
export function solidShapeContains(shape: SolidShape, p: Vec3): boolean {
  switch (shape.type) {
    case "box":
      return [0, 1, 2].every((k) => p[k] >= shape.min[k] && p[k] <= shape.max[k]);
    case "sphere": {
      const d = [0, 1, 2].map((k) => p[k] - shape.center[k]);
      return d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= shape.radius * shape.radius;
    }
    case "torus": {
      const [dx, dy, dz] = [0, 1, 2].map((k) => p[k] - shape.center[k]);
      const ring = Math.hypot(dx, dz) - shape.majorRadius;
      return ring * ring + dy * dy <= shape.minorRadius * shape.minorRadius;
    }
    case "bowl": {
      const [dx, dy, dz] = [0, 1, 2].map((k) => p[k] - shape.center[k]);
      if (dy > 0) return false;
      const d2 = dx * dx + dy * dy + dz * dz;
      const inner = shape.radius - shape.thickness;
      return d2 <= shape.radius * shape.radius && d2 >= inner * inner;
    }
  }
}
