import assert from "node:assert/strict";
import { buildBonds } from "../model/peridynamic_bonds.ts";
import { criticalStretch, micromodulus } from "../model/peridynamic_constants.ts";
import {
  type Body,
  type Scene,
  sceneFromJson,
  sceneToJson,
  type SolidBody,
  validateScene,
} from "./scene.ts";
import {
  buildParticles,
  isBreakableSolid,
  sampleSolid,
  solidBonds,
  solidConstants,
} from "./scene_builder.ts";
import { assertClose } from "../test_util.ts";
import { badSceneCheck } from "./bad_scene_check.ts";

const H = 0.02;

const CLOTH: Body = {
  kind: "cloth",
  name: "cloth",
  origin: [-0.2, 0, -0.2],
  rows: 5,
  cols: 6,
  spacing: H,
  particleMass: 0.01,
  stretch: 100,
  shear: 50,
  bend: 10,
  damping: 0.01,
  pinned: "corners",
};
const FLUID: Body = {
  kind: "fluid",
  name: "fluid",
  shape: { type: "box", min: [-0.05, 0.1, -0.05], max: [0.05, 0.15, 0.05] },
  spacing: H,
  jitter: 0.05,
  velocity: [0, -1, 0],
  particleMass: 0.008,
};
const SPHERE: SolidBody = {
  kind: "solid",
  name: "ball",
  shape: { type: "sphere", center: [0.1, 0.5, -0.1], radius: 2.3 * H },
  spacing: H,
  density: 2000,
  bulkModulus: 1e6,
  fractureEnergy: 10,
  horizon: 3 * H,
  breakable: true,
  dampingRatio: 0.1,
  velocity: [0.5, -2, 0],
};
const BOX: SolidBody = {
  kind: "solid",
  name: "slab",
  shape: { type: "box", min: [-0.3, -0.5, -0.3], max: [-0.2, -0.45, -0.229] },
  spacing: H,
  density: 500,
  bulkModulus: 2e5,
  fractureEnergy: 1,
  horizon: 2.5 * H,
  breakable: false,
  dampingRatio: 0,
  velocity: [0, 0, 0],
  pinned: { min: [-1, -1, -1], max: [1, -0.5 + H, 1] },
};

const sphere = (radius: number): SolidBody => ({
  ...SPHERE,
  shape: { type: "sphere", center: [0.1, 0.5, -0.1], radius },
});

function scene(bodies: Body[]): Scene {
  return {
    id: "solid-test",
    scale: "tiny",
    figure: "test",
    description: "",
    seed: 7,
    gravity: [0, -9.81, 0],
    domain: { min: [-1, -1, -1], max: [1, 1, 1] },
    radius: 0.005,
    dt: 1e-3,
    cfl: { referenceSpeed: 1, fraction: 0.5 },
    duration: 0.1,
    metricsEvery: 10,
    bodies,
    systems: {},
    handlers: {},
    applicableHandlers: ["*"],
    notes: "",
  };
}

/** Lattice points (i + o)·h about `c`, o = 0 or ½ per axis, within the sphere: brute force. */
function sphereCount(r: number, h: number, half: boolean): number {
  const o = half ? 0.5 : 0;
  let count = 0;
  for (let a = -20; a <= 20; a++) {
    for (let b = -20; b <= 20; b++) {
      for (let c = -20; c <= 20; c++) {
        if (((a + o) ** 2 + (b + o) ** 2 + (c + o) ** 2) * h * h <= r * r) count++;
      }
    }
  }
  return count;
}

