import assert from "node:assert/strict";
import fc from "fast-check";
import { findCollisions, type Pair } from "../grouping/collision_rules.ts";
import type { Particle } from "../particle.ts";
import { assertClose, assertCloseVec, RUNS } from "../test_util.ts";
import { add, dot, norm, scale, sub, type Vec3, ZERO } from "../vec3.ts";
import { projectionPair, velocityProjection } from "./velocity_projection_reference.ts";

const coord = (lo: number, hi: number) => fc.double({ min: lo, max: hi, noNaN: true });
const vec = (lo: number, hi: number) =>
  fc.tuple(coord(lo, hi), coord(lo, hi), coord(lo, hi)) as fc.Arbitrary<Vec3>;
const particle = fc.record({
  mass: coord(0.1, 10),
  x: vec(0, 1.5),
  v: vec(-2, 2),
}) as fc.Arbitrary<Particle>;
const cloud = fc.array(particle, { minLength: 2, maxLength: 30 });

const momentum = (ps: readonly Particle[], vs: readonly Vec3[]) =>
  vs.reduce((acc, v, i) => add(acc, scale(v, ps[i].mass)), ZERO as Vec3);
const maxMomentum = (ps: readonly Particle[]) =>
  Math.max(1e-300, ...ps.map((p) => p.mass * norm(p.v)));

/** Kinds of a salt: bodies 0 and 2 solid, body 1 fluid (no self-collision), bonds, pins. */
function kinds(n: number, salt: number) {
  const bonded: Pair[] = [];
  for (let i = salt % 3; i + 1 < n; i += 3) bonded.push([i, i + 1]);
  const body = Array.from({ length: n }, (_, i) => (i * 7 + salt) % 3);
  return {
    bonded,
    body,
    selfCollision: (b: number) => b !== 1,
    fluid: body.map((b) => b === 1),
    pinned: body.map((b, i) => b === 2 && (i + salt) % 4 === 0),
  };
}

const p = (x: Vec3, v: Vec3, mass = 1): Particle => ({ mass, x, v });

