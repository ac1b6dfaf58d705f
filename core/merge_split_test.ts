import assert from "node:assert/strict";
import fc from "fast-check";
import {
  followMeta,
  isMeta,
  leaves,
  merge,
  mergeAll,
  type MetaParticle,
  split,
  splitAll,
  splitDetailed,
  totalBondEnergy,
} from "./merge_split.ts";
import { kineticEnergy, type Particle } from "./particle.ts";
import { add, addScaled, cross, dot, norm, scale, sub, type Vec3 } from "./vec3.ts";
import { assertClose, assertCloseVec, RUNS } from "./test_util.ts";

const coord = fc.double({ min: -10, max: 10, noNaN: true, noDefaultInfinity: true });
const vec3 = fc.tuple(coord, coord, coord) as fc.Arbitrary<Vec3>;
// Masses over six orders of magnitude (log-uniform), as in the paper's 1:100 mass ratios.
const mass = fc.double({ min: -3, max: 3, noNaN: true }).map((e) => 10 ** e);
const particle: fc.Arbitrary<Particle> = fc.record({ mass, x: vec3, v: vec3 });
const unit = fc.double({ min: 0, max: 1, noNaN: true });

function momentum(ps: readonly Particle[], vs?: readonly Vec3[]): Vec3 {
  return ps.reduce<Vec3>((acc, p, i) => addScaled(acc, vs ? vs[i] : p.v, p.mass), [0, 0, 0]);
}
function momentumScale(ps: readonly Particle[], vs?: readonly Vec3[]): number {
  return ps.reduce((acc, p, i) => acc + p.mass * norm(vs ? vs[i] : p.v), 0);
}
function energy(ps: readonly Particle[], vs?: readonly Vec3[]): number {
  return ps.reduce((acc, p, i) => acc + kineticEnergy(vs ? { ...p, v: vs[i] } : p), 0);
}

Deno.test("merge (Eqs. 1–5)", async (t) => {
  await t.step("mass, centre of mass, momentum, ΔE and n", () => {
    const a: Particle = { mass: 1, x: [0, 0, 0], v: [2, 0, 0] };
    const b: Particle = { mass: 3, x: [1, 0, 0], v: [-2, 0, 0] };
    const m = merge(a, b);
    assert.equal(m.mass, 4);
    assert.deepEqual(m.x, [0.75, 0, 0]);
    assert.deepEqual(m.v, [-1, 0, 0]);
    assert.equal(m.deltaE, (1 * 3) / (2 * 4) * 16); // Eq. 4
    assert.deepEqual(m.n, [1, 0, 0]);
    assert.deepEqual(m.nHat, [1, 0, 0]);
  });
  await t.step("conserves momentum and stores exactly the lost kinetic energy", () => {
    fc.assert(
      fc.property(particle, particle, (a, b) => {
        const m = merge(a, b);
        const s = momentumScale([a, b]);
        assertCloseVec(scale(m.v, m.mass), momentum([a, b]), { tol: 1e-12, scale: s });
        assert.ok(m.deltaE >= 0);
        const before = energy([a, b]);
        assertClose(kineticEnergy(m) + m.deltaE, before, { tol: 1e-12, scale: before });
      }),
      { numRuns: RUNS },
    );
  });
  await t.step("rejects invalid input, naming the argument", () => {
    const ok: Particle = { mass: 1, x: [0, 0, 0], v: [0, 0, 0] };
    assert.throws(() => merge({ ...ok, mass: 0 }, ok), { name: "RangeError", message: /a\.mass/ });
    assert.throws(() => merge(ok, { ...ok, mass: -1 }), { name: "RangeError", message: /b\.mass/ });
    assert.throws(() => merge(ok, { ...ok, mass: Infinity }), /b\.mass/);
    assert.throws(() => merge(ok, { ...ok, v: [0, NaN, 0] }), {
      name: "RangeError",
      message: /b\.v/,
    });
    assert.throws(() => merge({ ...ok, x: [0, 0] as unknown as Vec3 }, ok), {
      name: "TypeError",
      message: /a\.x/,
    });
  });
});

