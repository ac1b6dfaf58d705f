import assert from "node:assert/strict";
import { baselineHandlers, impactReferences } from "./baseline_handlers.ts";

Deno.test("baseline levels: one physical rule, decades apart", async (t) => {
  const impact = { particleMass: 0.008, density: 1000, speed: 4, spacing: 0.02, h: 0.04 };
  const { kRef, pDyn } = impactReferences(impact);
  await t.step("k_ref stops one particle at the impact speed within one diameter", () => {
    // ½·k_ref·(2r)² = ½·m·v²
    const stored = 0.5 * kRef * impact.spacing ** 2;
    const kinetic = 0.5 * impact.particleMass * impact.speed ** 2;
    assert.ok(Math.abs(stored - kinetic) < 1e-12 * kinetic, `${stored} vs ${kinetic}`);
    assert.equal(pDyn, 1000 * 16);
  });
  await t.step("penalty 1, 10, 100 × k_ref; SPH-based 0.1, 1, 10 × p_dyn", () => {
    const h = baselineHandlers(impact);
    const k = (id: string) => h[id].stiffness as number;
    for (const [id, f] of [["weak", 1], ["medium", 10], ["strong", 100]] as const) {
      assert.ok(Math.abs(k(`penalty-${id}`) / kRef - f) < 1e-12, id);
    }
    for (const [id, f] of [["weak", 0.1], ["medium", 1], ["strong", 10]] as const) {
      assert.ok(Math.abs(k(`kernel-repulsion-${id}`) / pDyn - f) < 1e-12, id);
    }
  });
});
