import assert from "node:assert/strict";
import {
  akinciForces,
  akinciPairForce,
  boundaryDensity,
  type BoundaryPoints,
  boundaryPsi,
  type MovingPoints,
} from "./akinci_reference.ts";
import { Rng } from "../rng.ts";
import { sphForces } from "./sph_reference.ts";
import { poly6 } from "../model/sph_kernels.ts";
import { sphPressure, suggestSphParams } from "../model/sph_params.ts";

const G = 9.81;

/** Static points (zero velocity) from xyz triples. */
function staticPoints(xyz: number[][]): MovingPoints {
  const col = (a: number) => Float64Array.from(xyz, (p) => p[a]);
  const zero = new Float64Array(xyz.length);
  return { x: col(0), y: col(1), z: col(2), vx: zero, vy: zero, vz: zero };
}

/** A square lattice of boundary particles in the plane y = y0, `n`×`n` with spacing `s`. */
function plane(n: number, s: number, y0: number): number[][] {
  const out: number[][] = [];
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) out.push([a * s, y0, b * s]);
  return out;
}

Deno.test("Akinci et al. 2012 boundary coupling, f64 reference", async (t) => {
  const s = 0.02;
  const params = { h: 2 * s, rho0: 1000, soundSpeed: 10, friction: 0.1 };

  await t.step("Ψ_b = ρ0/Σ_k W_bk: finer sampling, smaller volume, same boundary density", () => {
    // The density a fluid particle at height s over an infinite plane sees does not depend on
    // the plane's sampling (Eqs. 4–6): check two spacings at the centre of large planes.
    const densityAbove = (spacing: number) => {
      const n = Math.round(0.4 / spacing) + 1;
      const wall = staticPoints(plane(n, spacing, 0));
      const psi = boundaryPsi(wall, params);
      const c = ((n - 1) / 2) * spacing;
      const probe = staticPoints([[c, s, c]]);
      const centre = Math.floor(n / 2) * n + Math.floor(n / 2);
      return { rho: boundaryDensity(probe, { ...wall, psi }, params)[0], psi: psi[centre] };
    };
    const coarse = densityAbove(s);
    const fine = densityAbove(s / 2);
    assert.ok(
      fine.psi < coarse.psi / 2,
      `Ψ shrinks with the spacing: ${fine.psi} vs ${coarse.psi}`,
    );
    assert.ok(
      Math.abs(fine.rho - coarse.rho) < 0.05 * coarse.rho,
      `boundary density ${fine.rho} vs ${coarse.rho}`,
    );
    assert.ok(coarse.rho > 0.1 * params.rho0);
  });

  await t.step("pair force: repulsive under pressure, friction only when approaching", () => {
    const wall: BoundaryPoints = { ...staticPoints([[0, 0, 0]]), psi: [0.01] };
    const fluid = (vy: number, p: number) => ({
      ...staticPoints([[0, 0.5 * params.h, 0]]),
      vy: [vy],
      mass: [0.008],
      density: [1000],
      pressure: [p],
    });
    const [, up] = akinciPairForce(fluid(0, 100), 0, wall, 0, params);
    assert.ok(up > 0);
    const [, approaching] = akinciPairForce(fluid(-1, 0), 0, wall, 0, params);
    assert.ok(approaching > 0, "friction opposes the approach");
    assert.deepEqual(akinciPairForce(fluid(1, 0), 0, wall, 0, params), [0, 0, 0]);
    const far = { ...fluid(-1, 100), y: [params.h] };
    assert.deepEqual(akinciPairForce(far, 0, wall, 0, params), [0, 0, 0]);
    const empty = { ...fluid(-1, 100), density: [0] };
    assert.deepEqual(akinciPairForce(empty, 0, wall, 0, params), [0, 0, 0]);
  });

  await t.step("reactions: the forces on fluid and boundary sum to zero", () => {
    const rng = new Rng(7);
    const u = () => rng.uniform(-1, 1);
    const nb = 40;
    const nf = 30;
    const pts = (n: number) =>
      Array.from({ length: n }, () => [0.05 * u(), 0.05 * u(), 0.05 * u()]);
    const wall = staticPoints(pts(nb));
    const boundary = { ...wall, vx: Float64Array.from(wall.x, u), psi: boundaryPsi(wall, params) };
    const f = staticPoints(pts(nf));
    const fluid = {
      ...f,
      vy: Float64Array.from(f.x, u),
      mass: new Float64Array(nf).fill(0.008),
      density: Float64Array.from(f.x, () => rng.uniform(900, 1100)),
      pressure: Float64Array.from(f.x, () => rng.uniform(0, 2000)),
    };
    const out = akinciForces({ fluid, boundary }, params);
    let norm = 0;
    for (let a = 0; a < 3; a++) {
      let sum = 0;
      for (let i = 0; i < nf; i++) sum += out.fluid[3 * i + a];
      for (let b = 0; b < nb; b++) sum += out.boundary[3 * b + a];
      for (const v of [...out.fluid, ...out.boundary]) norm = Math.max(norm, Math.abs(v));
      assert.ok(Math.abs(sum) < 1e-12 * norm, `Σ F_${a} = ${sum}`);
    }
    assert.ok(norm > 0);
  });

  await t.step(
    "a fluid at rest in a box of boundary particles: hydrostatic, no penetration",
    () => {
      // WCSPH (core/reference/sph_reference.ts, parameters from suggestSphParams for a column of height H)
      // in a box of one layer of boundary particles: floor y = 0 and four walls, spacing s. The
      // fluid starts as a 4 × 4 × 5 lattice one spacing off every wall and settles under gravity.
      const r = s / 2;
      const layers = 5;
      const height = layers * s;
      const sph = {
        ...suggestSphParams({
          radius: r,
          rho0: params.rho0,
          maxSpeed: Math.sqrt(2 * G * height),
          gravity: G,
        }),
        rho0: params.rho0,
      };
      const coupling = { ...params, soundSpeed: sph.soundSpeed };
      const box: number[][] = [];
      const side = 6; // wall particles at 0 .. 5s; the fluid at s .. 4s
      for (let a = 0; a < side; a++) {
        for (let b = 0; b < side; b++) box.push([a * s, 0, b * s]);
      }
      for (let y = 1; y <= layers + 3; y++) {
        for (let a = 0; a < side; a++) {
          box.push([a * s, y * s, 0], [a * s, y * s, (side - 1) * s]);
          if (a > 0 && a < side - 1) box.push([0, y * s, a * s], [(side - 1) * s, y * s, a * s]);
        }
      }
      const wall = staticPoints(box);
      const boundary = { ...wall, psi: boundaryPsi(wall, coupling) };
      const xyz: number[] = [];
      for (let y = 1; y <= layers; y++) {
        for (let a = 1; a < side - 1; a++) {
          for (let b = 1; b < side - 1; b++) {
            xyz.push(a * s, y * s, b * s);
          }
        }
      }
      const n = xyz.length / 3;
      const x = Float64Array.from(xyz);
      const v = new Float64Array(3 * n);
      const mass = new Float64Array(n).fill(sph.mass);
      const steps = Math.ceil(2 / sph.dtMax);
      const dt = 2 / steps;
      let lowest = Infinity;
      let outside = 0;
      const wallForce: number[] = [];
      const reaction: number[] = [];
      let pressure = new Float64Array(n);
      for (let step = 0; step < steps; step++) {
        const pts = {
          x: Float64Array.from({ length: n }, (_, i) => x[3 * i]),
          y: Float64Array.from({ length: n }, (_, i) => x[3 * i + 1]),
          z: Float64Array.from({ length: n }, (_, i) => x[3 * i + 2]),
          vx: Float64Array.from({ length: n }, (_, i) => v[3 * i]),
          vy: Float64Array.from({ length: n }, (_, i) => v[3 * i + 1]),
          vz: Float64Array.from({ length: n }, (_, i) => v[3 * i + 2]),
        };
        const fluidRho = new Float64Array(n);
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < n; j++) {
            const d2 = (x[3 * i] - x[3 * j]) ** 2 + (x[3 * i + 1] - x[3 * j + 1]) ** 2 +
              (x[3 * i + 2] - x[3 * j + 2]) ** 2;
            fluidRho[i] += mass[j] * poly6(d2, sph.h);
          }
        }
        const bRho = boundaryDensity(pts, boundary, coupling);
        const density = fluidRho.map((rho, i) => rho + bRho[i]);
        const fluid = sphForces({ positions: x, velocities: v, masses: mass }, sph, { density });
        pressure = Float64Array.from(density, (rho) => sphPressure(rho, sph));
        const ak = akinciForces({ fluid: { ...pts, mass, density, pressure }, boundary }, coupling);
        let fy = 0;
        let ry = 0;
        for (let i = 0; i < n; i++) fy += ak.fluid[3 * i + 1];
        for (let b = 0; b < ak.boundary.length / 3; b++) ry += ak.boundary[3 * b + 1];
        wallForce.push(fy);
        reaction.push(ry);
        for (let i = 0; i < n; i++) {
          for (let a = 0; a < 3; a++) {
            const f = fluid.force[3 * i + a] + ak.fluid[3 * i + a] - (a === 1 ? mass[i] * G : 0);
            v[3 * i + a] += (dt * f) / mass[i];
            x[3 * i + a] += dt * v[3 * i + a];
          }
          lowest = Math.min(lowest, x[3 * i + 1]);
          for (const a of [0, 2]) {
            if (x[3 * i + a] <= 0 || x[3 * i + a] >= (side - 1) * s) {
              outside++;
            }
          }
        }
      }
      // no penetration: nobody reaches the floor's particle centres or leaves through a wall
      assert.equal(outside, 0, "fluid particles through a side wall");
      assert.ok(lowest > 0.5 * r, `lowest fluid particle at ${lowest} m (floor at 0, r = ${r})`);
      // hydrostatic equilibrium: the floor carries the fluid's weight (time average over the last
      // 0.5 s, several periods of the column's slosh), and the boundary receives the opposite force
      const tail = Math.ceil(0.5 / dt);
      const mean = (a: number[]) => a.slice(-tail).reduce((p, q) => p + q, 0) / tail;
      const weight = n * sph.mass * G;
      assert.ok(
        Math.abs(mean(wallForce) / weight - 1) < 0.03,
        `boundary force ${mean(wallForce)} N vs weight ${weight} N`,
      );
      assert.ok(Math.abs(mean(reaction) + mean(wallForce)) < 1e-9 * weight);
      const speed = Math.max(...v.map(Math.abs));
      assert.ok(speed < 0.1 * Math.sqrt(2 * G * height), `settled: max |v| component ${speed}`);
      // pressure grows with depth (its magnitude is SPH's, which a one-layer boundary and the
      // remaining slosh make noisy; the force balance above is the hydrostatic statement)
      const layerMean = (lo: number, hi: number) => {
        let sum = 0;
        let count = 0;
        for (let i = 0; i < n; i++) {
          if (x[3 * i + 1] >= lo && x[3 * i + 1] < hi) {
            sum += pressure[i];
            count++;
          }
        }
        return sum / count;
      };
      const bottom = layerMean(0, 1.5 * s);
      const top = layerMean((layers - 0.5) * s, Infinity);
      assert.ok(bottom > top, `bottom ${bottom} Pa, top ${top} Pa`);
    },
  );

  await t.step("rejects bad arguments, naming them", () => {
    const p = staticPoints([[0, 0, 0]]);
    assert.throws(() => boundaryPsi(p, { ...params, h: 0 }), /params\.h/);
    assert.throws(() => boundaryPsi({ ...p, y: [] }, params), /boundary\.y/);
    assert.throws(() => boundaryDensity(p, { ...p, psi: [] }, params), /boundary\.psi/);
    assert.throws(
      () =>
        akinciForces({
          fluid: { ...p, mass: [1], density: [1], pressure: [] },
          boundary: { ...p, psi: [1] },
        }, params),
      /points\.fluid\.pressure/,
    );
  });
});
