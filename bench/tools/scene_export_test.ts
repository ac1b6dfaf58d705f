import assert from "node:assert/strict";
import { sceneToJson } from "../../core/scene/scene.ts";
import { getScene } from "../../scenes/catalog.ts";
import { exportScene, main } from "./scene_export.ts";
import { loadSceneFile, UsageError } from "../cases/suite.ts";

Deno.test("deno task scene: a catalogue scene as a scene file the bench loads", () => {
  const dir = Deno.makeTempDirSync();
  const error = console.error;
  console.error = () => {}; // "wrote …"
  try {
    // without a material: the catalogue scene as it is, its own id
    const plain = exportScene(["--scene", "fig5-wall", "--scale", "tiny"]);
    assert.equal(plain.out, undefined);
    assert.equal(plain.text, sceneToJson(getScene("fig5-wall", { scale: "tiny" })) + "\n");
    // with one: the wall of ice, renamed so that no claim reads it as Fig. 5
    const path = `${dir}/wall.json`;
    assert.equal(
      main(["--scene", "fig5-wall", "--scale", "tiny", "--material", "ice", "--out", path]),
      0,
    );
    const scene = loadSceneFile(path);
    assert.equal(scene.id, "fig5-wall-ice");
    const built = getScene("fig5-wall", { scale: "tiny", material: "ice" });
    assert.deepEqual({ ...scene, id: built.id }, built);
    const wall = scene.bodies.find((b) => b.name === "wall");
    assert.ok(wall?.kind === "solid" && wall.density === 917);
  } finally {
    console.error = error;
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("deno task scene: what is wrong is said, exit status 2", () => {
  const cases: [string[], RegExp][] = [
    [[], /--scene is required/],
    [["--scene", "fig5-wall", "--scale", "huge"], /--scale must be one of tiny, small/],
    [["--scene", "nope"], /unknown scene "nope"; known scenes:/],
    [["--scene", "fig5-wall", "--material", "wood"], /unknown brittle material "wood"; known:/],
    [["--scene", "fig3-ball-cloth-low", "--material", "ice"], /has no breakable body/],
    [["--scene", "fig5-wall", "--colour", "red"], /Unknown option '--colour'/],
  ];
  for (const [args, message] of cases) {
    assert.throws(
      () => exportScene(args),
      (e: unknown) => e instanceof UsageError && message.test(e.message),
    );
  }
  const error = console.error;
  console.error = () => {};
  try {
    assert.equal(main(["--scene", "nope"]), 2);
  } finally {
    console.error = error;
  }
});
