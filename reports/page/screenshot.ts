/**
 * `deno task screenshot <report.html> [options]`: saves PNG screenshots of a report's sections in
 * headless Chromium (`reports/page/chromium.ts`), e.g. the 3D view of one scene at its last frame for a
 * paper or a README. `--help` lists the options. Exit status: 0 done, 1 Chromium failed, 2 bad
 * arguments (or no Chromium).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { dirname, join, resolve } from "node:path";
import { CHROMIUM_CANDIDATES, findChromium, runChromium } from "./chromium.ts";
import { writeFileAtomic } from "../../core/io/write_file_atomic.ts";

/** The usage text. */
export const SCREENSHOT_USAGE = `usage: deno task screenshot <report.html> [options]

Saves a PNG of the report's sections in headless Chromium.

  --only <ids>        sections to show (comma list of section ids; default viewer-section)
  --case <scene>      the 3D view opens this scene's first case (default: the first case)
  --frame <n|last>    ...at this snapshot frame (default: the middle one)
  --size <w,h>        window size in pixels (default 1400,1000)
  --out <file.png>    output file (default: <scene or sections>.png beside the report)
  -h, --help          this text

Exit status: 0 done, 1 Chromium failed, 2 bad arguments or no Chromium.`;

/** What a screenshot shows. */
export interface ScreenshotOptions {
  only?: readonly string[];
  case?: string;
  frame?: number | "last";
  size?: readonly [number, number];
}

/** The page address (hash included) of `report` for `options`. */
export function screenshotUrl(report: string, options: ScreenshotOptions = {}): string {
  const parts = [`only=${(options.only ?? ["viewer-section"]).join(",")}`];
  if (options.case) parts.push(`case=${options.case}`);
  if (options.frame !== undefined) parts.push(`frame=${options.frame}`);
  return `file://${resolve(report)}#${parts.join("&")}`;
}

/**
 * Saves a screenshot of `report` to `out` (PNG), whole or not at all: Chromium writes it into its
 * temporary profile folder, and the file is then written over `out` through
 * `core/io/write_file_atomic.ts`, so a Chromium that fails or a full disk leaves an earlier `out`
 * as it was. Throws when Chromium is missing, fails or writes no file.
 */
export async function screenshot(
  report: string,
  out: string,
  options: ScreenshotOptions = {},
): Promise<void> {
  const chromium = findChromium();
  if (!chromium) {
    throw new Error(
      `no chromium at ${
        CHROMIUM_CANDIDATES.join(", ")
      }; install it (Debian: apt-get install -y chromium) or set CHROMIUM`,
    );
  }
  const profile = await Deno.makeTempDir({ prefix: "mergesplit-screenshot-" });
  try {
    const [w, h] = options.size ?? [1400, 1000];
    const shot = join(profile, "screenshot.png");
    await runChromium(chromium, [
      `--window-size=${w},${h}`,
      `--screenshot=${shot}`,
      screenshotUrl(report, options),
    ], { profile });
    writeFileAtomic(out, readShot(shot));
  } finally {
    await Deno.remove(profile, { recursive: true });
  }
}

/** The PNG Chromium wrote at `shot`; throws when it wrote none. */
function readShot(shot: string): Uint8Array {
  try {
    return Deno.readFileSync(shot);
  } catch {
    throw new Error(
      "chromium exited without writing the screenshot; try again, or check the report",
    );
  }
}

/** Runs the command line `args`; returns the exit status. */
export async function screenshotMain(args: readonly string[]): Promise<number> {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: {
        only: { type: "string" },
        case: { type: "string" },
        frame: { type: "string" },
        size: { type: "string" },
        out: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: true,
    }));
  } catch (e) {
    console.error(`mergesplit screenshot: ${(e as Error).message}\n${SCREENSHOT_USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(SCREENSHOT_USAGE);
    return 0;
  }
  const bad = (msg: string) => {
    console.error(`mergesplit screenshot: ${msg}`);
    return 2;
  };
  if (positionals.length !== 1) return bad("give exactly one report.html");
  const report = positionals[0];
  if (!/\.html?$/i.test(report)) {
    return bad(
      `${report}: name the report file .html (Chromium shows any other name as plain text); ` +
        `deno task report --out writes the file it is given`,
    );
  }
  try {
    Deno.statSync(report);
  } catch (e) {
    return bad(`cannot read ${report}: ${(e as Error).message}`);
  }
  let frame: number | "last" | undefined;
  if (values.frame !== undefined) {
    if (values.frame !== "last" && !/^\d+$/.test(values.frame)) {
      return bad(`--frame ${values.frame}: must be a frame index (0, 1, ...) or "last"`);
    }
    frame = values.frame === "last" ? "last" : Number(values.frame);
  }
  let size: [number, number] | undefined;
  if (values.size !== undefined) {
    const m = /^(\d+),(\d+)$/.exec(values.size);
    if (!m) return bad(`--size ${values.size}: must be <width>,<height> in pixels, e.g. 1400,1000`);
    size = [Number(m[1]), Number(m[2])];
  }
  const only = values.only?.split(",").filter((s) => s);
  const out = values.out ??
    join(dirname(report), `${values.case ?? (only ?? ["viewer-section"]).join("+")}.png`);
  if (findChromium() === null) {
    return bad(
      `no chromium at ${CHROMIUM_CANDIDATES.join(", ")} (Debian: apt-get install -y chromium)`,
    );
  }
  try {
    await screenshot(report, out, { only, case: values.case, frame, size });
  } catch (e) {
    console.error(`mergesplit screenshot: ${(e as Error).message}`);
    return 1;
  }
  console.log(out);
  return 0;
}

if (import.meta.main) Deno.exit(await screenshotMain(Deno.args));
