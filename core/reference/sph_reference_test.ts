import assert from "node:assert/strict";
import fc from "fast-check";
import { sphDensity, sphForces } from "./sph_reference.ts";
import { restMassForSpacing } from "../model/sph_params.ts";
import { poly6, spikyGradient } from "../model/sph_kernels.ts";

/** A lattice of n³ points with the given spacing, xyz interleaved. */
function lattice(n: number, spacing: number): Float64Array {
  const out = new Float64Array(3 * n * n * n);
  let k = 0;
  for (let z = 0; z < n; z++) {
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        out[k++] = x * spacing;
        out[k++] = y * spacing;
        out[k++] = z * spacing;
      }
    }
  }
  return out;
}

const configArb = fc.integer({ min: 2, max: 40 }).chain((n) =>
  fc.record({
    positions: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), {
      minLength: 3 * n,
      maxLength: 3 * n,
    }),
    velocities: fc.array(fc.double({ min: -2, max: 2, noNaN: true }), {
      minLength: 3 * n,
      maxLength: 3 * n,
    }),
    masses: fc.array(fc.double({ min: 0.1, max: 2, noNaN: true }), { minLength: n, maxLength: n }),
    fluid: fc.array(fc.constantFrom(0, 1, 1, 1), { minLength: n, maxLength: n }),
    h: fc.double({ min: 0.2, max: 0.8, noNaN: true }),
    gamma: fc.constantFrom(1, 7),
  })
);

Deno.test("sphForces (brute force reference)", async (t) => {
  await t.step("pairwise forces sum to zero (momentum conservation)", () => {
    fc.assert(
      fc.property(configArb, (c) => {
        // rho0 below the typical density so pressures are positive.
        const params = { h: c.h, rho0: 0.5, stiffness: 3, viscosity: 0.7, gamma: c.gamma };
        const r = sphForces(c, params);
        let scale = 0;
        const total = [0, 0, 0];
        for (let i = 0; i < c.masses.length; i++) {
          for (let k = 0; k < 3; k++) {
            total[k] += r.force[3 * i + k];
            scale = Math.max(scale, Math.abs(r.pressureForce[3 * i + k]));
            scale = Math.max(scale, Math.abs(r.viscosityForce[3 * i + k]));
          }
        }
        for (let k = 0; k < 3; k++) assert.ok(Math.abs(total[k]) <= 1e-12 * (1 + scale));
      }),
      { numRuns: 200 },
    );
  });

  await t.step("non-fluid particles get nothing and change nothing", () => {
    fc.assert(
      fc.property(configArb, (c) => {
        const params = { h: c.h, rho0: 0.5, stiffness: 3, viscosity: 0.7, gamma: c.gamma };
        const all = sphForces(c, params);
        const keep = c.fluid.flatMap((f, i) => (f ? [i] : []));
        const fluidOnly = sphForces({
          positions: keep.flatMap((i) => c.positions.slice(3 * i, 3 * i + 3)),
          velocities: keep.flatMap((i) => c.velocities.slice(3 * i, 3 * i + 3)),
          masses: keep.map((i) => c.masses[i]),
        }, params);
        for (let i = 0; i < c.masses.length; i++) {
          if (c.fluid[i]) continue;
          assert.equal(all.density[i], 0);
          for (let k = 0; k < 3; k++) assert.equal(all.force[3 * i + k], 0);
        }
        keep.forEach((i, a) => {
          assert.equal(all.density[i], fluidOnly.density[a]);
          for (let k = 0; k < 3; k++) {
            assert.equal(all.force[3 * i + k], fluidOnly.force[3 * a + k]);
          }
        });
      }),
      { numRuns: 100 },
    );
  });

  await t.step("two compressed particles repel along their separation", () => {
    const params = { h: 1, rho0: 1, stiffness: 10, viscosity: 0 };
    const r = sphForces({
      positions: [0, 0, 0, 0.3, 0.4, 0],
      velocities: [0, 0, 0, 0, 0, 0],
      masses: [1, 1],
    }, params);
    const rho = poly6(0, 1) + poly6(0.25, 1);
    assert.ok(Math.abs(r.density[0] - rho) < 1e-12);
    const p = 10 * (rho - 1);
    const mag = 2 * (p / (rho * rho)) * spikyGradient(0.5, 1);
    assert.ok(Math.abs(r.force[0] - -mag * 0.6) < 1e-12);
    assert.ok(Math.abs(r.force[1] - -mag * 0.8) < 1e-12);
    assert.ok(Math.abs(r.force[3] - mag * 0.6) < 1e-12);
  });

  await t.step("viscosity pulls velocities together", () => {
    const params = { h: 1, rho0: 100, stiffness: 0, viscosity: 2 };
    const r = sphForces({
      positions: [0, 0, 0, 0.5, 0, 0],
      velocities: [0, 0, 0, 0, 1, 0],
      masses: [1, 1],
    }, params);
    assert.ok(r.force[1] > 0 && r.force[4] < 0);
    assert.equal(r.force[1], -r.force[4]);
  });

  await t.step("argument errors name the argument", () => {
    assert.throws(
      () =>
        sphForces({ positions: [0, 0], velocities: [0, 0, 0], masses: [1] }, {
          h: 1,
          rho0: 1,
          stiffness: 1,
          viscosity: 0,
        }),
      /positions/,
    );
    assert.throws(
      () =>
        sphForces({ positions: [0, 0, 0], velocities: [0, 0, 0], masses: [1] }, {
          h: 0,
          rho0: 1,
          stiffness: 1,
          viscosity: 0,
        }),
      /params\.h/,
    );
    assert.throws(() => sphDensity({ positions: [0, 0, 0], masses: [1] }, { h: -1 }), /params\.h/);
  });
});

