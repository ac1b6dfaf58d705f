import { getScene } from "/work/main/scenes/catalog.ts";
import { Engine } from "/work/main/gpu/engine.ts";
import { PAPER_SETUP, sceneUnder } from "/work/main/core/setups.ts";
import { softwareGpu, releaseSoftwareGpu } from "/work/main/gpu/engine_run_fixture.ts";
const gpu = await softwareGpu();
const sum = (d: Record<string, number | undefined>) => Object.entries(d).filter(([p]) => p !== "metrics").reduce((a, [, k]) => a + (k ?? 0), 0);
const steps = Number(Deno.args[1] ?? 40);
for (const spec of (Deno.args[0] ?? "dam-break-flip:tiny,fig9-flip-cloth:small").split(",")) {
  const [s, scale] = spec.split(":");
  const scene = sceneUnder(getScene(s, { scale: scale as "small" }), PAPER_SETUP);
  const engine = await Engine.create(scene, { handler: "merge-split", gpu, steps, params: PAPER_SETUP.handlerParams?.["merge-split"], coupling: PAPER_SETUP.coupling });
  const t0 = performance.now();
  await engine.run(steps);
  console.log(spec, await engine.stateHash(), `d=${sum(engine.dispatchesPerPhase)}`, `${((performance.now() - t0) / steps).toFixed(1)} ms/step`);
  engine.destroy();
}
releaseSoftwareGpu();