Deno.test("solid bodies: validation names the bad field", () => {
  const good = JSON.parse(sceneToJson(scene([CLOTH, FLUID, SPHERE, BOX])));
  validateScene(structuredClone(good));
  const bad = badSceneCheck(good);
  bad(
    (s) => (s.bodies[2].horizon = 0.005),
    /^scene\.bodies\[2\]\.horizon: must be >= spacing 0\.02, got 0\.005$/,
  );
  bad((s) => (s.bodies[2].density = 0), /scene\.bodies\[2\]\.density: must be > 0, got 0/);
  bad((s) => (s.bodies[3].bulkModulus = -1), /scene\.bodies\[3\]\.bulkModulus: must be > 0/);
  bad((s) => delete s.bodies[2].fractureEnergy, /scene\.bodies\[2\]\.fractureEnergy: must be a/);
  bad((s) => (s.bodies[2].breakable = 1), /scene\.bodies\[2\]\.breakable: must be a boolean/);
  bad((s) => (s.bodies[2].dampingRatio = -0.1), /scene\.bodies\[2\]\.dampingRatio: must be >= 0/);
  bad(
    (s) => (s.bodies[2].spacing = 0.009),
    /scene\.bodies\[2\]\.spacing: 0\.009 is below 2·radius/,
  );
  bad((s) => (s.bodies[2].velocity = [0, 1]), /scene\.bodies\[2\]\.velocity: must be a 3-vector/);
  bad((s) => (s.bodies[2].shape.type = "cone"), /scene\.bodies\[2\]\.shape\.type: must be one of/);
  bad((s) => (s.bodies[2].shape.radius = 0.009), /bodies\[2\]\.shape\.radius: 0\.009 holds no/);
  bad((s) => (s.bodies[2].shape.center = [0.99, 0, 0]), /bodies\[2\]\.shape: .*outside the domain/);
  bad((s) => (s.bodies[3].shape.max[1] = -0.6), /bodies\[3\]\.shape\.max: must exceed shape\.min/);
  const torus = { type: "torus", center: [0, 0.3, 0], majorRadius: 0.1, minorRadius: 0.03 };
  const bowl = { type: "bowl", center: [0, 0.3, 0], radius: 0.1, thickness: 0.03 };
  validateScene({
    ...structuredClone(good),
    bodies: [...good.bodies, { ...good.bodies[2], name: "torus", shape: torus }],
  });
  validateScene({
    ...structuredClone(good),
    bodies: [...good.bodies, { ...good.bodies[2], name: "bowl", shape: bowl }],
  });
  bad(
    (s) => (s.bodies[2].shape = { ...torus, minorRadius: 0.1 }),
    /bodies\[2\]\.shape\.minorRadius: 0\.1 must be below majorRadius/,
  );
  bad(
    (s) => (s.bodies[2].shape = { ...torus, minorRadius: 0.005 }),
    /bodies\[2\]\.shape\.minorRadius: 0\.005 holds no lattice sample across the tube/,
  );
  bad(
    (s) => (s.bodies[2].shape = { ...torus, majorRadius: undefined }),
    /shape\.majorRadius: must be/,
  );
  bad(
    (s) => (s.bodies[2].shape = { ...bowl, thickness: 0.01 }),
    /bodies\[2\]\.shape\.thickness: 0\.01 is thinner than one lattice spacing/,
  );
  bad(
    (s) => (s.bodies[2].shape = { ...bowl, thickness: 0.2 }),
    /shape\.thickness: 0\.2 must be below/,
  );
  bad(
    (s) => (s.bodies[2].shape = { ...bowl, center: [0.95, 0.3, 0] }),
    /bodies\[2\]\.shape: .*outside the domain/,
  );
  bad(
    (s) => (s.bodies[3].shape.max[1] = -0.49),
    /bodies\[3\]\.shape\.max: .*less than one spacing/,
  );
  bad((s) => (s.bodies[3].pinned.max[0] = -1), /bodies\[3\]\.pinned\.max: must exceed pinned\.min/);
  bad((s) => (s.bodies[3].pinned = [0, 0, 0]), /scene\.bodies\[3\]\.pinned: must be an object/);
  bad((s) => (s.bodies[3].pinned.min = "x"), /scene\.bodies\[3\]\.pinned\.min: must be a 3-vector/);
  bad(
    (s) => (s.bodies[2].kind = "rock"),
    /bodies\[2\]\.kind: must be one of "cloth", "fluid", "sol/,
  );
  // a solid needs no particleMass; the other kinds still do
  bad((s) => delete s.bodies[1].particleMass, /scene\.bodies\[1\]\.particleMass: must be a number/);
});