Deno.test("restMassForSpacing: a lattice interior has density rho0", async (t) => {
  await t.step("interior density equals rho0 for random spacing and h/spacing", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 2, noNaN: true }),
        fc.double({ min: 1.2, max: 3, noNaN: true }),
        fc.double({ min: 1, max: 2000, noNaN: true }),
        (spacing, ratio, rho0) => {
          const h = ratio * spacing;
          const n = 2 * Math.ceil(ratio) + 3; // odd: the centre particle sees a full support
          const positions = lattice(n, spacing);
          const mass = restMassForSpacing(spacing, h, rho0);
          const centre = (n * n * n - 1) / 2;
          const rho = sphDensity({
            positions,
            masses: new Float64Array(n * n * n).fill(mass),
          }, { h })[centre];
          assert.ok(Math.abs(rho / rho0 - 1) < 1e-12, `ρ = ${rho}, ρ0 = ${rho0}`);
        },
      ),
      { numRuns: 25 },
    );
  });

  await t.step("a compressed lattice has zero net force on its interior (symmetry)", () => {
    const spacing = 0.1;
    const h = 0.2;
    const n = 7;
    const positions = lattice(n, spacing);
    const mass = restMassForSpacing(spacing, h, 1000);
    const r = sphForces({
      positions,
      velocities: new Float64Array(3 * n * n * n),
      masses: new Float64Array(n * n * n).fill(mass),
    }, { h, rho0: 900, stiffness: 1e5, viscosity: 1 });
    const centre = (n * n * n - 1) / 2;
    assert.ok(Math.abs(r.density[centre] - 1000) < 1e-9);
    const side = 3 * (centre - 1); // the neighbour at −x, also interior
    const scale = Math.max(...Array.from(r.pressureForce, Math.abs));
    assert.ok(scale > 0 && r.pressure[centre] > 0);
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(r.force[3 * centre + k]) < 1e-12 * scale);
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(r.force[side + k]) < 1e-12 * scale);
  });
});

Deno.test("domain walls: mirror images (Randles & Libersky 1996 ghost particles)", async (t) => {
  // a 7³ lattice of spacing 0.1 whose first layers sit half a spacing (one radius) from the walls
  // x, y, z = −0.05, as a scene's fluid rests against its domain's walls
  const spacing = 0.1;
  const h = 0.2;
  const n = 7;
  const positions = lattice(n, spacing);
  const masses = new Float64Array(n * n * n).fill(restMassForSpacing(spacing, h, 1000));
  const walls = { min: [-0.05, -0.05, -0.05], max: [10, 10, 10] };
  const corner = 0; // (0, 0, 0): one radius from three walls
  const floor = 3 + 7 * 0 + 49 * 3; // (0.3, 0, 0.3): one radius from the wall y = −0.05 only
  const params = { h, rho0: 900, stiffness: 1e5, viscosity: 1 };
  const still = new Float64Array(3 * n * n * n);

  await t.step("a lattice against the walls reads ρ0 in its wall layer and corner", () => {
    const bare = sphDensity({ positions, masses }, { h });
    const rho = sphDensity({ positions, masses }, { h }, { walls });
    for (const i of [corner, floor]) {
      assert.ok(Math.abs(rho[i] / 1000 - 1) < 1e-12, `ρ ${i} = ${rho[i]}`);
      assert.ok(bare[i] < 900, `without walls ρ ${i} = ${bare[i]} misses its images`);
    }
  });

  await t.step("the wall holds a compressed wall layer: no net pressure force", () => {
    const bare = sphForces({ positions, velocities: still, masses }, params);
    const r = sphForces({ positions, velocities: still, masses }, params, { walls });
    const scale = Math.max(...Array.from(r.pressureForce, Math.abs));
    assert.ok(scale > 0 && r.pressure[floor] > 0);
    for (const i of [corner, floor]) {
      for (let k = 0; k < 3; k++) assert.ok(Math.abs(r.force[3 * i + k]) < 1e-12 * scale);
    }
    assert.ok(bare.force[3 * floor + 1] < -0.01 * scale, "without walls: pushed into the wall");
  });

  await t.step("free slip: sliding along a wall feels no viscosity, moving into it does", () => {
    const along = new Float64Array(3 * n * n * n).map((_, k) => k % 3 === 0 ? 1 : 0);
    const slide = sphForces({ positions, velocities: along, masses }, params, { walls });
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(slide.viscosityForce[3 * floor + k]) < 1e-12);
    const down = new Float64Array(3 * n * n * n).map((_, k) => k % 3 === 1 ? -1 : 0);
    const hit = sphForces({ positions, velocities: down, masses }, params, { walls });
    assert.ok(hit.viscosityForce[3 * floor + 1] > 0, "damps the velocity into the wall");
    const diagonal = sphForces(
      {
        positions,
        velocities: new Float64Array(3 * n * n * n).fill(-1),
        masses,
      },
      params,
      { walls },
    );
    for (let k = 0; k < 3; k++) assert.ok(diagonal.viscosityForce[3 * corner + k] > 0);
  });

  await t.step("walls with min ≥ max are refused, naming the axis", () => {
    assert.throws(
      () => sphDensity({ positions, masses }, { h }, { walls: { min: [0, 1, 0], max: [1, 1, 1] } }),
      /walls must have min\[1\] < max\[1\]/,
    );
  });
});
