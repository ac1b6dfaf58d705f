import assert from "node:assert/strict";
import fc from "fast-check";
import {
  latticeRestDensity,
  restMassForSpacing,
  sphPressure,
  suggestSphParams,
} from "./sph_params.ts";

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

Deno.test("restMassForSpacing", async (t) => {
  await t.step("correction factor ρ0·spacing³/m at h = 2·spacing is ≈ 1.01", () => {
    const factor = 1000 / restMassForSpacing(1, 2, 1000);
    assert.ok(Math.abs(factor - 1.0098) < 1e-4, `factor ${factor}`);
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
  // 1.0098 ρ0 at h = 2 spacings (restMassForSpacing): the kernel sum is not the kernel integral
  assert.ok(Math.abs(RHO0 / 1000 - 1.0098) < 1e-3, `${RHO0}`);
  assert.throws(() => latticeRestDensity(0, S, H), /particleMass/);
  assert.throws(() => latticeRestDensity(M, -1, H), /spacing/);
  assert.throws(() => latticeRestDensity(M, S, NaN), /h must/);
});