Deno.test("solid bodies: JSON round trip", () => {
  for (const bodies of [[SPHERE], [CLOTH, FLUID, SPHERE, BOX]]) {
    const s = scene(bodies);
    assert.deepEqual(sceneFromJson(sceneToJson(s)), s);
  }
});

Deno.test("solid bodies: lattice samples, masses, velocity, pins", async (t) => {
  await t.step("a sphere holds the lattice points within its radius", () => {
    for (const [r, half] of [[2.3 * H, true], [2.6 * H, false], [0.5 * H, false]] as const) {
      const pts = sampleSolid(sphere(r));
      assert.equal(pts.length / 3, sphereCount(r, H, half), `radius ${r / H} h`);
      for (let k = 0; k < pts.length; k += 3) {
        const d = Math.hypot(pts[k] - 0.1, pts[k + 1] - 0.5, pts[k + 2] + 0.1);
        assert.ok(d <= r * (1 + 1e-12));
      }
    }
    // below one spacing across: the centre alone
    assert.deepEqual(sampleSolid(sphere(0.5 * H)), [0.1, 0.5, -0.1]);
  });
  await t.step("a box holds floor(extent/h) samples per axis, centred, spacing h", () => {
    const sh = BOX.shape as Extract<SolidBody["shape"], { type: "box" }>;
    const pts = sampleSolid(BOX);
    const n = [0, 1, 2].map((k) => Math.floor((sh.max[k] - sh.min[k]) / H + 1e-9));
    assert.deepEqual(n, [5, 2, 3]);
    assert.equal(pts.length / 3, 30);
    for (let k = 0; k < pts.length; k += 3) {
      for (let a = 0; a < 3; a++) {
        assert.ok(
          pts[k + a] - sh.min[a] >= H / 2 - 1e-12 && sh.max[a] - pts[k + a] >= H / 2 - 1e-12,
        );
        // on the lattice: an integer number of spacings from the first sample
        const steps = (pts[k + a] - pts[a]) / H;
        assertClose(steps, Math.round(steps), { tol: 1e-9 });
      }
    }
    // centred: the margins at both ends of every axis agree
    for (let a = 0; a < 3; a++) {
      const c = pts.filter((_, k) => k % 3 === a);
      assertClose(Math.min(...c) - sh.min[a], sh.max[a] - Math.max(...c), { tol: 1e-12 });
    }
  });
  await t.step("masses ρh³, radius, velocity, pinned region, body range", () => {
    const p = buildParticles(scene([SPHERE, BOX]));
    const [ball, slab] = p.bodies;
    assert.deepEqual(
      { kind: ball.kind, start: ball.start, spacing: ball.spacing },
      { kind: "solid", start: 0, spacing: H },
    );
    assert.equal(slab.start, ball.count);
    assert.equal(p.count, ball.count + 30);
    // the ranges say which bodies break: the fragments' members (isBreakableSolid)
    assert.deepEqual([ball.breakable, slab.breakable], [true, false]);
    assert.deepEqual(p.bodies.map(isBreakableSolid), [true, false]);
    for (const [r, b] of [[ball, SPHERE], [slab, BOX]] as const) {
      for (let i = r.start; i < r.start + r.count; i++) {
        assertClose(p.mass[i], b.density * H ** 3, { tol: 1e-15, scale: b.density * H ** 3 });
        assert.equal(p.radius[i], 0.005);
        assert.deepEqual([...p.v.subarray(3 * i, 3 * i + 3)], b.velocity);
      }
    }
    assertClose(solidConstants(SPHERE).mass, 2000 * H ** 3, { tol: 1e-15 });
    for (let i = 0; i < ball.count; i++) assert.equal(p.pinned[i], 0);
    // the pinned box holds the bottom layer of the slab: 5 × 3 particles
    let pinned = 0;
    for (let i = slab.start; i < slab.start + slab.count; i++) {
      const y = p.x[3 * i + 1];
      assert.equal(p.pinned[i], y <= -0.5 + H ? 1 : 0);
      pinned += p.pinned[i];
    }
    assert.equal(pinned, 15);
  });
});

