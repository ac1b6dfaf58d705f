import assert from "node:assert/strict";
import {
  ballBearing,
  baselineHandlers,
  figureReferences,
  impactReferences,
  levelsBelowLoad,
} from "./baseline_handlers.ts";

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

Deno.test("baseline levels: the static load and one value per figure", async (t) => {
  const spacing = 0.02;
  const ball = { particleMass: 0.008, density: 1000, spacing, h: 0.04 };
  const load = { weight: 41.1, bearing: ballBearing(0.1, spacing) };
  await t.step("a ball's bearing particles: the cap of height 2r over (2r)³", () => {
    // π·(2r)²·(R − 2r/3) / (2r)³ at R = 0.1, 2r = 0.02: 14.66
    assert.ok(Math.abs(load.bearing - Math.PI * 0.0004 * (0.1 - 0.02 / 3) / 8e-6) < 1e-9);
    assert.ok(Math.abs(load.bearing - 14.66) < 0.01, `${load.bearing}`);
  });
  await t.step("k_ref is the larger of the impact's and the load's", () => {
    const slow = impactReferences({ ...ball, speed: 0.99, load });
    // k_load = W/(n·r) = 41.1/(14.66·0.01) ≈ 280 N/m beats m·v²/(2r)² ≈ 19.6 N/m
    assert.ok(Math.abs(slow.kLoad - 41.1 / (load.bearing * 0.01)) < 1e-9);
    assert.equal(slow.kRef, slow.kLoad);
    assert.ok(slow.kImpact < 20 && slow.kImpact > 19);
    assert.equal(slow.pLoad, 41.1 / (load.bearing * spacing ** 2));
    const fast = impactReferences({ ...ball, speed: 10, load });
    assert.equal(fast.kRef, fast.kImpact);
    assert.equal(fast.pDyn, 1000 * 100);
    assert.equal(impactReferences({ ...ball, speed: 1 }).kLoad, 0);
  });
  await t.step("a figure's references are its most demanding scene's, every level shared", () => {
    const low = { ...ball, speed: 0.99, load };
    const high = { ...ball, speed: 2.8, load };
    const refs = figureReferences([low, high]);
    assert.equal(refs.kRef, Math.max(impactReferences(low).kRef, impactReferences(high).kRef));
    assert.equal(refs.pDyn, Math.max(impactReferences(low).pDyn, impactReferences(high).pDyn));
    const a = baselineHandlers(low, { references: refs });
    const b = baselineHandlers(high, { references: refs });
    for (const id of ["penalty-weak", "penalty-strong", "kernel-repulsion-medium"]) {
      assert.deepEqual(a[id], b[id], id);
    }
    assert.throws(() => figureReferences([]), RangeError);
  });
  await t.step("levels that cannot hold the body at rest are named", () => {
    const refs = impactReferences({ ...ball, speed: 0.5, load });
    // penalty-weak = k_load exactly holds it; SPH-based weak = 0.1·p_load does not
    assert.deepEqual(levelsBelowLoad(refs), ["kernel-repulsion-weak"]);
    assert.deepEqual(levelsBelowLoad(impactReferences({ ...ball, speed: 1 })), []);
  });
});
