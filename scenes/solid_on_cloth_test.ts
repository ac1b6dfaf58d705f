import assert from "node:assert/strict";
import { ballBulkModulus, CLOTH_STRAIN_MAX, clothStretchForLoad } from "./solid_on_cloth.ts";
import { getScene } from "./catalog.ts";
import { SCALES } from "../core/scene/scene.ts";

/** The strain ε at which springs k carry weight W on a disc of radius a (the cone's equilibrium). */
function coneStrain(k: number, weight: number, a: number): number {
  const lift = (eps: number) => 2 * Math.PI * a * k * eps * Math.sqrt(1 - 1 / (1 + eps) ** 2);
  let lo = 0, hi = 10;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (lift(mid) < weight) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

function cloth(id: string, scale: (typeof SCALES)[number]) {
  const body = getScene(id, { scale }).bodies.find((b) => b.kind === "cloth");
  assert.ok(body?.kind === "cloth", `${id} has a cloth`);
  return body;
}

Deno.test("ball-on-cloth scenes: a cloth stiff enough for the ball it carries", async (t) => {
  await t.step("clothStretchForLoad: the cone carries the weight at the strain asked for", () => {
    for (const [weight, a, eps] of [[4109, 0.1, 0.1], [41, 0.1, 0.1], [100, 0.05, 0.02]]) {
      const k = clothStretchForLoad(weight, { contactRadius: a, strain: eps });
      assert.ok(Math.abs(coneStrain(k, weight, a) - eps) < 1e-9 * eps, `${weight} N on ${a} m`);
      // twice the weight needs twice the springs; a stiffer cloth strains less
      const k2 = clothStretchForLoad(2 * weight, { contactRadius: a, strain: eps });
      assert.ok(Math.abs(k2 / k - 2) < 1e-12);
      assert.ok(coneStrain(2 * k, weight, a) < eps);
    }
    assert.equal(clothStretchForLoad(0, { contactRadius: 0.1 }), 0);
    assert.throws(() => clothStretchForLoad(1, { contactRadius: 0 }), /options.contactRadius/);
  });

  await t.step("Fig. 7's three ratios share the cloth that carries the 100× ball", () => {
    const weight = 1000 * 100 * (4 / 3) * Math.PI * 0.1 ** 3 * 9.81;
    for (const scale of SCALES) {
      const [c1, c10, c100] = [1, 10, 100].map((r) => cloth(`fig7-mass-${r}`, scale));
      assert.deepEqual(c1, c10);
      assert.deepEqual(c1, c100);
      // the ratio-100 ball strains it by CLOTH_STRAIN_MAX in the cone model
      assert.ok(Math.abs(coneStrain(c100.stretch, weight, 0.1) - CLOTH_STRAIN_MAX) < 1e-9);
      assert.ok(c100.stretch > 7 * 2e4 && c100.stretch < 8 * 2e4, `${c100.stretch}`);
      assert.equal(c100.shear / c100.stretch, 0.5);
      assert.equal(c100.bend, 2e3);
    }
  });

  await t.step("every ball has the same wave speed, so the same impact strain", () => {
    for (const ratio of [1, 10, 100]) {
      for (const scale of SCALES) {
        const ball = getScene(`fig7-mass-${ratio}`, { scale }).bodies.find((b) =>
          b.kind === "solid"
        );
        assert.ok(ball?.kind === "solid");
        assert.equal(ball.density, 1000 * ratio);
        assert.equal(ball.bulkModulus, 1e6 * ratio);
        // K/ρ = 1000 m²/s²: the strain ρv²/K of a 3 m/s impact is 0.9 %
        assert.ok(Math.abs(ball.density * 9 / ball.bulkModulus - 0.009) < 1e-15);
      }
    }
    const fig3 = getScene("fig3-ball-cloth-high", { scale: "small" }).bodies[1];
    assert.ok(fig3.kind === "solid" && fig3.bulkModulus === 1e6);
    assert.equal(ballBulkModulus(1000), 1e6);
    assert.throws(() => ballBulkModulus(0), /density must be > 0/);
  });

  await t.step("Fig. 3's ball needs no more than the fluid scenes' cloth", () => {
    for (const scale of SCALES) {
      const c = cloth("fig3-ball-cloth-high", scale);
      const fluid = cloth("fig4-fluid-cloth", scale);
      assert.deepEqual([c.stretch, c.shear, c.bend], [fluid.stretch, fluid.shear, fluid.bend]);
    }
  });
});
