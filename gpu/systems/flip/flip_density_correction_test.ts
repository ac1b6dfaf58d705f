import assert from "node:assert/strict";
import {
  densityMultipliers,
  densityWeights,
  flipDensityCorrection,
} from "../../../core/flip_density_correction.ts";
import { latticeRestDensity } from "../../../core/model/sph_params.ts";
import { Rng } from "../../../core/rng.ts";
import { acquireGpu } from "../../runtime/device.ts";
import { readBuffer, storageBuffer } from "../../runtime/kernel.ts";
import { checkWgslStruct } from "../../runtime/struct_layout.ts";
import {
  DENSITY_PARAMS,
  FLIP_DENSITY_CORRECTION_WGSL,
  FlipDensityCorrection,
} from "./flip_density_correction.ts";

const S = 0.02; // spacing
const H = 2 * S;
const R = S / 2;
const M = 1000 * S ** 3;
const DOMAIN = {
  min: [0, 0, 0] as [number, number, number],
  max: [0.3, 0.24, 0.18] as [number, number, number],
};

/**
 * Fixture: a block of FLIP particles squeezed to 0.8 of their rest spacing against the floor and
 * the back wall (so the walls clamp), jittered, with its last column along x not FLIP (another
 * system's: neither moved nor counted; the FLIP particles within h of it are held in place).
 */
function fixture() {
  const rng = new Rng(11);
  const x: number[] = [];
  const s = 0.8 * S;
  for (let k = 0; k < 6; k++) {
    for (let j = 0; j < 7; j++) {
      for (let i = 0; i < 8; i++) {
        x.push(
          R + i * s + 0.1 * s * rng.nextFloat(),
          R + j * s + 0.1 * s * rng.nextFloat(),
          0.03 + k * s + 0.1 * s * rng.nextFloat(),
        );
      }
    }
  }
  const n = x.length / 3;
  const rho0 = latticeRestDensity(M, S, H);
  return {
    n,
    x: Float64Array.from(x),
    m: Float64Array.from({ length: n }, (_, i) => (i % 7 === 3 ? 1.5 * M : M)),
    radius: new Float64Array(n).fill(R),
    restDensity: Float64Array.from({ length: n }, (_, i) => (i % 8 === 7 ? 0 : rho0)),
  };
}

async function runGpu(
  device: GPUDevice,
  p: ReturnType<typeof fixture>,
  iterations: number,
): Promise<Float32Array> {
  const pos4 = new Float32Array(4 * p.n);
  for (let i = 0; i < p.n; i++) {
    pos4.set([p.x[3 * i], p.x[3 * i + 1], p.x[3 * i + 2], p.radius[i]], 4 * i);
  }
  const pos = storageBuffer(device, { label: "test pos", size: pos4.byteLength, data: pos4 });
  const mass = storageBuffer(device, {
    label: "test mass",
    size: 4 * p.n,
    data: Float32Array.from(p.m),
  });
  const corr = new FlipDensityCorrection(device, {
    particleCount: p.n,
    domain: DOMAIN,
    h: H,
    iterations,
    restDensity: Float32Array.from(p.restDensity),
    label: "test flip",
  });
  const encoder = device.createCommandEncoder({ label: "test density correction" });
  corr.encode(encoder, { pos, mass });
  device.queue.submit([encoder.finish()]);
  const out = new Float32Array(await readBuffer(device, pos));
  corr.destroy();
  pos.destroy();
  mass.destroy();
  return out;
}