Deno.test("split (Eqs. 8–16, 20)", async (t) => {
  const splitCase = fc.record({
    a: particle,
    b: particle,
    vAfter: vec3,
    alpha: unit,
    beta: unit,
    deltaEk: fc.double({ min: 0, max: 100, noNaN: true }),
  });

  await t.step("conserves momentum and restores αΔE + βΔĒk (Eqs. 8, 9, 20)", () => {
    fc.assert(
      fc.property(splitCase, ({ a, b, vAfter, alpha, beta, deltaEk }) => {
        const m = merge(a, b);
        const [v1, v2] = split(m, vAfter, { alpha, beta, deltaEk });
        const p = add(scale(v1, a.mass), scale(v2, b.mass));
        const s = m.mass * norm(vAfter) + a.mass * norm(v1) + b.mass * norm(v2);
        assertCloseVec(p, scale(vAfter, m.mass), { tol: 1e-12, scale: s, msg: "momentum" });
        const target = 0.5 * m.mass * dot(vAfter, vAfter) + alpha * m.deltaE + beta * deltaEk;
        const got = energy([a, b], [v1, v2]);
        assertClose(got, target, { tol: 1e-10, scale: Math.max(target, got), msg: "energy" });
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("always separates the pair (Eq. 14), in both branches", () => {
    const branches = { root: 0, closest: 0 };
    fc.assert(
      fc.property(splitCase, ({ a, b, vAfter, alpha, beta, deltaEk }) => {
        const m = merge(a, b);
        const r = splitDetailed(m, vAfter, { alpha, beta, deltaEk });
        branches[r.branch]++;
        const rel = dot(sub(r.v2, r.v1), m.nHat);
        const s = norm(r.v1) + norm(r.v2);
        assert.ok(rel >= -1e-12 * Math.max(1, s), `(v2′ − v1′)·n̂ = ${rel} < 0`);
        assertClose(dot(r.epsilon, m.nHat), 0, { tol: 1e-12, scale: norm(r.epsilon) });
      }),
      { numRuns: RUNS },
    );
    assert.ok(
      branches.root > 0 && branches.closest > 0,
      `branches seen: ${JSON.stringify(branches)}`,
    );
  });

  await t.step("no-real-root branch (Eqs. 15–16) conserves momentum and energy", () => {
    // α = 0 gives s = 0; any v12′ − v1 with a component orthogonal to n̂ then has no real root.
    let closest = 0;
    fc.assert(
      fc.property(particle, particle, vec3, unit, (a, b, dir, alpha) => {
        const m = merge(a, b);
        const ortho = cross(m.nHat, dir);
        fc.pre(norm(ortho) > 1e-3);
        const big = Math.sqrt(2 * m.deltaE / (m.mass * a.mass / b.mass)) + 1;
        const vAfter = addScaled(a.v, ortho, (10 * big) / norm(ortho));
        const r = splitDetailed(m, vAfter, { alpha: alpha * 0.01 });
        assert.equal(r.branch, "closest");
        closest++;
        const p = add(scale(r.v1, a.mass), scale(r.v2, b.mass));
        const ps = m.mass * norm(vAfter) + a.mass * norm(r.v1) + b.mass * norm(r.v2);
        assertCloseVec(p, scale(vAfter, m.mass), { tol: 1e-12, scale: ps });
        const target = 0.5 * m.mass * dot(vAfter, vAfter) + alpha * 0.01 * m.deltaE;
        assertClose(energy([a, b], [r.v1, r.v2]), target, { tol: 1e-10, scale: target });
        assert.ok(dot(sub(r.v2, r.v1), m.nHat) >= -1e-9 * ps);
      }),
      { numRuns: RUNS },
    );
    assert.ok(closest > RUNS / 2);
  });

  await t.step("head-on collisions give the textbook elastic result", () => {
    fc.assert(
      fc.property(
        mass,
        mass,
        fc.double({ min: 0.01, max: 10, noNaN: true }),
        fc.double({ min: 0.01, max: 10, noNaN: true }),
        vec3,
        (m1, m2, u1, u2, dir) => {
          fc.pre(norm(dir) > 1e-3);
          const e = scale(dir, 1 / norm(dir));
          // Particle 1 moves along +e at u1, particle 2 (ahead along e) comes back at −u2.
          const a: Particle = { mass: m1, x: [0, 0, 0], v: scale(e, u1) };
          const b: Particle = { mass: m2, x: scale(e, 0.5), v: scale(e, -u2) };
          const meta = merge(a, b);
          const [v1, v2] = split(meta, meta.v, { alpha: 1 });
          const w1 = ((m1 - m2) * u1 + 2 * m2 * -u2) / (m1 + m2);
          const w2 = ((m2 - m1) * -u2 + 2 * m1 * u1) / (m1 + m2);
          const s = Math.abs(u1) + Math.abs(u2);
          assertCloseVec(v1, scale(e, w1), { tol: 1e-10, scale: s, msg: "v1′" });
          assertCloseVec(v2, scale(e, w2), { tol: 1e-10, scale: s, msg: "v2′" });
        },
      ),
      { numRuns: RUNS },
    );
  });

  await t.step("rejects invalid options, naming them", () => {
    const m = merge({ mass: 1, x: [0, 0, 0], v: [1, 0, 0] }, {
      mass: 1,
      x: [1, 0, 0],
      v: [0, 0, 0],
    });
    assert.throws(() => split(m, [0, 0, 0], { alpha: 1.5 }), {
      name: "RangeError",
      message: /alpha/,
    });
    assert.throws(() => split(m, [0, 0, 0], { alpha: -0.1 }), /alpha/);
    assert.throws(() => split(m, [0, 0, 0], { beta: NaN }), {
      name: "RangeError",
      message: /beta/,
    });
    assert.throws(() => split(m, [0, 0, 0], { deltaEk: -1 }), /deltaEk/);
    assert.throws(() => split(m, [NaN, 0, 0]), { name: "RangeError", message: /vAfter/ });
    assert.throws(
      () => split({ mass: 1, x: [0, 0, 0], v: [0, 0, 0] } as unknown as MetaParticle, [0, 0, 0]),
      { name: "TypeError", message: /meta/ },
    );
  });
});

Deno.test("mergeAll / splitAll (recursive, reverse order)", async (t) => {
  const group = fc.array(particle, { minLength: 1, maxLength: 64 });

  await t.step("left fold in array order; leaves keep that order", () => {
    const ps: Particle[] = [0, 1, 2, 3].map((k) => ({ mass: k + 1, x: [k, 0, 0], v: [0, k, 0] }));
    const tree = mergeAll(ps);
    assert.ok(isMeta(tree));
    assert.equal(tree.children[1] as Particle, ps[3]);
    assert.deepEqual(leaves(tree), ps);
    assert.equal(mergeAll([ps[0]]), ps[0]);
    assert.throws(() => mergeAll([]), RangeError);
    assert.throws(() => mergeAll([ps[0], { ...ps[1], mass: NaN }]), /particles\[1\]\.mass/);
  });

  await t.step("conserves momentum for any v′ and α, β, ΔĒk", () => {
    fc.assert(
      fc.property(group, vec3, unit, unit, (ps, vAfter, alpha, beta) => {
        const tree = mergeAll(ps);
        const s0 = momentumScale(ps);
        assertCloseVec(scale(tree.v, tree.mass), momentum(ps), { tol: 1e-12, scale: s0 });
        const vs = splitAll(tree, vAfter, { alpha, beta, deltaEk: 0.5 });
        assert.equal(vs.length, ps.length);
        const s1 = momentumScale(ps, vs) + tree.mass * norm(vAfter);
        assertCloseVec(momentum(ps, vs), scale(vAfter, tree.mass), { tol: 1e-12, scale: s1 });
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("α = 1 with v′ = v12 restores the kinetic energy (k ≤ 64)", () => {
    fc.assert(
      fc.property(group, (ps) => {
        const tree = mergeAll(ps);
        const vs = splitAll(tree, tree.v, { alpha: 1 });
        const before = energy(ps);
        assertClose(energy(ps, vs), before, { tol: 1e-10, scale: before });
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("α = 0 dissipates exactly ΣΔE (k ≤ 64)", () => {
    fc.assert(
      fc.property(group, vec3, (ps, vAfter) => {
        const tree = mergeAll(ps);
        const before = energy(ps);
        const vsSame = splitAll(tree, tree.v, { alpha: 0 });
        assertClose(energy(ps, vsSame), before - totalBondEnergy(tree), {
          tol: 1e-10,
          scale: before,
        });
        // With α = 0 every constituent leaves with the meta's velocity.
        const vs = splitAll(tree, vAfter, { alpha: 0 });
        const sv = norm(vAfter) + Math.max(...ps.map((p) => norm(p.v)));
        for (const v of vs) assertCloseVec(v, vAfter, { tol: 1e-10, scale: sv });
      }),
      { numRuns: RUNS },
    );
  });

  await t.step("energy bookkeeping: KE′ = ½M v′² + αΣΔE + βΔĒk", () => {
    fc.assert(
      fc.property(
        fc.array(particle, { minLength: 2, maxLength: 64 }),
        vec3,
        unit,
        unit,
        fc.double({ min: 0, max: 10, noNaN: true }),
        (ps, vAfter, alpha, beta, dEk) => {
          const tree = mergeAll(ps);
          const vs = splitAll(tree, vAfter, { alpha, beta, deltaEk: dEk });
          const target = 0.5 * tree.mass * dot(vAfter, vAfter) + alpha * totalBondEnergy(tree) +
            beta * dEk;
          assertClose(energy(ps, vs), target, { tol: 1e-10, scale: target });
        },
      ),
      { numRuns: RUNS },
    );
  });
});

Deno.test("followMeta: constituents move rigidly with the meta (Eqs. 6–7)", () => {
  fc.assert(
    fc.property(fc.array(particle, { minLength: 1, maxLength: 64 }), vec3, (ps, xAfter) => {
      const tree = mergeAll(ps);
      const dx = sub(xAfter, tree.x);
      const xs = followMeta(tree, xAfter);
      xs.forEach((x, i) => assertCloseVec(x, add(ps[i].x, dx), { tol: 1e-10, scale: 10 }));
    }),
    { numRuns: RUNS },
  );
});
