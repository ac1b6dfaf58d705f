/**
 * `deno task web`: builds the browser bench into a static folder (default `web/dist/`) that works
 * offline and from any static host: `app.js` (the engine, scenes, handlers, bench protocol and
 * report bundled from the same sources as the Deno bench by `deno bundle`), `index.html`,
 * `style.css`, `libraries.json` (chart.js and three.js for the report, from node_modules) and
 * `build.json` (the commit built). `--serve` then serves the folder (`--port`, default 8000).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { gitState } from "../bench/environment.ts";
import { vendorLibraries } from "../reports/page/vendor_libraries.ts";
import type { BuildInfo } from "./browser_environment.ts";
import { serveFolder } from "./serve_folder.ts";

const HERE = new URL("./", import.meta.url);

/** Usage of `deno task web`. */
export const WEB_USAGE = `deno task web [--out DIR] [--serve] [--port N]

Builds the browser bench into DIR (default web/dist): open DIR/index.html from any static host.
  --serve      serve DIR at http://127.0.0.1:PORT/ after building
  --port N     the port of --serve (default 8000)`;

/**
 * Builds the page into `out` (created; files of an earlier build replaced). Throws with
 * `deno bundle`'s output when bundling fails.
 */
export async function buildPage(out: string): Promise<BuildInfo> {
  await Deno.mkdir(out, { recursive: true });
  const bundle = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--platform",
      "browser",
      "--config",
      new URL("../deno.json", import.meta.url).pathname,
      "--output",
      `${out}/app.js`,
      new URL("./app.ts", HERE).pathname,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!bundle.success) {
    const text = new TextDecoder().decode(bundle.stderr) + new TextDecoder().decode(bundle.stdout);
    throw new Error(`deno bundle failed (exit ${bundle.code}):\n${text.slice(-4000)}`);
  }
  for (const file of ["index.html", "style.css"]) {
    await Deno.copyFile(new URL(file, HERE), `${out}/${file}`);
  }
  await Deno.writeTextFile(`${out}/libraries.json`, JSON.stringify(vendorLibraries()));
  const build: BuildInfo = { ...gitState(), builtAt: new Date().toISOString() };
  await Deno.writeTextFile(`${out}/build.json`, JSON.stringify(build));
  return build;
}

/** A bad `deno task web` argument or state: exit status 2, one line. */
class WebUsageError extends Error {}

/**
 * Refuses an `--out` that cannot be the build's folder: empty (it would build into the current
 * folder's root, or `/`), or an existing file or other non-folder.
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
