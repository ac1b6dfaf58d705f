import assert from "node:assert/strict";
import fc from "fast-check";
import {
  forEachMirrorImage,
  latticeRestDensity,
  poly6,
  restMassForSpacing,
  sphDensity,
  sphForces,
  sphPressure,
  spiky,
  spikyGradient,
  suggestSphParams,
  viscosityKernel,
  viscosityLaplacian,
} from "./sph_reference.ts";

/** 4π ∫₀ʰ f(r) r² dr by composite Gauss–Legendre (5 points per interval). */
function radialIntegral(f: (r: number) => number, h: number, intervals = 400): number {
  const xs = [0, -0.5384693101056831, 0.5384693101056831, -0.906179845938664, 0.906179845938664];
  const ws = [
    0.5688888888888889,
    0.47862867049936647,
    0.47862867049936647,
    0.23692688505618908,
    0.23692688505618908,
  ];
  const dr = h / intervals;
  let sum = 0;
  for (let k = 0; k < intervals; k++) {
    const mid = (k + 0.5) * dr;
    for (let q = 0; q < xs.length; q++) {
      const r = mid + 0.5 * dr * xs[q];
      sum += 0.5 * dr * ws[q] * f(r) * r * r;
    }
  }
  return 4 * Math.PI * sum;
}

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

const positiveH = fc.double({ min: 0.01, max: 10, noNaN: true });

Deno.test("SPH kernels (Müller 2003)", async (t) => {
  await t.step("poly6, spiky and viscosity kernels integrate to 1", () => {
    fc.assert(
      fc.property(positiveH, (h) => {
        const kernels: Record<string, (r: number) => number> = {
          poly6: (r) => poly6(r * r, h),
          spiky: (r) => spiky(r, h),
          viscosity: (r) => viscosityKernel(r, h),
        };
        for (const [name, w] of Object.entries(kernels)) {
          const integral = radialIntegral(w, h);
          assert.ok(Math.abs(integral - 1) < 1e-6, `${name}: ∫W dV = ${integral} at h = ${h}`);
        }
      }),
      { numRuns: 30 },
    );
  });

  await t.step("kernels are ≥ 0 inside the support and 0 beyond h", () => {
    fc.assert(
      fc.property(positiveH, fc.double({ min: 0, max: 3, noNaN: true }), (h, q) => {
        const r = q * h;
        for (
          const v of [poly6(r * r, h), spiky(r, h), spikyGradient(r, h), viscosityLaplacian(r, h)]
        ) {
          assert.ok(v >= 0);
          if (r >= h) assert.equal(v, 0);
        }
        if (r > 0) {
          const vk = viscosityKernel(r, h);
          assert.ok(vk >= -1e-12 * viscosityKernel(h / 2, h));
          if (r >= h) assert.equal(vk, 0);
        }
      }),
    );
  });

  await t.step("spikyGradient is −dW/dr and viscosityLaplacian is ∇²W (finite differences)", () => {
    fc.assert(
      fc.property(positiveH, fc.double({ min: 0.05, max: 0.95, noNaN: true }), (h, q) => {
        const r = q * h;
        const e = 1e-5 * h;
        const d1 = (spiky(r + e, h) - spiky(r - e, h)) / (2 * e);
        const g = spikyGradient(r, h);
        assert.ok(Math.abs(-d1 - g) <= 1e-6 * spikyGradient(0, h), `spiky: ${-d1} vs ${g}`);
        const w = (s: number) => viscosityKernel(s, h);
        const wp = (w(r + e) - w(r - e)) / (2 * e);
        const wpp = (w(r + e) - 2 * w(r) + w(r - e)) / (e * e);
        const lap = viscosityLaplacian(r, h);
        assert.ok(
          Math.abs(wpp + (2 * wp) / r - lap) <= 1e-3 * viscosityLaplacian(0, h),
          `viscosity: ${wpp + (2 * wp) / r} vs ${lap}`,
        );
      }),
      { numRuns: 50 },
    );
  });
});

Deno.test("sphPressure: clipped linear and Tait state equations", async (t) => {
  const params = { h: 1, rho0: 1000, stiffness: 200, viscosity: 0 };
  await t.step("linear", () => {
    assert.equal(sphPressure(1100, params), 200 * (1100 / 1000 - 1));
    assert.equal(sphPressure(900, params), 0);
    assert.equal(sphPressure(0, params), 0);
  });
  await t.step("Tait (γ = 7)", () => {
    const p = sphPressure(1010, { ...params, gamma: 7 });
    assert.ok(Math.abs(p - 200 * (Math.pow(1.01, 7) - 1)) < 1e-9);
  });
});

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

  await t.step("correction factor ρ0·spacing³/m at h = 2·spacing is ≈ 1.01", () => {
    const factor = 1000 / restMassForSpacing(1, 2, 1000);
    assert.ok(Math.abs(factor - 1.0098) < 1e-4, `factor ${factor}`);
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

  await t.step("errors name the argument", () => {
    assert.throws(() => restMassForSpacing(0, 1, 1), /spacing/);
    assert.throws(() => restMassForSpacing(1, -1, 1), /h must/);
    assert.throws(() => restMassForSpacing(1, 1, NaN), /rho0/);
  });
});

