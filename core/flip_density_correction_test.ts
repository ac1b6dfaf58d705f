import assert from "node:assert/strict";
import {
  densityMultipliers,
  densityWeights,
  flipDensityCorrection,
} from "./flip_density_correction.ts";
import { latticeRestDensity } from "./model/sph_params.ts";
import { poly6 } from "./model/sph_kernels.ts";
import { Rng } from "./rng.ts";

const S = 0.02; // lattice spacing (m)
const H = 2 * S; // kernel support (the FLIP dx of the dam break: 2 spacings)
const M = 1000 * S ** 3;
const RHO0 = latticeRestDensity(M, S, H);
const BIG = { min: [-10, -10, -10], max: [10, 10, 10] };

/** A cubic lattice of n³ particles of spacing s, every one FLIP unless `flip` says otherwise. */
function lattice(n: number, s: number, flip: (i: number) => boolean = () => true) {
  const x: number[] = [];
  for (let k = 0; k < n; k++) {
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        x.push(i * s, j * s, k * s);
      }
    }
  }
  const count = n ** 3;
  return {
    x: Float64Array.from(x),
    m: new Float64Array(count).fill(M),
    radius: new Float64Array(count).fill(S / 2),
    restDensity: Float64Array.from({ length: count }, (_, i) => flip(i) ? RHO0 : 0),
  };
}

Deno.test("flipDensityCorrection: a lattice at rest is not moved (interior reads ρ0, surface less)", () => {
  const p = lattice(7, S);
  const { density, mu } = densityMultipliers(p, H);
  const centre = 3 + 7 * (3 + 7 * 3);
  assert.ok(Math.abs(density[centre] / RHO0 - 1) < 1e-12, `${density[centre]}`);
  for (const d of density) assert.ok(d <= RHO0 * (1 + 1e-12));
  const out = flipDensityCorrection(p, { h: H, iterations: 3, domain: BIG });
  for (let k = 0; k < out.length; k++) assert.ok(Math.abs(out[k] - p.x[k]) < 1e-15);
  // only compression acts: a surface particle's missing neighbours pull nothing
  assert.ok(mu.every((v) => v <= 0 && Math.abs(v) < 1e-20));
});

Deno.test("flipDensityCorrection: a compressed lattice expands towards ρ0, its centre of mass fixed", () => {
  const n = 6;
  const p = lattice(n, 0.8 * S);
  const rng = new Rng(7);
  for (let k = 0; k < p.x.length; k++) p.x[k] += 0.05 * S * (rng.nextFloat() - 0.5);
  const before = densityMultipliers(p, H).density;
  const err = (d: Float64Array) => Math.max(...d.map((v) => v / RHO0 - 1));
  let x: Float64Array = Float64Array.from(p.x);
  let last = err(before);
  assert.ok(last > 0.5, `compressed by ${last}`);
  for (let step = 0; step < 4; step++) {
    x = flipDensityCorrection({ ...p, x }, { h: H, iterations: 2, domain: BIG });
    const now = err(densityMultipliers({ ...p, x }, H).density);
    assert.ok(now < last || now <= 0, `step ${step}: max compression ${now} ≥ ${last}`);
    last = now;
  }
  assert.ok(last <= 0.01, `still compressed by ${last} after 8 iterations`);
  for (let a = 0; a < 3; a++) {
    let c0 = 0, c1 = 0;
    for (let i = 0; i < n ** 3; i++) {
      c0 += p.x[3 * i + a];
      c1 += x[3 * i + a];
    }
    assert.ok(Math.abs(c1 - c0) / n ** 3 < 1e-12, `centre of mass moved along ${a}`);
  }
});

Deno.test("flipDensityCorrection: one iteration relieves a compressed pair, momentum kept", () => {
  // Two particles closer than the rest spacing, of different masses. The step is PBF's: poly6
  // density, spiky gradient (Macklin & Müller 2013 §4), so it solves the linearised constraint
  // only approximately; one iteration must still remove most of C, without overshooting.
  const p = {
    x: Float64Array.from([0, 0, 0, 0.3 * H, 0.1 * H, 0]),
    m: Float64Array.from([M, 2 * M]),
    radius: Float64Array.from([S / 2, S / 2]),
    restDensity: Float64Array.from([0, 0]),
  };
  // particle 0 reads 1 % above its rest density; particle 1 below its own (inactive)
  const d0 = densityMultipliers({ ...p, restDensity: Float64Array.from([1, 1]) }, H).density;
  p.restDensity = Float64Array.from([d0[0] / 1.01, d0[1] * 2]);
  const out = flipDensityCorrection(p, { h: H, iterations: 1, domain: BIG });
  const c = (x: Float64Array) =>
    densityMultipliers({ ...p, x }, H).density[0] / p.restDensity[0] - 1;
  const c0 = c(p.x);
  const c1 = c(out);
  assert.ok(c1 >= 0 && c1 < 0.7 * c0, `C ${c0} → ${c1}`);
  // momentum: m_i Δx_i sums to zero
  for (let a = 0; a < 3; a++) {
    const s = p.m[0] * (out[a] - p.x[a]) + p.m[1] * (out[3 + a] - p.x[3 + a]);
    assert.ok(Math.abs(s) < 1e-18, `Σ m Δx along ${a} = ${s}`);
  }
});

