import assert from "node:assert/strict";
import { getScene, sceneIds } from "../../scenes/catalog.ts";
import {
  type ClothBody,
  type FluidBody,
  type Scale,
  type Scene,
  SceneError,
  type SolidBody,
} from "./scene.ts";
import { buildParticles } from "./scene_builder.ts";
import {
  BASE_BYTES,
  BYTES_PER_PARTICLE,
  BYTES_PER_SPRING,
  checkSceneSize,
  estimateSceneSize,
  formatCount,
  formatGiB,
  MAX_PARTICLES,
  MAX_SPRINGS,
} from "./scene_size.ts";

const GIB = 2 ** 30;

/** Asserts that `checkSceneSize` rejects `scene` on a machine of `memoryBytes`, the message matching. */
function tooBig(scene: Scene, expected: { memoryBytes: number; message: RegExp }): void {
  const { memoryBytes, message } = expected;
  assert.throws(
    () => checkSceneSize(scene, { memoryBytes }),
    (e: unknown) => e instanceof SceneError && message.test(e.message),
    `expected ${message}`,
  );
}

/** A catalogue scene changed by `mutate` (a deep copy). */
function changed(id: string, mutate: (s: Scene) => void, scale: Scale = "tiny"): Scene {
  const s = structuredClone(getScene(id, { scale }));
  mutate(s);
  return s;
}

Deno.test("estimates match the built counts of every catalogue scene at tiny and small", () => {
  for (const scale of ["tiny", "small"] as const) {
    for (const id of sceneIds()) {
      const scene = getScene(id, { scale });
      const built = buildParticles(scene);
      const size = estimateSceneSize(scene);
      const ratio = size.particles / built.count;
      assert.ok(
        ratio > 1 / 1.5 && ratio < 1.5,
        `${id} at ${scale}: ${size.particles} vs ${built.count}`,
      );
      // cloth springs are exact; solid bonds an upper bound (interior family × particles / 2)
      assert.ok(
        size.springs >= built.springs.length && size.springs <= 10 * built.springs.length + 1,
        `${id} at ${scale}: ${size.springs} springs vs ${built.springs.length}`,
      );
      size.bodies.forEach((b, i) => {
        const n = built.bodies[i].count;
        assert.ok(
          b.particles > n / 1.6 && b.particles < 1.6 * n,
          `${id} ${b.name}: ${b.particles} vs ${n}`,
        );
      });
      assert.equal(
        size.bytes,
        BASE_BYTES + size.particles * BYTES_PER_PARTICLE + size.springs * BYTES_PER_SPRING +
          size.gridCells * 256,
      );
      checkSceneSize(scene, { memoryBytes: 4 * GIB });
    }
  }
});

Deno.test("every catalogue scene at every scale passes the limits of a 16 GiB machine", () => {
  for (const scale of ["medium", "paper"] as const) {
    for (const id of sceneIds()) {
      const size = checkSceneSize(getScene(id, { scale }), { memoryBytes: 16 * GIB });
      assert.ok(size.particles < MAX_PARTICLES && size.springs < MAX_SPRINGS, id);
    }
  }
  // Table I's largest: fig8-bowl at paper, 6,512,570 particles built
  const bowl = estimateSceneSize(getScene("fig8-bowl", { scale: "paper" }));
  assert.ok(Math.abs(bowl.particles / 6_512_570 - 1) < 0.01, `${bowl.particles}`);
  assert.ok(bowl.bytes < 16 * GIB, formatGiB(bowl.bytes));
});

Deno.test("a FLIP body's MAC grid is counted; other scenes have none", () => {
  const flip = estimateSceneSize(getScene("dam-break-flip", { scale: "tiny" }));
  // domain 1.92 × 0.72 × 0.24 m at dx 0.08 m
  assert.equal(flip.gridCells, 24 * 9 * 3);
  assert.equal(estimateSceneSize(getScene("dam-break-sph", { scale: "tiny" })).gridCells, 0);
});

Deno.test("a fluid spacing of 1e-5 m: rejected at once with the numbers", () => {
  const s = changed("fig4-fluid-cloth", (s) => (s.bodies[1].spacing = 1e-5));
  const t0 = performance.now();
  const size = estimateSceneSize(s);
  assert.ok(performance.now() - t0 < 100, "closed form, nothing built");
  assert.ok(size.particles > 1e12 && Number.isFinite(size.particles), `${size.particles}`);
  tooBig(s, {
    memoryBytes: 64 * GIB,
    message:
      /^scene\.bodies\[1\]\.spacing: scene fig4-fluid-cloth: about 9\.\d\de\+12 particles and 1378 springs, ~[\d.e+]+ GiB of host memory \(body "fluid": 9\.\d\de\+12 particles at spacing 0\.00001 m\), more than this machine's 64 GiB and the harness's limit of 44,739,242 particles; raise bodies\[1\]\.spacing or shrink the body$/,
  });
});

