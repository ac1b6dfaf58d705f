import assert from "node:assert/strict";
import {
  crackSpeedTimeStep,
  rayleighSpeed,
  WALL_BULK_MODULUS,
  WALL_DENSITY,
} from "./brittle_wall.ts";
import { getScene, sceneIds } from "./catalog.ts";

Deno.test("the crack-speed time step of breakable bodies", async (t) => {
  await t.step("c_R solves the Rayleigh equation of a solid with ν = 1/4 (μ = 0.6 K)", () => {
    for (const [K, rho] of [[1e7, 1000], [3e9, 2400], [5e5, 300]]) {
      const mu = 0.6 * K, lambda = K - (2 / 3) * mu;
      const cs2 = mu / rho, cp2 = (lambda + 2 * mu) / rho;
      const c = rayleighSpeed({ bulkModulus: K, density: rho });
      const x = (c * c) / cs2;
      // (2 − x)² = 4 √(1 − x) √(1 − x c_s²/c_p²), 0 < x < 1
      const residual = (2 - x) ** 2 - 4 * Math.sqrt(1 - x) * Math.sqrt(1 - x * cs2 / cp2);
      assert.ok(Math.abs(residual) < 1e-12, `residual ${residual}`);
      assert.ok(x > 0.8 && x < 0.9, `c_R/c_s = ${Math.sqrt(x)}`);
    }
    assert.throws(() => rayleighSpeed({ bulkModulus: 0, density: 1 }), /bulkModulus/);
    assert.throws(() => crackSpeedTimeStep(-1, { bulkModulus: 1, density: 1 }), /spacing/);
  });

  await t.step("every scene with a breakable body steps at most h / c_R, every scale", () => {
    const material = { bulkModulus: WALL_BULK_MODULUS, density: WALL_DENSITY };
    let checked = 0;
    for (const id of sceneIds()) {
      for (const scale of ["tiny", "small", "medium", "paper"] as const) {
        const scene = getScene(id, { scale });
        const breakable = scene.bodies.filter((b) => b.kind === "solid" && b.breakable);
        for (const body of breakable) {
          if (body.kind !== "solid") continue;
          assert.equal(body.bulkModulus, WALL_BULK_MODULUS, `${id}: the family's material`);
          const bound = crackSpeedTimeStep(body.spacing, material);
          assert.ok(
            scene.dt <= bound * (1 + 1e-12),
            `${id} at ${scale}: dt ${scene.dt} > ${bound}`,
          );
          checked++;
        }
      }
    }
    assert.ok(checked >= 5 * 4, `${checked} breakable bodies checked`);
    // Fig. 5 at small: the bound, not the CFL rule (0.5·r/v_ref = 8.3e-4 s), sets the step
    const fig5 = getScene("fig5-wall", { scale: "small" });
    assertClose(fig5.dt, crackSpeedTimeStep(2 * fig5.radius, material));
  });
});

function assertClose(a: number, b: number): void {
  assert.ok(Math.abs(a - b) <= 1e-12 * Math.abs(b), `${a} ≠ ${b}`);
}
