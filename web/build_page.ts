/**
 * `deno task web`: builds the browser bench into a static folder (default `web/dist/`) that works
 * offline and from any static host: `app.js` (the engine, scenes, handlers, bench protocol and
 * report bundled from the same sources as the Deno bench by `deno bundle`), `index.html`,
 * `style.css`, `libraries.json` (chart.js and three.js for the report, from node_modules) and
 * `build.json` (the commit built, and the mark of a folder a build made: a folder holding other
 * files and no `build.json` of ours is refused, exit 2, so a user's own page is never replaced).
 * Each file is written whole or not at all. `--serve` then serves the folder (`--port`, default
 * 8000).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { gitState } from "../bench/environment.ts";
import { vendorLibraries } from "../reports/page/vendor_libraries.ts";
import type { BuildInfo } from "./browser_environment.ts";
import { serveFolder } from "./serve_folder.ts";
import { tempPathFor, writeFileAtomic } from "../core/io/write_file_atomic.ts";

const HERE = new URL("./", import.meta.url);

/** Usage of `deno task web`. */
export const WEB_USAGE = `deno task web [--out DIR] [--serve] [--port N]

Builds the browser bench into DIR (default web/dist): open DIR/index.html from any static host.
  --serve      serve DIR at http://127.0.0.1:PORT/ after building
  --port N     the port of --serve (default 8000)`;

/**
 * Builds the page into `out` (created; files of an earlier build replaced, each whole or not at
 * all: the bundle goes to a temporary file first, so a failed `deno bundle` leaves the earlier
 * build as it was). Throws with `deno bundle`'s output when bundling fails. The caller checks that
 * `out` is a folder of an earlier build or holds nothing else ({@link checkOut}).
 */
export async function buildPage(out: string): Promise<BuildInfo> {
  await Deno.mkdir(out, { recursive: true });
  const bundled = tempPathFor(`${out}/app.js`);
  try {
    await bundleApp(bundled);
    const copies = ["index.html", "style.css"].map((f) => Deno.readFileSync(new URL(f, HERE)));
    const build: BuildInfo = { ...gitState(), builtAt: new Date().toISOString() };
    Deno.renameSync(bundled, `${out}/app.js`);
    writeFileAtomic(`${out}/index.html`, copies[0]);
    writeFileAtomic(`${out}/style.css`, copies[1]);
    writeFileAtomic(`${out}/libraries.json`, JSON.stringify(vendorLibraries()));
    writeFileAtomic(`${out}/build.json`, JSON.stringify(build));
    return build;
  } finally {
    await Deno.remove(bundled).catch(() => {});
  }
}

/** Bundles `app.ts` into the file `output` with `deno bundle`; throws with its output on failure. */
async function bundleApp(output: string): Promise<void> {
  const bundle = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--platform",
      "browser",
      "--config",
      new URL("../deno.json", import.meta.url).pathname,
      "--output",
      output,
      new URL("./app.ts", HERE).pathname,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!bundle.success) {
    const text = new TextDecoder().decode(bundle.stderr) + new TextDecoder().decode(bundle.stdout);
    throw new Error(`deno bundle failed (exit ${bundle.code}):\n${text.slice(-4000)}`);
  }
}

/** Whether `out/build.json` is a build record of ours (an object with `builtAt`). */
function builtByUs(out: string): boolean {
  try {
    const info = JSON.parse(Deno.readTextFileSync(`${out}/build.json`));
    return typeof info === "object" && info !== null && typeof info.builtAt === "string";
  } catch {
    return false;
  }
}

/** A bad `deno task web` argument or state: exit status 2, one line. */
class WebUsageError extends Error {}

/**
 * Refuses an `--out` that cannot be the build's folder: empty (it would build into the current
 * folder's root, or `/`), an existing file or other non-folder, or a folder holding files that no
 * build of ours made (no `build.json` of ours: the user's own page, or the sources in `web/`).
 */
export function checkOut(out: string): void {
  if (!out.trim()) {
    throw new WebUsageError("--out is empty; give the folder to build into, e.g. --out web/dist");
  }
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(out);
  } catch {
    return; // created by the build
  }
  if (!info.isDirectory) {
    throw new WebUsageError(`--out ${out} is a file, not a folder; give a folder to build into`);
  }
  const held = [...Deno.readDirSync(out)].map((e) => e.name).sort();
  if (held.length && !builtByUs(out)) {
    const named = held.slice(0, 5).join(", ") +
      (held.length > 5 ? ` and ${held.length - 5} more` : "");
    throw new WebUsageError(
      `--out ${out} holds files no build of mergesplit made (${named}; no build.json of ours); ` +
        "give an empty or new folder, or one an earlier build wrote",
    );
  }
}

/** Throws a {@link WebUsageError} when `port` cannot be listened on (in use, not allowed). */
export function checkPort(port: number): void {
  if (port === 0) return;
  try {
    Deno.listen({ port, hostname: "127.0.0.1" }).close();
  } catch (e) {
    const why = e instanceof Deno.errors.AddrInUse
      ? "is in use"
      : `cannot be used (${(e as Error).message})`;
    throw new WebUsageError(
      `--serve: port ${port} ${why}; give another with --port (0: any free one)`,
    );
  }
}

/** The arguments of `deno task web`, checked; throws a {@link WebUsageError}. */
function webArgs(args: readonly string[]) {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        out: { type: "string", default: new URL("./dist", HERE).pathname },
        serve: { type: "boolean", default: false },
        port: { type: "string", default: "8000" },
        help: { type: "boolean", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    const message = (e as Error).message.replace(/\s*\n\s*/g, " ");
    throw new WebUsageError(`${message}; run with --help for the options`);
  }
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || !Number.isInteger(port) || port > 65535) {
    throw new WebUsageError(`--port must be an integer in 0..65535, got ${values.port}`);
  }
  return { ...values, port };
}

/**
 * Runs `deno task web` with `args`; returns the exit status (2: a usage error, 1: the build or
 * the server failed). Every error is one line on stderr.
 */
export async function webMain(args: readonly string[]): Promise<number> {
  let values;
  try {
    values = webArgs(args);
    if (values.help) {
      console.log(WEB_USAGE);
      return 0;
    }
    checkOut(values.out);
    if (values.serve) checkPort(values.port);
  } catch (e) {
    if (!(e instanceof WebUsageError)) throw e;
    console.error(`mergesplit web: ${e.message}`);
    return 2;
  }
  try {
    const build = await buildPage(values.out);
    console.log(`built ${values.out} (commit ${build.commit ?? "unknown"})`);
    if (values.serve) {
      const out = values.out;
      const server = serveFolder(out, {
        port: values.port,
        onListen: (url) => console.log(`serving ${out} at ${url} (Ctrl-C to stop)`),
      });
      await server.finished;
    }
    return 0;
  } catch (e) {
    const lines = (e as Error).message.split("\n").map((l) => l.trim()).filter((l) => l);
    const tail = lines.length > 1 ? ` … ${lines.at(-1)}` : "";
    console.error(`mergesplit web: ${lines[0] ?? String(e)}${tail}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await webMain(Deno.args));
