import assert from "node:assert/strict";
import type { ParamSchema } from "../params.ts";
import { hasControlCharacter } from "../option_text.ts";
import {
  type Body,
  F32_MAX,
  type Scene,
  SceneError,
  sceneFromJson,
  sceneToJson,
  validateScene,
} from "./scene.ts";

const CLOTH: Body = {
  kind: "cloth",
  name: "cloth",
  origin: [-0.2, 0, -0.2],
  rows: 5,
  cols: 6,
  spacing: 0.02,
  particleMass: 0.01,
  stretch: 100,
  shear: 50,
  bend: 10,
  damping: 0.01,
  pinned: "corners",
};
const FLUID: Body = {
  kind: "fluid",
  name: "water",
  shape: { type: "box", min: [-0.05, 0.1, -0.05], max: [0.05, 0.15, 0.05] },
  spacing: 0.02,
  jitter: 0.05,
  velocity: [0, -1, 0],
  particleMass: 0.008,
};

/** Two systems as a registry would declare them (plug-in schemas are data to core). */
const SYSTEMS: Record<string, ParamSchema> = {
  "mass-spring": {
    cgIterations: { description: "CG iterations", min: 1, integer: true },
    drag: { description: "linear drag (1/s)", min: 0, default: 0 },
  },
  sph: {
    h: { description: "kernel support radius h (m)", gt: 0 },
    rho0: { description: "rest density (kg/m³)", gt: 0 },
    stiffness: { description: "equation-of-state stiffness k (Pa)", gt: 0 },
    viscosity: { description: "dynamic viscosity μ (Pa·s)", min: 0 },
  },
};

function scene(): Scene {
  return {
    id: "scene-test",
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
    bodies: [CLOTH, FLUID],
    systems: {
      "mass-spring": { cgIterations: 12 },
      sph: { h: 0.04, rho0: 1000, stiffness: 1e5, viscosity: 1 },
    },
    handlers: {},
    applicableHandlers: ["*"],
    notes: "",
  };
}

/** Asserts that `validateScene` with the schemas above rejects `mutate`'s copy, the message matching `message`. */
// deno-lint-ignore no-explicit-any
function bad(mutate: (s: Record<string, any>) => void, message: RegExp): void {
  const s = JSON.parse(sceneToJson(scene()));
  mutate(s);
  assert.throws(
    () => validateScene(s, { knownSystems: SYSTEMS }),
    (e: unknown) => e instanceof SceneError && message.test(e.message),
    `expected ${message}`,
  );
}

Deno.test("knownSystems: a valid scene passes, with or without the schemas", () => {
  validateScene(scene(), { knownSystems: SYSTEMS });
  validateScene(scene());
  const named = scene();
  named.bodies[1] = { ...FLUID, system: "sph" };
  validateScene(named, { knownSystems: SYSTEMS });
});

