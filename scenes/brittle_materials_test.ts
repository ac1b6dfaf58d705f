import assert from "node:assert/strict";
import {
  BRITTLE_MATERIALS,
  brittleMaterial,
  fractureEnergyOfToughness,
  peridynamicModuli,
} from "./brittle_materials.ts";
import { crackSpeedTimeStep, rayleighSpeed, WALL_BULK_MODULUS } from "./brittle_wall.ts";
import { getScene, hasBrittleMaterial, sceneIds } from "./catalog.ts";
import type { Scene } from "../core/scene/scene.ts";

Deno.test("brittle materials: bond-based moduli and fracture energies from the measured figures", () => {
  // G0 = K_Ic²(1 − ν²)/E with ν = 1/4: the values the module's sources give
  assert.ok(Math.abs(fractureEnergyOfToughness(0.1e6, 9.3e9) - 1.0081) < 1e-4);
  const expected: Record<string, { K: number; G0: number; cR: [number, number] }> = {
    ice: { K: 6.2e9, G0: 1.008, cR: [1840, 1860] },
    concrete: { K: 2e10, G0: 100, cR: [2050, 2060] },
    glass: { K: 70e9 / 1.5, G0: 7.53, cR: [3070, 3085] },
    snow: { K: 1e7, G0: 0.0625, cR: [129, 131] },
  };
  assert.deepEqual(Object.keys(BRITTLE_MATERIALS).sort(), Object.keys(expected).sort());
  for (const [id, want] of Object.entries(expected)) {
    const m = brittleMaterial(id);
    assert.equal(m.id, id);
    assert.ok(m.source.length > 40, `${id} names its source`);
    const p = peridynamicModuli(m);
    assert.ok(Math.abs(p.bulkModulus / want.K - 1) < 1e-12, `${id}: K = E/1.5`);
    assert.ok(Math.abs(p.fractureEnergy / want.G0 - 1) < 2e-3, `${id}: G0 ${p.fractureEnergy}`);
    assert.equal(p.density, m.density);
    const cR = rayleighSpeed(p);
    assert.ok(cR > want.cR[0] && cR < want.cR[1], `${id}: c_R ${cR}`);
  }
  assert.throws(() => brittleMaterial("wood"), /unknown brittle material "wood"; known: ice,/);
  assert.throws(() => brittleMaterial("toString"), /unknown brittle material "toString"/);
});

Deno.test("brittle materials: the breakable bodies of Figs. 5, 6, 8 and 9 built of one", () => {
  const ids = [
    "fig5-wall",
    "fig6-wall",
    "fig9-flip-peridynamics",
    "fig8-dam-break-wall",
    "fig8-bowl",
  ];
  assert.deepEqual(sceneIds().filter(hasBrittleMaterial).sort(), [...ids].sort());
  const breakable = (s: Scene) => s.bodies.find((b) => b.kind === "solid" && b.breakable);
  for (const id of ids) {
    for (const material of ["ice", "concrete"]) {
      const scene = getScene(id, { scale: "small", material });
      const m = peridynamicModuli(brittleMaterial(material));
      const wall = breakable(scene);
      assert.ok(wall?.kind === "solid" && wall.breakable);
      assert.equal(wall.density, m.density);
      assert.equal(wall.bulkModulus, m.bulkModulus);
      // the material's G0, not the family's rule
      assert.equal(wall.fractureEnergy, m.fractureEnergy, `${id} × ${material}: G0`);
      assert.equal(wall.horizon, 3 * wall.spacing);
      // the crack-speed step of the material binds (26–29× shorter than the family's)
      const bound = crackSpeedTimeStep(wall.spacing, m);
      assert.ok(Math.abs(scene.dt / bound - 1) < 1e-12, `${id} × ${material}: dt ${scene.dt}`);
      assert.match(scene.notes ?? "", new RegExp(`\\(${material}\\)`));
      const ball = scene.bodies.find((b) => b.name === "ball");
      if (id === "fig5-wall" || id === "fig6-wall") {
        // the ball stays 20× as dense as the wall and as stiff
        assert.ok(ball?.kind === "solid" && !ball.breakable);
        assert.ok(Math.abs(ball.density / (20 * m.density) - 1) < 1e-12);
        assert.equal(ball.bulkModulus, m.bulkModulus);
      }
    }
    // without one: the family's material
    const family = breakable(getScene(id, { scale: "small" }));
    assert.ok(family?.kind === "solid");
    assert.equal(family.bulkModulus, WALL_BULK_MODULUS);
  }
  assert.throws(
    () => getScene("fig4-fluid-cloth", { scale: "tiny", material: "ice" }),
    /scene "fig4-fluid-cloth" has no breakable body to give a material; scenes with one: fig5-wall/,
  );
  assert.throws(
    () => getScene("fig5-wall", { scale: "tiny", material: "wood" }),
    /unknown brittle material "wood"/,
  );
});