Deno.test("suggestSphParams", async (t) => {
  await t.step("positive parameters and dtMax · maxSpeed ≤ radius", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-4, max: 1, noNaN: true }),
        fc.double({ min: 1, max: 5000, noNaN: true }),
        fc.double({ min: 1e-3, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.constantFrom(1, 7),
        (radius, rho0, maxSpeed, gravity, gamma) => {
          const s = suggestSphParams({ radius, rho0, maxSpeed, gravity: [0, -gravity, 0], gamma });
          for (const k of ["h", "mass", "stiffness", "viscosity", "dtMax"] as const) {
            assert.ok(s[k] > 0 && Number.isFinite(s[k]), `${k} = ${s[k]}`);
          }
          assert.ok(s.dtMax * maxSpeed <= radius);
          assert.ok(s.dtMax * (s.soundSpeed + maxSpeed) <= 0.4 * s.spacing * (1 + 1e-12));
          assert.ok(Math.abs(s.stiffness * gamma - rho0 * s.soundSpeed ** 2) <= 1e-9 * s.stiffness);
          assert.ok(s.h > s.spacing);
        },
      ),
    );
  });

  await t.step("water-like example", () => {
    const s = suggestSphParams({ radius: 0.01, rho0: 1000, maxSpeed: 3, gravity: 9.81 });
    assert.equal(s.h, 0.04);
    assert.ok(Math.abs(s.mass * 1.0098 - 1000 * 0.02 ** 3) < 1e-4 * s.mass);
    assert.equal(s.soundSpeed, 30);
    assert.ok(s.dtMax < 1e-3 && s.dtMax > 1e-4, `dtMax ${s.dtMax}`);
  });

  await t.step("one speed of sound holds the impact's jump v/c and the head gH/c² to 1/F", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-2, max: 20, noNaN: true }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        fc.double({ min: 0.1, max: 30, noNaN: true }),
        fc.double({ min: 2, max: 100, noNaN: true }),
        (maxSpeed, depth, gravity, factor) => {
          const s = suggestSphParams({
            radius: 0.01,
            rho0: 1000,
            maxSpeed,
            gravity,
            depth,
            soundSpeedFactor: factor,
          });
          const c = s.soundSpeed;
          const jump = maxSpeed / c, head = gravity * depth / (c * c);
          assert.ok(jump <= (1 + 1e-12) / factor, `v/c = ${jump}`);
          assert.ok(head <= (1 + 1e-12) / factor, `gH/c² = ${head}`);
          // the smallest such c: one of the two bounds is met exactly
          assert.ok(Math.abs(Math.max(jump, head) * factor - 1) < 1e-9);
        },
      ),
    );
    // a shallow fall onto a deep pool: the head binds, c = √(F g H)
    const pool = suggestSphParams({
      radius: 0.01,
      rho0: 1000,
      maxSpeed: 0.1,
      gravity: 9.81,
      depth: 1,
    });
    assert.ok(Math.abs(pool.soundSpeed - Math.sqrt(98.1)) < 1e-12);
    // a column falling through its own height: the impact binds (F v ≥ √(F g H) for F ≥ 1/2)
    const column = suggestSphParams({
      radius: 0.01,
      rho0: 1000,
      maxSpeed: Math.sqrt(2 * 9.81 * 0.3),
      gravity: 9.81,
      depth: 0.3,
    });
    assert.equal(column.soundSpeed, 10 * Math.sqrt(2 * 9.81 * 0.3));
  });

  await t.step("errors name the argument", () => {
    assert.throws(() => suggestSphParams({ radius: 1, rho0: 1, maxSpeed: 1, depth: -1 }), /depth/);
    assert.throws(() => suggestSphParams({ radius: 0, rho0: 1, maxSpeed: 1 }), /radius/);
    assert.throws(() => suggestSphParams({ radius: 1, rho0: -1, maxSpeed: 1 }), /rho0/);
    assert.throws(() => suggestSphParams({ radius: 1, rho0: 1, maxSpeed: 0 }), /maxSpeed/);
    assert.throws(
      () => suggestSphParams({ radius: 1, rho0: 1, maxSpeed: 1, gravity: [NaN, 0, 0] }),
      /gravity/,
    );
  });
});

Deno.test("latticeRestDensity: m Σ W(|n| s, h), the lattice's reading; bad arguments named", () => {
  // a water lattice of spacing S with support h = 2 spacings
  const S = 0.02, H = 2 * S, M = 1000 * S ** 3;
  const RHO0 = latticeRestDensity(M, S, H);
  assert.equal(RHO0, M / restMassForSpacing(S, H, 1));
  // 1.0098 ρ0 at h = 2 spacings (sph_reference.ts): the kernel sum is not the kernel integral
  assert.ok(Math.abs(RHO0 / 1000 - 1.0098) < 1e-3, `${RHO0}`);
  assert.throws(() => latticeRestDensity(0, S, H), /particleMass/);
  assert.throws(() => latticeRestDensity(M, -1, H), /spacing/);
  assert.throws(() => latticeRestDensity(M, S, NaN), /h must/);
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

  await t.step("images: 7 near a corner (masks 1..7), none a support away from every wall", () => {
    const masks: number[] = [];
    const near = [0.05, 0.05, 0.05];
    forEachMirrorImage(near, near, {
      walls: { min: [0, 0, 0], max: [1, 1, 1] },
      h,
      visit: (y, mask) => {
        masks.push(mask);
        for (let a = 0; a < 3; a++) assert.equal(y[a], (mask >> a) & 1 ? -0.05 : 0.05);
      },
    });
    assert.deepEqual(masks.sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7]);
    let count = 0;
    forEachMirrorImage([0.5, 0.5, 0.5], [0.45, 0.5, 0.5], {
      walls: { min: [0, 0, 0], max: [1, 1, 1] },
      h,
      visit: () => count++,
    });
    assert.equal(count, 0);
  });

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
