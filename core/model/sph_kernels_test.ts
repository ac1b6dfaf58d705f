import assert from "node:assert/strict";
import fc from "fast-check";
import { poly6, spiky, spikyGradient, viscosityKernel, viscosityLaplacian } from "./sph_kernels.ts";

/** 4π ∫₀ʰ f(r) r² dr by composite Gauss–Legendre (5 points per interval). */
function radialIntegral(f: (r: number) => number, h: number, intervals = 400): number {
  const xs = [0, -0.5384693101056831, 0.5384693101056831, -0.906179845938664, 0.906179845938664];
  const ws = [
    0.5688888888888889,
    0.47862867049936647,
    0.47862867049936647,
    0.23692688505618908,
    0.23692688505618908,
  ];
  const dr = h / intervals;
  let sum = 0;
  for (let k = 0; k < intervals; k++) {
    const mid = (k + 0.5) * dr;
    for (let q = 0; q < xs.length; q++) {
      const r = mid + 0.5 * dr * xs[q];
      sum += 0.5 * dr * ws[q] * f(r) * r * r;
    }
  }
  return 4 * Math.PI * sum;
}

const positiveH = fc.double({ min: 0.01, max: 10, noNaN: true });

Deno.test("SPH kernels (Müller 2003)", async (t) => {
  await t.step("poly6, spiky and viscosity kernels integrate to 1", () => {
    fc.assert(
      fc.property(positiveH, (h) => {
        const kernels: Record<string, (r: number) => number> = {
          poly6: (r) => poly6(r * r, h),
          spiky: (r) => spiky(r, h),
          viscosity: (r) => viscosityKernel(r, h),
        };
        for (const [name, w] of Object.entries(kernels)) {
          const integral = radialIntegral(w, h);
          assert.ok(Math.abs(integral - 1) < 1e-6, `${name}: ∫W dV = ${integral} at h = ${h}`);
        }
      }),
      { numRuns: 30 },
    );
  });

  await t.step("kernels are ≥ 0 inside the support and 0 beyond h", () => {
    fc.assert(
      fc.property(positiveH, fc.double({ min: 0, max: 3, noNaN: true }), (h, q) => {
        const r = q * h;
        for (
          const v of [poly6(r * r, h), spiky(r, h), spikyGradient(r, h), viscosityLaplacian(r, h)]
        ) {
          assert.ok(v >= 0);
          if (r >= h) assert.equal(v, 0);
        }
        if (r > 0) {
          const vk = viscosityKernel(r, h);
          assert.ok(vk >= -1e-12 * viscosityKernel(h / 2, h));
          if (r >= h) assert.equal(vk, 0);
        }
      }),
    );
  });

  await t.step("spikyGradient is −dW/dr and viscosityLaplacian is ∇²W (finite differences)", () => {
    fc.assert(
      fc.property(positiveH, fc.double({ min: 0.05, max: 0.95, noNaN: true }), (h, q) => {
        const r = q * h;
        const e = 1e-5 * h;
        const d1 = (spiky(r + e, h) - spiky(r - e, h)) / (2 * e);
        const g = spikyGradient(r, h);
        assert.ok(Math.abs(-d1 - g) <= 1e-6 * spikyGradient(0, h), `spiky: ${-d1} vs ${g}`);
        const w = (s: number) => viscosityKernel(s, h);
        const wp = (w(r + e) - w(r - e)) / (2 * e);
        const wpp = (w(r + e) - 2 * w(r) + w(r - e)) / (e * e);
        const lap = viscosityLaplacian(r, h);
        assert.ok(
          Math.abs(wpp + (2 * wp) / r - lap) <= 1e-3 * viscosityLaplacian(0, h),
          `viscosity: ${wpp + (2 * wp) / r} vs ${lap}`,
        );
      }),
      { numRuns: 50 },
    );
  });
});