Deno.test("knownSystems: unknown system ids, names and parameters are named", () => {
  bad(
    (s) => (s.bodies[1].system = "nope"),
    /^scene\.bodies\[1\]\.system: unknown system "nope"; known systems: mass-spring, sph \(or leave "system" out/,
  );
  bad(
    (s) => (s.systems.nope = { x: 1 }),
    /^scene\.systems\["nope"\]: unknown system "nope"; known systems: mass-spring, sph/,
  );
  bad(
    (s) => (s.systems.sph.rh0 = 1000),
    /^scene\.systems\["sph"\]\.rh0: unknown parameter of system "sph"; did you mean "rho0"\?; its parameters: h, rho0, stiffness, viscosity$/,
  );
  bad((s) => (s.systems.sph = 3), /^scene\.systems\["sph"\]: must be an object, got 3$/);
});

Deno.test("knownSystems: values out of the declared ranges are named", () => {
  bad(
    (s) => (s.systems.sph.rho0 = 0),
    /^scene\.systems\["sph"\]\.rho0: must be > 0, got 0 \(sph: rest density \(kg\/m³\)\)$/,
  );
  bad(
    (s) => (s.systems.sph.h = -1),
    /^scene\.systems\["sph"\]\.h: must be > 0, got -1 \(sph: kernel/,
  );
  bad((s) => (s.systems.sph.stiffness = -5), /^scene\.systems\["sph"\]\.stiffness: must be > 0/);
  bad((s) => (s.systems.sph.viscosity = -0.1), /^scene\.systems\["sph"\]\.viscosity: must be >= 0/);
  bad((s) => (s.systems.sph.h = NaN), /^scene\.systems\["sph"\]\.h: must be a number, got NaN/);
  bad((s) => (s.systems.sph.h = Infinity), /^scene\.systems\["sph"\]\.h: must be finite, got Inf/);
  bad((s) => (s.systems.sph.h = "0.04"), /^scene\.systems\["sph"\]\.h: must be a number, got "0/);
  bad(
    (s) => (s.systems["mass-spring"].cgIterations = 2.5),
    /^scene\.systems\["mass-spring"\]\.cgIterations: must be an integer, got 2\.5/,
  );
  bad((s) => (s.systems["mass-spring"].drag = -1), /systems\["mass-spring"\]\.drag: must be >= 0/);
});

Deno.test("knownSystems: sceneFromJson passes them on (Infinity as written by sceneToJson)", () => {
  const s = scene();
  s.systems.sph.stiffness = Infinity;
  const text = sceneToJson(s);
  assert.equal(sceneFromJson(text).systems.sph.stiffness, Infinity, "no schema: any number");
  assert.throws(
    () => sceneFromJson(text, { knownSystems: SYSTEMS }),
    /^SceneError: scene\.systems\["sph"\]\.stiffness: must be finite, got Infinity/,
  );
});

Deno.test("the domain must fit the GPU's f32 positions", () => {
  bad(
    (s) => (s.domain.max = [1e308, 1e308, 1e308]),
    /^scene\.domain\.max: \[1e\+308, 1e\+308, 1e\+308\] lies beyond ±3\.40e\+38 m, the range of the f32 positions/,
  );
  bad(
    (s) => (s.domain.min = [-1, -4e38, -1]),
    /^scene\.domain\.min: \[-1, -4e\+38, -1\] lies beyond/,
  );
  const edge = scene();
  edge.domain = { min: [-F32_MAX, -1, -1], max: [F32_MAX, 1, 1] };
  validateScene(edge);
});

Deno.test("misspelt keys are errors naming the key and the nearest valid one", () => {
  const unknown = (field: string, near: string) =>
    new RegExp(
      `^scene\\.${
        field.replace(/[.[\]]/g, "\\$&")
      }: unknown key; did you mean "${near}"\\? \\(the keys here: `,
    );
  bad((s) => (s.durationn = 5), unknown("durationn", "duration"));
  bad((s) => (s.bodies[1].velocty = [0, 5, 0]), unknown("bodies[1].velocty", "velocity"));
  bad((s) => (s.bodies[0].pined = "edges"), unknown("bodies[0].pined", "pinned"));
  bad((s) => (s.bodies[1].shape.mx = [0, 0, 0]), unknown("bodies[1].shape.mx", "max"));
  bad((s) => (s.domain.mins = [0, 0, 0]), unknown("domain.mins", "min"));
  bad((s) => (s.cfl.fracton = 0.5), unknown("cfl.fracton", "fraction"));
  bad(
    (s) => (s.zzzzzzzz = 1),
    /^scene\.zzzzzzzz: unknown key \(the keys here: id, scale, .*\); fix its spelling or remove it$/,
  );
  // the misspelling is named even where it replaces the key it means
  bad((s) => {
    s.durationn = s.duration;
    delete s.duration;
  }, unknown("durationn", "duration"));
});

Deno.test("a misspelt handler id in the handlers block is named with the nearest one", () => {
  const s = JSON.parse(sceneToJson(scene()));
  s.handlers = { "merge-splt": { alpha: 1 } };
  const knownHandlers = ["merge-split", "penalty"];
  assert.throws(
    () => validateScene(s, { knownSystems: SYSTEMS, knownHandlers }),
    (e: unknown) =>
      e instanceof SceneError &&
      e.message ===
        'scene.handlers["merge-splt"]: unknown handler "merge-splt"; did you mean "merge-split"?; known: merge-split, penalty (fix the name or remove the entry)',
  );
  s.handlers = { "merge-split": { alpha: 1 } };
  validateScene(s, { knownSystems: SYSTEMS, knownHandlers });
});

Deno.test("a setup's handler block is checked as the handlers block, its path named", () => {
  const s = JSON.parse(sceneToJson(scene()));
  const knownHandlers = ["merge-split", "penalty"];
  s.setupHandlers = { "per-scene-levels": { penalty: { stiffness: "soft" } } };
  assert.throws(
    () => validateScene(s, { knownSystems: SYSTEMS, knownHandlers }),
    (e: unknown) =>
      e instanceof SceneError &&
      e.field === 'setupHandlers["per-scene-levels"]["penalty"].stiffness',
  );
  s.setupHandlers = { "per-scene-levels": { penalti: { stiffness: 1 } } };
  assert.throws(
    () => validateScene(s, { knownSystems: SYSTEMS, knownHandlers }),
    /setupHandlers\["per-scene-levels"\]\["penalti"\]: unknown handler "penalti"; did you mean "penalty"/,
  );
  s.setupHandlers = { "per-scene-levels": { penalty: { stiffness: 1 } } };
  validateScene(s, { knownSystems: SYSTEMS, knownHandlers });
});

Deno.test("ids and names with control characters are refused, shown escaped", () => {
  for (
    const [field, set] of [
      ["id", (s: Scene) => (s.id = "fig4\nmergesplit: all ok")],
      ["id", (s: Scene) => (s.id = "fig4\u202ekcab")],
      ["figure", (s: Scene) => (s.figure = "Fig.\x1b[2J")],
      ["bodies[0].name", (s: Scene) => (s.bodies[0] = { ...s.bodies[0], name: "a\u2066b" })],
    ] as const
  ) {
    const s = scene();
    set(s);
    assert.throws(
      () => validateScene(s),
      (e: unknown) =>
        e instanceof SceneError && e.field === field &&
        /holds a control or formatting character/.test(e.message) &&
        !hasControlCharacter(e.message),
      field,
    );
  }
});

Deno.test("dtOverCfl: a swept time step may cross the CFL bound by that factor, no more", () => {
  const s = scene();
  const bound = s.cfl.fraction * s.radius / s.cfl.referenceSpeed;
  s.dt = 3 * bound;
  assert.throws(() => validateScene(s), /scene\.dt: .* more than cfl\.fraction · radius/);
  validateScene(s, { dtOverCfl: 4 });
  assert.throws(() => validateScene(s, { dtOverCfl: 2 }), /more than 2 × cfl\.fraction · radius/);
});
