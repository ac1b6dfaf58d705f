// run_tests: one implementation (the hotspots diagnostic)
import assert from "node:assert/strict";
import { Rng } from "../../core/rng.ts";
import { sphDensity } from "../../core/reference/sph_reference.ts";
import { latticeRestDensity } from "../../core/model/sph_params.ts";
import { getScene } from "../../scenes/catalog.ts";
import { acquireGpu } from "../../gpu/runtime/device.ts";
import {
  DENSITY_ERROR_TARGET,
  densityErrors,
  fluidHotspots,
  type HotspotSetup,
  traceHotspots,
} from "./fluid_hotspots.ts";

const r = 0.01, h = 4 * r, spacing = 2 * r, m = 0.008;

/** Fixture: a jittered 6 × 6 × 6 lattice of fluid from (0.05, 0.05, 0.05), a 3 × 3 sheet beside it. */
function fixture() {
  const rng = new Rng(7);
  const fluid: number[] = [];
  for (let a = 0; a < 6; a++) {
    for (let b = 0; b < 6; b++) {
      for (let c = 0; c < 6; c++) {
        fluid.push(...[a, b, c].map((k) => 0.05 + k * spacing + (rng.nextFloat() - 0.5) * 0.2 * r));
      }
    }
  }
  const sheet: number[] = [];
  for (let a = 0; a < 3; a++) {
    for (let c = 0; c < 3; c++) sheet.push(0.17 + a * spacing, 0.12, 0.05 + c * spacing);
  }
  const n = (fluid.length + sheet.length) / 3;
  const pos = new Float64Array(4 * n);
  [...fluid, ...sheet].forEach((v, k) => (pos[4 * Math.floor(k / 3) + (k % 3)] = v));
  const setup: HotspotSetup = {
    radius: r,
    domain: { min: [0.04, 0.04, 0.04], max: [1, 1, 1] },
    fluids: [{ name: "water", start: 0, count: 216, rho0: latticeRestDensity(m, spacing, h) }],
    mass: new Float64Array(n).fill(m),
    others: Array.from({ length: 9 }, (_, k) => 216 + k),
  };
  return { pos, vel: new Float64Array(4 * n), setup, n };
}

Deno.test("densityErrors: the fluid metrics' estimate, as the O(N²) f64 reference", () => {
  const { pos, setup, n } = fixture();
  // squeeze particle 86 (2, 2, 2) onto its +x neighbour: both compressed past the target
  pos[4 * 86] += 1.8 * r;
  const positions = Float64Array.from(
    { length: 3 * n },
    (_, k) => pos[4 * Math.floor(k / 3) + (k % 3)],
  );
  const fluid = Float64Array.from({ length: n }, (_, i) => (i < 216 ? 1 : 0));
  const rho = sphDensity({ positions, masses: setup.mass, fluid }, { h });
  const { error, neighbours } = densityErrors(pos, setup);
  for (let i = 0; i < n; i++) {
    const expected = i < 216 ? Math.max(rho[i] / setup.fluids[0].rho0 - 1, 0) : 0;
    assert.ok(Math.abs(error[i] - expected) <= 1e-12, `particle ${i}: ${error[i]} vs ${expected}`);
    let near = 0;
    for (let j = 0; j < 216 && i < 216; j++) {
      const d2 = [0, 1, 2].reduce((a, k) => a + (pos[4 * i + k] - pos[4 * j + k]) ** 2, 0);
      if (d2 < h * h) near++;
    }
    assert.equal(neighbours[i], near, `particle ${i}'s neighbours`);
  }
  assert.ok(error[86] > DENSITY_ERROR_TARGET, `the squeezed particle reads ${error[86]}`);
});

Deno.test("fluidHotspots: the worst and the fastest particle, and where they are", () => {
  const { pos, vel, setup } = fixture();
  pos[4 * 86] += 1.8 * r; // interior particles squeezed: free (the lattice's centre)
  vel[4 * 5 + 1] = -3; // particle 5 (a = 0, b = 0, c = 5): beside the domain's walls
  const spots = fluidHotspots({ pos, vel }, setup);
  const { error } = densityErrors(pos, setup);
  const worst = error.indexOf(Math.max(...error));
  assert.ok(worst === 86 || worst === 122, `the worst particle is ${worst}`);
  assert.equal(spots.worst.particle, worst);
  assert.equal(spots.worst.error, error[worst]);
  assert.equal(spots.worst.place, "free");
  assert.equal(spots.worst.body, "water");
  assert.equal(spots.fastest.particle, 5);
  assert.equal(spots.fastest.speed, 3);
  assert.equal(spots.fastest.place, "wall");
  assert.ok(spots.fastest.wallRadii < 4, `${spots.fastest.wallRadii} r from a wall`);
  assert.equal(spots.all.body + spots.all.wall + spots.all.free, 216);
  assert.ok(spots.over.free >= 2, "the squeezed particles count past the target");
  // the fluid's corner nearest the sheet, (a, b, c) = (5, 5, 0): particle 210, 3.6 r from the
  // sheet and 1 r from a wall (the body comes first)
  const nearSheet = fluidHotspots({ pos, vel: vel.map((v, k) => (k === 4 * 210 ? 5 : v)) }, setup);
  assert.equal(nearSheet.fastest.particle, 210);
  assert.equal(nearSheet.fastest.place, "body");
  assert.ok(nearSheet.fastest.bodyRadii! < 4);
});

Deno.test({
  name:
    "traceHotspots: samples at the start, every n steps and at the end (tiny, software adapter)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const gpu = await acquireGpu({ adapter: "software" });
    try {
      const scene = getScene("fig4-fluid-cloth", { scale: "tiny" });
      const seen: number[] = [];
      const samples = await traceHotspots(scene, {
        handler: "merge-split",
        steps: 25,
        every: 10,
        gpu,
        onSample: (s) => seen.push(s.step),
      });
      assert.deepEqual(samples.map((s) => s.step), [0, 10, 20, 25]);
      assert.deepEqual(seen, [0, 10, 20, 25]);
      assert.ok(samples[3].fastest.speed > 0, "the column moves");
      assert.equal(samples[3].time, 25 * scene.dt);
    } finally {
      gpu.device.destroy();
    }
  },
});