Deno.test({
  name: "flip density correction on the GPU against the f64 reference",
  sanitizeResources: false,
  fn: async (t) => {
    await t.step("WGSL struct matches its layout", () => {
      checkWgslStruct(FLIP_DENSITY_CORRECTION_WGSL, DENSITY_PARAMS);
    });
    const gpu = await acquireGpu({ adapter: "software" });
    const device = gpu.device;
    const p = fixture();
    const before = densityMultipliers(p, H);
    const compressed = before.mu.filter((v) => v < 0).length;
    assert.ok(compressed > p.n / 3, `only ${compressed} of ${p.n} particles compressed`);
    // the floor's and the back wall's layers read their images: denser with the walls
    const walled = densityMultipliers(p, H, { walls: DOMAIN }).density;
    const atWall = [...walled.keys()].filter((i) => walled[i] > before.density[i] * (1 + 1e-9));
    assert.ok(atWall.length > p.n / 4, `only ${atWall.length} particles read the walls`);

    for (const iterations of [1, 3]) {
      await t.step(`${iterations} iteration(s): positions as the reference's`, async () => {
        const ref = flipDensityCorrection(p, { h: H, iterations, domain: DOMAIN });
        const gpuPos = await runGpu(device, p, iterations);
        const held = densityWeights(p, H).map((w) => (w > 0 ? 0 : 1));
        assert.ok(held.some((v, i) => v && p.restDensity[i] > 0), "no FLIP particle held");
        // tolerance: f32 sums of O(100) terms on positions of O(0.1 m), over iterations that
        // each start from the last one's rounding, and the moves are O(0.1 spacing): 1e-5 m is
        // 5e-4 spacings, far below any move
        let moved = 0;
        for (let i = 0; i < p.n; i++) {
          const d = Math.hypot(
            ref[3 * i] - p.x[3 * i],
            ref[3 * i + 1] - p.x[3 * i + 1],
            ref[3 * i + 2] - p.x[3 * i + 2],
          );
          if (d > 1e-3 * S) moved++;
          for (let a = 0; a < 3; a++) {
            const e = Math.abs(gpuPos[4 * i + a] - ref[3 * i + a]);
            assert.ok(
              e < 1e-5,
              `particle ${i} axis ${a}: GPU ${gpuPos[4 * i + a]} vs ${ref[3 * i + a]}`,
            );
          }
          assert.equal(gpuPos[4 * i + 3], Math.fround(R), "w keeps the radius");
          if (!(p.restDensity[i] > 0) || held[i]) {
            for (let a = 0; a < 3; a++) {
              assert.equal(gpuPos[4 * i + a], Math.fround(p.x[3 * i + a]));
            }
          }
        }
        assert.ok(moved > p.n / 3, `only ${moved} particles moved`);
      });
    }

    await t.step("the compression falls; bit-identical on a second run", async () => {
      const a = await runGpu(device, p, 3);
      const b = await runGpu(device, p, 3);
      assert.deepEqual(a, b);
      const x = Float64Array.from(
        { length: 3 * p.n },
        (_, k) => a[4 * Math.floor(k / 3) + (k % 3)],
      );
      // over the particles free to move, measured with the walls' images as the correction sees
      // them: the mean compression halves and the particles compressed past 50 % fall by half or
      // more. (The worst single particle need not fall: a particle held beside the other system
      // passes its whole constraint to its free neighbours, which a Jacobi sweep overshoots in
      // this 2× squeeze; the f64 reference does the same, checked above.)
      const free = densityWeights(p, H);
      const stats = (d: Float64Array) => {
        const c = [...d].flatMap((
          v,
          i,
        ) => (free[i] > 0 ? [Math.max(v / p.restDensity[i] - 1, 0)] : []));
        return {
          past50: c.filter((v) => v > 0.5).length,
          mean: c.reduce((s, v) => s + v, 0) / c.length,
        };
      };
      const b0 = stats(densityMultipliers(p, H, { walls: DOMAIN }).density);
      const b1 = stats(densityMultipliers({ ...p, x }, H, { walls: DOMAIN }).density);
      assert.ok(b1.past50 <= 0.5 * b0.past50, `past 50 %: ${b0.past50} → ${b1.past50}`);
      assert.ok(b1.mean < 0.5 * b0.mean, `mean compression ${b0.mean} → ${b1.mean}`);
    });
    device.destroy();
  },
});
