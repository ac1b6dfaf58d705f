import assert from "node:assert/strict";
import { getScene, sceneIds } from "../../scenes/catalog.ts";
import { type Scene, SceneError, validateScene } from "../../core/scene/scene.ts";
import { systemEntries } from "../../gpu/systems/registry.ts";
import { checkSceneFile, machineMemoryBytes, systemSchemas } from "./scene_file_check.ts";

const GIB = 2 ** 30;

/** Asserts that `checkSceneFile` rejects `scene` with a `SceneError` whose message matches. */
function rejected(scene: Scene, message: RegExp, options: { memoryBytes?: number } = {}): void {
  const memoryBytes = options.memoryBytes ?? 64 * GIB;
  assert.throws(
    () => checkSceneFile(scene, { memoryBytes }),
    (e: unknown) => e instanceof SceneError && message.test(e.message),
    `expected ${message}`,
  );
}

/** A tiny catalogue scene changed by `mutate` (a deep copy). */
function changed(id: string, mutate: (s: Scene) => void): Scene {
  const s = structuredClone(getScene(id, { scale: "tiny" }));
  mutate(s);
  return s;
}

Deno.test("systemSchemas: every registered system's declared parameters", () => {
  const schemas = systemSchemas();
  assert.deepEqual(Object.keys(schemas), systemEntries().map((e) => e.id));
  assert.deepEqual(schemas.sph.rho0, { description: "rest density (kg/m³)", gt: 0 });
  // the catalogue's scenes validate against them
  for (const id of sceneIds()) {
    validateScene(getScene(id, { scale: "tiny" }), { knownSystems: schemas });
  }
});

Deno.test("machineMemoryBytes: this machine's memory", () => {
  const bytes = machineMemoryBytes();
  assert.ok(bytes > 2 ** 28, `${bytes}`);
  assert.equal(bytes, Deno.systemMemoryInfo().total);
});

Deno.test("checkSceneFile: every catalogue scene at every scale passes on a 16 GiB machine", () => {
  for (const scale of ["tiny", "small", "medium", "paper"] as const) {
    for (const id of sceneIds()) checkSceneFile(getScene(id, { scale }), { memoryBytes: 16 * GIB });
  }
});

Deno.test("checkSceneFile: the systems' own checks, as scene errors on the field", () => {
  rejected(
    changed("fig4-fluid-cloth", (s) => (s.systems.sph.h = 0.01)),
    /^scene\.systems\.sph\.h: 0\.01 must be at least 2·radius = 0\.04$/,
  );
  rejected(
    changed("fig4-fluid-cloth", (s) => delete s.systems.sph.rho0),
    /^scene\.systems\["sph"\]\.rho0: is required \(rest density \(kg\/m³\)\); none given$/,
  );
  rejected(
    changed("dam-break-flip", (s) => (s.systems.flip.dx = 0.07)),
    /^scene\.systems\.flip\.dx: 0\.07 must divide the domain's extent along axis 0/,
  );
  rejected(
    changed("fig4-fluid-cloth", (s) => (s.bodies[1].system = "nope")),
    /^scene\.bodies\[1\]\.system: unknown system "nope"; known systems: mass-spring, /,
  );
});

Deno.test("checkSceneFile: the size, against the machine's memory", () => {
  const scene = getScene("fig4-fluid-cloth", { scale: "tiny" });
  const size = checkSceneFile(scene);
  assert.ok(size.particles > 0 && size.bytes < machineMemoryBytes());
  rejected(
    scene,
    /^scene\.bodies\[\d\]\.\w+: scene fig4-fluid-cloth: .*more than this machine's/,
    { memoryBytes: 2 ** 20 },
  );
  rejected(
    changed("fig4-fluid-cloth", (s) => (s.bodies[1].spacing = 1e-5)),
    /^scene\.bodies\[1\]\.spacing: scene fig4-fluid-cloth: about 9\.42e\+12 particles/,
  );
});

Deno.test("checkSceneFile: a duration of more than the bench's steps is refused on load", () => {
  rejected(
    changed("fig4-fluid-cloth", (s) => (s.duration = 1e12)),
    /^scene\.duration: 1000000000000 s at dt [\d.e-]+ s is \d+ steps, more than the bench's 10,000,000; give a duration of at most [\d.e+-]+ s$/,
  );
  const s = getScene("fig4-fluid-cloth", { scale: "tiny" });
  checkSceneFile({ ...s, duration: 9e6 * s.dt }, { memoryBytes: 64 * GIB });
});
