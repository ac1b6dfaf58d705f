import assert from "node:assert/strict";
import { caseConfigHash, configHash, stableStringify } from "./config_hash.ts";
import { getScene } from "../scenes/catalog.ts";
import { getSystem } from "../gpu/systems/registry.ts";
import { resolveParams } from "../core/params.ts";

Deno.test("stableStringify sorts keys at every depth and writes Infinity", () => {
  assert.equal(
    stableStringify({ b: 1, a: { d: Infinity, c: [2, { f: 1, e: 0 }] } }),
    '{"a":{"c":[2,{"e":0,"f":1}],"d":"Infinity"},"b":1}',
  );
});

Deno.test("caseConfigHash hashes the systems' parameters as they run, defaults filled in", async () => {
  const scene = getScene("dam-break-flip", { scale: "tiny" });
  const config = {
    scene,
    handler: "merge-split",
    handlerParams: { alpha: 1, beta: 0, nMin: 8, nMax: 64 },
    coupling: "own-part",
    steps: 10,
    warmup: 2,
    repeat: 1,
  };
  const flip = scene.systems.flip as Record<string, number>;
  const defaults = resolveParams(getSystem("flip").params, { scene: flip, field: "flip" });
  assert.ok(!("densityIterations" in flip), "the scene leaves densityIterations to the schema");
  const base = await caseConfigHash(config);
  // what the scene leaves to the schema counts: the hash is not the scene's as written
  assert.notEqual(base, await configHash(config));
  assert.equal(
    base,
    await configHash({
      ...config,
      scene: { ...scene, systems: { flip: { ...defaults, ...flip } } },
    }),
  );
  // a default written out hashes as one left to the schema; another value does not
  const at = (densityIterations: number) =>
    caseConfigHash({
      ...config,
      scene: { ...scene, systems: { flip: { ...flip, densityIterations } } },
    });
  assert.equal(await at(defaults.densityIterations), base);
  assert.notEqual(await at(defaults.densityIterations + 1), base);
  // a bad system parameter is named, as the engine would name it
  await assert.rejects(
    () =>
      caseConfigHash({ ...config, scene: { ...scene, systems: { flip: { ...flip, nope: 1 } } } }),
    /systems\["flip"\]\.nope/,
  );
});