Deno.test("flipDensityCorrection: non-FLIP particles neither move nor count; walls clamp", () => {
  const p = lattice(4, 0.5 * S, (i) => i % 3 !== 0);
  const out = flipDensityCorrection(p, { h: H, iterations: 2, domain: BIG });
  for (let i = 0; i < 64; i++) {
    if (p.restDensity[i] > 0) continue;
    for (let a = 0; a < 3; a++) assert.equal(out[3 * i + a], p.x[3 * i + a]);
  }
  // FLIP particles within h of another system's particle are held in place (contacts)
  const weights = densityWeights(p, H);
  for (let i = 0; i < 64; i++) {
    if (weights[i] > 0) continue;
    for (let a = 0; a < 3; a++) assert.equal(out[3 * i + a], p.x[3 * i + a]);
  }
  const far = lattice(6, 0.5 * S, (i) => i !== 0); // one non-FLIP particle in a corner
  const wf = densityWeights(far, H);
  assert.equal(wf[0], 0);
  assert.equal(wf[1], 0, "a neighbour within h is held");
  assert.equal(wf[215], 1 / M, "the far corner is free");
  // densities count FLIP neighbours only
  const d = densityMultipliers(p, H).density;
  const i = 1; // FLIP
  let expect = 0;
  for (let j = 0; j < 64; j++) {
    if (!(p.restDensity[j] > 0)) continue;
    const r2 = [0, 1, 2].reduce((s, a) => s + (p.x[3 * i + a] - p.x[3 * j + a]) ** 2, 0);
    expect += M * poly6(r2, H);
  }
  assert.ok(Math.abs(d[i] - expect) < 1e-9 * expect);
  // walls: the box's corner particle (0, 0, 0) stays ≥ min + r
  const wall = { min: [0, 0, 0], max: [1, 1, 1] };
  const q = lattice(4, 0.5 * S);
  const w = flipDensityCorrection(q, { h: H, iterations: 2, domain: wall });
  for (let k = 0; k < w.length; k++) assert.ok(w[k] >= S / 2 - 1e-15, `x[${k}] = ${w[k]}`);
  assert.throws(
    () => flipDensityCorrection(q, { h: H, iterations: 1.5, domain: wall }),
    /iterations/,
  );
  assert.throws(
    () =>
      flipDensityCorrection({ ...q, m: new Float64Array(64) }, {
        h: H,
        iterations: 1,
        domain: wall,
      }),
    /particles\.m\[0\]/,
  );
});

Deno.test("flipDensityCorrection: the walls' mirror images", async (t) => {
  // A 7³ lattice filling the box [0, 7s]³, each particle s/2 from the walls: with the images every
  // particle, corners included, reads the infinite lattice's ρ0; without them the faces read less.
  const n = 7;
  const box = { min: [0, 0, 0], max: [n * S, n * S, n * S] };
  const p = lattice(n, S);
  for (let k = 0; k < p.x.length; k++) p.x[k] += S / 2;
  const corner = 0, face = 3 + n * (3 + n * 0), centre = 3 + n * (3 + n * 3);
  await t.step("a filled box reads ρ0 everywhere and is not moved", () => {
    const walled = densityMultipliers(p, H, { walls: box }).density;
    for (const [i, d] of walled.entries()) {
      assert.ok(Math.abs(d / RHO0 - 1) < 1e-12, `particle ${i}: ${d / RHO0}`);
    }
    const bare = densityMultipliers(p, H).density;
    assert.ok(
      bare[corner] < 0.6 * RHO0 && bare[face] < 0.85 * RHO0,
      `${bare[corner]}, ${bare[face]}`,
    );
    assert.ok(Math.abs(bare[centre] / RHO0 - 1) < 1e-12);
    const out = flipDensityCorrection(p, { h: H, iterations: 3, domain: box });
    for (let k = 0; k < out.length; k++) assert.ok(Math.abs(out[k] - p.x[k]) < 1e-15);
  });

  await t.step("a layer squeezed against a wall is pushed off it; in open space it is not", () => {
    // the floor's layer (y = s/2) moved down to y = 0.3 s: 0.6 s from its images, 1.2 s from the
    // layer above (1.5 s): compressed with the walls, not without (its images missing)
    const q = { ...p, x: Float64Array.from(p.x) };
    const floor = [...Array(n ** 3).keys()].filter((i) => Math.abs(p.x[3 * i + 1] - S / 2) < 1e-12);
    for (const i of floor) q.x[3 * i + 1] = 0.3 * S;
    const walled = densityMultipliers(q, H, { walls: box });
    assert.ok(floor.every((i) => walled.density[i] > 1.05 * RHO0 && walled.mu[i] < 0));
    const bare = densityMultipliers(q, H);
    assert.ok(floor.every((i) => bare.mu[i] === 0), "without the images the layer reads sparse");
    // the correction runs with the domain's walls: the floor's layer rises, none goes below
    const out = flipDensityCorrection(q, { h: H, iterations: 2, domain: box });
    const interior = floor.filter((i) =>
      [0, 2].every((a) => q.x[3 * i + a] > 2 * S && q.x[3 * i + a] < 5 * S)
    );
    assert.ok(interior.length === 9);
    for (const i of interior) {
      assert.ok(out[3 * i + 1] > q.x[3 * i + 1] + 0.02 * S, `${i}: ${out[3 * i + 1]}`);
    }
    for (const i of floor) assert.ok(out[3 * i + 1] >= S / 2 - 1e-15);
    // far from every wall the same squeeze (the lattice shifted up by 10 s) reads no images
    const far = { min: [-10, -10, -10], max: [10, 10, 10] };
    const lifted = Float64Array.from(q.x, (v, k) => (k % 3 === 1 ? v + 10 * S : v));
    const open = flipDensityCorrection({ ...q, x: lifted }, { h: H, iterations: 2, domain: far });
    for (const i of floor) assert.ok(Math.abs(open[3 * i + 1] - lifted[3 * i + 1]) < 1e-15);
  });
});
