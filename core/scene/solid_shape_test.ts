import assert from "node:assert/strict";
import { type SolidShape, solidShapeBounds, solidShapeContains } from "./solid_shape.ts";
import { sampleSolid } from "./scene_builder.ts";
import type { SolidBody } from "./scene.ts";
import type { Vec3 } from "../vec3.ts";

const body = (shape: SolidShape, spacing: number): SolidBody => ({
  kind: "solid",
  name: "s",
  shape,
  spacing,
  density: 1000,
  bulkModulus: 1e6,
  fractureEnergy: 1,
  horizon: 3 * spacing,
  breakable: true,
  dampingRatio: 0,
  velocity: [0, 0, 0],
});

const TORUS: SolidShape = {
  type: "torus",
  center: [0.1, 0.2, -0.1],
  majorRadius: 0.1,
  minorRadius: 0.04,
};
const BOWL: SolidShape = { type: "bowl", center: [0, 0.3, 0.05], radius: 0.12, thickness: 0.03 };

Deno.test("solid shapes: torus and bowl", async (t) => {
  await t.step("membership by the definitions", () => {
    const c = TORUS.center;
    assert.ok(solidShapeContains(TORUS, [c[0] + 0.1, c[1], c[2]]), "on the tube's centre line");
    assert.ok(!solidShapeContains(TORUS, c), "the hole");
    assert.ok(!solidShapeContains(TORUS, [c[0] + 0.1, c[1] + 0.041, c[2]]), "above the tube");
    assert.ok(solidShapeContains(TORUS, [c[0], c[1] + 0.039, c[2] - 0.1]), "inside the tube");
    const b = BOWL.center;
    assert.ok(solidShapeContains(BOWL, [b[0], b[1] - 0.105, b[2]]), "the bottom's wall");
    assert.ok(!solidShapeContains(BOWL, [b[0], b[1] - 0.05, b[2]]), "the inside of the bowl");
    assert.ok(!solidShapeContains(BOWL, [b[0] + 0.11, b[1] + 0.001, b[2]]), "above the rim");
    assert.ok(solidShapeContains(BOWL, [b[0] + 0.11, b[1], b[2]]), "the rim");
  });

  await t.step("bounding boxes enclose every sample", () => {
    for (const sh of [TORUS, BOWL]) {
      const { min, max } = solidShapeBounds(sh);
      const pts = sampleSolid(body(sh, 0.01));
      for (let i = 0; i < pts.length; i += 3) {
        for (let k = 0; k < 3; k++) {
          assert.ok(pts[i + k] >= min[k] - 1e-12 && pts[i + k] <= max[k] + 1e-12, `${sh.type}`);
        }
      }
    }
  });

  await t.step("sample counts give the shapes' volumes (fine lattice)", () => {
    const h = 0.004;
    const torus = 2 * Math.PI ** 2 * 0.1 * 0.04 ** 2;
    const bowl = (2 / 3) * Math.PI * (0.12 ** 3 - 0.09 ** 3);
    for (const [sh, v] of [[TORUS, torus], [BOWL, bowl]] as const) {
      const n = sampleSolid(body(sh, h)).length / 3;
      assert.ok(Math.abs(n * h ** 3 / v - 1) < 0.03, `${sh.type}: ${n * h ** 3} m³ vs ${v} m³`);
    }
  });

  await t.step(
    "the samples are exactly the lattice points the shape contains (brute force)",
    () => {
      const h = 0.02;
      for (const sh of [TORUS, BOWL]) {
        const got = sampleSolid(body(sh, h));
        const { min, max } = solidShapeBounds(sh);
        // the lattice sampleSolid places: ⌊extent/h⌋ points per axis, centred in the box
        const n = [0, 1, 2].map((k) => Math.max(1, Math.floor((max[k] - min[k]) / h + 1e-9)));
        const want: number[] = [];
        for (let iy = 0; iy < n[1]; iy++) {
          for (let iz = 0; iz < n[2]; iz++) {
            for (let ix = 0; ix < n[0]; ix++) {
              const p = [ix, iy, iz].map((i, k) =>
                min[k] + (max[k] - min[k] - (n[k] - 1) * h) / 2 + i * h
              ) as unknown as Vec3;
              const [dx, dy, dz] = [0, 1, 2].map((k) => p[k] - sh.center[k]);
              const inside = sh.type === "torus"
                ? (Math.sqrt(dx * dx + dz * dz) - sh.majorRadius) ** 2 + dy * dy <=
                  sh.minorRadius ** 2
                : dy <= 0 && Math.hypot(dx, dy, dz) <= sh.radius &&
                  Math.hypot(dx, dy, dz) >= sh.radius - sh.thickness;
              if (inside) want.push(...p);
            }
          }
        }
        assert.ok(want.length > 30, `${sh.type}: some samples`);
        assert.equal(got.length, want.length, `${sh.type}: count`);
      }
    },
  );
});
