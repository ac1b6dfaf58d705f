import assert from "node:assert/strict";
import { poly6 } from "../../core/model/sph_kernels.ts";
import { Rng } from "../../core/rng.ts";
import { checkWgslStruct } from "../runtime/struct_layout.ts";
import { KIND_BITS } from "../state/particle_state.ts";
import {
  FLUID_BAND_RADII,
  FLUID_KERNEL_RADII,
  FLUID_METRICS_WGSL,
  FLUID_PARAMS,
  FLUID_TOP_K,
  type FluidRange,
} from "./fluid_metrics.ts";
import { latticeRestDensity } from "../../core/model/sph_params.ts";
import type { MetricsSample } from "./metrics.ts";
import { sampleMetrics } from "./metrics_fixture.ts";

const R = 0.02;
const H = FLUID_KERNEL_RADII * R;
const SPACING = 2 * R;
const MASS = 0.06;
const WALL = 0.1;
const FLOOR = -0.2;

type P3 = [number, number, number];

/** One sample of the metrics of `after` (the fluid's initial volume taken on `before`). */
function measure(
  before: P3[],
  after: P3[],
  options: { fluids: FluidRange[]; probe?: { backWallX: number; floorY: number } },
): Promise<MetricsSample> {
  const n = before.length;
  const fluid = (i: number) => options.fluids.some((f) => i >= f.start && i < f.start + f.count);
  return sampleMetrics({
    before,
    after,
    mass: Float32Array.from({ length: n }, (_, i) => fluid(i) ? MASS : 3 * MASS),
    kind: Uint32Array.from({ length: n }, (_, i) => fluid(i) ? KIND_BITS.fluid : 0),
    sheets: [],
    solids: [],
    fluids: options.fluids,
    damBreak: options.probe,
    domain: { min: [-0.5, -0.5, -0.5], max: [1.5, 1, 0.5] },
    radius: R,
    gravity: [0, -9.81, 0],
    origin: [-0.5, -0.5, -0.5],
    capacity: 2,
  });
}

/** The k-th largest of `values` (k = FLUID_TOP_K), 0 when there are fewer. */
function kth(values: number[]): number {
  const s = [...values].sort((a, b) => b - a);
  return s.length >= FLUID_TOP_K ? s[FLUID_TOP_K - 1] : 0;
}

/** The definitions of fluid_metrics.ts in f64, by brute force over every pair. */
function bruteForce(
  before: P3[],
  after: P3[],
  fluids: FluidRange[],
  probe?: { backWallX: number; floorY: number },
) {
  const bodyOf = (i: number) => fluids.findIndex((f) => i >= f.start && i < f.start + f.count);
  const finite = (p: P3) => p.every(Number.isFinite);
  const per = (x: P3[]) => {
    const out: { err: number; vol: number }[] = [];
    for (let i = 0; i < x.length; i++) {
      const b = bodyOf(i);
      if (b < 0 || !finite(x[i])) continue;
      let rho = 0;
      for (let j = 0; j < x.length; j++) {
        if (bodyOf(j) !== b || !finite(x[j])) continue;
        rho += MASS * poly6(
          (x[i][0] - x[j][0]) ** 2 + (x[i][1] - x[j][1]) ** 2 +
            (x[i][2] - x[j][2]) ** 2,
          H,
        );
      }
      const rho0 = latticeRestDensity(fluids[b].particleMass, fluids[b].spacing, H);
      out.push({ err: Math.max(rho / rho0 - 1, 0), vol: MASS / Math.max(rho, rho0) });
    }
    return out;
  };
  const now = per(after);
  const volume = (q: { vol: number }[]) => q.reduce((s, v) => s + v.vol, 0);
  const inFluid = after.filter((p, i) => bodyOf(i) >= 0 && finite(p));
  const band = FLUID_BAND_RADII * R;
  return {
    densityErrorMax: Math.max(0, ...now.map((q) => q.err)),
    densityErrorMean: now.reduce((s, q) => s + q.err, 0) / now.length,
    volumeChange: volume(now) / volume(per(before)) - 1,
    frontX: probe
      ? kth(
        inFluid.filter((p) => p[1] - probe.floorY <= band).map((p) => p[0] + R - probe.backWallX),
      )
      : 0,
    columnHeight: probe
      ? kth(
        inFluid.filter((p) => p[0] - probe.backWallX <= band).map((p) => p[1] + R - probe.floorY),
      )
      : 0,
  };
}

/**
 * Fixture: a dam-break column of 5 × 8 × 4 particles (spacing 2r, jittered) on the floor FLOOR
 * against the wall WALL (body 0), a second fluid body of 3 × 3 × 3 overlapping its far corner
 * (body 1: its particles never count for body 0's density), two solid particles among them, and
 * stray droplets: two ahead of the front on the floor, two above the column at the wall.
 */
function fixture(rng: Rng) {
  const pts: P3[] = [];
  const jitter = () => rng.uniform(-0.1, 0.1) * SPACING;
  const block = (o: P3, nx: number, ny: number, nz: number) => {
    for (let y = 0; y < ny; y++) {
      for (let z = 0; z < nz; z++) {
        for (let x = 0; x < nx; x++) {
          pts.push([
            o[0] + x * SPACING + jitter(),
            o[1] + y * SPACING + jitter(),
            o[2] + z * SPACING + jitter(),
          ]);
        }
      }
    }
  };
  block([WALL + R, FLOOR + R, 0], 5, 8, 4);
  pts.push([WALL + 0.6, FLOOR + R, 0.02], [WALL + 0.8, FLOOR + 2 * R, 0.05]); // strays on the floor
  pts.push([WALL + 0.01 + R, FLOOR + 0.6, 0.0], [WALL + 2 * R, FLOOR + 0.55, 0.1]); // strays up
  const first = pts.length;
  block([WALL + 0.12, FLOOR + 0.12, 0.08], 3, 3, 3);
  const fluids: FluidRange[] = [
    { start: 0, count: first, spacing: SPACING, particleMass: MASS },
    { start: first, count: 27, spacing: SPACING, particleMass: MASS },
  ];
  pts.push([WALL + 0.05, FLOOR + 0.05, 0.05], [WALL + 0.2, FLOOR + R, 0.02]); // solid particles
  return { pts, fluids };
}