Deno.test("solid bodies: bonds are the reference's, as springs", async (t) => {
  const p = buildParticles(scene([SPHERE, BOX]));
  await t.step("every pair within δ + h/2 of one body, stiffness c β V² / L, damping ζ", () => {
    let at = 0;
    for (const [r, b] of [[p.bodies[0], SPHERE], [p.bodies[1], BOX]] as const) {
      const local = p.x.subarray(3 * r.start, 3 * (r.start + r.count));
      const ref = buildBonds(local, {
        horizon: b.horizon,
        volumeCorrection: { spacing: b.spacing },
      });
      assert.ok(ref.i.length > r.count, `${b.name}: bonds`);
      const springs = p.springs.toSprings().slice(at, at + ref.i.length);
      at += ref.i.length;
      const c = micromodulus(b.bulkModulus, b.horizon);
      const V = H ** 3, m = b.density * V;
      const s0 = criticalStretch(b.fractureEnergy, b);
      springs.forEach((s, k) => {
        assert.equal(s.i, ref.i[k] + r.start);
        assert.equal(s.j, ref.j[k] + r.start);
        assert.ok(s.j < r.start + r.count);
        assert.equal(s.restLength, ref.restLength[k]);
        assert.ok(s.restLength <= (b.horizon + H / 2) * (1 + 1e-9));
        const ks = c * ref.volumeFactor[k] * V * V / s.restLength;
        assertClose(s.ks, ks, { tol: 1e-12, scale: ks });
        const kd = 2 * b.dampingRatio * Math.sqrt(ks * m / 2);
        assertClose(s.kd, kd, { tol: 1e-12, scale: kd });
        if (b.breakable) assert.equal(s.breakStretch, s0);
        else assert.ok(!("breakStretch" in s));
      });
    }
    assert.equal(at, p.springs.length);
    // the lattice family of a solid's interior particle: 3 spacings and h/2, as the reference
    assert.equal(solidConstants(SPHERE).criticalStretch, criticalStretch(10, SPHERE));
  });
  await t.step("solidBonds offsets indices", () => {
    const pts = sampleSolid(SPHERE);
    const a = solidBonds(SPHERE, pts);
    const b = solidBonds(SPHERE, pts, 100);
    assert.deepEqual(
      b.toSprings(),
      a.toSprings().map((s) => ({ ...s, i: s.i + 100, j: s.j + 100 })),
    );
  });
});

Deno.test("a scene with a cloth, a fluid and a solid builds; cloth and fluid unchanged", () => {
  const s = scene([CLOTH, FLUID, SPHERE]);
  validateScene(s);
  const p = buildParticles(s);
  const before = buildParticles(scene([CLOTH, FLUID]));
  assert.deepEqual(p.bodies.map((b) => b.kind), ["cloth", "fluid", "solid"]);
  let next = 0;
  p.bodies.forEach((b, k) => {
    assert.equal(b.start, next);
    for (let i = b.start; i < b.start + b.count; i++) assert.equal(p.body[i], k);
    next += b.count;
  });
  assert.equal(next, p.count);
  assert.deepEqual(p.bodies.slice(0, 2), before.bodies);
  // cloth and fluid: same particles, same springs, first
  const n = before.count;
  assert.deepEqual(p.x.subarray(0, 3 * n), before.x);
  assert.deepEqual(p.v.subarray(0, 3 * n), before.v);
  assert.deepEqual(p.mass.subarray(0, n), before.mass);
  assert.deepEqual(p.pinned.subarray(0, n), before.pinned);
  const springs = p.springs.toSprings();
  assert.deepEqual(springs.slice(0, before.springs.length), before.springs.toSprings());
  for (const sp of before.springs.toSprings()) assert.ok(!("breakStretch" in sp));
  const solid = springs.slice(before.springs.length);
  assert.ok(solid.length > 0);
  for (const sp of solid) {
    assert.ok(sp.i >= n && sp.j >= n && sp.breakStretch! > 0);
  }
});
