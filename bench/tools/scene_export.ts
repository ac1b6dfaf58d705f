/**
 * `deno task scene`: writes a catalogue scene at one scale as a scene file (`sceneToJson`), to
 * read, edit or run with `deno task bench --scene <file>` (the record names the file, so
 * `--verify` rebuilds what ran). `--material` gives the breakable body of Figs. 5, 6, 8
 * (middle, bottom) and 9 (bottom) a real brittle material (`scenes/brittle_materials.ts`: ice, concrete, glass, snow):
 * its density, bulk modulus (E/1.5, bond-based ν = 1/4) and fracture energy, and with them the
 * critical stretch, the ball's density (Fig. 5: 20× the wall's), the baselines' stiffness levels and
 * the crack-speed step. Its id is then `<scene>-<material>`, so that its records are never read as
 * the catalogue scene's (the claims read those by id).
 *
 * ```sh
 * deno task scene --scene fig5-wall --scale small --material ice --out fig5-wall-ice.json
 * deno task bench --scene fig5-wall-ice.json --handler merge-split
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Scale, SCALES, sceneToJson } from "../../core/scene/scene.ts";
import { BRITTLE_MATERIALS } from "../../scenes/brittle_materials.ts";
import { getScene, hasBrittleMaterial, sceneIds } from "../../scenes/catalog.ts";
import { UsageError } from "../cases/suite.ts";
import { writeFileAtomic } from "../../core/io/write_file_atomic.ts";

/** Usage text of `deno task scene`. */
export const SCENE_EXPORT_USAGE = `deno task scene --scene <id> [options]

  --scene <id>        catalogue scene (required)
  --scale <name>      ${SCALES.join(" | ")} (default small)
  --material <id>     a real brittle material for the breakable body: ${
  Object.keys(BRITTLE_MATERIALS).join(", ")
}
                      (scenes ${sceneIds().filter(hasBrittleMaterial).join(", ")})
  --out <path>        the file to write (default: standard output)
`;

/**
 * The scene file `args` ask for (module doc): its JSON text and where to write it (undefined:
 * standard output). Throws a {@link UsageError} saying what is wrong and what is valid.
 */
export function exportScene(args: readonly string[]): { text: string; out?: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        scene: { type: "string" },
        scale: { type: "string", default: "small" },
        material: { type: "string" },
        out: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\n${SCENE_EXPORT_USAGE}`);
  }
  if (!values.scene) throw new UsageError(`--scene is required\n${SCENE_EXPORT_USAGE}`);
  const scale = values.scale as Scale;
  if (!(SCALES as readonly string[]).includes(scale)) {
    throw new UsageError(`--scale must be one of ${SCALES.join(", ")}, got "${values.scale}"`);
  }
  let text;
  try {
    text = sceneFileText({ scene: values.scene, scale, material: values.material });
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  }
  return { text, out: values.out };
}

/**
 * The scene file of catalogue scene `scene` at `scale` (with `material`, its id
 * `<scene>-<material>`; see the module doc), as `deno task scene` writes it. Throws a `RangeError`
 * naming an unknown scene or material, or a scene that takes no material.
 */
export function sceneFileText(
  options: { scene: string; scale: Scale; material?: string },
): string {
  const { material } = options;
  let scene = getScene(options.scene, { scale: options.scale, material });
  if (material !== undefined) scene = { ...scene, id: `${scene.id}-${material}` };
  return sceneToJson(scene) + "\n";
}

/** Runs `deno task scene`; returns the exit status (2 for a usage error). */
export function main(args: readonly string[]): number {
  try {
    const { text, out } = exportScene(args);
    if (out === undefined) console.log(text.trimEnd());
    else {
      writeFileAtomic(out, text);
      console.error(`wrote ${out}`);
    }
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(e.message);
      return 2;
    }
    throw e;
  }
}

if (import.meta.main) Deno.exit(main(Deno.args));
