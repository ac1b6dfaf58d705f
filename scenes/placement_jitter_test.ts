import assert from "node:assert/strict";
import { buildParticles, type ParticleSet, placementOffset } from "../core/scene/scene_builder.ts";
import type { Scene } from "../core/scene/scene.ts";
import { getScene, PLACEMENT_JITTER, sceneIds } from "./catalog.ts";

const SEEDS = [2021, 7, 99];

/**
 * The smallest distance between particles of two different bodies, found on a hash grid of cell
 * `cell` (pairs farther apart than `cell` are not seen: Infinity when none is nearer).
 */
function closestAcrossBodies(p: ParticleSet, cell: number): number {
  const grid = new Map<string, number[]>();
  const key = (i: number, o: [number, number, number]) =>
    [0, 1, 2].map((a) => Math.floor(p.x[3 * i + a] / cell) + o[a]).join(",");
  for (let i = 0; i < p.count; i++) {
    const k = key(i, [0, 0, 0]);
    (grid.get(k) ?? grid.set(k, []).get(k)!).push(i);
  }
  let best = Infinity;
  for (let i = 0; i < p.count; i++) {
    for (let o = 0; o < 27; o++) {
      const off: [number, number, number] = [
        (o % 3) - 1,
        (Math.floor(o / 3) % 3) - 1,
        Math.floor(o / 9) - 1,
      ];
      for (const j of grid.get(key(i, off)) ?? []) {
        if (j <= i || p.body[j] === p.body[i]) continue;
        const d = Math.hypot(...[0, 1, 2].map((a) => p.x[3 * i + a] - p.x[3 * j + a]));
        best = Math.min(best, d);
      }
    }
  }
  return best;
}

/** Whether every particle lies inside the scene's domain. */
function insideDomain(s: Scene, p: ParticleSet): boolean {
  for (let i = 0; i < p.count; i++) {
    for (let a = 0; a < 3; a++) {
      const v = p.x[3 * i + a];
      if (v < s.domain.min[a] || v > s.domain.max[a]) return false;
    }
  }
  return true;
}

Deno.test("the seeded placement moves every free cloth and solid, and only them", () => {
  const s = getScene("fig3-ball-cloth-low", { scale: "tiny" });
  assert.equal(s.placementJitter, PLACEMENT_JITTER);
  const offsets = SEEDS.map((seed) => s.bodies.map((_, i) => placementOffset({ ...s, seed }, i)));
  const ball = s.bodies.findIndex((b) => b.kind === "solid");
  const cloth = s.bodies.findIndex((b) => b.kind === "cloth");
  assert.deepEqual(
    offsets.map((o) => o[cloth]),
    SEEDS.map(() => [0, 0, 0]),
    "a pinned cloth stays",
  );
  const balls = offsets.map((o) => o[ball]);
  assert.equal(new Set(balls.map((o) => o.join())).size, 3, "three seeds, three placements");
  for (const o of balls) {
    assert.equal(o[1], 0, "the drop height is kept");
    assert.ok(Math.abs(o[0]) <= s.radius && Math.abs(o[2]) <= s.radius);
  }
  const fluid = getScene("fig4-fluid-cloth", { scale: "tiny" });
  const f = fluid.bodies.findIndex((b) => b.kind === "fluid");
  assert.deepEqual(placementOffset(fluid, f), [0, 0, 0], "a fluid is jittered per sample instead");
  const built = [7, 99].map((seed) => buildParticles({ ...s, seed }));
  const range = built[0].bodies[ball];
  const dx = built[0].x[3 * range.start] - built[1].x[3 * range.start];
  assert.ok(Math.abs(dx - (balls[1][0] - balls[2][0])) < 1e-12, "the whole ball moves rigidly");
  assert.deepEqual(built[0].springs, built[1].springs, "bonds and rest lengths do not move");
});

Deno.test("no seed brings two bodies closer than they were placed, or leaves the domain", () => {
  for (const id of sceneIds()) {
    for (const scale of ["tiny", "small"] as const) {
      const s = getScene(id, { scale });
      const still = closestAcrossBodies(buildParticles({ ...s, placementJitter: 0 }), 2 * s.radius);
      for (const seed of SEEDS) {
        const p = buildParticles({ ...s, seed });
        const gap = closestAcrossBodies(p, 2 * s.radius);
        assert.ok(
          gap >= Math.min(still, 2 * s.radius) - 1e-12,
          `${id} at ${scale}, seed ${seed}: two bodies ${gap} m apart (placed ${still} m, 2r ${
            2 * s.radius
          } m)`,
        );
        assert.ok(
          insideDomain(s, p),
          `${id} at ${scale}, seed ${seed}: a particle left the domain`,
        );
      }
    }
  }
});
