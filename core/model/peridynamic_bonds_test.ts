import assert from "node:assert/strict";
import fc from "fast-check";
import { buildBonds } from "./peridynamic_bonds.ts";
import { peridynamicConstants } from "./peridynamic_constants.ts";
import { lattice, makeScene, sceneArb } from "./peridynamic_bonds_fixture.ts";
import { brokenFraction } from "../reference/peridynamics_reference.ts";
import { assertClose } from "../test_util.ts";

/** Brute-force O(N²) bonds: [i, j, beta] in ascending (i, j). */
function bruteBonds(
  x: Float64Array,
  body: ArrayLike<number>,
  horizon: readonly number[],
  spacing?: readonly number[],
): [number, number, number][] {
  const n = x.length / 3;
  const out: [number, number, number][] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (body[i] !== body[j]) continue;
      const d = horizon[body[i]];
      const h = spacing ? spacing[body[i]] : 0;
      const r = Math.hypot(
        x[3 * j] - x[3 * i],
        x[3 * j + 1] - x[3 * i + 1],
        x[3 * j + 2] - x[3 * i + 2],
      );
      if (r > (d + h / 2) * (1 + 1e-9)) continue;
      const beta = h > 0 && r > d - h / 2 ? Math.min(1, (d + h / 2 - r) / h) : 1;
      if (beta > 1e-9) out.push([i, j, beta]);
    }
  }
  return out;
}

Deno.test("buildBonds", async (t) => {
  await t.step("equals brute force on random bodies, with and without volume correction", () => {
    fc.assert(
      fc.property(sceneArb, fc.boolean(), (p, corr) => {
        const { x, body, horizon } = makeScene(p);
        const spacing = corr ? horizon.map((d) => d / p.ratio) : undefined;
        const bonds = buildBonds(x, {
          horizon,
          body,
          volumeCorrection: spacing ? { spacing } : undefined,
        });
        const want = bruteBonds(x, body, horizon, spacing);
        assert.equal(bonds.i.length, want.length);
        want.forEach(([i, j, beta], b) => {
          assert.equal(bonds.i[b], i);
          assert.equal(bonds.j[b], j);
          assert.equal(bonds.body[b], body[i]);
          assertClose(bonds.volumeFactor[b], beta, { tol: 1e-12 });
          assert.ok(bonds.restLength[b] > 0);
        });
        assert.equal(brokenFraction(bonds), 0);
      }),
      { numRuns: 60 },
    );
  });

  await t.step("interior family of δ = 3h has 122 bonds; counts scale to 10⁴ particles", () => {
    const dims: [number, number, number] = [25, 20, 20];
    const h = 0.01;
    const x = lattice(dims, h);
    const t0 = performance.now();
    const bonds = buildBonds(x, { horizon: 3 * h });
    const ms = performance.now() - t0;
    // Exact count: Σ over lattice offsets n ≠ 0, |n| ≤ 3, of (nx − |a|)(ny − |b|)(nz − |c|) / 2.
    let want = 0;
    for (let a = -3; a <= 3; a++) {
      for (let b = -3; b <= 3; b++) {
        for (let c = -3; c <= 3; c++) {
          const r = Math.hypot(a, b, c);
          if (r === 0 || r > 3 + 1e-9) continue;
          want += (dims[0] - Math.abs(a)) * (dims[1] - Math.abs(b)) * (dims[2] - Math.abs(c));
        }
      }
    }
    assert.equal(bonds.i.length, want / 2);
    const deg = new Int32Array(x.length / 3);
    for (let b = 0; b < bonds.i.length; b++) {
      deg[bonds.i[b]]++;
      deg[bonds.j[b]]++;
      if (b > 0) {
        assert.ok(
          bonds.i[b] > bonds.i[b - 1] ||
            (bonds.i[b] === bonds.i[b - 1] && bonds.j[b] > bonds.j[b - 1]),
          "ascending (i, j)",
        );
      }
    }
    const centre = 10 + 25 * (10 + 20 * 10);
    assert.equal(deg[centre], 122);
    const k = peridynamicConstants({ bulkModulus: 1, horizon: 3 * h, spacing: h, density: 1 });
    assert.equal(k.familySize, 122);
    assert.ok(ms < 15_000, `buildBonds on 10⁴ particles took ${ms.toFixed(0)} ms`);
  });

  await t.step("rejects bad arguments, naming them", () => {
    const x = lattice([2, 2, 2], 1);
    assert.throws(() => buildBonds(x.subarray(1), { horizon: 1 }), /positions has length/);
    assert.throws(() => buildBonds(x, { horizon: 0 }), /options\.horizon/);
    assert.throws(
      () => buildBonds(x, { horizon: [1], body: [0, 0, 0, 0, 1, 1, 1, 1] }),
      /options\.horizon has 1 entries/,
    );
    assert.throws(() => buildBonds(x, { horizon: 1, body: [0] }), /options\.body has length/);
    assert.throws(
      () => buildBonds(x, { horizon: 1, body: [0, 0, 0, 0, 0, 0, 0, -1] }),
      /options\.body\[7\]/,
    );
    assert.throws(
      () => buildBonds(x, { horizon: 1, volumeCorrection: { spacing: -1 } }),
      /options\.volumeCorrection\.spacing/,
    );
    const dup = Float64Array.from([0, 0, 0, 0, 0, 0]);
    assert.throws(() => buildBonds(dup, { horizon: 1 }), /particles 0 and 1 of body 0 coincide/);
    assert.doesNotThrow(() => buildBonds(dup, { horizon: 1, body: [0, 1] }));
  });
});
