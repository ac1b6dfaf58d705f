/**
 * `deno task bench`: the bench runner's entry point.
 *
 * Implemented so far: one case from the command line,
 * `deno task bench --scene fig4-fluid-cloth --handler merge-split --scale tiny [--adapter software]`,
 * printing the metrics and the per-phase times. The default suite (no arguments), result files
 * and the report are the bench-runner and report issues; with no arguments this says so and
 * exits with status 1.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Scale, SCALES } from "../core/scene.ts";
import { sceneIds } from "../scenes/catalog.ts";
import { HANDLERS } from "../gpu/handlers.ts";
import { runCase } from "./run_case.ts";

const USAGE = `usage: deno task bench --scene <id> --handler <id> [--scale tiny|small|medium|paper]
                       [--adapter default|software] [--steps N]
scenes:   ${sceneIds().join(", ")}
handlers: ${[...HANDLERS.keys()].join(", ")}`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  Deno.exit(2);
}

if (import.meta.main) {
  let values;
  try {
    ({ values } = parseArgs({
      args: Deno.args,
      options: {
        scene: { type: "string" },
        handler: { type: "string" },
        scale: { type: "string", default: "small" },
        adapter: { type: "string", default: "default" },
        steps: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    Deno.exit(0);
  }
  if (!values.scene && !values.handler) {
    console.error(
      "mergesplit: the default suite (every scene × handler, result files, report) is not " +
        "implemented yet; run one case with --scene and --handler.\n\n" + USAGE,
    );
    Deno.exit(1);
  }
  if (!values.scene || !sceneIds().includes(values.scene)) {
    fail(`unknown or missing --scene "${values.scene ?? ""}"`);
  }
  if (!values.handler || !HANDLERS.has(values.handler)) {
    fail(`unknown or missing --handler "${values.handler ?? ""}"`);
  }
  if (!SCALES.includes(values.scale as Scale)) fail(`unknown --scale "${values.scale}"`);
  if (values.adapter !== "default" && values.adapter !== "software") {
    fail(`unknown --adapter "${values.adapter}"`);
  }
  const steps = values.steps === undefined ? undefined : Number(values.steps);
  if (steps !== undefined && !(Number.isInteger(steps) && steps > 0)) {
    fail(`--steps must be a positive integer`);
  }
  const r = await runCase(
    { scene: values.scene, handler: values.handler, scale: values.scale as Scale },
    {
      adapter: values.adapter,
      steps,
      onProgress: (d, n) => console.error(`  step ${d}/${n}`),
    },
  );
  console.log(
    `${r.scene} × ${r.handler} × ${r.scale}: ${r.particles.solid} solid + ${r.particles.fluid} fluid particles, ${r.steps} steps of ${
      r.dt.toExponential(3)
    } s`,
  );
  console.log("metrics:");
  for (const [k, v] of Object.entries(r.metrics)) {
    console.log(`  ${k.padEnd(20)} ${typeof v === "number" ? +v.toPrecision(4) : v}`);
  }
  console.log(`per-phase time (ms/step, mean; ${r.timings.source}):`);
  for (const [k, v] of Object.entries(r.meanMs)) console.log(`  ${k.padEnd(20)} ${v.toFixed(3)}`);
  console.log(
    `host syncs per step: ${r.hostSyncsPerStep} (one timing readback per batch of steps)`,
  );
  console.log(`state hash: ${r.stateHash}`);
  console.log(`wall time: ${r.wallSeconds.toFixed(1)} s`);
}