Deno.test("velocity projection (Gao et al. 2018, Eqs. 19–20)", async (t) => {
  await t.step(
    "head-on, equal masses: the fluid takes the solid's normal velocity (Eq. 19)",
    () => {
      // fluid at x = 0.5 moving towards the solid at the origin; tangential parts untouched
      const ps = [p([0, 0, 0], [0.25, 0, 0.5]), p([0.5, 0, 0], [-1, 0.75, 0])];
      const v = velocityProjection(ps, { radius: 0.3, fluid: [false, true] });
      // n̂ = +x, w = −1.25: fluid normal velocity −1 − (−1.25) = 0.25; solid recoils by −1.25
      assertCloseVec(v[1], [0.25, 0.75, 0], { tol: 1e-15 });
      assertCloseVec(v[0], [-1, 0, 0.5], { tol: 1e-15 });
      const pair = projectionPair(ps[1], ps[0])!;
      assert.deepEqual(pair.normal, [1, 0, 0]);
      assert.equal(pair.normalVelocity, -1.25);
    },
  );

  await t.step("a heavy solid barely moves; a pinned one does not move at all", () => {
    const ps = [p([0, 0, 0], [0, 0, 0], 1e6), p([0, 0.4, 0], [0.3, -2, 0], 1)];
    const v = velocityProjection(ps, { radius: 0.3, fluid: [false, true] });
    assertCloseVec(v[1], [0.3, 0, 0], { tol: 1e-15 });
    assertCloseVec(v[0], [0, -2e-6, 0], { tol: 1e-15 });
    const w = velocityProjection(ps, { radius: 0.3, fluid: [false, true], pinned: [true, false] });
    assert.deepEqual(w[0], [0, 0, 0]);
    assertCloseVec(w[1], [0.3, 0, 0], { tol: 1e-15 });
    const none = velocityProjection(ps, {
      radius: 0.3,
      fluid: [false, true],
      pinned: [0, 1].map(Boolean),
    });
    assert.deepEqual(none, ps.map((q) => q.v), "a pinned fluid particle processes no pair");
  });

  await t.step("total momentum is conserved for any contacts (no pins)", () => {
    fc.assert(
      fc.property(cloud, coord(0.05, 0.4), fc.nat(100), (ps, r, salt) => {
        const k = { ...kinds(ps.length, salt), pinned: undefined };
        const v = velocityProjection(ps, { radius: r, ...k });
        assertCloseVec(momentum(ps, v), momentum(ps, ps.map((q) => q.v)), {
          tol: 1e-12,
          scale: 100 * maxMomentum(ps),
        });
      }),
      { numRuns: RUNS },
    );
  });

  await t.step(
    "an isolated pair: momentum conserved, it no longer approaches, tangents untouched",
    () => {
      fc.assert(
        fc.property(particle, particle, coord(0.05, 1), fc.boolean(), (a, b, r, aFluid) => {
          const ps = [a, b];
          const v = velocityProjection(ps, { radius: r, fluid: [aFluid, !aFluid] });
          assertCloseVec(momentum(ps, v), momentum(ps, [a.v, b.v]), {
            tol: 1e-12,
            scale: 10 * maxMomentum(ps),
          });
          const [f, s] = aFluid ? [0, 1] : [1, 0];
          const pair = projectionPair(ps[f], ps[s]);
          if (findCollisions(ps, { radius: r }).pairs.length === 0 || !pair) {
            assert.deepEqual(v, [a.v, b.v]);
            return;
          }
          const n = pair.normal;
          const speed = norm(a.v) + norm(b.v);
          const after = dot(sub(v[f], v[s]), n);
          assert.ok(after >= -1e-12 * speed, `still approaching: ${after}`);
          // the fluid's normal velocity is the solid's old one (Eq. 19)
          assertClose(dot(v[f], n), dot(ps[s].v, n), { tol: 1e-12, scale: speed });
          const tangent = (u: Vec3) => sub(u, scale(n, dot(u, n)));
          assertCloseVec(tangent(v[f]), tangent(ps[f].v), { tol: 1e-12, scale: speed });
          assertCloseVec(tangent(v[s]), tangent(ps[s].v), { tol: 1e-12, scale: speed });
        }),
        { numRuns: RUNS },
      );
    },
  );

  await t.step("fluid–fluid and solid–solid pairs are untouched", () => {
    fc.assert(
      fc.property(cloud, coord(0.05, 0.4), fc.boolean(), (ps, r, allFluid) => {
        const v = velocityProjection(ps, { radius: r, fluid: ps.map(() => allFluid) });
        assert.deepEqual(v, ps.map((q) => q.v));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(cloud, coord(0.05, 0.4), fc.nat(100), (ps, r, salt) => {
        const k = kinds(ps.length, salt);
        const v = velocityProjection(ps, { radius: r, ...k });
        const { pairs } = findCollisions(ps, { radius: r, ...k });
        const mixed = new Set(pairs.filter(([i, j]) => k.fluid[i] !== k.fluid[j]).flat());
        ps.forEach((q, i) => {
          if (!mixed.has(i) || (k.pinned[i] && !k.fluid[i])) assert.deepEqual(v[i], q.v);
        });
      }),
      { numRuns: 300 },
    );
  });

  await t.step("several contacts: fluid takes the mean of Eq. 19, solid sums Eq. 20", () => {
    fc.assert(
      fc.property(cloud, coord(0.05, 0.4), fc.nat(100), (ps, r, salt) => {
        const k = kinds(ps.length, salt);
        const v = velocityProjection(ps, { radius: r, ...k });
        const { pairs } = findCollisions(ps, { radius: r, ...k });
        const processed = pairs
          .filter(([i, j]) => k.fluid[i] !== k.fluid[j])
          .map(([i, j]) => (k.fluid[i] ? [i, j] : [j, i]))
          .filter(([f, s]) => !k.pinned[f] && projectionPair(ps[f], ps[s]));
        const count = (f: number) => processed.filter(([g]) => g === f).length;
        const dv: Vec3[] = ps.map(() => ZERO);
        for (const [f, s] of processed) {
          const pair = projectionPair(ps[f], ps[s])!;
          dv[f] = add(dv[f], scale(pair.fluid, 1 / count(f)));
          if (!k.pinned[s]) dv[s] = add(dv[s], scale(pair.solid, 1 / count(f)));
        }
        ps.forEach((q, i) =>
          assertCloseVec(v[i], add(q.v, dv[i]), { tol: 1e-12, scale: 100, msg: `particle ${i}` })
        );
      }),
      { numRuns: 300 },
    );
  });

  await t.step("deterministic: the same input gives the same velocities, bit for bit", () => {
    fc.assert(
      fc.property(cloud, coord(0.05, 0.4), fc.nat(100), (ps, r, salt) => {
        const k = kinds(ps.length, salt);
        assert.deepEqual(
          velocityProjection(ps, { radius: r, ...k }),
          velocityProjection(structuredClone(ps), { radius: r, ...k }),
        );
      }),
      { numRuns: 200 },
    );
  });

  await t.step("rejects bad arguments, naming them and what to pass", () => {
    const ps = [p([0, 0, 0], [0, 0, 0]), p([0.1, 0, 0], [-1, 0, 0])];
    assert.throws(
      () => velocityProjection(ps, { radius: 0.3, fluid: [true] }),
      /options\.fluid must have one boolean per particle \(2\), got 1 entries/,
    );
    assert.throws(
      () => velocityProjection(ps, { radius: 0.3 } as unknown as { radius: number; fluid: [] }),
      /options\.fluid must have one boolean per particle \(2\), got undefined/,
    );
    assert.throws(
      () => velocityProjection(ps, { radius: 0.3, fluid: [true, false], pinned: [] }),
      /options\.pinned/,
    );
    assert.throws(() => projectionPair(p([0, 0, 0], [0, 0, 0], 0), ps[0]), /fluid\.mass/);
    assert.throws(
      () => velocityProjection(ps, undefined as unknown as { radius: number; fluid: boolean[] }),
      /options are required/,
    );
  });
});