const close = (got: number, want: number, tol: number, what: string) =>
  assert.ok(Math.abs(got - want) <= tol, `${what}: GPU ${got}, f64 ${want}`);

Deno.test("fluid metrics against the brute force (f64)", async (t) => {
  await t.step("WGSL struct matches its layout", () => {
    checkWgslStruct(FLUID_METRICS_WGSL, FLUID_PARAMS);
  });

  await t.step("a resting lattice reads its rest density", () => {
    // an interior particle of the body's own lattice: the kernel sum over the lattice
    let rho = 0;
    for (let a = -3; a <= 3; a++) {
      for (let b = -3; b <= 3; b++) {
        for (let c = -3; c <= 3; c++) {
          rho += MASS * poly6((a * a + b * b + c * c) * SPACING * SPACING, H);
        }
      }
    }
    const rho0 = latticeRestDensity(MASS, SPACING, H);
    assert.ok(Math.abs(rho / rho0 - 1) < 1e-12, `${rho} vs ${rho0}`);
  });

  await t.step("dam-break column with strays, squeezed: every field", async () => {
    const { pts, fluids } = fixture(new Rng(11));
    // squeeze the column 8 % towards the wall and the floor, and let it run out along the floor:
    // compression (density error, volume loss) and a front that moves
    const after = pts.map(([x, y, z], i): P3 =>
      i < fluids[0].count - 4
        ? [WALL + 0.92 * (x - WALL), FLOOR + 0.92 * (y - FLOOR), 0.92 * z]
        : [x, y, z]
    );
    const probe = { backWallX: WALL, floorY: FLOOR };
    const want = bruteForce(pts, after, fluids, probe);
    const row = await measure(pts, after, { fluids, probe });
    assert.ok(want.densityErrorMax > 0.1, `the squeeze compresses (${want.densityErrorMax})`);
    assert.ok(want.volumeChange < -0.03, `and loses volume (${want.volumeChange})`);
    close(row.densityErrorMax, want.densityErrorMax, 1e-5, "densityErrorMax");
    close(row.densityErrorMean, want.densityErrorMean, 1e-5, "densityErrorMean");
    close(row.volumeChange, want.volumeChange, 1e-5, "volumeChange");
    close(row.frontX, want.frontX, 1e-6, "frontX");
    close(row.columnHeight, want.columnHeight, 1e-6, "columnHeight");
    // the two strays on the floor and the two above the column are ignored (k = 3)
    assert.ok(row.frontX < 0.25 && row.frontX > 0.15, `frontX ${row.frontX}`);
    assert.ok(row.columnHeight < 0.35 && row.columnHeight > 0.25, `height ${row.columnHeight}`);
  });

  await t.step("k strays count as the front; no probe, no front", async () => {
    const { pts, fluids } = fixture(new Rng(12));
    const after = pts.map((p): P3 => [...p]);
    after[5] = [WALL + 0.7, FLOOR + R, 0.1]; // a third stray on the floor, from the column
    const probe = { backWallX: WALL, floorY: FLOOR };
    const want = bruteForce(pts, after, fluids, probe);
    const row = await measure(pts, after, { fluids, probe });
    close(row.frontX, want.frontX, 1e-6, "frontX");
    close(row.frontX, 0.6 + R, 1e-6, "the third-farthest stray");
    close(row.columnHeight, want.columnHeight, 1e-6, "columnHeight");
    close(row.densityErrorMax, want.densityErrorMax, 1e-5, "densityErrorMax");
    close(row.volumeChange, want.volumeChange, 1e-5, "volumeChange");
    const none = await measure(pts, after, { fluids });
    assert.equal(none.frontX, 0);
    assert.equal(none.columnHeight, 0);
    close(none.densityErrorMean, want.densityErrorMean, 1e-5, "densityErrorMean");
  });

  await t.step(
    "fewer than k particles in a band read 0; non-finite particles are skipped",
    async () => {
      const fluids: FluidRange[] = [{ start: 0, count: 4, spacing: SPACING, particleMass: MASS }];
      const x: P3[] = [[0.5, 0, 0], [0.52, 0.01, 0], [0.3, 0.3, 0], [0.2, 0.5, 0]];
      const after = x.map((p): P3 => [...p]);
      after[3] = [NaN, 0, 0];
      const probe = { backWallX: 0, floorY: -0.01 };
      const want = bruteForce(x, after, fluids, probe);
      const row = await measure(x, after, { fluids, probe });
      assert.equal(row.frontX, 0, "two particles in the floor band");
      assert.equal(row.columnHeight, 0, "none at the wall");
      assert.equal(row.nanCount, 1);
      close(row.densityErrorMax, want.densityErrorMax, 1e-5, "densityErrorMax");
      close(row.densityErrorMean, want.densityErrorMean, 1e-5, "densityErrorMean");
      close(row.volumeChange, want.volumeChange, 1e-5, "volumeChange");
    },
  );
});
