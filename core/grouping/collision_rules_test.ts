import assert from "node:assert/strict";
import fc from "fast-check";
import { collides, findCollisions, type Pair, pairKey } from "./collision_rules.ts";
import type { Particle } from "../particle.ts";
import type { Vec3 } from "../vec3.ts";
import { RUNS } from "../test_util.ts";

const p = (x: Vec3, v: Vec3 = [0, 0, 0]): Particle => ({ mass: 1, x, v });

Deno.test("collision rules (Eqs. 21–22)", async (t) => {
  await t.step("intersecting and approaching: collide", () => {
    const r = collides(p([0, 0, 0], [1, 0, 0]), 0.5, p([0.9, 0, 0], [0, 0, 0]), 0.5);
    assert.deepEqual(r, { intersect: true, approaching: true, collide: true, marked: false });
  });
  await t.step("intersecting but separating: marked, not merged in stage 1", () => {
    const r = collides(p([0, 0, 0], [-1, 0, 0]), 0.5, p([0.9, 0, 0]), 0.5);
    assert.deepEqual(r, { intersect: true, approaching: false, collide: false, marked: true });
  });
  await t.step("resting in contact (no relative velocity): marked", () => {
    assert.equal(collides(p([0, 0, 0]), 0.5, p([0.9, 0, 0]), 0.5).marked, true);
  });
  await t.step("touching exactly (|x2 − x1| = r1 + r2) is not an intersection", () => {
    assert.equal(collides(p([0, 0, 0], [1, 0, 0]), 0.5, p([1, 0, 0]), 0.5).intersect, false);
  });
  await t.step("symmetric in the two particles", () => {
    const coord = fc.double({ min: -2, max: 2, noNaN: true });
    const v3 = fc.tuple(coord, coord, coord) as fc.Arbitrary<Vec3>;
    const r = fc.double({ min: 0.1, max: 1, noNaN: true });
    fc.assert(
      fc.property(v3, v3, v3, v3, r, r, (x1, v1, x2, v2, r1, r2) => {
        assert.deepEqual(
          collides(p(x1, v1), r1, p(x2, v2), r2),
          collides(p(x2, v2), r2, p(x1, v1), r1),
        );
      }),
      { numRuns: RUNS },
    );
  });
  await t.step("rejects invalid radii and particles, naming them", () => {
    assert.throws(() => collides(p([0, 0, 0]), 0, p([1, 0, 0]), 1), {
      name: "RangeError",
      message: /r1/,
    });
    assert.throws(() => collides(p([0, 0, 0]), 1, p([NaN, 0, 0]), 1), /p2\.x/);
  });
});

Deno.test("findCollisions (brute-force reference)", async (t) => {
  const coord = fc.double({ min: 0, max: 3, noNaN: true });
  const v3 = fc.tuple(coord, coord, coord) as fc.Arbitrary<Vec3>;
  const vel = fc.tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  ) as fc.Arbitrary<Vec3>;
  const cloud = fc.array(fc.tuple(v3, vel), { minLength: 0, maxLength: 40 });

  await t.step("agrees with the rules pair by pair, sorted, bonded pairs excluded", () => {
    fc.assert(
      fc.property(cloud, fc.integer({ min: 0, max: 1000 }), (pts, salt) => {
        const ps = pts.map(([x, v]) => p(x, v));
        const bonded: Pair[] = [];
        for (let i = 0; i + 1 < ps.length; i += 1 + (salt % 3)) bonded.push([i + 1, i]);
        const bondSet = new Set(bonded.map(([i, j]) => pairKey(i, j)));
        const { pairs, marked } = findCollisions(ps, { radius: 0.4, bonded });
        const want: Pair[] = [];
        const wantMarked: Pair[] = [];
        for (let i = 0; i < ps.length; i++) {
          for (let j = i + 1; j < ps.length; j++) {
            if (bondSet.has(pairKey(i, j))) continue;
            const r = collides(ps[i], 0.4, ps[j], 0.4);
            if (r.collide) want.push([i, j]);
            if (r.marked) wantMarked.push([i, j]);
          }
        }
        assert.deepEqual(pairs, want);
        assert.deepEqual(marked, wantMarked);
        for (const [i, j] of [...pairs, ...marked]) assert.ok(!bondSet.has(pairKey(i, j)));
      }),
      { numRuns: 200 },
    );
  });

  await t.step("bodies without self-collision skip their own pairs", () => {
    const ps = [p([0, 0, 0], [1, 0, 0]), p([0.5, 0, 0]), p([0.2, 0.2, 0], [0, -1, 0])];
    const all = findCollisions(ps, { radius: 0.3 });
    assert.equal(all.pairs.length, 3);
    const fluidOnly = findCollisions(ps, {
      radius: 0.3,
      body: [0, 0, 1],
      selfCollision: (b) => b !== 0,
    });
    assert.deepEqual(fluidOnly.pairs, [[0, 2], [1, 2]]);
  });

  await t.step("rejects a body array of the wrong length", () => {
    assert.throws(
      () => findCollisions([p([0, 0, 0])], { radius: 1, body: [0, 1] }),
      /options\.body/,
    );
    assert.throws(() => findCollisions([p([0, 0, 0])], { radius: [-1] }), /options\.radius\[0\]/);
  });
});
