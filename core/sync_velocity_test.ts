import assert from "node:assert/strict";
import fc from "fast-check";
import { syncVelocity } from "./sync_velocity.ts";
import { mergeAll, splitAll, totalBondEnergy } from "./merge_split.ts";
import { kineticEnergy, type Particle } from "./particle.ts";
import { addScaled, dot, norm, scale, type Vec3 } from "./vec3.ts";
import { assertClose, assertCloseVec, RUNS } from "./test_util.ts";

const coord = fc.double({ min: -10, max: 10, noNaN: true, noDefaultInfinity: true });
const vec3 = fc.tuple(coord, coord, coord) as fc.Arbitrary<Vec3>;
const mass = fc.double({ min: -3, max: 3, noNaN: true }).map((e) => 10 ** e);

Deno.test("syncVelocity (Eqs. 17–19)", async (t) => {
  await t.step("momentum-weighted average, and ΔĒk is exactly the energy it loses", () => {
    fc.assert(
      fc.property(mass, vec3, mass, vec3, (m1, vA, m2, vB) => {
        const { v, deltaEk } = syncVelocity(m1, vA, m2, vB);
        const m12 = m1 + m2;
        const p = addScaled(scale(vA, m1), vB, m2);
        assertCloseVec(scale(v, m12), p, { tol: 1e-12, scale: m1 * norm(vA) + m2 * norm(vB) });
        const eBar = 0.5 * m1 * dot(vA, vA) + 0.5 * m2 * dot(vB, vB); // Eq. 18
        assert.ok(deltaEk >= 0);
        assertClose(0.5 * m12 * dot(v, v) + deltaEk, eBar, { tol: 1e-12, scale: eBar });
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("β = 1 restores the synchronisation energy through the split (Eq. 20)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ mass, x: vec3, v: vec3 }), { minLength: 2, maxLength: 16 }),
        vec3,
        vec3,
        (ps: Particle[], vA, vB) => {
          const tree = mergeAll(ps);
          const mA = ps[0].mass; // system A: the first particle; system B: the rest
          const { v, deltaEk } = syncVelocity(mA, vA, tree.mass - mA, vB);
          const vs = splitAll(tree, v, { alpha: 1, beta: 1, deltaEk });
          const got = ps.reduce((e, p, i) => e + kineticEnergy({ ...p, v: vs[i] }), 0);
          const eBar = 0.5 * mA * dot(vA, vA) + 0.5 * (tree.mass - mA) * dot(vB, vB);
          const want = eBar + totalBondEnergy(tree);
          assertClose(got, want, { tol: 1e-10, scale: want });
        },
      ),
      { numRuns: RUNS },
    );
  });

  await t.step("identical velocities store no energy", () => {
    const r = syncVelocity(2, [1, 2, 3], 5, [1, 2, 3]);
    assert.deepEqual(r.v, [1, 2, 3]);
    assert.equal(r.deltaEk, 0);
  });

  await t.step("rejects invalid input, naming the argument", () => {
    assert.throws(() => syncVelocity(0, [0, 0, 0], 1, [0, 0, 0]), {
      name: "RangeError",
      message: /m1/,
    });
    assert.throws(() => syncVelocity(1, [0, 0, 0], NaN, [0, 0, 0]), {
      name: "RangeError",
      message: /m2/,
    });
    assert.throws(() => syncVelocity(1, [0, Infinity, 0], 1, [0, 0, 0]), /vA/);
    assert.throws(() => syncVelocity(1, [0, 0, 0], 1, [0, 0] as unknown as Vec3), {
      name: "TypeError",
      message: /vB/,
    });
  });
});
