import { getScene } from "/work/main/scenes/catalog.ts";
import { Engine } from "/work/main/gpu/engine.ts";
import { PAPER_SETUP, sceneUnder } from "/work/main/core/setups.ts";
import { softwareGpu, releaseSoftwareGpu } from "/work/main/gpu/engine_run_fixture.ts";
const gpu = await softwareGpu();
const steps = Number(Deno.args[1] ?? 100);
for (const s of Deno.args[0].split(",")) {
  const scene = sceneUnder(getScene(s, { scale: "small" }), PAPER_SETUP);
  const engine = await Engine.create(scene, { handler: "merge-split", gpu, steps: steps + 20, params: PAPER_SETUP.handlerParams?.["merge-split"], coupling: PAPER_SETUP.coupling, stepsPerSubmit: 8 });
  await engine.run(20);
  const t0 = performance.now();
  await engine.run(steps);
  console.log("/work/main", s, `${((performance.now() - t0) / steps).toFixed(1)} ms/step`, (await engine.stateHash()).slice(0, 12), gpu.device.adapterInfo?.description);
  engine.destroy();
}
releaseSoftwareGpu();
