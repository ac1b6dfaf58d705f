import assert from "node:assert/strict";
import { fluidOnCloth, type FluidOnClothOptions, rejectFlipSoundSpeed } from "./fluid_on_cloth.ts";

Deno.test("a FLIP fluid has no speed of sound to set", () => {
  rejectFlipSoundSpeed("fig9-flip-cloth", undefined);
  assert.throws(
    () => rejectFlipSoundSpeed("fig9-flip-cloth", 20),
    /soundSpeedFactor: fig9-flip-cloth is a FLIP fluid .*choose the scene's SPH variant/,
  );
  const options: FluidOnClothOptions = {
    id: "fig9-flip-cloth",
    figure: "Fig. 9",
    description: "a FLIP column onto a cloth",
    scale: "tiny",
    fluid: "column",
    fluidSystem: "flip",
    applicableHandlers: ["*"],
  };
  assert.equal(fluidOnCloth(options).id, "fig9-flip-cloth");
  assert.throws(() => fluidOnCloth({ ...options, soundSpeedFactor: 20 }), /is a FLIP fluid/);
  // the SPH variant takes one
  assert.ok(fluidOnCloth({ ...options, fluidSystem: "sph", soundSpeedFactor: 20 }).dt > 0);
});