Deno.test("estimates that overflow are Infinity, never NaN, and are rejected", () => {
  const s = changed("dam-break-sph", (s) => {
    s.domain = { min: [-3e38, -3e38, -3e38], max: [3e38, 3e38, 3e38] };
    const water = s.bodies[0] as FluidBody;
    s.bodies[0] = { ...water, spacing: 1e-300, shape: { ...s.domain, type: "box" } };
  });
  const size = estimateSceneSize(s);
  assert.throws(
    () =>
      checkSceneSize(s, { memoryBytes: Infinity, maxParticles: Infinity, maxSprings: Infinity }),
    /about ∞ particles, ~∞ GiB of host memory .*, more than what any machine holds; raise bodies\[0\]\.spacing/,
  );
  assert.equal(size.particles, Infinity);
  assert.equal(size.bytes, Infinity);
  tooBig(s, {
    memoryBytes: Infinity,
    message: /^scene\.bodies\[0\]\.spacing: .*about ∞ particles, ~∞ GiB .*harness's limit/,
  });
});

Deno.test("limits: memory, particles, springs, FLIP grid, cloth", () => {
  const small = getScene("fig4-fluid-cloth", { scale: "tiny" });
  tooBig(small, {
    memoryBytes: 2 ** 20,
    message: /^scene\.bodies\[\d\]\.\w+: .*more than this machine's 0\.000977 GiB; /,
  });
  assert.throws(
    () => checkSceneSize(small, { memoryBytes: Infinity, maxParticles: 100 }),
    /more than the harness's limit of 100 particles; /,
  );
  const cloth = changed("fig4-fluid-cloth", (s) => {
    const c = s.bodies[0] as ClothBody;
    Object.assign(c, { rows: 100_000, cols: 100_000, spacing: 1e-6 });
  });
  tooBig(cloth, {
    memoryBytes: Infinity,
    message:
      /^scene\.bodies\[0\]\.rows: .*\(body "cloth": 1\.00e\+10 particles, 100000 × 100000\).*; lower bodies\[0\]\.rows and bodies\[0\]\.cols$/,
  });
  const bonds = changed("fig5-wall", (s) => {
    (s.bodies[0] as SolidBody).horizon = 0.4;
  });
  const wall = estimateSceneSize(bonds).bodies[0];
  assert.equal(wall.springs, (432 * 432) / 2, "no more bonds than pairs of lattice samples");
  assert.throws(
    () => checkSceneSize(bonds, { memoryBytes: Infinity, maxSprings: 50_000 }),
    /^SceneError: scene\.bodies\[0\]\.spacing: .*bonds within horizon 0\.4 m\), more than the harness's limit of 50,000 springs; raise bodies\[0\]\.spacing \(or lower bodies\[0\]\.horizon\)/,
  );
  const huge = changed("fig5-wall", (s) => {
    const w = s.bodies[0] as SolidBody;
    Object.assign(w, { spacing: 1e-3, horizon: 0.5 });
  });
  tooBig(huge, {
    memoryBytes: Infinity,
    message:
      /^scene\.bodies\[0\]\.spacing: .*bonds within horizon 0\.5 m\), more than the harness's limit of 134,217,728 springs; raise bodies\[0\]\.spacing \(or lower bodies\[0\]\.horizon\)/,
  });
  const grid = changed("dam-break-flip", (s) => (s.systems.flip.dx = 1e-4));
  assert.ok(estimateSceneSize(grid).gridCells > 1e11);
  tooBig(grid, {
    memoryBytes: 64 * GIB,
    message:
      /^scene\.systems\["flip"\]\.dx: .*a FLIP grid of [\d.e+]+ cells, .*\(the FLIP grid at dx 0\.0001 m\), more than this machine's 64 GiB; raise systems\["flip"\]\.dx or shrink the domain$/,
  });
});

Deno.test("formatCount and formatGiB", () => {
  assert.equal(formatCount(1378), "1378");
  assert.equal(formatCount(9.4247e12), "9.42e+12");
  assert.equal(formatCount(Infinity), "∞");
  assert.equal(formatGiB(23.54 * GIB), "23.5 GiB");
  assert.equal(formatGiB(8.99e15), "8.37e+6 GiB");
  assert.equal(formatGiB(NaN), "∞ GiB");
});
