import assert from "node:assert/strict";
import { resolveCases } from "../../bench/cases/suite.ts";
import { parseBenchArgs } from "../../bench/cli.ts";
import { getScene } from "../../scenes/catalog.ts";
import { HARDWARE_FIGURES, HARDWARE_SCALES, HARDWARE_STEPS } from "./hardware_suite.ts";

Deno.test("the hardware suite is its figures' cases, one each, under the paper's setup", () => {
  const cases = resolveCases({ scenes: [], handlers: [], scale: "tiny", suite: "hardware" });
  assert.deepEqual(
    cases.map((c) => `${c.scene.id} ${c.handler} ${c.setup}`).sort(),
    HARDWARE_FIGURES.map((f) => `${f.scene} ${f.handler} paper`).sort(),
  );
});

Deno.test("the hardware suite covers each of the four systems, a figure alone where it can", () => {
  const systemsOf = (id: string) => Object.keys(getScene(id, { scale: "tiny" }).systems);
  for (const system of ["peridynamics", "sph", "flip"] as const) {
    const f = HARDWARE_FIGURES.find((f) => f.id === system)!;
    assert.deepEqual(systemsOf(f.scene), [system], `${system}'s figure runs ${f.scene}`);
  }
  const cloth = HARDWARE_FIGURES.find((f) => f.id === "mass-spring")!;
  assert.ok(systemsOf(cloth.scene).includes("mass-spring"));
});

Deno.test("--suite hardware runs its steps at the GPU's scale unless told otherwise", () => {
  const o = parseBenchArgs(["--suite", "hardware"]);
  assert.deepEqual([o.steps, o.scales], [HARDWARE_STEPS, [HARDWARE_SCALES.gpu]]);
  const soft = parseBenchArgs(["--suite", "hardware", "--scale", "medium", "--steps", "30"]);
  assert.deepEqual([soft.steps, soft.scales], [30, ["medium"]]);
  assert.equal(parseBenchArgs(["--suite", "default"]).steps, undefined);
  assert.equal(parseBenchArgs(["--suite", "hardware", "--duration", "0.1"]).steps, undefined);
});
