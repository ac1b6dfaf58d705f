/**
 * `deno task bench --verify <results.jsonl>`: re-runs the recorded cases and checks that each
 * ends in the recorded state (SHA-256 of positions and velocities): a determinism check, valid on
 * the same adapter and versions.
 *
 * @module
 */
import type { Scale } from "../core/scene.ts";
import { getScene } from "../scenes/catalog.ts";
import type { AdapterChoice } from "../gpu/runtime/device.ts";
import { parseResults } from "../core/result.ts";
import { runOne } from "./runner.ts";
import { loadSceneFile } from "./suite.ts";

/** The outcome of re-running one recorded case. */
export interface VerifyOutcome {
  scene: string;
  handler: string;
  recorded: string;
  now: string | null;
  match: boolean;
  /** Why a comparison is not meaningful (different adapter or versions), if so. */
  warning: string | null;
}

/** Re-runs every `ok`/`unstable` case of a results file and compares state hashes. */
export async function verifyResults(
  file: string,
  options: { adapter: AdapterChoice; onCase?: (o: VerifyOutcome) => void },
): Promise<VerifyOutcome[]> {
  const records = parseResults(Deno.readTextFileSync(file));
  const out: VerifyOutcome[] = [];
  for (const rec of records) {
    if (rec.status !== "ok" && rec.status !== "unstable") continue;
    const base = rec.sceneSource === "catalog"
      ? getScene(rec.scene, { scale: rec.scale as Scale })
      : loadSceneFile(rec.sceneSource);
    const scene = { ...base, seed: rec.seed };
    const now = await runOne(
      {
        scene,
        sceneSource: rec.sceneSource,
        handler: rec.handler,
        params: Object.fromEntries(
          Object.entries(rec.handlerParams).map(([k, v]) => [k, Number(v)]),
        ),
        coupling: rec.coupling === "whole" ? "whole" : "own-part",
      },
      { adapter: options.adapter, steps: rec.steps, warmup: 0, repeat: 1, timeout: Infinity },
    );
    const warnings: string[] = [];
    if (now?.env && rec.env) {
      const named = (a: typeof rec.env.adapter) =>
        `${a.description}${a.backend ? ` (${a.backend})` : ""}`;
      if (named(now.env.adapter) !== named(rec.env.adapter)) {
        warnings.push(
          `adapter "${named(now.env.adapter)}" differs from recorded "${named(rec.env.adapter)}"`,
        );
      }
      if (now.env.deno !== rec.env.deno) {
        warnings.push(`Deno ${now.env.deno} differs from recorded ${rec.env.deno}`);
      }
    }
    const o: VerifyOutcome = {
      scene: rec.scene,
      handler: rec.handler,
      recorded: rec.stateHash ?? "",
      now: now?.stateHash ?? null,
      match: now?.stateHash === rec.stateHash,
      warning: warnings.length ? warnings.join("; ") : null,
    };
    options.onCase?.(o);
    out.push(o);
  }
  return out;
}
